//! The replay viewer: a hand recorded play by play, one moment per address
//! (`/hands/{hand}/at/{n}`), stepped through with plain links (and the arrow keys where
//! JavaScript runs). Officials see every concealed hand; everyone sees them once the hand is
//! over.

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;

use super::render;
use crate::app::queries::play::{PlayView, Shown, StoredPlay};
use crate::app::queries::{visibility, Audience};
use crate::server::auth::Viewer;
use crate::server::error::{AppError, HtmlError};
use crate::server::nav::Nav;
use crate::server::state::AppState;

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
}

pub async fn page(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, HtmlError> {
    let (hand, at) = path.into_inner();
    let missing = || AppError::not_found(format!("no moment `{at}` in hand `{hand}`"));
    // `now`: the latest moment, what a follower of a hand in play wants.
    let at: usize = match at.as_str() {
        "now" => usize::MAX,
        n => n.parse().map_err(|_| missing())?,
    };
    let audience = Audience::of(&viewer);
    let id = hand.clone();
    let hidden = state.read(move |l| visibility::hand_hidden(l, &id)).await?;
    visibility::require_visible(audience, hidden, || format!("no hand `{hand}`"))?;
    let shown = match audience {
        Audience::Officials => Shown::All,
        Audience::Public => Shown::Public,
    };
    let id = hand.clone();
    let (v, events) = state
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
            Ok((stored.at(Some(at), shown)?, events))
        })
        .await?;
    let at = v.at;
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
        },
    )?)
}
