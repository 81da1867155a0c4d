//! API reads: the same view models the pages render, as JSON.

use actix_web::{web, HttpResponse};
use serde_json::json;

use crate::rules;
use crate::server::error::{ApiError, AppError};
use crate::server::routes::audit::audit as run_audit;
use crate::server::routes::tournaments::SortQuery;
use crate::server::state::AppState;
use crate::server::views::{hand, table, tournament};

type Reply = Result<HttpResponse, ApiError>;

pub async fn rulesets() -> HttpResponse {
    let list: Vec<_> = rules::ruleset_names()
        .into_iter()
        .map(|(name, title)| json!({ "name": name, "title": title }))
        .collect();
    HttpResponse::Ok().json(json!({ "rulesets": list }))
}

pub async fn tournaments(state: web::Data<AppState>) -> Reply {
    let list = state.read(tournament::list).await?;
    Ok(HttpResponse::Ok().json(json!({ "tournaments": list })))
}

pub async fn tournament(state: web::Data<AppState>, path: web::Path<String>) -> Reply {
    let id = path.into_inner();
    let t = state.read(move |l| tournament::view(l, &id)).await?;
    Ok(HttpResponse::Ok().json(t))
}

pub async fn standings(
    state: web::Data<AppState>,
    path: web::Path<String>,
    query: web::Query<SortQuery>,
) -> Reply {
    let id = path.into_inner();
    let (sort, descending) = query.parse();
    let s = state
        .read(move |l| tournament::standings(l, &id, sort, descending))
        .await?;
    Ok(HttpResponse::Ok().json(s))
}

pub async fn player(state: web::Data<AppState>, path: web::Path<(String, String)>) -> Reply {
    let (id, player) = path.into_inner();
    let p = state
        .read(move |l| tournament::player_history(l, &id, &player))
        .await?;
    Ok(HttpResponse::Ok().json(p))
}

pub async fn table(state: web::Data<AppState>, path: web::Path<String>) -> Reply {
    let id = path.into_inner();
    let t = state.read(move |l| table::view(l, &id)).await?;
    Ok(HttpResponse::Ok().json(t))
}

pub async fn hand(state: web::Data<AppState>, path: web::Path<String>) -> Reply {
    let id = path.into_inner();
    let h = state.read(move |l| hand::view(l, &id)).await?;
    Ok(HttpResponse::Ok().json(h))
}

pub async fn audit(state: web::Data<AppState>) -> Reply {
    Ok(HttpResponse::Ok().json(run_audit(&state).await?))
}

pub async fn not_found() -> Reply {
    Err(AppError::not_found("no such API route (see the README's API section)").into())
}
