//! Signed checkpoints of the chain head (`ledger::signing`): what a club publishes so that a
//! complete rewrite of the history is caught. Officials sign one on demand (closing a table
//! signs one too); anyone may list them and download each as the file `audit --expect-head`
//! reads.
//!
//! - `POST /audit/checkpoints` (form, an official): sign one now, back to the audit page.
//! - The API's (`api::checkpoints`): list, sign, download one.

use actix_web::{web, HttpResponse};
use ledger::signing::Checkpoint;

use super::account::CsrfOnly;
use super::see_other;
use crate::server::auth::{Official, Viewer};
use crate::server::error::{AppError, HtmlError};
use crate::server::state::AppState;

/// Signs a checkpoint of the chain head now, recorded as `by`'s.
pub async fn sign_now(state: &web::Data<AppState>, by: &Official) -> Result<Checkpoint, AppError> {
    let key = state.ledger_key();
    let who = by.id.clone();
    let checkpoint = state
        .write(move |l| Ok(l.sign_checkpoint(&key, &who)?))
        .await?;
    tracing::info!(by = %by.id, position = checkpoint.position, "checkpoint signed");
    Ok(checkpoint)
}

/// The ledger's public key and its checkpoints, oldest first.
pub async fn list(state: &web::Data<AppState>) -> Result<(String, Vec<Checkpoint>), AppError> {
    let key = state.ledger_key().public_hex();
    let checkpoints = state.read(|l| Ok(l.checkpoints()?)).await?;
    Ok((key, checkpoints))
}

/// `POST /audit/checkpoints`.
pub async fn sign_form(
    state: web::Data<AppState>,
    viewer: Viewer,
    form: web::Form<CsrfOnly>,
) -> Result<HttpResponse, HtmlError> {
    let o = viewer.require()?.clone();
    o.check_csrf(&form.csrf)?;
    sign_now(&state, &o).await?;
    Ok(see_other("/audit#checkpoints"))
}
