//! The replay viewer: a hand recorded play by play, one moment per address
//! (`/hands/{hand}/at/{n}`), stepped through with plain links (and the arrow keys where
//! JavaScript runs). Officials see every concealed hand; everyone sees them once the hand is
//! over. A player following on his own phone opens his seat's view (`?seat=east&key=…`, the
//! link the scorer's page hands him, the key the ledger's signature over the hand and the seat):
//! his own tiles and what is on the table, as he sees them at the table (Code §27). An official
//! may open any seat's view without a key.

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;

use super::render;
use crate::app::queries::play::{PlayView, Shown, StoredPlay};
use crate::app::queries::{seat_title, visibility, Audience};
use crate::server::auth::Viewer;
use crate::server::error::{AppError, HtmlError};
use crate::server::nav::Nav;
use crate::server::state::AppState;
use referee::Seat;

/// One event in the list of the hand's events.
struct EventLink {
    n: usize,
    text: String,
}

#[derive(Template)]
#[template(path = "replay.html")]
struct Page {
    nav: Nav,
    v: PlayView,
    events: Vec<EventLink>,
    prev: Option<usize>,
    next: Option<usize>,
    officials: bool,
    /// The seat whose view this is.
    seat_view: Option<&'static str>,
    /// The query that opens it again (empty for the whole view).
    seat_query: String,
    /// The page follows the hand live: it is at the latest moment of a hand still in play.
    live: bool,
}

/// A seat's own view: the seat and the key the scorer's page gave its player.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatView {
    seat: Option<Seat>,
    key: Option<String>,
}

/// The query that opens `seat`'s own view of `hand` (`?seat=east&key=…`).
pub fn seat_view_query(key: &ledger::signing::LedgerKey, hand: &str, seat: Seat) -> String {
    format!(
        "?seat={}&key={}",
        seat.name(),
        key.seat_view_key(hand, seat.name())
    )
}

pub async fn page(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<(String, String)>,
    query: web::Query<SeatView>,
) -> Result<HttpResponse, HtmlError> {
    let (hand, at) = path.into_inner();
    let missing = || AppError::not_found(format!("no moment `{at}` in hand `{hand}`"));
    // `now`: the latest moment, what a follower of a hand in play wants.
    let at: usize = match at.as_str() {
        "now" => usize::MAX,
        n => n.parse().map_err(|_| missing())?,
    };
    let audience = Audience::of(&viewer);
    // A seat's key opens its player's view even where the public sees nothing (a table of a
    // session in play): he sits at that table.
    let keyed = query.seat.is_some_and(|seat| {
        let key = query.key.as_deref().unwrap_or_default();
        state.ledger_key().opens_seat_view(&hand, seat.name(), key)
    });
    if !keyed {
        let id = hand.clone();
        let hidden = state.read(move |l| visibility::hand_hidden(l, &id)).await?;
        visibility::require_visible(audience, hidden, || format!("no hand `{hand}`"))?;
    }
    let shown = match (audience, query.seat) {
        (Audience::Officials, Some(seat)) => Shown::Seat(seat),
        (Audience::Officials, None) => Shown::All,
        (Audience::Public, Some(seat)) => {
            if !keyed {
                return Err(AppError::forbidden(format!(
                    "that is not the key to {seat}'s view of hand `{hand}`: ask the scorer for the seat's link"
                ))
                .into());
            }
            Shown::Seat(seat)
        }
        (Audience::Public, None) => Shown::Public,
    };
    let seat_view = query.seat.map(seat_title);
    let seat_query = query
        .seat
        .map(|seat| seat_view_query(&state.ledger_key(), &hand, seat))
        .unwrap_or_default();
    let id = hand.clone();
    let (v, events, in_play) = state
        .read(move |l| {
            let stored = StoredPlay::load(l, &id)?.ok_or_else(|| {
                AppError::not_found(format!(
                    "hand `{id}` was recorded at its end, not play by play: there is no play to replay"
                ))
            })?;
            let at = if at == usize::MAX {
                stored.events.len()
            } else {
                at
            };
            if at > stored.events.len() {
                return Err(AppError::not_found(format!(
                    "hand `{id}` has {} events: there is no moment {at}",
                    stored.events.len()
                )));
            }
            let events = stored
                .described_for(shown)
                .into_iter()
                .enumerate()
                .map(|(n, text)| EventLink { n, text })
                .collect();
            Ok((stored.at(Some(at), shown)?, events, !stored.settled))
        })
        .await?;
    let at = v.at;
    let live = in_play && at == v.last;
    let prev = at.checked_sub(1);
    let next = (at < v.last).then_some(at + 1);
    Ok(render(
        StatusCode::OK,
        &Page {
            nav: Nav::for_viewer(&viewer),
            v,
            events,
            prev,
            next,
            officials: audience == Audience::Officials,
            live,
            seat_view,
            seat_query,
        },
    )?)
}
