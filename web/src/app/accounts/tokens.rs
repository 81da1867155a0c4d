//! API tokens: programs' credentials, issued by an official to themselves.
//!
//! A token is `mjr_` and 32 random bytes, shown once when issued and stored only as its
//! SHA-256; it lasts until revoked or until the expiry it was given. A bearer token is not sent
//! by browsers on their own, so requests carrying one need no CSRF token. A disabled official's
//! tokens stay in the table but are refused ([`by_api_token`]) until they are enabled again.

use ledger::accounts::{self as recorded, AccountChange, AccountChanged};
use ledger::{Ledger, OfficialId};
use rusqlite::{params, Connection, OptionalExtension};

use super::secret::{random_token, sha256};
use super::store::{changed, now, official_row, sql, to_official};
use super::viewer::Official;
use crate::app::error::AppError;

/// Creates an API token for an official, valid until revoked; the token is returned once and
/// stored as its hash.
pub fn create_api_token(
    ledger: &mut Ledger,
    official: &OfficialId,
    label: &str,
) -> Result<String, AppError> {
    create_api_token_until(ledger, official, label, None)
}

/// Creates an API token valid until `expires_at` (Unix seconds; `None`: until revoked),
/// recorded as issued by the official to themselves.
pub fn create_api_token_until(
    ledger: &mut Ledger,
    official: &OfficialId,
    label: &str,
    expires_at: Option<i64>,
) -> Result<String, AppError> {
    let token = format!("mjr_{}", random_token());
    let stored = sha256(&token);
    ledger.change_accounts(official, |conn| {
        conn.execute(
            "INSERT INTO api_tokens (token_sha256, official, label, created_at, expires_at) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![stored, official.as_str(), label.trim(), now(), expires_at],
        )
        .map_err(sql("creating an API token"))?;
        let issued = AccountChanged {
            official: official.clone(),
            change: AccountChange::TokenIssued {
                token: recorded::token_print(&stored),
                label: label.trim().to_owned(),
                expires_at,
            },
        };
        Ok::<_, AppError>(((), vec![issued]))
    })?;
    Ok(token)
}

/// The official whose API token `token` is; `None` for a token that is unknown, expired,
/// revoked, or its official's who is disabled (refused on every request, as sessions are).
pub fn by_api_token(conn: &Connection, token: &str) -> Result<Option<Official>, AppError> {
    let row = conn
        .prepare_cached(
            "SELECT o.official, o.name, o.role, o.is_admin FROM api_tokens t \
             JOIN officials o ON o.official = t.official WHERE t.token_sha256 = ?1 \
             AND (t.expires_at IS NULL OR t.expires_at > ?2) AND o.disabled_at IS NULL",
        )
        .and_then(|mut s| {
            s.query_row(params![sha256(token), now()], official_row)
                .optional()
        })
        .map_err(sql("reading an API token"))?;
    to_official(row, None)
}

/// One of an official's API tokens, as its account page lists it (never the token itself).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenListing {
    /// The row's number, to revoke it by.
    pub id: i64,
    pub label: String,
    /// Unix seconds.
    pub created_at: i64,
    pub expires_at: Option<i64>,
    /// Past its expiry: refused.
    pub expired: bool,
}

/// An official's API tokens, newest first.
pub fn list_api_tokens(conn: &Connection, official: &str) -> Result<Vec<TokenListing>, AppError> {
    let mut stmt = conn
        .prepare_cached(
            "SELECT rowid, label, created_at, expires_at FROM api_tokens WHERE official = ?1 \
             ORDER BY created_at DESC, rowid DESC",
        )
        .map_err(sql("listing API tokens"))?;
    let at = now();
    let rows = stmt
        .query_map([official], |r| {
            let expires_at: Option<i64> = r.get(3)?;
            Ok(TokenListing {
                id: r.get(0)?,
                label: r.get(1)?,
                created_at: r.get(2)?,
                expires_at,
                expired: expires_at.is_some_and(|e| e <= at),
            })
        })
        .map_err(sql("listing API tokens"))?;
    rows.collect::<Result<_, _>>()
        .map_err(sql("listing API tokens"))
}

/// Revokes official `official`'s token `id`: it stops working at once.
pub fn revoke_api_token(ledger: &mut Ledger, official: &str, id: i64) -> Result<(), AppError> {
    let by = OfficialId::new(official)
        .map_err(|_| AppError::not_found(format!("you have no API token number {id}")))?;
    ledger.change_accounts(&by, |conn| {
        let stored: Option<Vec<u8>> = conn
            .query_row(
                "SELECT token_sha256 FROM api_tokens WHERE rowid = ?1 AND official = ?2",
                params![id, official],
                |r| r.get(0),
            )
            .optional()
            .map_err(sql("revoking an API token"))?;
        let Some(stored) = stored else {
            return Err(AppError::not_found(format!(
                "you have no API token number {id}"
            )));
        };
        conn.execute("DELETE FROM api_tokens WHERE rowid = ?1", [id])
            .map_err(sql("revoking an API token"))?;
        let revoked = changed(
            official,
            AccountChange::TokenRevoked {
                token: recorded::token_print(&stored),
            },
        )?;
        Ok(((), vec![revoked]))
    })
}
