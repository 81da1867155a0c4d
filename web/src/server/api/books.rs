//! `GET /api/tournaments/{id}/books`: the treasurer's books page as JSON — each player's
//! balance, chips and whether they have run out, and who pays whom (see `app::queries::books`).

use actix_web::{web, HttpResponse};

use crate::app::queries::{books, Audience};
use crate::server::auth::Viewer;
use crate::server::error::ApiError;
use crate::server::state::AppState;

pub async fn books(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
    query: web::Query<crate::server::params::SessionQuery>,
) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let audience = Audience::of(&viewer);
    let session = query.session()?;
    let b = state
        .read(move |l| books::view(l, &id, audience, session))
        .await?;
    Ok(HttpResponse::Ok()
        .insert_header(("cache-control", "no-store"))
        .json(b))
}
