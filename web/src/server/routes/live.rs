//! `GET /hands/{hand}/live`: a hand followed live, as Server-Sent Events (`text/event-stream`).
//!
//! The stream opens with the hand as it stands (`event: play`, its version and last entry),
//! then one event per recorded action, and a comment every fifteen seconds so that proxies keep
//! it open; for a hand whose result is recorded, the one event and the end. The events carry no tile ([`crate::server::live`]): the page that follows reads the
//! hand again as its reader may see it. Who may follow a hand is who may see it: a voided hand,
//! or one whose session is in play, is not the public's.

use std::time::Duration;

use actix_web::web::Bytes;
use actix_web::{web, HttpResponse};
use futures_util::stream;
use tokio::sync::broadcast::error::RecvError;

use crate::app::queries::play::StoredPlay;
use crate::app::queries::{visibility, Audience};
use crate::server::auth::Viewer;
use crate::server::error::{AppError, HtmlError};
use crate::server::live::Moved;
use crate::server::state::AppState;

/// How often an idle stream says it is still there.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

pub async fn follow(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
) -> Result<HttpResponse, HtmlError> {
    let hand = path.into_inner();
    let audience = Audience::of(&viewer);
    let id = hand.clone();
    let now = state
        .read(move |l| {
            let hidden = visibility::hand_hidden(l, &id)?;
            visibility::require_visible(audience, hidden, || format!("no hand `{id}`"))?;
            let stored = StoredPlay::load(l, &id)?.ok_or_else(|| {
                AppError::not_found(format!(
                    "hand `{id}` was recorded at its end, not play by play: there is nothing to follow"
                ))
            })?;
            Ok((
                Moved {
                    version: stored.version,
                    at: stored.events.len(),
                },
                stored.settled,
            ))
        })
        .await?;
    let (now, settled) = now;
    if settled {
        // Over: where it ended, and nothing more to follow.
        return Ok(HttpResponse::Ok()
            .content_type("text/event-stream")
            .insert_header(("cache-control", "no-store"))
            .body(now.as_event()));
    }
    let rx = state
        .live
        .follow(&hand)
        .ok_or_else(|| AppError::internal("the live channels' lock was poisoned"))?;
    let first = stream::once(async move { Ok::<_, actix_web::Error>(Bytes::from(now.as_event())) });
    let rest = stream::unfold(rx, |mut rx| async move {
        loop {
            match tokio::time::timeout(KEEP_ALIVE, rx.recv()).await {
                Ok(Ok(moved)) => {
                    return Some((Ok(Bytes::from(moved.as_event())), rx));
                }
                // Behind a burst: the next announcement is the latest that matters.
                Ok(Err(RecvError::Lagged(_))) => continue,
                Ok(Err(RecvError::Closed)) => return None,
                Err(_) => return Some((Ok(Bytes::from_static(b": still here\n\n")), rx)),
            }
        }
    });
    Ok(crate::server::sse::respond(
        &state,
        futures_util::StreamExt::chain(first, rest),
    ))
}
