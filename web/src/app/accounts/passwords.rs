//! Passwords: their policy, their argon2id hashes, checking one, and setting one.
//!
//! A password is stored only as an argon2id hash with a random salt (a PHC string). Checking
//! one takes tens of milliseconds by design, so the service runs it on a blocking thread
//! holding no lock, and an unknown official costs a guesser as long as a wrong password.
//! Setting a password ends the official's sessions in the same transaction: a password thought
//! known to someone else stops working at once.

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use ledger::accounts::{self as recorded, AccountChange, AccountChanged};
use ledger::{Ledger, OfficialId};
use rusqlite::{params, Connection, OptionalExtension};

use super::store::{changed, sql};
use crate::app::error::AppError;

/// The minimum length of a password.
pub const MIN_PASSWORD: usize = 8;

/// Whether `password` is long enough ([`MIN_PASSWORD`] characters).
pub fn password_long_enough(password: &str) -> bool {
    password.chars().count() >= MIN_PASSWORD
}

/// The refusal of a password too short.
pub fn too_short() -> String {
    format!("The password is too short: a password needs at least {MIN_PASSWORD} characters.")
}

/// Refuses (422) a password shorter than [`MIN_PASSWORD`].
pub(crate) fn check_password_length(password: &str) -> Result<(), AppError> {
    if !password_long_enough(password) {
        return Err(AppError::unprocessable(too_short()));
    }
    Ok(())
}

/// Hashes a password with argon2id and a random salt (PHC string).
pub fn hash_password(password: &str) -> Result<String, AppError> {
    let salt = SaltString::encode_b64(&rand::random::<[u8; 16]>()).map_err(AppError::internal)?;
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(AppError::internal)
}

fn verify_password(password: &str, phc: &str) -> bool {
    PasswordHash::new(phc)
        .map(|h| {
            Argon2::default()
                .verify_password(password.as_bytes(), &h)
                .is_ok()
        })
        .unwrap_or(false)
}

/// The hash verified for an unknown official, so that a wrong id takes as long as a wrong
/// password.
const DUMMY_HASH: &str =
    "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$MVJaOtDnWQQx3RnVCFqDgSmJ1Bk8Vc3SX3NC3qkQ0Fc";

/// The stored password hash of official `id`, if there is such an official and they are not
/// disabled (a disabled official's login is refused like a wrong password, telling a guesser
/// nothing).
pub fn password_hash_of(conn: &Connection, id: &str) -> Result<Option<String>, AppError> {
    conn.prepare_cached(
        "SELECT password_hash FROM officials WHERE official = ?1 AND disabled_at IS NULL",
    )
    .and_then(|mut s| s.query_row([id], |r| r.get(0)).optional())
    .map_err(sql("reading an official"))
}

/// Whether `password` matches `stored` (argon2id, tens of milliseconds: run it on a blocking
/// thread, holding no lock). For an unknown official a dummy hash is verified, so that a wrong
/// id takes as long as a wrong password.
pub fn password_matches(password: &str, stored: Option<&str>) -> bool {
    match stored {
        Some(hash) => verify_password(password, hash),
        None => {
            let _ = verify_password(password, DUMMY_HASH);
            false
        }
    }
}

/// Sets official `id`'s password and ends its sessions (so a password thought known to someone
/// else stops working at once), recorded as done by `by`; refuses a short password or an
/// unknown official.
pub fn reset_password(
    ledger: &mut Ledger,
    by: &OfficialId,
    id: &str,
    password: &str,
) -> Result<(), AppError> {
    check_password_length(password)?;
    set_password_hash(ledger, by, id, &hash_password(password)?)
}

/// Stores official `id`'s new password hash and ends all its sessions, with its record, in
/// one transaction.
pub fn set_password_hash(
    ledger: &mut Ledger,
    by: &OfficialId,
    id: &str,
    hash: &str,
) -> Result<(), AppError> {
    ledger.change_accounts(by, |conn| Ok(((), set_password_hash_in(conn, id, hash)?)))
}

/// [`set_password_hash`] inside a transaction already open on the ledger's connection.
pub(crate) fn set_password_hash_in(
    conn: &Connection,
    id: &str,
    hash: &str,
) -> Result<Vec<AccountChanged>, AppError> {
    let changed_rows = conn
        .execute(
            "UPDATE officials SET password_hash = ?2 WHERE official = ?1",
            params![id, hash],
        )
        .map_err(sql("setting a password"))?;
    if changed_rows == 0 {
        return Err(AppError::not_found(format!("there is no official `{id}`")));
    }
    conn.execute("DELETE FROM sessions WHERE official = ?1", [id])
        .map_err(sql("ending an official's sessions"))?;
    Ok(vec![changed(
        id,
        AccountChange::PasswordSet {
            password: recorded::password_print(hash),
        },
    )?])
}
