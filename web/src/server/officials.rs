//! Withdrawing and changing credentials: the administrator gives an official a role, makes or
//! unmakes an administrator, disables or re-enables an official and resets a password; any
//! official changes their own password.
//!
//! One invariant guards the administrator's changes: **an active administrator remains**, or
//! nobody could manage officials again short of the `admin` command line. Each change runs in one
//! `BEGIN IMMEDIATE` transaction that applies it, checks the invariant and only then commits, so
//! a refused change writes nothing, and two administrators demoting each other at once cannot
//! both succeed. Disabling ends the official's sessions in the same transaction; their API
//! tokens stay in the table but are refused while they are disabled (`auth` checks the column on
//! every authenticated request), and work again when they are re-enabled.

use std::net::IpAddr;

use actix_web::web;
use ledger::accounts::{AccountChange, AccountChanged};
use ledger::event::OfficialRole;
use ledger::{Ledger, OfficialId};
use referee::{Violation, Violations};
use rusqlite::{params, Connection};
use serde::Deserialize;

use super::auth::{self, Official, OfficialListing};
use super::error::{AppError, ErrorKind};
use super::state::AppState;

/// What the administrator does to an official.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// Give `role`, and make (`Some(true)`) or unmake (`Some(false)`) an administrator;
    /// `None` leaves that as it is.
    Role {
        role: OfficialRole,
        is_admin: Option<bool>,
    },
    /// The official can no longer log in; their sessions end and their tokens are refused.
    Disable,
    /// The official may log in again; their API tokens work again.
    Enable,
}

impl Change {
    /// The change as a verb, for a refusal: "disabling".
    const fn verb(self) -> &'static str {
        match self {
            Change::Role {
                is_admin: Some(false),
                ..
            } => "taking the administrator's rights from",
            Change::Role { .. } => "changing the role of",
            Change::Disable => "disabling",
            Change::Enable => "enabling",
        }
    }
}

/// Why the administrator's change was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ManageError {
    #[error("there is no official `{0}`")]
    NoSuchOfficial(String),
    #[error(
        "{verb} `{official}` would leave no active administrator to manage officials: \
         make another official administrator first; nothing was changed"
    )]
    LastAdministrator {
        official: String,
        verb: &'static str,
    },
}

impl From<ManageError> for AppError {
    fn from(e: ManageError) -> AppError {
        match e {
            ManageError::NoSuchOfficial(_) => AppError::not_found(e.to_string()),
            ManageError::LastAdministrator { .. } => AppError::conflict(e.to_string()),
        }
    }
}

fn sql(context: &'static str) -> impl Fn(rusqlite::Error) -> AppError {
    move |e| AppError::internal(format!("{context}: {e}"))
}

/// Applies `change` to official `id`, with its record, all or nothing (recorded as done by
/// `by`); answers the official as now listed.
pub fn apply(
    ledger: &mut Ledger,
    by: &OfficialId,
    id: &str,
    change: Change,
) -> Result<OfficialListing, AppError> {
    ledger.change_accounts(by, |tx| apply_in(tx, id, change))
}

/// [`apply`] inside the transaction the ledger opened for it: an error rolls everything back.
fn apply_in(
    tx: &Connection,
    id: &str,
    change: Change,
) -> Result<(OfficialListing, Vec<AccountChanged>), AppError> {
    let changed = match change {
        Change::Role { role, is_admin } => tx.execute(
            "UPDATE officials SET role = ?2, is_admin = COALESCE(?3, is_admin) WHERE official = ?1",
            params![id, auth::role_name(role), is_admin],
        ),
        Change::Disable => tx.execute(
            "UPDATE officials SET disabled_at = COALESCE(disabled_at, ?2) WHERE official = ?1",
            params![id, auth::now()],
        ),
        Change::Enable => tx.execute(
            "UPDATE officials SET disabled_at = NULL WHERE official = ?1",
            [id],
        ),
    }
    .map_err(sql("changing an official"))?;
    if changed == 0 {
        return Err(ManageError::NoSuchOfficial(id.to_owned()).into());
    }
    if change == Change::Disable {
        tx.execute("DELETE FROM sessions WHERE official = ?1", [id])
            .map_err(sql("ending an official's sessions"))?;
    }
    let admins: i64 = tx
        .query_row(
            "SELECT COUNT(*) FROM officials WHERE is_admin AND disabled_at IS NULL",
            [],
            |r| r.get(0),
        )
        .map_err(sql("counting administrators"))?;
    if admins == 0 {
        // The error rolls the change back.
        return Err(ManageError::LastAdministrator {
            official: id.to_owned(),
            verb: change.verb(),
        }
        .into());
    }
    let listing = auth::official_listing(tx, id)?;
    let what = match change {
        Change::Role { .. } => AccountChange::RoleSet {
            role: auth::parse_role(&listing.role)?,
            admin: listing.is_admin,
        },
        Change::Disable => AccountChange::Disabled,
        Change::Enable => AccountChange::Enabled,
    };
    Ok((listing, vec![auth::changed(id, what)?]))
}

