//! The pages: server-rendered HTML, readable without JavaScript. One file per page family.
//! Page handlers return [`HtmlError`](super::error::HtmlError) so any failure is an error page.

pub mod account;
pub mod assets;
pub mod audit;
pub mod books;
pub mod bulk;
pub mod check;
pub mod checkpoints;
pub mod confirm;
pub mod counts;
pub mod dashboard;
pub mod disputes;
pub mod hand_form;
pub mod hands;
pub mod home;
pub mod live;
pub mod officials;
pub mod problems;
pub mod replay;
pub mod scorer;
pub mod sessions;
pub mod sheets;
pub mod spreadsheet;
pub mod standings;
pub mod tables;
pub mod tournaments;
pub mod undo;
pub mod voiding;

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;

use super::error::AppError;

/// Renders a template as an HTML response.
pub fn render(status: StatusCode, page: &impl Template) -> Result<HttpResponse, AppError> {
    let body = page.render()?;
    Ok(HttpResponse::build(status)
        .content_type("text/html; charset=utf-8")
        .insert_header(("cache-control", "no-store"))
        .body(body))
}

/// 303 See Other: where a successful form post goes.
pub fn see_other(location: &str) -> HttpResponse {
    HttpResponse::SeeOther()
        .insert_header(("location", location))
        .finish()
}

