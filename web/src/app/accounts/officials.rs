//! The officials' accounts: listing them, creating one, and the first administrator.
//!
//! An official's id is their login; their name is what pages show. Creating an account is
//! recorded in the account stream with a print of its password hash (never the hash). The
//! administrator `admin` is made on first run, when the database holds no official, so a fresh
//! service can be managed without a setup step. Changing an account (roles, disabling) is the
//! administrator's business, in `server::officials`.

use ledger::accounts::{self as recorded, AccountChange, AccountChanged};
use ledger::event::OfficialRole;
use ledger::{Ledger, OfficialId};
use rusqlite::{params, Connection, OptionalExtension};

use super::passwords::{check_password_length, hash_password};
use super::roles::role_name;
use super::secret::random_token;
use super::store::{now, official_row, sql, system};
use crate::app::error::AppError;

/// An official as listed to the administrator.
#[derive(Clone, Debug, serde::Serialize)]
pub struct OfficialListing {
    pub official: String,
    pub name: String,
    pub role: String,
    pub is_admin: bool,
    /// Disabled by the administrator: cannot log in; sessions and tokens refused.
    pub disabled: bool,
}

/// Every official.
pub fn list_officials(conn: &Connection) -> Result<Vec<OfficialListing>, AppError> {
    let mut stmt = conn
        .prepare_cached(&format!("{LISTING} ORDER BY official"))
        .map_err(sql("listing officials"))?;
    let rows = stmt
        .query_map([], listing_row)
        .map_err(sql("listing officials"))?;
    rows.collect::<rusqlite::Result<_>>()
        .map_err(sql("listing officials"))
}

/// One official as listed, or 404.
pub fn official_listing(conn: &Connection, id: &str) -> Result<OfficialListing, AppError> {
    conn.prepare_cached(&format!("{LISTING} WHERE official = ?1"))
        .and_then(|mut s| s.query_row([id], listing_row).optional())
        .map_err(sql("reading an official"))?
        .ok_or_else(|| AppError::not_found(format!("there is no official `{id}`")))
}

const LISTING: &str =
    "SELECT official, name, role, is_admin, disabled_at IS NOT NULL AS disabled FROM officials";

fn listing_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<OfficialListing> {
    let (official, name, role, is_admin) = official_row(r)?;
    Ok(OfficialListing {
        official,
        name,
        role,
        is_admin,
        disabled: r.get(4)?,
    })
}

/// Creates an official, recorded as done by `by`; refuses a taken id or a short password.
pub fn create_official(
    ledger: &mut Ledger,
    by: &OfficialId,
    id: &OfficialId,
    name: &str,
    role: OfficialRole,
    is_admin: bool,
    password: &str,
) -> Result<(), AppError> {
    check_password_length(password)?;
    if name.trim().is_empty() {
        return Err(AppError::unprocessable("the official's name is empty"));
    }
    if let Some(why) = referee::ids::name_problem(name) {
        return Err(AppError::unprocessable(why));
    }
    let hash = hash_password(password)?;
    create_official_hashed(ledger, by, id, name, role, is_admin, &hash)
}

/// [`create_official`] with the password already hashed (the service hashes it on a blocking
/// thread, holding no lock).
pub fn create_official_hashed(
    ledger: &mut Ledger,
    by: &OfficialId,
    id: &OfficialId,
    name: &str,
    role: OfficialRole,
    is_admin: bool,
    hash: &str,
) -> Result<(), AppError> {
    if name.trim().is_empty() {
        return Err(AppError::unprocessable("the official's name is empty"));
    }
    if let Some(why) = referee::ids::name_problem(name) {
        return Err(AppError::unprocessable(why));
    }
    if super::store::COMMAND_LINE.contains(&id.as_str()) {
        return Err(AppError::unprocessable(format!(
            "`{id}` is the command line's own name: choose another id for the official"
        )));
    }
    ledger.change_accounts(by, |conn| {
        let inserted = conn
            .execute(
                "INSERT OR IGNORE INTO officials (official, name, role, is_admin, password_hash, created_at) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![id.as_str(), name.trim(), role_name(role), is_admin, hash, now()],
            )
            .map_err(sql("creating an official"))?;
        if inserted == 0 {
            return Err(AppError::conflict(format!(
                "there is already an official `{id}`"
            )));
        }
        let created = AccountChanged {
            official: id.clone(),
            change: AccountChange::Created {
                name: name.trim().to_owned(),
                role,
                admin: is_admin,
                password: recorded::password_print(hash),
            },
        };
        Ok(((), vec![created]))
    })
}

/// Creates the administrator on first run. Returns the password when it was generated (to be
/// printed once), `None` when officials already exist or the password was given.
///
/// Officials a database held before account changes were recorded are adopted into the record
/// first ([`Ledger::adopt_accounts`]).
pub fn ensure_admin(ledger: &mut Ledger, password: Option<&str>) -> Result<AdminSetup, AppError> {
    ledger.adopt_accounts()?;
    let count: i64 = ledger
        .connection()
        .query_row("SELECT COUNT(*) FROM officials", [], |r| r.get(0))
        .map_err(sql("counting officials"))?;
    if count > 0 {
        return Ok(AdminSetup::Existing);
    }
    let generated = password.is_none().then(|| random_token()[..20].to_owned());
    let password = password
        .map(str::to_owned)
        .or(generated.clone())
        .unwrap_or_default();
    let id = OfficialId::new("admin").map_err(AppError::internal)?;
    create_official(
        ledger,
        &system(),
        &id,
        "Administrator",
        OfficialRole::Organiser,
        true,
        &password,
    )?;
    Ok(AdminSetup::Created { generated })
}

/// What [`ensure_admin`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AdminSetup {
    /// The database had no official: the administrator `admin` was created, with the password
    /// given or, when none was, the one generated here.
    Created { generated: Option<String> },
    /// The database has officials already: nothing was changed (a password given was not used).
    Existing,
}
