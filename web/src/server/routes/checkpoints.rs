//! Signed checkpoints of the chain head (`ledger::signing`): what a club publishes so that a
//! complete rewrite of the history is caught. Officials sign one on demand (closing a table
//! signs one too); anyone may list them and download each as the file `audit --expect-head`
//! reads.
//!
//! - `POST /audit/checkpoints` (form, an official): sign one now, back to the audit page.
//! - The API's (`api::checkpoints`): list, sign, download one.

use actix_web::{web, HttpResponse};

use super::account::CsrfOnly;
use super::see_other;
use crate::server::auth::Viewer;
use crate::server::error::HtmlError;
use crate::server::form::Form;
use crate::server::state::AppState;
use crate::server::writes::sign_now;

/// `POST /audit/checkpoints`.
pub async fn sign_form(
    state: web::Data<AppState>,
    viewer: Viewer,
    form: Form<CsrfOnly>,
) -> Result<HttpResponse, HtmlError> {
    let o = viewer.require()?.clone();
    o.check_csrf(&form.csrf)?;
    sign_now(&state, &o).await?;
    Ok(see_other("/audit#checkpoints"))
}
