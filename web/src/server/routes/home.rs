//! The front page (tournaments), the stylesheet, and loading the demo.

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;
use serde::Deserialize;

use super::{render, see_other};
use crate::app::queries::tournament::{self, TournamentSummary};
use crate::app::queries::Audience;
use crate::server::auth::Viewer;
use crate::server::error::HtmlError;
use crate::server::form::Form;
use crate::server::nav::Nav;
use crate::server::state::AppState;

#[derive(Template)]
#[template(path = "index.html")]
struct Index {
    nav: Nav,
    tournaments: Vec<TournamentSummary>,
}

pub async fn index(state: web::Data<AppState>, viewer: Viewer) -> Result<HttpResponse, HtmlError> {
    let audience = Audience::of(&viewer);
    let tournaments = state.read(move |l| tournament::list(l, audience)).await?;
    Ok(render(
        StatusCode::OK,
        &Index {
            nav: Nav::for_viewer(&viewer),
            tournaments,
        },
    )?)
}

const STYLE: &str = include_str!("../../../../templates/style.css");

pub async fn style() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/css; charset=utf-8")
        .insert_header(("cache-control", "public, max-age=3600"))
        .body(STYLE)
}

#[derive(Deserialize)]
pub struct CsrfForm {
    #[serde(default)]
    pub csrf: String,
}

pub async fn demo(
    state: web::Data<AppState>,
    viewer: Viewer,
    form: Form<CsrfForm>,
) -> Result<HttpResponse, HtmlError> {
    let official = viewer.require()?.clone();
    official.check_csrf(&form.csrf)?;
    official.require_role(crate::server::roles::Action::CreateTournament)?;
    let id = crate::server::demo::load(&state, &official).await?;
    Ok(see_other(&format!("/t/{id}")))
}
