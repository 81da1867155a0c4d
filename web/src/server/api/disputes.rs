//! API for disputes and rulings: the same commands as the dispute pages, from JSON bodies.
//!
//! - `GET /api/hands/{hand}/findings`: the engine's findings on the hand's recorded play.
//! - `POST /api/hands/{hand}/disputes` (`RaiseDispute`): 201 with the dispute's id.
//! - `GET /api/hands/{hand}/disputes/{id}`: the dispute, its findings, rulings and settlement.
//! - `POST /api/hands/{hand}/disputes/{id}/rulings` (`Rule`): 201, or 200 with the settlement
//!   before and after when `preview` is set.
//! - `POST /api/hands/{hand}/rulings/{id}/appeal` (`Appeal`): 200.
//! - `POST /api/hands/{hand}/counts` (`RecordCount`): a player's own count (Code §110), 201.
//!
//! Disputes and rulings are officials' business: reading them needs a login too.

use actix_web::{web, HttpRequest, HttpResponse};
use serde_json::json;
use uuid::Uuid;

use super::writes::{body, writer};
use crate::app::commands::count::RecordCount;
use crate::app::commands::ruling::{findings_for, Appeal, RaiseDispute, Rule, RulingPreview};
use crate::app::queries::dispute;
use crate::server::auth::Viewer;
use crate::server::error::{ApiError, AppError};
use crate::server::state::AppState;
use crate::server::writes::record_count;
use crate::server::writes::{appeal_ruling, raise_dispute, rule_on};

type Reply = Result<HttpResponse, ApiError>;

fn id(s: &str, what: &str) -> Result<Uuid, AppError> {
    s.parse()
        .map_err(|_| AppError::not_found(format!("no {what} `{s}`")))
}

pub async fn findings(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
) -> Reply {
    viewer.require()?;
    let hand = path.into_inner();
    let found = state.read(move |l| findings_for(l, &hand, None)).await?;
    Ok(HttpResponse::Ok().json(json!({
        "findings": found.iter().enumerate().map(|(i, f)| json!({
            "index": i,
            "kind": f.kind(),
            "offender": f.offender(),
            "events": f.events(),
            "citations": f.citations(),
            "penalty": f.penalty(),
            "text": f.to_string(),
        })).collect::<Vec<_>>(),
    })))
}

pub async fn raise(
    state: web::Data<AppState>,
    viewer: Viewer,
    req: HttpRequest,
    path: web::Path<String>,
    bytes: web::Bytes,
) -> Reply {
    let o = writer(&viewer, &req)?;
    let command: RaiseDispute = body(&bytes)?;
    let hand = path.into_inner();
    let d = raise_dispute(&state, &o, hand.clone(), command).await?;
    Ok(HttpResponse::Created()
        .insert_header(("location", format!("/api/hands/{hand}/disputes/{d}")))
        .json(json!({ "id": d })))
}

/// `POST /api/hands/{hand}/counts` (`RecordCount`): a player's own count of his settled hand
/// (Code §110); 201 with the hand, whose settlement follows the count.
pub async fn count(
    state: web::Data<AppState>,
    viewer: Viewer,
    req: HttpRequest,
    path: web::Path<String>,
    bytes: web::Bytes,
) -> Reply {
    let o = writer(&viewer, &req)?;
    let command: RecordCount = body(&bytes)?;
    let hand = path.into_inner();
    record_count(&state, &o, hand.clone(), command).await?;
    Ok(HttpResponse::Created()
        .insert_header(("location", format!("/api/hands/{hand}")))
        .json(json!({ "hand": hand })))
}

pub async fn read(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<(String, String)>,
) -> Reply {
    viewer.require()?;
    let (hand, d) = path.into_inner();
    let d = id(&d, "dispute")?;
    let v = state.read(move |l| dispute::view(l, &hand, d)).await?;
    Ok(HttpResponse::Ok().json(v))
}

fn preview_json(p: &RulingPreview) -> serde_json::Value {
    json!({ "preview": true, "before": p.before, "after": p.after, "waits": p.waits })
}

pub async fn rule(
    state: web::Data<AppState>,
    viewer: Viewer,
    req: HttpRequest,
    path: web::Path<(String, String)>,
    bytes: web::Bytes,
) -> Reply {
    let o = writer(&viewer, &req)?;
    let command: Rule = body(&bytes)?;
    let (hand, d) = path.into_inner();
    let d = id(&d, "dispute")?;
    match rule_on(&state, &o, hand.clone(), d, command).await? {
        Some(p) => Ok(HttpResponse::Ok().json(preview_json(&p))),
        None => Ok(HttpResponse::Created()
            .insert_header(("location", format!("/api/hands/{hand}/disputes/{d}")))
            .json(json!({ "dispute": d }))),
    }
}

pub async fn appeal(
    state: web::Data<AppState>,
    viewer: Viewer,
    req: HttpRequest,
    path: web::Path<(String, String)>,
    bytes: web::Bytes,
) -> Reply {
    let o = writer(&viewer, &req)?;
    let command: Appeal = body(&bytes)?;
    let (hand, r) = path.into_inner();
    let r = id(&r, "ruling")?;
    match appeal_ruling(&state, &o, hand, r, command).await? {
        Some(p) => Ok(HttpResponse::Ok().json(preview_json(&p))),
        None => Ok(HttpResponse::Ok().json(json!({ "superseded": r }))),
    }
}
