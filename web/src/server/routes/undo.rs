//! Undoing from the pages: reopening a table or a session, undoing a voiding — an organiser's
//! form with why, each recorded as a fact of its own (`app::commands::undo`).

use actix_web::{web, HttpResponse};
use referee::tournament::VoidTarget;
use serde::Deserialize;

use super::see_other;
use super::voiding::run;
use crate::app::commands::undo::{self, Undo};
use crate::server::auth::Viewer;
use crate::server::error::HtmlError;
use crate::server::form::Form;
use crate::server::state::AppState;

/// An undo form: why, and the session's CSRF token.
#[derive(Deserialize)]
pub struct UndoForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    reason: String,
}

impl UndoForm {
    fn undo(&self) -> Undo {
        Undo {
            reason: self.reason.clone(),
        }
    }
}

/// `POST /tables/{table}/reopen`.
pub async fn reopen_table(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
    form: Form<UndoForm>,
) -> Result<HttpResponse, HtmlError> {
    let table = path.into_inner();
    let (t, cmd) = (table.clone(), form.undo());
    run(&state, &viewer, &form.csrf, move |l, o| {
        undo::reopen_table(l, &t, o, &cmd)
    })
    .await?;
    Ok(see_other(&format!("/tables/{table}")))
}

/// `POST /tables/{table}/unvoid`.
pub async fn unvoid_table(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
    form: Form<UndoForm>,
) -> Result<HttpResponse, HtmlError> {
    let table = path.into_inner();
    let (t, cmd) = (table.clone(), form.undo());
    run(&state, &viewer, &form.csrf, move |l, o| {
        undo::undo_void_table(l, &t, o, &cmd)
    })
    .await?;
    Ok(see_other(&format!("/tables/{table}")))
}

/// `POST /t/{id}/sessions/{n}/reopen`.
pub async fn reopen_session(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<(String, u32)>,
    form: Form<UndoForm>,
) -> Result<HttpResponse, HtmlError> {
    let (id, n) = path.into_inner();
    let (t, cmd) = (id.clone(), form.undo());
    run(&state, &viewer, &form.csrf, move |l, o| {
        undo::reopen_session(l, &t, n, o, &cmd)
    })
    .await?;
    Ok(see_other(&format!("/t/{id}/sessions/{n}")))
}

/// `POST /t/{id}/players/{player}/unvoid`.
pub async fn unvoid_player(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<(String, String)>,
    form: Form<UndoForm>,
) -> Result<HttpResponse, HtmlError> {
    let (id, player) = path.into_inner();
    let (t, cmd) = (id.clone(), form.undo());
    run(&state, &viewer, &form.csrf, move |l, o| {
        undo::undo_void(l, &t, VoidTarget::Player(player), o, &cmd)
    })
    .await?;
    Ok(see_other(&format!("/t/{id}#players")))
}

/// `POST /t/{id}/unvoid`.
pub async fn unvoid_tournament(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
    form: Form<UndoForm>,
) -> Result<HttpResponse, HtmlError> {
    let id = path.into_inner();
    let (t, cmd) = (id.clone(), form.undo());
    run(&state, &viewer, &form.csrf, move |l, o| {
        undo::undo_void(l, &t, VoidTarget::Tournament, o, &cmd)
    })
    .await?;
    Ok(see_other(&format!("/t/{id}")))
}
