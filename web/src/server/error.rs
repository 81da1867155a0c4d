//! One error type for the whole service, and its two faces.
//!
//! Policy: handlers return [`AppError`] (a kind and a message meant for the person or program
//! that sent the request). Page handlers wrap it in [`HtmlError`], which renders the error
//! page; API handlers in [`ApiError`], which renders `{"error": {"kind", "message"}}`. Internal
//! failures (SQLite, a poisoned lock) are logged with their detail and shown only as "internal
//! error": never a stack trace. Every write is all-or-nothing in the ledger, so a refused request
//! has changed nothing. A database busy with another writer is 503 with `Retry-After` (retrying
//! is safe), and a full disk is 507: both are the server's state, not the request's fault.

use std::fmt;

use actix_web::http::{header, StatusCode};
use actix_web::{HttpResponse, ResponseError};
use askama::Template;

use crate::rules::RulesError;

/// What went wrong, which decides the status code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// 400: the request is malformed (a field missing, an id not well-formed).
    BadRequest,
    /// 401: not logged in, or no valid API token.
    Unauthorized,
    /// 403: logged in but not allowed (CSRF token missing, not an administrator).
    Forbidden,
    /// 404: no such tournament, table, hand or player.
    NotFound,
    /// 409: someone else wrote first (the ledger's optimistic concurrency); reload and retry.
    Conflict,
    /// 422: well-formed but refused by the rules (a hand that cannot exist, a fifth player).
    Unprocessable,
    /// 429: too many attempts at a password (a login, a password change); wait and retry.
    TooManyRequests,
    /// 500: our fault.
    Internal,
    /// 503: the database is busy with another writer; nothing was written, retry after a moment.
    Unavailable,
    /// 507: the database's disk is full; nothing was written.
    InsufficientStorage,
}

/// The seconds a busy answer asks the client to wait before retrying.
pub const RETRY_AFTER_SECS: u32 = 2;

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

    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::BadRequest => "bad_request",
            ErrorKind::Unauthorized => "unauthorized",
            ErrorKind::Forbidden => "forbidden",
            ErrorKind::NotFound => "not_found",
            ErrorKind::Conflict => "conflict",
            ErrorKind::Unprocessable => "unprocessable",
            ErrorKind::TooManyRequests => "too_many_requests",
            ErrorKind::Internal => "internal",
            ErrorKind::Unavailable => "unavailable",
            ErrorKind::InsufficientStorage => "insufficient_storage",
        }
    }

    /// The `Retry-After` an answer of this kind carries: only a busy database's.
    pub fn retry_after(self) -> Option<u32> {
        (self == ErrorKind::Unavailable).then_some(RETRY_AFTER_SECS)
    }
}

/// An error with its kind and a message for the requester, and — when the rules refused a
/// command — every violation, each with its field and rule section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AppError {
    pub kind: ErrorKind,
    pub message: String,
    pub violations: Vec<referee::Violation>,
}

impl AppError {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> AppError {
        AppError {
            kind,
            message: message.into(),
            violations: Vec::new(),
        }
    }

    /// 422 listing every violation (the message joins them for pages that show one line).
    pub fn violations(v: referee::Violations) -> AppError {
        AppError {
            kind: ErrorKind::Unprocessable,
            message: v.to_string(),
            violations: v.0,
        }
    }
    pub fn bad_request(m: impl Into<String>) -> AppError {
        AppError::new(ErrorKind::BadRequest, m)
    }
    pub fn unauthorized() -> AppError {
        AppError::new(
            ErrorKind::Unauthorized,
            "only officials may write: log in, or send an API token (Authorization: Bearer …)",
        )
    }
    pub fn forbidden(m: impl Into<String>) -> AppError {
        AppError::new(ErrorKind::Forbidden, m)
    }
    pub fn not_found(m: impl Into<String>) -> AppError {
        AppError::new(ErrorKind::NotFound, m)
    }
    pub fn conflict(m: impl Into<String>) -> AppError {
        AppError::new(ErrorKind::Conflict, m)
    }
    pub fn unprocessable(m: impl Into<String>) -> AppError {
        AppError::new(ErrorKind::Unprocessable, m)
    }
    /// Logs the detail; the requester sees only that it was our fault.
    pub fn internal(detail: impl fmt::Display) -> AppError {
        tracing::error!(error = %detail, "internal error");
        AppError::new(
            ErrorKind::Internal,
            "internal error: the request was not carried out (see the server log)",
        )
    }
    pub fn is_input_error(&self) -> bool {
        matches!(
            self.kind,
            ErrorKind::BadRequest | ErrorKind::Unprocessable | ErrorKind::Conflict
        )
    }
}

impl fmt::Display for AppError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind.name(), self.message)
    }
}

impl std::error::Error for AppError {}

impl From<ledger::Error> for AppError {
    fn from(e: ledger::Error) -> AppError {
        match e {
            ledger::Error::Conflict { .. } => AppError::conflict(format!(
                "{e}. Someone recorded at the same time: reload and check before retrying."
            )),
            ledger::Error::BadSettlement { .. } | ledger::Error::UnknownSuperseded { .. } => {
                AppError::unprocessable(e.to_string())
            }
            ledger::Error::Busy { .. } => {
                tracing::warn!(error = %e, "database busy");
                AppError::new(
                    ErrorKind::Unavailable,
                    format!(
                        "the database is busy with another writer: nothing was written, and \
                         retrying is safe (retry in {RETRY_AFTER_SECS} seconds)"
                    ),
                )
            }
            ledger::Error::DiskFull { .. } => {
                tracing::error!(error = %e, "disk full");
                AppError::new(
                    ErrorKind::InsufficientStorage,
                    "the server's disk is full: nothing was written; retry once the \
                     administrator has freed some space",
                )
            }
            other => AppError::internal(other),
        }
    }
}

impl From<RulesError> for AppError {
    fn from(e: RulesError) -> AppError {
        AppError::unprocessable(e.to_string())
    }
}

impl From<referee::Violations> for AppError {
    fn from(v: referee::Violations) -> AppError {
        AppError::violations(v)
    }
}

impl From<ledger::IdError> for AppError {
    fn from(e: ledger::IdError) -> AppError {
        AppError::bad_request(e.to_string())
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
    RulesError,
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
        let status = self.status_code();
        let page = ErrorPage {
            nav: super::nav::Nav::anonymous(),
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
