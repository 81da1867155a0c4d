//! What a request asks in its query string, read the same way by the pages and the JSON API.

use actix_web::{web, HttpRequest};
use serde::Deserialize;

use crate::app::queries::check::CheckQuery;
use crate::server::error::AppError;

/// `?fresh=1`: verify anew even if the head has not moved (honoured for an official only).
#[derive(Debug, Default, Deserialize)]
pub struct AuditQuery {
    #[serde(default)]
    pub fresh: Option<String>,
}

#[derive(Deserialize)]
pub struct SortQuery {
    pub sort: Option<String>,
    pub dir: Option<String>,
}

/// `?session=N` on the books, the exports' pages and the score sheets: one session's, or the
/// whole tournament's when absent.
#[derive(Debug, Default, Deserialize)]
pub struct SessionQuery {
    #[serde(default)]
    pub session: Option<String>,
}

/// Reads a query, naming what is wrong with it (an unknown key, say) rather than failing.
pub fn query(req: &HttpRequest) -> Result<CheckQuery, AppError> {
    web::Query::<CheckQuery>::from_query(req.query_string())
        .map(web::Query::into_inner)
        .map_err(|e| AppError::bad_request(format!("the query could not be read: {e}")))
}
