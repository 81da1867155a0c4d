//! How the service is, for what watches it from outside: `GET /healthz`, `GET /readyz` and
//! `GET /metrics`.
//!
//! `/healthz` asks the database itself — it answers, and its write lock can be taken (asked
//! without writing) — and says the chain head; `/readyz` says whether to send this process
//! requests (no: it is stopping). Both are JSON, for anyone: the chain head is public (the
//! audit page shows it). `/metrics` is the Prometheus text format, for officials logged in
//! (a session or an API token) and for the addresses given by `--metrics-from`, since it
//! shows how busy each page is and when the officials are at work.

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use serde_json::json;

use super::auth::Viewer;
use super::error::{ApiError, AppError, ErrorKind};
use super::state::{AppState, Probed};

/// Registers the three routes.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/healthz", web::get().to(healthz))
        .route("/readyz", web::get().to(readyz))
        .route("/metrics", web::get().to(metrics));
}

/// `GET /healthz`: 200 with the chain head when the database answers and can be written, 503
/// with what is wrong otherwise.
pub async fn healthz(state: web::Data<AppState>) -> HttpResponse {
    let probe = state.clone();
    let answer = web::block(move || probe.probe_writer()).await;
    let (head, database) = match answer {
        Ok(Ok(Probed::Writable(head))) => (head, "writable"),
        // The writer is at work: the database is being written, which is what was asked.
        Ok(Ok(Probed::Writing(head))) => (head, "writable (a write was in progress)"),
        Ok(Err(e)) => return unhealthy(&e.message),
        Err(e) => return unhealthy(&e.to_string()),
    };
    HttpResponse::Ok()
        .insert_header(("cache-control", "no-store"))
        .json(json!({
            "status": "ok",
            "database": database,
            "head": { "position": head.position, "chain_hash": head.chain_hash.to_hex() },
            "stopping": state.is_draining(),
        }))
}

fn unhealthy(why: &str) -> HttpResponse {
    tracing::error!(why, "health check failed");
    HttpResponse::ServiceUnavailable()
        .insert_header(("cache-control", "no-store"))
        .json(json!({ "status": "unhealthy", "database": why }))
}

/// `GET /readyz`: 200 while the server takes requests, 503 with `Retry-After` once it is
/// stopping (a load balancer sends the next ones elsewhere).
pub async fn readyz(state: web::Data<AppState>) -> HttpResponse {
    if state.is_draining() {
        return HttpResponse::ServiceUnavailable()
            .insert_header(("cache-control", "no-store"))
            .insert_header(("retry-after", super::error::RETRY_AFTER_SECS.to_string()))
            .json(json!({ "ready": false, "why": "the server is stopping" }));
    }
    HttpResponse::Ok()
        .insert_header(("cache-control", "no-store"))
        .json(json!({ "ready": true }))
}

/// `GET /metrics`: the Prometheus text format.
pub async fn metrics(
    state: web::Data<AppState>,
    viewer: Viewer,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    // Only a client known for certain: behind a trusted proxy whose header is garbled, the
    // proxy's own address (which --metrics-from may well name) is no answer.
    let from_allowed = state
        .certain_client_address(&req)
        .is_some_and(|a| state.metrics_from.iter().any(|net| net.contains(&a)));
    if viewer.0.is_none() && !from_allowed {
        return Err(ApiError(AppError::new(
            ErrorKind::Forbidden,
            "the metrics are for officials logged in, and for the addresses the server was told to show them to (--metrics-from)",
        )));
    }
    let Some(handle) = super::metrics::handle() else {
        return Err(ApiError(AppError::internal(
            "another metrics recorder was installed in this process",
        )));
    };
    let head = state.read(|l| Ok(l.head()?)).await?;
    let backups = state
        .backups
        .as_deref()
        .map(|b| super::metrics::BackupFigures {
            age: b.age(),
            last: b.last().map(|g| (g.made, g.position, g.bytes)),
        });
    super::metrics::at_scrape(head.position, backups);
    Ok(HttpResponse::build(StatusCode::OK)
        .content_type("text/plain; version=0.0.4; charset=utf-8")
        .insert_header(("cache-control", "no-store"))
        .body(handle.render()))
}
