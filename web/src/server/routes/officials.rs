//! The administrator's forms on the officials page: a role, the administrator's rights,
//! disabling and enabling, a new password. Each answers the officials page again, with what was
//! done or why it was refused (nothing changed).

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use serde::Deserialize;

use super::account::officials_response;
use crate::server::auth::{self, Official, Viewer};
use crate::server::error::{AppError, HtmlError};
use crate::server::form::Form;
use crate::server::officials::Change;
use crate::server::roles::Action;
use crate::server::state::AppState;
use crate::server::writes::{manage, reset};

#[derive(Deserialize)]
pub struct RoleForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    role: String,
    /// The checkbox: present when ticked.
    #[serde(default)]
    admin: Option<String>,
}

#[derive(Deserialize)]
pub struct CsrfOnly {
    #[serde(default)]
    csrf: String,
}

#[derive(Deserialize)]
pub struct PasswordForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    password: String,
}

/// The officials page after a change: a notice, or the refusal of an input problem.
async fn answer(
    state: &web::Data<AppState>,
    o: &Official,
    result: Result<String, AppError>,
) -> Result<HttpResponse, HtmlError> {
    match result {
        Ok(notice) => Ok(officials_response(state, o, StatusCode::OK, None, Some(notice)).await?),
        Err(e) if e.is_input_error() || e.kind == crate::server::error::ErrorKind::NotFound => {
            Ok(officials_response(state, o, e.kind.status(), Some(e.message), None).await?)
        }
        Err(e) => Err(e.into()),
    }
}

/// The administrator behind a form: 401/403 otherwise, and the CSRF token checked.
fn administrator(viewer: &Viewer, csrf: &str) -> Result<Official, AppError> {
    let o = viewer.require()?.clone();
    o.require_role(Action::ManageOfficials)?;
    o.check_csrf(csrf)?;
    Ok(o)
}

/// `POST /officials/{id}/role`.
pub async fn role(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
    form: Form<RoleForm>,
) -> Result<HttpResponse, HtmlError> {
    let o = administrator(&viewer, &form.csrf)?;
    let result = async {
        let role = auth::parse_role(form.role.trim())?;
        let change = Change::Role {
            role,
            is_admin: Some(form.admin.is_some()),
        };
        let l = manage(&state, &o, path.into_inner(), change).await?;
        Ok(format!(
            "{} ({}) is now {}{}",
            l.name,
            l.official,
            l.role,
            if l.is_admin { ", administrator" } else { "" }
        ))
    }
    .await;
    answer(&state, &o, result).await
}

/// `POST /officials/{id}/disable`.
pub async fn disable(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
    form: Form<CsrfOnly>,
) -> Result<HttpResponse, HtmlError> {
    let o = administrator(&viewer, &form.csrf)?;
    let result = manage(&state, &o, path.into_inner(), Change::Disable)
        .await
        .map(|l| {
            format!(
                "{} ({}) is disabled: their sessions have ended and their API tokens are refused",
                l.name, l.official
            )
        });
    answer(&state, &o, result).await
}

/// `POST /officials/{id}/enable`.
pub async fn enable(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
    form: Form<CsrfOnly>,
) -> Result<HttpResponse, HtmlError> {
    let o = administrator(&viewer, &form.csrf)?;
    let result = manage(&state, &o, path.into_inner(), Change::Enable)
        .await
        .map(|l| format!("{} ({}) may log in again", l.name, l.official));
    answer(&state, &o, result).await
}

/// `POST /officials/{id}/password`.
pub async fn password(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
    form: Form<PasswordForm>,
) -> Result<HttpResponse, HtmlError> {
    let o = administrator(&viewer, &form.csrf)?;
    let form = form.into_inner();
    let result = reset(&state, &o, path.into_inner(), form.password)
        .await
        .map(|l| {
            format!(
                "the password of {} ({}) is set; their sessions have ended",
                l.name, l.official
            )
        });
    answer(&state, &o, result).await
}
