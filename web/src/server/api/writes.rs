//! API writes: the same commands the forms run, from JSON bodies.

use actix_web::{web, HttpRequest, HttpResponse};
use ledger::Ledger;
use serde::Deserialize;
use serde_json::json;

use crate::app::commands::hand::{CorrectHand, RecordHand};
use crate::app::commands::tournament::{self as cmd, NewPlayer, NewTable, NewTournament};
use crate::app::commands::voiding::{self, CloseTable, Void};
use crate::server::auth::{Official, Viewer};
use crate::server::error::{ApiError, AppError};
use crate::server::state::AppState;
use crate::server::writes::correct_hand as correct;
use crate::server::writes::create_tournament as create;
use crate::server::writes::record_hand as record;
use crate::server::writes::{add_official, NewOfficial};

type Reply = Result<HttpResponse, ApiError>;

/// The official behind an API write. A bearer token needs nothing more; a browser session must
/// also send its CSRF token in `X-CSRF-Token`.
pub(super) fn writer(viewer: &Viewer, req: &HttpRequest) -> Result<Official, AppError> {
    let o = viewer.require()?;
    if o.csrf.is_some() {
        let sent = req
            .headers()
            .get("x-csrf-token")
            .and_then(|h| h.to_str().ok())
            .unwrap_or("");
        o.check_csrf(sent)?;
    }
    Ok(o.clone())
}

/// Reads a JSON body, answering a malformed one with a 400 that says what is wrong.
pub(super) fn body<T: for<'de> Deserialize<'de>>(bytes: &web::Bytes) -> Result<T, AppError> {
    serde_json::from_slice(bytes).map_err(|e| AppError::bad_request(format!("the JSON body: {e}")))
}

fn created(location: String, value: serde_json::Value) -> HttpResponse {
    HttpResponse::Created()
        .insert_header(("location", location))
        .json(value)
}

pub async fn create_tournament(
    state: web::Data<AppState>,
    viewer: Viewer,
    req: HttpRequest,
    bytes: web::Bytes,
) -> Reply {
    let o = writer(&viewer, &req)?;
    let command: NewTournament = body(&bytes)?;
    let id = create(&state, &o, command).await?;
    Ok(created(
        format!("/api/tournaments/{id}"),
        json!({ "id": id }),
    ))
}

pub async fn register_player(
    state: web::Data<AppState>,
    viewer: Viewer,
    req: HttpRequest,
    path: web::Path<String>,
    bytes: web::Bytes,
) -> Reply {
    let o = writer(&viewer, &req)?;
    let command: NewPlayer = body(&bytes)?;
    let t = path.into_inner();
    let id = t.clone();
    let player = state
        .write(move |l| cmd::register_player(l, &id, &o, &command))
        .await?;
    Ok(created(
        format!("/api/tournaments/{t}/players/{player}"),
        json!({ "id": player.as_str() }),
    ))
}

pub async fn form_table(
    state: web::Data<AppState>,
    viewer: Viewer,
    req: HttpRequest,
    path: web::Path<String>,
    bytes: web::Bytes,
) -> Reply {
    let o = writer(&viewer, &req)?;
    let command: NewTable = body(&bytes)?;
    let t = path.into_inner();
    let table = state
        .write(move |l| cmd::form_table(l, &t, &o, &command))
        .await?;
    Ok(created(
        format!("/api/tables/{table}"),
        json!({ "id": table.as_str() }),
    ))
}

pub async fn record_hand(
    state: web::Data<AppState>,
    viewer: Viewer,
    req: HttpRequest,
    path: web::Path<String>,
    bytes: web::Bytes,
) -> Reply {
    let o = writer(&viewer, &req)?;
    let command: RecordHand = body(&bytes)?;
    let hand = record(&state, &o, path.into_inner(), command).await?;
    Ok(created(format!("/api/hands/{hand}"), json!({ "id": hand })))
}

