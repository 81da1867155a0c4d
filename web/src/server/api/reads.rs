//! API reads: the same view models the pages render, answered as the API's own response types
//! (`responses`). The public sees nothing voided; an official (by token or session) sees it
//! marked, as on the pages.

use actix_web::{web, HttpResponse};
use serde::Serialize;
use serde_json::json;

use super::responses::{
    HandJson, PlayerHistoryJson, TableJson, TournamentDetailJson, TournamentJson,
};
use crate::app::queries::{hand, table, tournament, visibility, Audience};
use crate::rules;
use crate::server::auth::Viewer;
use crate::server::error::{ApiError, AppError};
use crate::server::params::AuditQuery;
use crate::server::params::SortQuery;
use crate::server::reads::audit as run_audit;
use crate::server::state::AppState;

type Reply = Result<HttpResponse, ApiError>;

pub async fn rulesets() -> HttpResponse {
    let list: Vec<_> = rules::ruleset_names()
        .into_iter()
        .map(|(name, title)| json!({ "name": name, "title": title }))
        .collect();
    HttpResponse::Ok().json(json!({ "rulesets": list }))
}

#[derive(Serialize)]
struct TournamentList {
    tournaments: Vec<TournamentJson>,
}

pub async fn tournaments(state: web::Data<AppState>, viewer: Viewer) -> Reply {
    let audience = Audience::of(&viewer);
    let list = state.read(move |l| tournament::list(l, audience)).await?;
    Ok(HttpResponse::Ok().json(TournamentList {
        tournaments: list.into_iter().map(Into::into).collect(),
    }))
}

pub async fn tournament(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
) -> Reply {
    let id = path.into_inner();
    let audience = Audience::of(&viewer);
    let t = state
        .read(move |l| tournament::view(l, &id, audience))
        .await?;
    Ok(HttpResponse::Ok().json(TournamentDetailJson::from(t)))
}

pub async fn standings(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
    query: web::Query<SortQuery>,
    req: actix_web::HttpRequest,
) -> Reply {
    let id = path.into_inner();
    let (sort, descending) = query.parse();
    // As the standings page: the public's answer is served from the page cache while nothing
    // has been recorded since it was made.
    let slot = state.page_slot(&viewer, &req);
    let json = |body: actix_web::web::Bytes| {
        HttpResponse::Ok()
            .content_type("application/json")
            .body(body)
    };
    if let Some(body) = slot.get() {
        return Ok(json(body));
    }
    let audience = Audience::of(&viewer);
    let s = state
        .read(move |l| {
            let s = tournament::standings(l, &id, sort, descending, audience)?;
            visibility::standings_for(l, s, audience)
        })
        .await?;
    let body = actix_web::web::Bytes::from(serde_json::to_vec(&s).map_err(AppError::internal)?);
    slot.put(&body);
    Ok(json(body))
}

pub async fn player(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<(String, String)>,
) -> Reply {
    let (id, player) = path.into_inner();
    let audience = Audience::of(&viewer);
    let p = state
        .read(move |l| tournament::player_history(l, &id, &player, audience))
        .await?;
    Ok(HttpResponse::Ok().json(PlayerHistoryJson::from(p)))
}

pub async fn table(state: web::Data<AppState>, viewer: Viewer, path: web::Path<String>) -> Reply {
    let id = path.into_inner();
    let audience = Audience::of(&viewer);
    let t = state
        .read(move |l| {
            let hidden = visibility::table_voided(l, &id)?;
            visibility::require_visible(audience, hidden, || format!("no table `{id}`"))?;
            Ok(table::view(l, &id)?.for_audience(audience))
        })
        .await?;
    Ok(HttpResponse::Ok().json(TableJson::from(t)))
}

pub async fn hand(state: web::Data<AppState>, viewer: Viewer, path: web::Path<String>) -> Reply {
    let id = path.into_inner();
    let audience = Audience::of(&viewer);
    let h = state
        .read(move |l| {
            let hidden = visibility::hand_hidden(l, &id)?;
            visibility::require_visible(audience, hidden, || format!("no hand `{id}`"))?;
            hand::view(l, &id)
        })
        .await?
        .for_audience(audience);
    Ok(HttpResponse::Ok().json(HandJson::from(h)))
}

/// `GET /api/audit[?fresh=1]`: the last verification for the current chain head (see
/// `routes::audit`), with `verified_at` and `verification`; `fresh` is honoured for an official.
pub async fn audit(
    state: web::Data<AppState>,
    viewer: Viewer,
    query: web::Query<AuditQuery>,
) -> Reply {
    let a = run_audit(&state, query.fresh_for(&viewer))
        .await?
        .for_audience(Audience::of(&viewer));
    Ok(HttpResponse::Ok().json(a))
}

pub async fn not_found() -> Reply {
    Err(AppError::not_found("no such API route (see the README's API section)").into())
}

/// `GET /api/check?hand=...`: one hand checked, as the `/check` page shows it (also the hand
/// forms' live preview). A hand that cannot be read is a 422 listing every problem.
pub async fn check(
    state: web::Data<AppState>,
    viewer: Viewer,
    req: actix_web::HttpRequest,
) -> Reply {
    let q = crate::server::params::query(&req)?;
    let audience = Audience::of(&viewer);
    let for_rules = q.clone();
    let rules = state
        .read(move |l| crate::app::queries::check::ruleset(l, &for_rules, audience))
        .await?;
    let checked = crate::app::queries::check::check(&q, rules)?;
    Ok(HttpResponse::Ok()
        .insert_header(("cache-control", "no-store"))
        .json(checked))
}