/// Registers every page.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/", web::get().to(home::index))
        .route("/static/style.css", web::get().to(home::style))
        .route(
            "/static/tiles/{version}/{name}.svg",
            web::get().to(assets::tile),
        )
        .route("/static/picker.js", web::get().to(assets::picker))
        .route("/static/clock.js", web::get().to(assets::clock))
        .route("/static/dashboard.js", web::get().to(assets::dashboard))
        .route("/static/icon.svg", web::get().to(assets::icon))
        .route("/favicon.ico", web::get().to(assets::icon))
        .route("/static/replay.js", web::get().to(assets::replay))
        .route("/static/scorer.js", web::get().to(assets::scorer))
        .route("/static/live.js", web::get().to(assets::live))
        .route("/check", web::get().to(check::page))
        .route("/demo", web::post().to(home::demo))
        .route("/audit", web::get().to(audit::page))
        .route("/audit/checkpoints", web::post().to(checkpoints::sign_form))
        .route("/login", web::get().to(account::login_page))
        .route("/login", web::post().to(account::login))
        .route("/logout", web::post().to(account::logout))
        .route("/account", web::get().to(account::page))
        .route("/account/tokens", web::post().to(account::create_token))
        .route(
            "/account/tokens/{id}/revoke",
            web::post().to(account::revoke_token),
        )
        .route("/officials", web::get().to(account::officials_page))
        .route("/officials", web::post().to(account::create_official))
        .route("/officials/{id}/role", web::post().to(officials::role))
        .route(
            "/officials/{id}/disable",
            web::post().to(officials::disable),
        )
        .route("/officials/{id}/enable", web::post().to(officials::enable))
        .route(
            "/officials/{id}/password",
            web::post().to(officials::password),
        )
        .route(
            "/account/password",
            web::post().to(account::change_password),
        )
        .route("/tournaments/new", web::get().to(tournaments::new_page))
        .route("/tournaments", web::post().to(tournaments::create))
        .route("/t/{id}", web::get().to(tournaments::page))
        .route(
            "/t/{id}/players",
            web::post().to(tournaments::register_player),
        )
        .route("/t/{id}/tables", web::post().to(tournaments::form_table))
        .route("/t/{id}/sessions", web::get().to(sessions::page))
        .route("/t/{id}/seating", web::get().to(sessions::plan))
        .route("/t/{id}/sessions", web::post().to(sessions::open))
        .route("/t/{id}/sessions/{n}", web::get().to(sessions::session))
        .route(
            "/t/{id}/sessions/{n}/close",
            web::post().to(sessions::close),
        )
        .route("/t/{id}/players/bulk", web::post().to(bulk::register_bulk))
        .route(
            "/t/{id}/players/{player}/withdraw",
            web::post().to(sessions::withdraw),
        )
        .route("/t/{id}/void", web::post().to(voiding::void_tournament))
        .route("/t/{id}/unvoid", web::post().to(undo::unvoid_tournament))
        .route(
            "/t/{id}/players/{player}/unvoid",
            web::post().to(undo::unvoid_player),
        )
        .route("/t/{id}/sessions/{n}/live", web::get().to(dashboard::page))
        .route(
            "/t/{id}/sessions/{n}/live/events",
            web::get().to(dashboard::events),
        )
        .route(
            "/t/{id}/sessions/{n}/night",
            web::get().to(dashboard::night),
        )
        .route("/t/{id}/sessions/{n}/cards", web::get().to(sessions::cards))
        .route(
            "/t/{id}/sessions/{n}/reopen",
            web::post().to(undo::reopen_session),
        )
        .route("/tables/{table}/reopen", web::post().to(undo::reopen_table))
        .route("/tables/{table}/unvoid", web::post().to(undo::unvoid_table))
        .route(
            "/t/{id}/players/{player}/void",
            web::post().to(voiding::void_player),
        )
        .route("/t/{id}/standings", web::get().to(standings::standings))
        .route(
            "/t/{id}/standings.csv",
            web::get().to(standings::standings_csv),
        )
        .route(
            "/t/{id}/players/{player}",
            web::get().to(tournaments::player),
        )
        .route("/t/{id}/books", web::get().to(books::page))
        .route("/t/{id}/hands.csv", web::get().to(books::hands_csv))
        .route(
            "/t/{id}/settlements.csv",
            web::get().to(books::settlements_csv),
        )
        .route("/t/{id}/sheets", web::get().to(sheets::tournament))
        .route(
            "/t/{id}/players/{player}/chips.svg",
            web::get().to(books::chips_svg),
        )
        .route("/tables/{table}/sheet", web::get().to(sheets::table))
        .route("/tables/{table}", web::get().to(voiding::table_page))
        .route("/tables/{table}/void", web::post().to(voiding::void_table))
        .route(
            "/tables/{table}/broadcast",
            web::post().to(voiding::broadcast),
        )
        .route(
            "/tables/{table}/close",
            web::post().to(voiding::close_table),
        )
        .route("/tables/{table}/record", web::get().to(tables::record_page))
        .route("/tables/{table}/play", web::get().to(scorer::page))
        .route("/tables/{table}/play", web::post().to(scorer::record))
        .route("/tables/{table}/play/start", web::post().to(scorer::start))
        .route("/tables/{table}/play/end", web::get().to(scorer::end))
        .route(
            "/tables/{table}/play/strike",
            web::post().to(scorer::strike),
        )
        .route("/hands/{hand}/live", web::get().to(live::follow))
        .route("/tables/{table}/hands", web::post().to(tables::record))
        .route("/hands/{hand}", web::get().to(voiding::hand_page))
        .route("/hands/{hand}/at/{n}", web::get().to(replay::page))
        .route("/hands/{hand}/correct", web::get().to(hands::correct_page))
        .route("/hands/{hand}/corrections", web::post().to(hands::correct))
        .route(
            "/hands/{hand}/disputes/new",
            web::get().to(disputes::new_page),
        )
        .route("/hands/{hand}/counts", web::post().to(counts::record))
        .route("/hands/{hand}/disputes", web::post().to(disputes::raise))
        .route("/hands/{hand}/disputes/{id}", web::get().to(disputes::page))
        .route(
            "/hands/{hand}/disputes/{id}/rulings",
            web::post().to(disputes::rule),
        )
        .route(
            "/hands/{hand}/rulings/{id}/appeal",
            web::post().to(disputes::appeal),
        );
}
