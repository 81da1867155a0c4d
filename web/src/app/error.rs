//! The application's one error: a kind and a message for whoever asked, free of HTTP.
//!
//! Why here and not in the server: the application layer (accounts today) is called by pages,
//! the JSON API and the command line alike, so its error may not depend on actix. A command
//! says *what kind* of refusal it is (not found, conflict, unprocessable …) and words it for the
//! person or program that asked; the server's `error` module gives each kind its status code
//! and its two faces (an HTML page, a JSON body), and the command line prints the message.
//! Internal failures are logged here with their detail and worded only as "internal error".

use std::fmt;

use crate::rules::RulesError;

/// What went wrong: the kind decides the status code a request is answered with (the server
/// maps each kind to one, `server::error`).
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
    /// Each violation as a line ("field: message"), or the message when there are none.
    pub fn messages(&self) -> Vec<String> {
        if self.violations.is_empty() {
            vec![self.message.clone()]
        } else {
            self.violations.iter().map(ToString::to_string).collect()
        }
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
