//! The treasurer's pages (issue 14): the books (`/t/{id}/books`), the exports beside the
//! standings' CSV (`hands.csv`, `settlements.csv`), and a player's chips as a chart
//! (`/t/{id}/players/{player}/chips.svg`). Every list of hands comes from
//! `app::queries::books::visible_hands`.

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;
use referee::Seat;

use super::render;
use super::spreadsheet::{text, Csv};
use crate::app::queries::books::{self, BooksView, Export};
use crate::app::queries::chips_chart::{self, ChipsChart};
use crate::app::queries::common::result_text;
use crate::app::queries::{seat_title, tournament, Audience};
use crate::server::auth::Viewer;
use crate::server::error::{AppError, HtmlError};
use crate::server::nav::Nav;
use crate::server::state::AppState;

#[derive(Template)]
#[template(path = "books.html")]
struct BooksPage {
    nav: Nav,
    b: BooksView,
}

/// `GET /t/{id}/books`: balances, chips, who has run out, and who pays whom.
#[tracing::instrument(skip(state, viewer))]
pub async fn page(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
    query: web::Query<crate::server::params::SessionQuery>,
) -> Result<HttpResponse, HtmlError> {
    let id = path.into_inner();
    let audience = Audience::of(&viewer);
    let session = query.session()?;
    let b = state
        .read(move |l| books::view(l, &id, audience, session))
        .await?;
    Ok(render(
        StatusCode::OK,
        &BooksPage {
            nav: Nav::for_viewer(&viewer),
            b,
        },
    )?)
}

async fn export(
    state: &web::Data<AppState>,
    viewer: &Viewer,
    id: String,
) -> Result<Export, AppError> {
    let audience = Audience::of(viewer);
    state.read(move |l| books::export(l, &id, audience)).await
}

/// The seats as drawn, for the exports' column names.
const SEATS: [&str; 4] = ["east", "south", "west", "north"];

/// `GET /t/{id}/hands.csv`: one row per hand the viewer may see, in the order the hands
/// started: where it was played (session, table number, game, hand, its id), the prevailing
/// wind, who was East, the result in words, the winner and the winning score, whether the
/// hand counts (has a settlement in force), its penalties and own counts in words, then for
/// each seat as drawn (East, South, West, North) its player and net. The nets of the hands
/// that count add up to the standings' nets.
#[tracing::instrument(skip(state, viewer))]
pub async fn hands_csv(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
) -> Result<HttpResponse, HtmlError> {
    let id = path.into_inner();
    let x = export(&state, &viewer, id.clone()).await?;
    let mut header = vec![
        "session",
        "table",
        "game",
        "hand",
        "hand_id",
        "prevailing_wind",
        "east",
        "result",
        "winner",
        "winning_score",
        "counted",
        "penalties",
    ];
    let seat_columns: Vec<String> = SEATS
        .iter()
        .flat_map(|s| [format!("{s}_seat_player"), format!("{s}_seat_net")])
        .collect();
    header.extend(seat_columns.iter().map(String::as_str));
    let mut out = Csv::new(&header)?;
    for r in &x.hands {
        let player = |seat: Seat| r.players.get(seat).clone().unwrap_or_default();
        let settled = r.result.settlement().map(|(_, s)| s);
        let nets = r.nets();
        let named = |seat: Seat| x.name(&player(seat)).to_owned();
        let penalties: Vec<String> = r
            .result
            .scored()
            .map(|s| {
                s.penalties
                    .iter()
                    .map(|p| format!("{}: {}", p.heading(), p.describe(&named)))
                    .collect()
            })
            .unwrap_or_default();
        let mut row = vec![
            x.session(&r.table),
            x.table_number(&r.table),
            r.game.to_string(),
            r.hand.to_string(),
            text(r.id()),
            seat_title(r.prevailing_wind).to_owned(),
            text(x.name(&player(r.east))),
            text(&result_text(r, &x.names)),
            text(
                &settled
                    .and_then(|s| s.winner)
                    .map(player)
                    .unwrap_or_default(),
            ),
            settled
                .and_then(|s| s.winner.map(|w| s.scores.get(w).to_string()))
                .unwrap_or_default(),
            settled.is_some().to_string(),
            text(&penalties.join("; ")),
        ];
        for seat in Seat::ALL {
            row.push(text(&player(seat)));
            row.push(nets.map_or(0, |n| *n.get(seat)).to_string());
        }
        out.row(&row)?;
    }
    Ok(out.response(&format!("{id}-hands.csv"))?)
}

/// `GET /t/{id}/settlements.csv`: **one row per player per hand that counts**, in the order the
/// hands started — each row one entry in that player's account: the hand, the player, the seat
/// they sat in, the hand's score for them, their net (what they won or paid), and their balance
/// and chips after it. One row per player per hand rather than one per payment because that is
/// the sheet a treasurer keeps: a column to sum per player (a pivot table or `SUMIF` gives the
/// balances on the books page), a running balance to check against a player's tray, and no
/// arithmetic to redo; the payments between the four at a table are on each hand's page, and
/// the transfers that settle the evening are on the books page.
#[tracing::instrument(skip(state, viewer))]
pub async fn settlements_csv(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
) -> Result<HttpResponse, HtmlError> {
    let id = path.into_inner();
    let x = export(&state, &viewer, id.clone()).await?;
    let mut out = Csv::new(&[
        "table", "game", "hand", "hand_id", "player", "name", "seat", "score", "net", "balance",
        "chips",
    ])?;
    let mut balances: std::collections::HashMap<&str, i64> = std::collections::HashMap::new();
    for r in &x.hands {
        let (Some((_, s)), Some(nets)) = (r.result.settlement(), r.nets()) else {
            continue;
        };
        for (seat, player) in r.players.iter() {
            let Some(player) = player else { continue };
            let net = *nets.get(seat);
            let balance = balances.entry(player.as_str()).or_default();
            *balance += net;
            out.row(&[
                x.table_number(&r.table),
                r.game.to_string(),
                r.hand.to_string(),
                text(r.id()),
                text(player),
                text(x.name(player)),
                seat_title(seat).to_owned(),
                s.scores.get(seat).to_string(),
                net.to_string(),
                balance.to_string(),
                (x.starting_chips + *balance).to_string(),
            ])?;
        }
    }
    Ok(out.response(&format!("{id}-settlements.csv"))?)
}

#[derive(Template)]
#[template(path = "chips.svg", escape = "html")]
struct ChipsSvg {
    chart: ChipsChart,
}

/// A player's chips hand by hand, drawn from the player's history.
pub async fn chart(
    state: &web::Data<AppState>,
    viewer: &Viewer,
    id: String,
    player: String,
    session: Option<u32>,
) -> Result<ChipsChart, AppError> {
    let audience = Audience::of(viewer);
    let (name, start, nets) = state
        .read(move |l| tournament::player_chips(l, &id, &player, audience, session))
        .await?;
    Ok(chips_chart::chart(&name, start, &nets))
}

/// `GET /t/{id}/players/{player}/chips.svg`: the chart alone, as an image.
#[tracing::instrument(skip(state, viewer))]
pub async fn chips_svg(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<(String, String)>,
    query: web::Query<crate::server::params::SessionQuery>,
) -> Result<HttpResponse, HtmlError> {
    let (id, player) = path.into_inner();
    let chart = chart(&state, &viewer, id, player, query.session()?).await?;
    let body = ChipsSvg { chart }.render().map_err(AppError::from)?;
    Ok(HttpResponse::Ok()
        .content_type("image/svg+xml")
        .insert_header(("cache-control", "no-store"))
        .body(body))
}
