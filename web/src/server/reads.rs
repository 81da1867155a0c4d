//! The reads both doors make through the server: the audit of the chain head (through its
//! cache), and the signed checkpoints.

use actix_web::web;
use ledger::signing::Checkpoint;

use crate::server::cache::VerifiedAudit as AuditView;
use crate::server::error::AppError;
use crate::server::state::AppState;

/// The audit for the current chain head: the last verification when it was made for this head
/// and `fresh` is not asked, else the full audit (every event re-verified) on a reader.
pub async fn audit(state: &web::Data<AppState>, fresh: bool) -> Result<AuditView, AppError> {
    let cached = state.clone();
    state
        .read(move |l| {
            let head = l.head()?;
            cached.audit_cache().get_or_verify(
                head.position,
                &head.chain_hash.to_string(),
                fresh,
                || {
                    // The chain, the settlements and projections; then every event decided
                    // again as the service would (`app::redecide`).
                    let report = l.audit()?;
                    let refused = crate::app::redecide::audit(l)?;
                    let text = format!("{report}\n{}", crate::app::redecide::report(&refused));
                    let public = format!(
                        "{}\n{}",
                        report.summary(),
                        crate::app::redecide::summary(&refused)
                    );
                    Ok::<_, AppError>((report.is_clean() && refused.is_empty(), text, public))
                },
            )
        })
        .await
}

/// The ledger's public key and its checkpoints, oldest first.
pub async fn list(state: &web::Data<AppState>) -> Result<(String, Vec<Checkpoint>), AppError> {
    let key = state.ledger_key().public_hex();
    let checkpoints = state.read(|l| Ok(l.checkpoints()?)).await?;
    Ok((key, checkpoints))
}
