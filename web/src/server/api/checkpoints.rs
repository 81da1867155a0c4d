//! Signed checkpoints through the API (`server::writes` and `server::reads` hold what the pages share):
//!
//! - `GET /api/checkpoints`: the ledger's public key and every checkpoint, oldest first.
//! - `POST /api/checkpoints` (an official): sign one now; 201 with it.
//! - `GET /api/checkpoints/{n}`: checkpoint `n` (from 1) as a file to keep or publish.

use actix_web::{web, HttpRequest, HttpResponse};
use serde_json::json;

use super::writes::writer;
use crate::server::auth::Viewer;
use crate::server::error::{ApiError, AppError};
use crate::server::reads::list;
use crate::server::state::AppState;
use crate::server::writes::sign_now;

/// `GET /api/checkpoints`.
pub async fn list_json(state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let (ledger, checkpoints) = list(&state).await?;
    Ok(HttpResponse::Ok().json(json!({ "ledger": ledger, "checkpoints": checkpoints })))
}

/// `POST /api/checkpoints`.
pub async fn sign_json(
    state: web::Data<AppState>,
    viewer: Viewer,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let o = writer(&viewer, &req)?;
    let checkpoint = sign_now(&state, &o).await?;
    Ok(HttpResponse::Created().json(checkpoint))
}

/// `GET /api/checkpoints/{n}`: a download.
pub async fn one(
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let n = path.into_inner();
    let missing = || AppError::not_found(format!("no checkpoint `{n}` (they are numbered from 1)"));
    let index: usize = n.parse().map_err(|_| missing())?;
    let (_, checkpoints) = list(&state).await?;
    let c = index
        .checked_sub(1)
        .and_then(|i| checkpoints.get(i))
        .ok_or_else(missing)?;
    let body = serde_json::to_string(c).map_err(AppError::internal)?;
    Ok(HttpResponse::Ok()
        .content_type("application/json")
        .insert_header((
            "content-disposition",
            format!("attachment; filename=\"checkpoint-{}.json\"", c.position),
        ))
        .body(format!("{body}\n")))
}
