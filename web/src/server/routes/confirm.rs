//! The confirmation a one-tap action asks for on the pages: closing a table or a session,
//! voiding anything. The first post shows what will follow and records nothing; the post from
//! that page (`confirm=yes`) acts. Programs (the JSON API) act at once, as they always did.

use actix_web::http::StatusCode;
use actix_web::HttpResponse;
use askama::Template;

use super::render;
use crate::server::auth::Viewer;
use crate::server::error::AppError;
use crate::server::nav::Nav;

/// What the confirmation page says and posts.
pub struct Confirmation {
    /// "Close table 3": the page's heading, asked.
    pub title: String,
    /// What will follow, line by line.
    pub follows: Vec<String>,
    /// Where the confirmed post goes (the same action).
    pub action: String,
    /// The form's fields to post again (the reason given).
    pub fields: Vec<(&'static str, String)>,
    pub button: String,
    /// Where "no" goes.
    pub back: String,
}

#[derive(Template)]
#[template(path = "confirm.html")]
struct ConfirmPage {
    nav: Nav,
    c: Confirmation,
}

/// Whether a form's `confirm` field confirms.
pub fn confirmed(field: &str) -> bool {
    field.trim() == "yes"
}

/// The confirmation page, for an official (401 otherwise).
pub fn ask(viewer: &Viewer, c: Confirmation) -> Result<HttpResponse, AppError> {
    let o = viewer.require()?;
    render(
        StatusCode::OK,
        &ConfirmPage {
            nav: Nav::for_official(o),
            c,
        },
    )
}
