//! Login sessions: opening one with a password, finding its official, their expiry, and
//! logging out.
//!
//! A session is a random token of which the database keeps only the SHA-256, with the CSRF
//! token its forms echo; it lasts [`SESSION_SECONDS`], and expired sessions are cleared whenever
//! one is opened. A disabled official's sessions are refused on every request
//! ([`by_session`]), so disabling takes effect at once. Opening and closing a session are
//! recorded in the account stream as the official's own login and logout.

use ledger::accounts::{self as recorded, AccountChange, AccountChanged};
use ledger::{Ledger, OfficialId};
use rusqlite::{params, Connection, OptionalExtension};

use super::passwords::{password_hash_of, password_matches};
use super::secret::{random_token, sha256};
use super::store::{changed, now, official_row, sql, system, to_official};
use super::viewer::Official;
use crate::app::error::{AppError, ErrorKind};

/// How long a session lasts.
pub const SESSION_SECONDS: i64 = 12 * 3600;

/// Checks a login and opens a session: returns (session token, CSRF token). The service
/// checks the password off the officials' lock ([`password_hash_of`], [`password_matches`],
/// [`open_session`]); this runs the three in a row, for tools and tests.
pub fn login(ledger: &mut Ledger, id: &str, password: &str) -> Result<(String, String), AppError> {
    let stored = password_hash_of(ledger.connection(), id)?;
    if !password_matches(password, stored.as_deref()) {
        return Err(wrong_login());
    }
    open_session(ledger, id)
}

/// The refusal of a login, the same whether the official or the password was wrong.
pub fn wrong_login() -> AppError {
    AppError::new(
        ErrorKind::Unauthorized,
        "unknown official or wrong password",
    )
}

/// Opens a session for official `id`, whose password was checked, recorded as the official's
/// own login: (session token, CSRF token).
pub fn open_session(ledger: &mut Ledger, id: &str) -> Result<(String, String), AppError> {
    let by = OfficialId::new(id).map_err(|_| wrong_login())?;
    ledger.change_accounts(&by, |conn| {
        let (session, change) = open_session_in(conn, id)?;
        Ok((session, vec![change]))
    })
}

/// [`open_session`] inside a transaction already open on the ledger's connection.
pub(crate) fn open_session_in(
    conn: &Connection,
    id: &str,
) -> Result<((String, String), AccountChanged), AppError> {
    let (token, csrf) = (random_token(), random_token());
    conn.execute("DELETE FROM sessions WHERE expires_at <= ?1", [now()])
        .map_err(sql("expiring sessions"))?;
    let expires_at = now() + SESSION_SECONDS;
    let stored = sha256(&token);
    conn.execute(
        "INSERT INTO sessions (token_sha256, official, csrf_token, expires_at) VALUES (?1, ?2, ?3, ?4)",
        params![stored, id, csrf, expires_at],
    )
    .map_err(sql("opening a session"))?;
    let change = changed(
        id,
        AccountChange::SessionOpened {
            session: recorded::session_print(&stored),
            expires_at,
        },
    )?;
    Ok(((token, csrf), change))
}

/// The official whose session `token` is, with the session's CSRF token; `None` for a session
/// that is unknown, expired, or its official's who is disabled.
// A disabled official's sessions are refused here, on every request that carries one
// (`o.disabled_at IS NULL`): disabling takes effect at once, with no cache to outlive it.
pub fn by_session(conn: &Connection, token: &str) -> Result<Option<Official>, AppError> {
    let row = conn
        .prepare_cached(
            "SELECT o.official, o.name, o.role, o.is_admin, s.csrf_token FROM sessions s \
             JOIN officials o ON o.official = s.official WHERE s.token_sha256 = ?1 AND s.expires_at > ?2 \
             AND o.disabled_at IS NULL",
        )
        .and_then(|mut s| {
            s.query_row(params![sha256(token), now()], |r| {
                Ok((official_row(r)?, r.get::<_, String>(4)?))
            })
            .optional()
        })
        .map_err(sql("reading a session"))?;
    match row {
        Some((o, csrf)) => to_official(Some(o), Some(csrf)),
        None => Ok(None),
    }
}

/// Ends a session, recorded as its official's logout; nothing for a session that is not open.
pub fn logout(ledger: &mut Ledger, token: &str) -> Result<(), AppError> {
    let stored = sha256(token);
    let official: Option<String> = ledger
        .connection()
        .query_row(
            "SELECT official FROM sessions WHERE token_sha256 = ?1",
            [&stored],
            |r| r.get(0),
        )
        .optional()
        .map_err(sql("finding a session"))?;
    let Some(official) = official else {
        return Ok(());
    };
    let by = OfficialId::new(&official).unwrap_or_else(|_| system());
    ledger.change_accounts(&by, |conn| {
        conn.execute("DELETE FROM sessions WHERE token_sha256 = ?1", [&stored])
            .map_err(sql("ending a session"))?;
        let closed = changed(
            &official,
            AccountChange::SessionClosed {
                session: recorded::session_print(&stored),
            },
        )?;
        Ok(((), vec![closed]))
    })
}
