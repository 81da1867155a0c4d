//! The administrator's changes to officials, and an official's own password, from JSON bodies:
//! the same checks as the officials and account pages.

use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;
use serde_json::json;

use super::writes::{body, writer};
use crate::server::auth::{self, OfficialListing, Viewer};
use crate::server::error::{ApiError, AppError};
use crate::server::officials::{change_own_password, Change, PasswordChange};
use crate::server::state::AppState;
use crate::server::writes::{manage, reset};

type Reply = Result<HttpResponse, ApiError>;

/// `POST /api/officials/<id>/role`: `role`, optional `is_admin` (absent: unchanged).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RoleChange {
    role: String,
    #[serde(default)]
    is_admin: Option<bool>,
}

/// `POST /api/officials/<id>/password`: `password`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewPassword {
    password: String,
}

/// `/disable` and `/enable` take no body, or `{}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Nothing {}

fn listed(l: OfficialListing) -> Reply {
    Ok(HttpResponse::Ok()
        .insert_header(("location", "/officials"))
        .json(l))
}

fn no_body(bytes: &web::Bytes) -> Result<(), AppError> {
    if !bytes.iter().all(u8::is_ascii_whitespace) {
        body::<Nothing>(bytes)?;
    }
    Ok(())
}

pub async fn role(
    state: web::Data<AppState>,
    viewer: Viewer,
    req: HttpRequest,
    path: web::Path<String>,
    bytes: web::Bytes,
) -> Reply {
    let o = writer(&viewer, &req)?;
    o.require_role(crate::server::roles::Action::ManageOfficials)?;
    let command: RoleChange = body(&bytes)?;
    let change = Change::Role {
        role: auth::parse_role(command.role.trim())?,
        is_admin: command.is_admin,
    };
    listed(manage(&state, &o, path.into_inner(), change).await?)
}

pub async fn disable(
    state: web::Data<AppState>,
    viewer: Viewer,
    req: HttpRequest,
    path: web::Path<String>,
    bytes: web::Bytes,
) -> Reply {
    let o = writer(&viewer, &req)?;
    o.require_role(crate::server::roles::Action::ManageOfficials)?;
    no_body(&bytes)?;
    listed(manage(&state, &o, path.into_inner(), Change::Disable).await?)
}

pub async fn enable(
    state: web::Data<AppState>,
    viewer: Viewer,
    req: HttpRequest,
    path: web::Path<String>,
    bytes: web::Bytes,
) -> Reply {
    let o = writer(&viewer, &req)?;
    o.require_role(crate::server::roles::Action::ManageOfficials)?;
    no_body(&bytes)?;
    listed(manage(&state, &o, path.into_inner(), Change::Enable).await?)
}

pub async fn password(
    state: web::Data<AppState>,
    viewer: Viewer,
    req: HttpRequest,
    path: web::Path<String>,
    bytes: web::Bytes,
) -> Reply {
    let o = writer(&viewer, &req)?;
    o.require_role(crate::server::roles::Action::ManageOfficials)?;
    let command: NewPassword = body(&bytes)?;
    listed(reset(&state, &o, path.into_inner(), command.password).await?)
}

/// `POST /api/account/password`: `current`, `new`, optional `repeat`. Every session of the
/// official ends; a request that came with a session gets a new one (its cookie, and the new
/// CSRF token in the body). API tokens are not touched.
pub async fn own_password(
    state: web::Data<AppState>,
    viewer: Viewer,
    req: HttpRequest,
    bytes: web::Bytes,
) -> Reply {
    let o = writer(&viewer, &req)?;
    let command: PasswordChange = body(&bytes)?;
    if !command.csrf.is_empty() {
        return Err(AppError::bad_request(
            "the JSON body: unknown field `csrf` (send the session's CSRF token in X-CSRF-Token)",
        )
        .into());
    }
    let renew = o.csrf.is_some();
    let address = state.client_address(&req);
    let renewed = change_own_password(&state, &o, address, renew, command).await?;
    tracing::info!(official = %o.id, "password changed");
    let mut response = HttpResponse::Ok().json(json!({
        "official": o.id.to_string(),
        "sessions_ended": true,
        "csrf": renewed.as_ref().map(|(_, csrf)| csrf),
    }));
    if let Some((token, _)) = renewed {
        response
            .add_cookie(&auth::session_cookie(token, state.secure_cookies))
            .map_err(AppError::internal)?;
    }
    Ok(response)
}
