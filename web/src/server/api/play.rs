//! The play-by-play API, for a table tablet: start a hand, record each action with the version
//! of the hand it was decided on, read the hand at any moment.
//!
//! - `POST /api/tables/{table}/play` `{"hand": "<table>-g1-h1", "dice": [3, 4], "deal": …}`
//!   starts the next hand: 201 with its version and state.
//! - `POST /api/hands/{hand}/events` `{"version": 7, "event": {"type": "tile_discarded",
//!   "data": {…}}, "seat": "south"}` records one event: 200 with the new version, how it
//!   applied (legal, or its irregularities with their rules) and what the recorder may see
//!   (`seat` for a seat's own tablet; otherwise the whole table). A stale version answers 409
//!   with the current version and state, so the tablet can decide again.
//! - `GET /api/hands/{hand}/play?at=N&seat=S` reads the hand after event N (the last by
//!   default). The public sees concealed tiles only once the hand is over.

use actix_web::{web, HttpRequest, HttpResponse};
use referee::event::HandEvent;
use referee::play::Onlooker;
use referee::Seat;
use serde::Deserialize;
use serde_json::json;

use super::responses::{irregular_at, IrregularJson, Moment, PlayJson};
use crate::app::commands::play::{self as cmd, PlayEvent, Played, StartHand};
use crate::app::queries::play::StoredPlay;
use crate::app::queries::visibility;
use crate::server::auth::Viewer;
use crate::server::error::{ApiError, AppError, ErrorKind};
use crate::server::state::AppState;

use super::writes::{body, writer};

type Reply = Result<HttpResponse, ApiError>;

/// The answer to a write: the new version, whether the event was legal, and the hand now.
fn answer(p: &Played, event: HandEvent, onlooker: Onlooker) -> serde_json::Value {
    let at = p.play.events() - 1;
    let state = PlayJson::new(
        Moment {
            hand: p.stream.id(),
            state: p.play.state(),
            at,
            last: at,
            version: p.version,
            event,
            irregular: irregular_at(at, &p.applied),
            refused: None,
        },
        onlooker,
    );
    // The event's own irregularities are in the state (`irregular`); `legal` says there were none.
    json!({
        "hand": p.stream.id(),
        "version": p.version,
        "legal": state.irregular.is_empty(),
        "retried": p.retried,
        "over": state.over,
        "state": state,
    })
}

/// The stored hand after event `at`, as `onlooker` may see it.
fn stored_at(p: &StoredPlay, at: Option<usize>, onlooker: Onlooker) -> Result<PlayJson, AppError> {
    let (at, replayed) = p.replayed_at(at)?;
    Ok(PlayJson::new(
        Moment {
            hand: &p.hand,
            state: replayed.replay.state(),
            at,
            last: p.events.len(),
            version: p.version,
            event: p.event(at),
            irregular: replayed
                .irregular
                .iter()
                .map(|(n, i)| IrregularJson::new(*n, i))
                .collect(),
            refused: replayed.refused.map(|e| e.to_string()),
        },
        onlooker,
    ))
}

/// Who looks: an official sees every hand, or one seat's when a tablet names its seat; the
/// public sees concealed tiles once the hand is over.
fn onlooker_for(viewer: &Viewer, seat: Option<Seat>) -> Onlooker {
    match (viewer.0.is_some(), seat) {
        (true, Some(s)) => Onlooker::Seat(s),
        (true, None) => Onlooker::Referee,
        (false, _) => Onlooker::Public,
    }
}

pub async fn start(
    state: web::Data<AppState>,
    viewer: Viewer,
    req: HttpRequest,
    path: web::Path<String>,
    bytes: web::Bytes,
) -> Reply {
    let o = writer(&viewer, &req)?;
    let command: StartHand = body(&bytes)?;
    let table = path.into_inner();
    let played = state
        .write_tables(move |l, t| cmd::start(l, t, &table, &o, &command))
        .await?;
    state.live.announce(&played);
    let value = answer(&played, played.event.clone(), Onlooker::Referee);
    Ok(HttpResponse::Created()
        .insert_header((
            "location",
            format!("/api/hands/{}/play", played.stream.id()),
        ))
        .json(value))
}

pub async fn record(
    state: web::Data<AppState>,
    viewer: Viewer,
    req: HttpRequest,
    path: web::Path<String>,
    bytes: web::Bytes,
) -> Reply {
    let o = writer(&viewer, &req)?;
    let command: PlayEvent = body(&bytes)?;
    let hand = path.into_inner();
    let onlooker = onlooker_for(&viewer, command.seat);
    let id = hand.clone();
    match state
        .write_tables(move |l, t| cmd::record(l, t, &id, &o, &command))
        .await
    {
        Ok(played) => {
            state.live.announce(&played);
            Ok(HttpResponse::Ok().json(answer(&played, played.event.clone(), onlooker)))
        }
        Err(e) if e.kind == ErrorKind::Conflict => {
            // The current state, so the recorder can decide again without another request.
            let current = state
                .read(move |l| match StoredPlay::load(l, &hand)? {
                    Some(p) => stored_at(&p, None, onlooker).map(Some),
                    None => Ok(None),
                })
                .await?;
            Ok(HttpResponse::Conflict().json(json!({
                "error": { "kind": e.kind.name(), "message": e.message },
                "version": current.as_ref().map(|c| c.version),
                "state": current,
            })))
        }
        Err(e) => Err(e.into()),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AtQuery {
    pub at: Option<usize>,
    pub seat: Option<Seat>,
}

pub async fn read(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
    query: web::Query<AtQuery>,
) -> Reply {
    let hand = path.into_inner();
    let onlooker = onlooker_for(&viewer, query.seat);
    let at = query.at;
    let audience = crate::app::queries::Audience::of(&viewer);
    let view = state
        .read(move |l| {
            // As the hand page: a voided hand, or one whose session is in play, is not the
            // public's to see.
            let hidden = visibility::hand_hidden(l, &hand)?;
            visibility::require_visible(audience, hidden, || format!("no hand `{hand}`"))?;
            match StoredPlay::load(l, &hand)? {
                Some(p) => stored_at(&p, at, onlooker),
                None => Err(AppError::not_found(format!(
                    "hand `{hand}` was recorded at its end, not play by play"
                ))),
            }
        })
        .await?;
    Ok(HttpResponse::Ok().json(view))
}