pub async fn correct_hand(
    state: web::Data<AppState>,
    viewer: Viewer,
    req: HttpRequest,
    path: web::Path<String>,
    bytes: web::Bytes,
) -> Reply {
    let o = writer(&viewer, &req)?;
    let command: CorrectHand = body(&bytes)?;
    match correct(&state, &o, path.into_inner(), command).await? {
        (hand, Some(p)) => Ok(HttpResponse::Ok().json(json!({
            "id": hand,
            "preview": true,
            "before": { "payments": p.before.payments, "nets": p.before.nets },
            "after": { "payments": p.after.payments, "nets": p.after.nets },
        }))),
        (hand, None) => Ok(created(format!("/api/hands/{hand}"), json!({ "id": hand }))),
    }
}

pub async fn create_official(
    state: web::Data<AppState>,
    viewer: Viewer,
    req: HttpRequest,
    bytes: web::Bytes,
) -> Reply {
    let o = writer(&viewer, &req)?;
    let command: NewOfficial = body(&bytes)?;
    let listing = add_official(&state, &o, command).await?;
    Ok(created(
        "/officials".to_owned(),
        serde_json::to_value(listing).map_err(AppError::internal)?,
    ))
}

/// 200 with what was voided or closed (nothing new is created: it is a fact about a thing).
fn done(location: String, value: serde_json::Value) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header(("location", location))
        .json(value)
}

/// Voids what `void` names with the body's reason, and answers 200 at `location`.
async fn void_with(
    state: &web::Data<AppState>,
    viewer: &Viewer,
    req: &HttpRequest,
    bytes: &web::Bytes,
    location: String,
    id: String,
    void: impl FnOnce(&mut Ledger, &Official, &Void) -> Result<(), AppError> + Send + 'static,
) -> Reply {
    let o = writer(viewer, req)?;
    let command: Void = body(bytes)?;
    state.write(move |l| void(l, &o, &command)).await?;
    Ok(done(location, json!({ "id": id, "voided": true })))
}

pub async fn void_tournament(
    state: web::Data<AppState>,
    viewer: Viewer,
    req: HttpRequest,
    path: web::Path<String>,
    bytes: web::Bytes,
) -> Reply {
    let t = path.into_inner();
    let (location, id) = (format!("/api/tournaments/{t}"), t.clone());
    let void = move |l: &mut Ledger, o: &Official, c: &Void| voiding::void_tournament(l, &t, o, c);
    void_with(&state, &viewer, &req, &bytes, location, id, void).await
}

pub async fn void_player(
    state: web::Data<AppState>,
    viewer: Viewer,
    req: HttpRequest,
    path: web::Path<(String, String)>,
    bytes: web::Bytes,
) -> Reply {
    let (t, player) = path.into_inner();
    let (location, id) = (
        format!("/api/tournaments/{t}/players/{player}"),
        player.clone(),
    );
    let void =
        move |l: &mut Ledger, o: &Official, c: &Void| voiding::void_player(l, &t, &player, o, c);
    void_with(&state, &viewer, &req, &bytes, location, id, void).await
}

pub async fn void_table(
    state: web::Data<AppState>,
    viewer: Viewer,
    req: HttpRequest,
    path: web::Path<String>,
    bytes: web::Bytes,
) -> Reply {
    let table = path.into_inner();
    let (location, id) = (format!("/api/tables/{table}"), table.clone());
    let void = move |l: &mut Ledger, o: &Official, c: &Void| voiding::void_table(l, &table, o, c);
    void_with(&state, &viewer, &req, &bytes, location, id, void).await
}

pub async fn close_table(
    state: web::Data<AppState>,
    viewer: Viewer,
    req: HttpRequest,
    path: web::Path<String>,
    bytes: web::Bytes,
) -> Reply {
    let o = writer(&viewer, &req)?;
    // No body, or `{}`: there is nothing to say but that the table's play is over.
    let command: CloseTable = if bytes.iter().all(u8::is_ascii_whitespace) {
        CloseTable::default()
    } else {
        body(&bytes)?
    };
    let table = path.into_inner();
    let id = table.clone();
    let key = state.ledger_key();
    state
        .write(move |l| voiding::close_table(l, &id, &o, &command, Some(&key)))
        .await?;
    Ok(done(
        format!("/api/tables/{table}"),
        json!({ "id": table, "closed": true }),
    ))
}
