//! The API of undoing: reopening a table or a session, undoing a voiding — each with
//! `{"reason": …}`, answered 200 with what was undone (`app::commands::undo`).

use actix_web::{web, HttpRequest, HttpResponse};
use referee::tournament::VoidTarget;
use serde_json::json;

use super::writes::{body, writer};
use crate::app::commands::undo::{self, Undo};
use crate::server::auth::Viewer;
use crate::server::error::ApiError;
use crate::server::state::AppState;

type Reply = Result<HttpResponse, ApiError>;

/// Runs `write` with the body's reason for an official, and answers 200 with `answer`.
async fn undo_with(
    state: &web::Data<AppState>,
    viewer: &Viewer,
    req: &HttpRequest,
    bytes: &web::Bytes,
    answer: serde_json::Value,
    write: impl FnOnce(
            &mut ledger::Ledger,
            &crate::server::auth::Official,
            &Undo,
        ) -> Result<(), crate::server::error::AppError>
        + Send
        + 'static,
) -> Reply {
    let o = writer(viewer, req)?;
    let command: Undo = body(bytes)?;
    state.write(move |l| write(l, &o, &command)).await?;
    Ok(HttpResponse::Ok().json(answer))
}

/// `POST /api/tables/<table>/reopen`.
pub async fn reopen_table(
    state: web::Data<AppState>,
    viewer: Viewer,
    req: HttpRequest,
    path: web::Path<String>,
    bytes: web::Bytes,
) -> Reply {
    let table = path.into_inner();
    let answer = json!({ "id": table, "reopened": true });
    undo_with(&state, &viewer, &req, &bytes, answer, move |l, o, c| {
        undo::reopen_table(l, &table, o, c)
    })
    .await
}

/// `POST /api/tables/<table>/unvoid`.
pub async fn unvoid_table(
    state: web::Data<AppState>,
    viewer: Viewer,
    req: HttpRequest,
    path: web::Path<String>,
    bytes: web::Bytes,
) -> Reply {
    let table = path.into_inner();
    let answer = json!({ "id": table, "voided": false });
    undo_with(&state, &viewer, &req, &bytes, answer, move |l, o, c| {
        undo::undo_void_table(l, &table, o, c)
    })
    .await
}

/// `POST /api/tournaments/<id>/sessions/<n>/reopen`.
pub async fn reopen_session(
    state: web::Data<AppState>,
    viewer: Viewer,
    req: HttpRequest,
    path: web::Path<(String, u32)>,
    bytes: web::Bytes,
) -> Reply {
    let (id, n) = path.into_inner();
    let answer = json!({ "session": n, "reopened": true });
    undo_with(&state, &viewer, &req, &bytes, answer, move |l, o, c| {
        undo::reopen_session(l, &id, n, o, c)
    })
    .await
}

/// `POST /api/tournaments/<id>/players/<player>/unvoid`.
pub async fn unvoid_player(
    state: web::Data<AppState>,
    viewer: Viewer,
    req: HttpRequest,
    path: web::Path<(String, String)>,
    bytes: web::Bytes,
) -> Reply {
    let (id, player) = path.into_inner();
    let answer = json!({ "id": player, "voided": false });
    undo_with(&state, &viewer, &req, &bytes, answer, move |l, o, c| {
        undo::undo_void(l, &id, VoidTarget::Player(player), o, c)
    })
    .await
}

/// `POST /api/tournaments/<id>/unvoid`.
pub async fn unvoid_tournament(
    state: web::Data<AppState>,
    viewer: Viewer,
    req: HttpRequest,
    path: web::Path<String>,
    bytes: web::Bytes,
) -> Reply {
    let id = path.into_inner();
    let answer = json!({ "id": id, "voided": false });
    undo_with(&state, &viewer, &req, &bytes, answer, move |l, o, c| {
        undo::undo_void(l, &id, VoidTarget::Tournament, o, c)
    })
    .await
}
