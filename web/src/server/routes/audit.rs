//! The audit page: the ledger's own audit report and the chain head to publish.
//!
//! The report is the last verification for the current chain head ([`AuditCache`]): an
//! anonymous request never verifies the ledger unless a write has moved the head since the last
//! verification; an official may ask for a fresh one with `?fresh=1`.
//!
//! [`AuditCache`]: crate::server::cache::AuditCache

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;

use super::render;
use crate::server::auth::Viewer;
use crate::server::error::HtmlError;
use crate::server::nav::Nav;
use crate::server::params::AuditQuery;
use crate::server::reads::audit;
use crate::server::state::AppState;

/// The audit as pages and the API show it.
pub use crate::server::cache::VerifiedAudit as AuditView;

impl AuditQuery {
    /// Whether to verify anew: asked for, by an official. The public is served the last
    /// verification, so that asking cannot make the server do the whole audit at will.
    pub fn fresh_for(&self, viewer: &Viewer) -> bool {
        viewer.0.is_some() && matches!(self.fresh.as_deref(), Some("1" | "true" | "yes"))
    }
}

#[derive(Template)]
#[template(path = "audit.html")]
struct AuditPage {
    nav: Nav,
    audit: AuditView,
    is_official: bool,
    /// The ledger's public key, which its signatures are checked with.
    ledger_key: String,
    /// The signed checkpoints, newest first: (number from 1, checkpoint).
    checkpoints: Vec<(usize, ledger::signing::Checkpoint)>,
}

pub async fn page(
    state: web::Data<AppState>,
    viewer: Viewer,
    query: web::Query<AuditQuery>,
) -> Result<HttpResponse, HtmlError> {
    let audit = audit(&state, query.fresh_for(&viewer))
        .await?
        .for_audience(crate::app::queries::Audience::of(&viewer));
    let (ledger_key, list) = crate::server::reads::list(&state).await?;
    let mut checkpoints: Vec<_> = list
        .into_iter()
        .enumerate()
        .map(|(i, c)| (i + 1, c))
        .collect();
    checkpoints.reverse();
    Ok(render(
        StatusCode::OK,
        &AuditPage {
            nav: Nav::for_viewer(&viewer),
            audit,
            is_official: viewer.0.is_some(),
            ledger_key,
            checkpoints,
        },
    )?)
}