/// An official changing their own password. The form sends `repeat`; a program may leave it
/// out. Anything else is refused rather than ignored.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PasswordChange {
    #[serde(default)]
    pub csrf: String,
    #[serde(default)]
    pub current: String,
    #[serde(default)]
    pub new: String,
    #[serde(default)]
    pub repeat: Option<String>,
}

impl PasswordChange {
    /// The problems seen without the stored hash: each with its field.
    fn problems(&self) -> Vec<Violation> {
        let mut found = Vec::new();
        if !auth::password_long_enough(&self.new) {
            found.push(Violation::new("new", auth::too_short()));
        }
        if self.repeat.as_ref().is_some_and(|r| *r != self.new) {
            found.push(Violation::new(
                "repeat",
                "the new password and its repetition differ",
            ));
        }
        if !self.new.is_empty() && self.new == self.current {
            found.push(Violation::new("new", "the new password is the current one"));
        }
        found
    }
}

/// Changes `official`'s own password and ends every session of theirs; when `renew` (the request
/// came with a session), opens a new session and answers it as (token, CSRF token).
///
/// The current password is checked like a login (throttled, on a blocking thread without the
/// officials' lock), so a session left open is no oracle for guessing it. Every problem is listed
/// at once, each with its field (`current`, `new`, `repeat`); a refused change writes nothing.
pub async fn change_own_password(
    state: &web::Data<AppState>,
    official: &Official,
    address: Option<IpAddr>,
    renew: bool,
    change: PasswordChange,
) -> Result<Option<(String, String)>, AppError> {
    let id = official.id.to_string();
    if let Err(wait) = state.login_throttle().attempt(&id, address) {
        let seconds = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
        return Err(AppError::new(
            ErrorKind::TooManyRequests,
            format!("too many password attempts: try again in {seconds} seconds"),
        ));
    }
    let mut problems = change.problems();
    let who = id.clone();
    let stored = state
        .auth(move |conn| auth::password_hash_of(conn, &who))
        .await?;
    let current = change.current.clone();
    let matches = state
        .password_check(move || auth::password_matches(&current, stored.as_deref()))
        .await?;
    if !matches {
        problems.insert(
            0,
            Violation::new("current", "this is not your current password"),
        );
    }
    if !problems.is_empty() {
        return Err(AppError::violations(Violations(problems)));
    }
    let hash = state
        .password_check(move || auth::hash_password(&change.new))
        .await??;
    let by = official.id.clone();
    state
        .write(move |ledger| {
            ledger.change_accounts(&by, |conn| {
                let mut changes = auth::set_password_hash_in(conn, &id, &hash)?;
                let session = match renew {
                    true => {
                        let (session, opened) = auth::open_session_in(conn, &id)?;
                        changes.push(opened);
                        Some(session)
                    }
                    false => None,
                };
                Ok((session, changes))
            })
        })
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(current: &str, new: &str, repeat: Option<&str>) -> PasswordChange {
        PasswordChange {
            current: current.into(),
            new: new.into(),
            repeat: repeat.map(Into::into),
            ..Default::default()
        }
    }

    #[test]
    fn every_problem_of_a_new_password_is_listed_with_its_field() {
        let fields = |c: PasswordChange| -> Vec<String> {
            c.problems().into_iter().map(|v| v.field).collect()
        };
        assert_eq!(
            fields(change("old password", "short", Some("other"))),
            ["new", "repeat"]
        );
        assert_eq!(
            fields(change("old password", "old password", None)),
            ["new"]
        );
        assert!(fields(change("old password", "new password", Some("new password"))).is_empty());
        assert!(fields(change("old password", "new password", None)).is_empty());
    }

    #[test]
    fn refusals_say_what_and_whom() {
        let e = ManageError::LastAdministrator {
            official: "admin".into(),
            verb: Change::Disable.verb(),
        };
        assert!(e
            .to_string()
            .starts_with("disabling `admin` would leave no active administrator"));
        assert_eq!(AppError::from(e).kind, ErrorKind::Conflict);
        assert_eq!(
            AppError::from(ManageError::NoSuchOfficial("x".into())).kind,
            ErrorKind::NotFound
        );
    }
}
