//! The service's one error type and its two faces.
//!
//! Policy: handlers return [`AppError`] (a kind and a message meant for the person or program
//! that sent the request; defined in `app::error`, free of HTTP, as the application layer returns
//! it too; each kind's status code is given here). Page handlers wrap it in [`HtmlError`], which renders the error
//! page; API handlers in [`ApiError`], which renders `{"error": {"kind", "message"}}`. Internal
//! failures (SQLite, a poisoned lock) are logged with their detail and shown only as "internal
//! error": never a stack trace. Every write is all-or-nothing in the ledger, so a refused request
//! has changed nothing. A database busy with another writer is 503 with `Retry-After` (retrying
//! is safe), and a full disk is 507: both are the server's state, not the request's fault.

use std::fmt;

use actix_web::http::{header, StatusCode};
use actix_web::{HttpResponse, ResponseError};
use askama::Template;

pub use crate::app::error::{AppError, ErrorKind, RETRY_AFTER_SECS};

// The status code of each kind: the one thing about an error that is HTTP's.
impl ErrorKind {
    pub fn status(self) -> StatusCode {
        match self {
            ErrorKind::BadRequest => StatusCode::BAD_REQUEST,
            ErrorKind::Unauthorized => StatusCode::UNAUTHORIZED,
            ErrorKind::Forbidden => StatusCode::FORBIDDEN,
            ErrorKind::NotFound => StatusCode::NOT_FOUND,
            ErrorKind::Conflict => StatusCode::CONFLICT,
            ErrorKind::Unprocessable => StatusCode::UNPROCESSABLE_ENTITY,
            ErrorKind::TooManyRequests => StatusCode::TOO_MANY_REQUESTS,
            ErrorKind::Internal => StatusCode::INTERNAL_SERVER_ERROR,
            ErrorKind::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
            ErrorKind::InsufficientStorage => StatusCode::INSUFFICIENT_STORAGE,
        }
    }
}

impl From<actix_web::error::BlockingError> for AppError {
    fn from(e: actix_web::error::BlockingError) -> AppError {
        AppError::internal(e)
    }
}

impl From<askama::Error> for AppError {
    fn from(e: askama::Error) -> AppError {
        AppError::internal(e)
    }
}

/// Anything that converts into an [`AppError`] converts into both faces (`?` in handlers).
macro_rules! faces {
    ($($from:ty),*) => {$(
        impl From<$from> for HtmlError {
            fn from(e: $from) -> HtmlError { HtmlError(e.into()) }
        }
        impl From<$from> for ApiError {
            fn from(e: $from) -> ApiError { ApiError(e.into()) }
        }
    )*};
}

faces!(
    AppError,
    ledger::Error,
    crate::rules::RulesError,
    referee::Violations,
    ledger::IdError,
    actix_web::error::BlockingError,
    askama::Error
);

/// The error page.
#[derive(Template)]
#[template(path = "error.html")]
struct ErrorPage<'a> {
    nav: super::nav::Nav,
    status: u16,
    reason: &'a str,
    message: &'a str,
}

/// An error answered with an HTML page.
#[derive(Debug)]
pub struct HtmlError(pub AppError);

impl fmt::Display for HtmlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl ResponseError for HtmlError {
    fn status_code(&self) -> StatusCode {
        self.0.kind.status()
    }
    fn error_response(&self) -> HttpResponse {
        self.page(super::nav::Nav::anonymous())
    }
}

impl HtmlError {
    /// The error page with `nav`'s menu (the request's official's, see [`with_viewers_nav`]).
    fn page(&self, nav: super::nav::Nav) -> HttpResponse {
        let status = self.status_code();
        let page = ErrorPage {
            nav,
            status: status.as_u16(),
            reason: status.canonical_reason().unwrap_or("Error"),
            message: &self.0.message,
        };
        let body = page
            .render()
            .unwrap_or_else(|_| format!("{}: {}", status, self.0.message));
        let mut response = HttpResponse::build(status);
        if let Some(secs) = self.0.kind.retry_after() {
            response.insert_header((header::RETRY_AFTER, secs));
        }
        response.content_type("text/html; charset=utf-8").body(body)
    }
}

/// An error answered with JSON.
#[derive(Debug)]
pub struct ApiError(pub AppError);

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.0.kind.status()
    }
    fn error_response(&self) -> HttpResponse {
        let mut error =
            serde_json::json!({ "kind": self.0.kind.name(), "message": self.0.message });
        if !self.0.violations.is_empty() {
            error["violations"] = serde_json::json!(self.0.violations);
        }
        let mut response = HttpResponse::build(self.status_code());
        if let Some(secs) = self.0.kind.retry_after() {
            error["retry_after"] = secs.into();
            response.insert_header((header::RETRY_AFTER, secs));
        }
        response.json(serde_json::json!({ "error": error }))
    }
}

/// An error page rendered again with the menu of the official who asked, when the handler
/// had read one (its `Viewer` put his `Nav` in the request): a 403 does not offer "Log in" to
/// someone logged in. Other answers pass unchanged.
pub fn with_viewers_nav<B: actix_web::body::MessageBody + 'static>(
    res: actix_web::dev::ServiceResponse<B>,
) -> actix_web::dev::ServiceResponse<actix_web::body::BoxBody> {
    use actix_web::HttpMessage;
    let nav = res.request().extensions().get::<super::nav::Nav>().cloned();
    let page = match (nav, res.response().error()) {
        (Some(nav), Some(e)) => e.as_error::<HtmlError>().map(|e| e.page(nav)),
        _ => None,
    };
    match page {
        Some(page) => res.into_response(page),
        None => res.map_into_boxed_body(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn from_sqlite(code: i32) -> AppError {
        let e = rusqlite::Error::SqliteFailure(rusqlite::ffi::Error::new(code), None);
        ledger::Error::sqlite("appending", e).into()
    }

    #[test]
    fn a_busy_or_locked_database_is_503_with_retry_after_on_both_faces() {
        for code in [rusqlite::ffi::SQLITE_BUSY, rusqlite::ffi::SQLITE_LOCKED] {
            let e = from_sqlite(code);
            assert_eq!(e.kind, ErrorKind::Unavailable);
            assert!(e.message.contains("retrying is safe"), "{e}");
            for response in [
                HtmlError(e.clone()).error_response(),
                ApiError(e.clone()).error_response(),
            ] {
                assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
                assert_eq!(response.headers().get(header::RETRY_AFTER).unwrap(), "2");
            }
        }
    }

    #[test]
    fn a_full_disk_says_so() {
        let e = from_sqlite(rusqlite::ffi::SQLITE_FULL);
        assert_eq!(e.kind.status(), StatusCode::INSUFFICIENT_STORAGE);
        assert!(e.message.contains("disk is full"), "{e}");
        assert!(ApiError(e)
            .error_response()
            .headers()
            .get(header::RETRY_AFTER)
            .is_none());
    }
}
