//! The audit page: the ledger's own audit report and the chain head to publish.

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;
use serde::Serialize;

use super::render;
use crate::server::auth::Viewer;
use crate::server::error::{AppError, HtmlError};
use crate::server::state::AppState;
use crate::server::views::Nav;

/// The audit as pages and the API show it.
#[derive(Clone, Debug, Serialize)]
pub struct AuditView {
    pub clean: bool,
    pub head_position: u64,
    pub head_hash: String,
    pub report: String,
}

/// Runs the full audit on a reader (it re-verifies every event: not a per-page projection read,
/// and meant to be).
pub async fn audit(state: &web::Data<AppState>) -> Result<AuditView, AppError> {
    state
        .read(|l| {
            let head = l.head()?;
            let report = l.audit()?;
            Ok(AuditView {
                clean: report.is_clean(),
                head_position: head.position,
                head_hash: head.chain_hash.to_string(),
                report: report.to_string(),
            })
        })
        .await
}

#[derive(Template)]
#[template(path = "audit.html")]
struct AuditPage {
    nav: Nav,
    clean: bool,
    head_position: u64,
    head_hash: String,
    report: String,
}

pub async fn page(state: web::Data<AppState>, viewer: Viewer) -> Result<HttpResponse, HtmlError> {
    let a = audit(&state).await?;
    Ok(render(
        StatusCode::OK,
        &AuditPage {
            nav: Nav::for_viewer(&viewer),
            clean: a.clean,
            head_position: a.head_position,
            head_hash: a.head_hash,
            report: a.report,
        },
    )?)
}
