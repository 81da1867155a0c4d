//! The JSON API: every read and write the pages offer, for table tablets and other programs.
//! Reads are public; writes need `Authorization: Bearer <token>` (or a session cookie with the
//! `X-CSRF-Token` header). Errors are `{"error": {"kind", "message"}}` with 400, 401, 403, 404,
//! 409 or 422 — and so is every other error answer under `/api` (a body too large, a route or
//! a method that does not exist), which [`json_errors`] words as JSON. The README documents
//! each route with a curl example.

mod books;
mod checkpoints;
mod disputes;
mod officials;
mod play;
mod reads;
pub mod responses;
mod sessions;
mod undo;
mod writes;

use actix_web::body::MessageBody;
use actix_web::dev::ServiceResponse;
use actix_web::http::header::CONTENT_TYPE;
use actix_web::middleware::{ErrorHandlerResponse, ErrorHandlers};
use actix_web::{web, HttpResponse};

/// The largest request body the API reads (actix's default for a body read whole).
pub const MAX_BODY: usize = 256 * 1024;

/// An error answer that is not JSON yet (one actix makes itself: a body too large, no such
/// route, a method the route does not take) worded as the API's errors are.
fn json_errors<B: MessageBody + 'static>(
    res: ServiceResponse<B>,
) -> actix_web::Result<ErrorHandlerResponse<B>> {
    let is_json = res
        .headers()
        .get(CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if is_json {
        return Ok(ErrorHandlerResponse::Response(res.map_into_left_body()));
    }
    let status = res.status();
    let (kind, message) = match status.as_u16() {
        413 => (
            "payload_too_large",
            format!("the request body is too large: the API reads at most {MAX_BODY} bytes"),
        ),
        404 => ("not_found", "there is no such API route".to_owned()),
        405 => (
            "method_not_allowed",
            "this API route does not take that method".to_owned(),
        ),
        s if s >= 500 => ("internal", "internal error".to_owned()),
        _ => (
            "bad_request",
            status
                .canonical_reason()
                .unwrap_or("the request was refused")
                .to_lowercase(),
        ),
    };
    let (req, old) = res.into_parts();
    let mut answer = HttpResponse::build(status)
        .json(serde_json::json!({"error": {"kind": kind, "message": message}}));
    for (name, value) in old.headers() {
        if name != CONTENT_TYPE && name != actix_web::http::header::CONTENT_LENGTH {
            answer.headers_mut().insert(name.clone(), value.clone());
        }
    }
    Ok(ErrorHandlerResponse::Response(
        ServiceResponse::new(req, answer).map_into_right_body(),
    ))
}

/// Registers every API route under `/api`.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::scope("/api")
            .wrap(ErrorHandlers::new().default_handler(json_errors))
            .app_data(web::PayloadConfig::new(MAX_BODY))
            .route("/rulesets", web::get().to(reads::rulesets))
            .route("/check", web::get().to(reads::check))
            .route("/tournaments", web::get().to(reads::tournaments))
            .route("/tournaments", web::post().to(writes::create_tournament))
            .route("/tournaments/{id}", web::get().to(reads::tournament))
            .route(
                "/tournaments/{id}/players",
                web::post().to(writes::register_player),
            )
            .route(
                "/tournaments/{id}/tables",
                web::post().to(writes::form_table),
            )
            .route(
                "/tournaments/{id}/players/bulk",
                web::post().to(sessions::register_bulk),
            )
            .route(
                "/tournaments/{id}/players/{player}/withdraw",
                web::post().to(sessions::withdraw),
            )
            .route("/tournaments/{id}/sessions", web::get().to(sessions::list))
            .route("/tournaments/{id}/sessions", web::post().to(sessions::open))
            .route(
                "/tournaments/{id}/sessions/{n}",
                web::get().to(sessions::read),
            )
            .route(
                "/tournaments/{id}/sessions/{n}/close",
                web::post().to(sessions::close),
            )
            .route(
                "/tournaments/{id}/sessions/{n}/reopen",
                web::post().to(undo::reopen_session),
            )
            .route(
                "/tournaments/{id}/unvoid",
                web::post().to(undo::unvoid_tournament),
            )
            .route(
                "/tournaments/{id}/players/{player}/unvoid",
                web::post().to(undo::unvoid_player),
            )
            .route("/tables/{table}/reopen", web::post().to(undo::reopen_table))
            .route("/tables/{table}/unvoid", web::post().to(undo::unvoid_table))
            .route(
                "/tournaments/{id}/standings",
                web::get().to(reads::standings),
            )
            .route(
                "/tournaments/{id}/players/{player}",
                web::get().to(reads::player),
            )
            .route("/tournaments/{id}/books", web::get().to(books::books))
            .route(
                "/tournaments/{id}/void",
                web::post().to(writes::void_tournament),
            )
            .route(
                "/tournaments/{id}/players/{player}/void",
                web::post().to(writes::void_player),
            )
            .route("/tables/{table}", web::get().to(reads::table))
            .route("/tables/{table}/void", web::post().to(writes::void_table))
            .route("/tables/{table}/close", web::post().to(writes::close_table))
            .route("/tables/{table}/hands", web::post().to(writes::record_hand))
            .route("/tables/{table}/play", web::post().to(play::start))
            .route("/hands/{hand}/events", web::post().to(play::record))
            .route("/hands/{hand}/play", web::get().to(play::read))
            .route("/hands/{hand}", web::get().to(reads::hand))
            .route(
                "/hands/{hand}/corrections",
                web::post().to(writes::correct_hand),
            )
            .route("/hands/{hand}/findings", web::get().to(disputes::findings))
            .route("/hands/{hand}/counts", web::post().to(disputes::count))
            .route("/hands/{hand}/disputes", web::post().to(disputes::raise))
            .route("/hands/{hand}/disputes/{id}", web::get().to(disputes::read))
            .route(
                "/hands/{hand}/disputes/{id}/rulings",
                web::post().to(disputes::rule),
            )
            .route(
                "/hands/{hand}/rulings/{id}/appeal",
                web::post().to(disputes::appeal),
            )
            .route("/officials", web::post().to(writes::create_official))
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
            .route("/account/password", web::post().to(officials::own_password))
            .route("/audit", web::get().to(reads::audit))
            .route("/checkpoints", web::get().to(checkpoints::list_json))
            .route("/checkpoints", web::post().to(checkpoints::sign_json))
            .route("/checkpoints/{n}", web::get().to(checkpoints::one))
            .default_service(web::to(reads::not_found)),
    );
}
