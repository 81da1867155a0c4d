//! Printable score sheets: one table's (`/tables/{table}/sheet`) and every table's of a
//! tournament (`/t/{id}/sheets`), one printed page per table (the print style sheet breaks the
//! page after each sheet and hides the navigation and forms).

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;

use super::render;
use crate::app::queries::sheets::{self, ScoreSheet};
use crate::app::queries::Audience;
use crate::server::auth::Viewer;
use crate::server::error::HtmlError;
use crate::server::nav::Nav;
use crate::server::state::AppState;

#[derive(Template)]
#[template(path = "sheets.html")]
struct SheetsPage {
    nav: Nav,
    title: String,
    /// The tournament's id, for the links back.
    tournament: Option<String>,
    sheets: Vec<ScoreSheet>,
}

/// `GET /tables/{table}/sheet`.
#[tracing::instrument(skip(state, viewer))]
pub async fn table(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
) -> Result<HttpResponse, HtmlError> {
    let table = path.into_inner();
    let audience = Audience::of(&viewer);
    let sheet = state
        .read(move |l| sheets::table_sheet(l, &table, audience))
        .await?;
    Ok(render(
        StatusCode::OK,
        &SheetsPage {
            nav: Nav::for_viewer(&viewer),
            title: format!("Table {} · {}", sheet.number, sheet.tournament_name),
            tournament: Some(sheet.tournament.clone()),
            sheets: vec![sheet],
        },
    )?)
}

/// `GET /t/{id}/sheets`.
#[tracing::instrument(skip(state, viewer))]
pub async fn tournament(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
    query: web::Query<crate::server::params::SessionQuery>,
) -> Result<HttpResponse, HtmlError> {
    let id = path.into_inner();
    let audience = Audience::of(&viewer);
    let session = query.session()?;
    let t = id.clone();
    let (name, sheets) = state
        .read(move |l| sheets::tournament_sheets(l, &t, audience, session))
        .await?;
    let name = match session {
        Some(n) => format!("{name} · session {n}"),
        None => name,
    };
    Ok(render(
        StatusCode::OK,
        &SheetsPage {
            nav: Nav::for_viewer(&viewer),
            title: name,
            tournament: Some(id),
            sheets,
        },
    )?)
}
