//! The API of sessions, bulk registration and withdrawals: the same commands the pages run.

use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;
use serde_json::json;

use super::writes::{body, writer};
use crate::app::bulk;
use crate::app::commands::session::{self as cmd, OpenSession};
use crate::app::commands::tournament::{self as t_cmd, NewPlayer, Withdraw};
use crate::app::queries::sessions;
use crate::app::queries::Audience;
use crate::server::auth::Viewer;
use crate::server::error::{ApiError, AppError};
use crate::server::state::AppState;

type Reply = Result<HttpResponse, ApiError>;

/// `GET /api/tournaments/<id>/sessions`.
pub async fn list(state: web::Data<AppState>, viewer: Viewer, path: web::Path<String>) -> Reply {
    let id = path.into_inner();
    let audience = Audience::of(&viewer);
    let s = state
        .read(move |l| sessions::view(l, &id, audience))
        .await?;
    Ok(HttpResponse::Ok().json(s))
}

/// `GET /api/tournaments/<id>/sessions/<n>`: its tables, clock and balances.
pub async fn read(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<(String, u32)>,
) -> Reply {
    let (id, n) = path.into_inner();
    let audience = Audience::of(&viewer);
    let s = state
        .read(move |l| sessions::session(l, &id, n, audience))
        .await?;
    Ok(HttpResponse::Ok().json(s))
}

/// `POST /api/tournaments/<id>/sessions` with an `OpenSession`: 201 with the session's number.
pub async fn open(
    state: web::Data<AppState>,
    viewer: Viewer,
    req: HttpRequest,
    path: web::Path<String>,
    bytes: web::Bytes,
) -> Reply {
    let o = writer(&viewer, &req)?;
    let command: OpenSession = body(&bytes)?;
    let id = path.into_inner();
    let t = id.clone();
    let n = state.write(move |l| cmd::open(l, &t, &o, &command)).await?;
    Ok(HttpResponse::Created()
        .insert_header(("location", format!("/api/tournaments/{id}/sessions/{n}")))
        .json(json!({ "session": n })))
}

/// `POST /api/tournaments/<id>/sessions/<n>/close`.
pub async fn close(
    state: web::Data<AppState>,
    viewer: Viewer,
    req: HttpRequest,
    path: web::Path<(String, u32)>,
) -> Reply {
    let o = writer(&viewer, &req)?;
    let (id, n) = path.into_inner();
    let t = id.clone();
    let key = state.ledger_key();
    state
        .write(move |l| cmd::close(l, &t, n, &o, Some(&key)))
        .await?;
    Ok(HttpResponse::Ok()
        .insert_header(("location", format!("/api/tournaments/{id}/sessions/{n}")))
        .json(json!({ "session": n, "closed": true })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Players {
    players: Vec<NewPlayer>,
}

/// `POST /api/tournaments/<id>/players/bulk`: `{"players": [{"name": …}, …]}` as JSON, or a
/// list or CSV as `text/csv` / `text/plain` (see `app::bulk`). All or none are registered. A
/// name already registered (or listed twice) is refused unless confirmed as a different
/// person: `"different_person": true` on the player in JSON, `?different_people=yes` for a
/// list or CSV.
pub async fn register_bulk(
    state: web::Data<AppState>,
    viewer: Viewer,
    req: HttpRequest,
    path: web::Path<String>,
    bytes: web::Bytes,
) -> Reply {
    let o = writer(&viewer, &req)?;
    let content_type = req
        .headers()
        .get("content-type")
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    let (players, labels): (Vec<NewPlayer>, Vec<String>) = if content_type.starts_with("text/") {
        let text = std::str::from_utf8(&bytes).map_err(|e| {
            AppError::bad_request(format!(
                "the body is not UTF-8 text (byte {})",
                e.valid_up_to()
            ))
        })?;
        let source = if content_type.starts_with("text/csv") {
            bulk::Source::File
        } else {
            bulk::Source::Pasted
        };
        let parsed = bulk::parse(text, source).map_err(AppError::violations)?;
        let different = req
            .query_string()
            .split('&')
            .any(|kv| matches!(kv, "different_people=yes" | "different_people=true"));
        parsed
            .into_iter()
            .map(|(line, mut p)| {
                p.different_person = different;
                (p, format!("line {line}"))
            })
            .unzip()
    } else {
        let Players { players } = body(&bytes)?;
        if players.len() > bulk::MAX_PLAYERS {
            return Err(AppError::unprocessable(format!(
                "{} players in one request; at most {} at a time",
                players.len(),
                bulk::MAX_PLAYERS
            ))
            .into());
        }
        (players, Vec::new())
    };
    let id = path.into_inner();
    let t = id.clone();
    let ids = state
        .write(move |l| t_cmd::register_players(l, &t, &o, &players, &labels))
        .await?;
    let ids: Vec<&str> = ids.iter().map(|p| p.as_str()).collect();
    Ok(HttpResponse::Created()
        .insert_header(("location", format!("/api/tournaments/{id}")))
        .json(json!({ "registered": ids })))
}

/// `POST /api/tournaments/<id>/players/<player>/withdraw` with `{"reason": …}`.
pub async fn withdraw(
    state: web::Data<AppState>,
    viewer: Viewer,
    req: HttpRequest,
    path: web::Path<(String, String)>,
    bytes: web::Bytes,
) -> Reply {
    let o = writer(&viewer, &req)?;
    let command: Withdraw = body(&bytes)?;
    let (id, player) = path.into_inner();
    let (t, p) = (id.clone(), player.clone());
    state
        .write(move |l| t_cmd::withdraw_player(l, &t, &p, &o, &command))
        .await?;
    Ok(HttpResponse::Ok()
        .insert_header((
            "location",
            format!("/api/tournaments/{id}/players/{player}"),
        ))
        .json(json!({ "player": player, "withdrawn": true })))
}
