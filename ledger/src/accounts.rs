//! Accounts under audit: who could write, and when, is part of the record.
//!
//! The officials, their sessions and their API tokens live in ordinary tables
//! (`migrations/0004_officials.sql`): rows are updated and deleted as passwords change,
//! sessions end and tokens are revoked, and they hold what must stay secret (hashes only). An
//! edit to those tables behind the program's back — `UPDATE officials SET is_admin = 1`, a
//! session row slipped in — would give someone the right to write while the event chain stays
//! intact. So every change to them is also a ledger event ([`AccountChanged`], in the one
//! stream `accounts:officials`), appended in the same transaction as the change
//! ([`Ledger::change_accounts`]), and the audit folds those events into what the tables must
//! hold and compares ([`check`]): every official's name, role, administrator flag, whether
//! disabled, and password; every API token; every session.
//!
//! The events never hold a secret: a password is recorded as a fingerprint of its argon2id
//! hash (which cannot be checked against a guess without the hash's own salt), a token or a
//! session as a fingerprint of the SHA-256 the table already stores ([`fingerprint`]).
//!
//! A database whose officials predate this record is adopted once
//! ([`Ledger::adopt_accounts`]): its tables as they stand become the first events. What was
//! edited before that cannot be told; everything after can.

use std::collections::BTreeMap;

use rusqlite::{Connection, OptionalExtension};
use sha2::{Digest, Sha256};

use crate::discrepancy::Discrepancy;
use crate::error::{Error, Result, SqlContext};
pub use crate::event::{AccountChange, AccountChanged};
use crate::event::{Event, OfficialRole};
use crate::head::ExpectedVersion;
use crate::ids::{OfficialId, StreamId, StreamKind};
use crate::read::stream_events;
use crate::store::{Ledger, NewEvent};

/// The one stream of account changes.
pub fn stream() -> StreamId {
    // A constant, valid id.
    StreamId::new(StreamKind::Accounts, "officials").unwrap_or_else(|_| unreachable!())
}

/// The fingerprint a secret's stored hash is recorded by: SHA-256 over a domain tag and the
/// bytes, 32 hexadecimal digits.
pub fn fingerprint(kind: &str, stored: &[u8]) -> String {
    let mut h = Sha256::new();
    h.update(kind.as_bytes());
    h.update([0]);
    h.update(stored);
    h.finalize()[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A password hash's fingerprint.
pub fn password_print(phc: &str) -> String {
    fingerprint("password", phc.as_bytes())
}

/// A session's fingerprint, from the SHA-256 of its token as the table stores it.
pub fn session_print(token_sha256: &[u8]) -> String {
    fingerprint("session", token_sha256)
}

/// An API token's fingerprint, from the SHA-256 of the token as the table stores it.
pub fn token_print(token_sha256: &[u8]) -> String {
    fingerprint("api-token", token_sha256)
}

/// One official as the events say it must be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OfficialState {
    pub name: String,
    pub role: OfficialRole,
    pub admin: bool,
    pub disabled: bool,
    pub password: String,
}

/// What the account events say the tables must hold.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Accounts {
    pub officials: BTreeMap<String, OfficialState>,
    /// Live tokens by fingerprint: the official, label and expiry.
    pub tokens: BTreeMap<String, (String, String, Option<i64>)>,
    /// Open sessions by fingerprint: the official and expiry.
    pub sessions: BTreeMap<String, (String, i64)>,
    /// Events that make no sense in order (a change to an official never created), with the
    /// stream version.
    pub problems: Vec<(u64, String)>,
}

impl Accounts {
    /// Folds one event (at stream version `version`).
    pub fn apply(&mut self, version: u64, e: &AccountChanged) {
        let id = e.official.as_str().to_owned();
        if let AccountChange::Created {
            name,
            role,
            admin,
            password,
        } = &e.change
        {
            if self.officials.contains_key(&id) {
                self.problems
                    .push((version, format!("official `{id}` created twice")));
            }
            self.officials.insert(
                id,
                OfficialState {
                    name: name.clone(),
                    role: *role,
                    admin: *admin,
                    disabled: false,
                    password: password.clone(),
                },
            );
            return;
        }
        let Some(o) = self.officials.get_mut(&id) else {
            self.problems.push((
                version,
                format!("a change to official `{id}`, who was never created"),
            ));
            return;
        };
        match &e.change {
            AccountChange::Created { .. } => {}
            AccountChange::PasswordSet { password } => {
                o.password = password.clone();
                self.sessions.retain(|_, (who, _)| *who != id);
            }
            AccountChange::RoleSet { role, admin } => {
                o.role = *role;
                o.admin = *admin;
            }
            AccountChange::Disabled => {
                o.disabled = true;
                self.sessions.retain(|_, (who, _)| *who != id);
            }
            AccountChange::Enabled => o.disabled = false,
            AccountChange::TokenIssued {
                token,
                label,
                expires_at,
            } => {
                self.tokens
                    .insert(token.clone(), (id, label.clone(), *expires_at));
            }
            AccountChange::TokenRevoked { token } => {
                self.tokens.remove(token);
            }
            AccountChange::SessionOpened {
                session,
                expires_at,
            } => {
                self.sessions.insert(session.clone(), (id, *expires_at));
            }
            AccountChange::SessionClosed { session } => {
                self.sessions.remove(session);
            }
        }
    }

    /// The accounts the ledger's events describe.
    pub fn read(ledger: &Ledger) -> Result<Accounts> {
        read_from(ledger.connection())
    }
}

/// Folds the accounts stream stored in `conn`.
fn read_from(conn: &Connection) -> Result<Accounts> {
    let mut out = Accounts::default();
    for (version, event) in stream_events(conn, &stream())? {
        match event {
            Ok(Event::AccountChanged(e)) => out.apply(version, &e),
            Ok(other) => out.problems.push((
                version,
                format!("`{}` does not belong to the accounts", other.event_type()),
            )),
            Err(e) => out.problems.push((version, e.to_string())),
        }
    }
    Ok(out)
}

/// A row of the officials table.
struct OfficialRow {
    id: String,
    name: String,
    role: String,
    admin: bool,
    password_hash: String,
    disabled: bool,
}

fn role_name(r: OfficialRole) -> &'static str {
    match r {
        OfficialRole::Referee => "referee",
        OfficialRole::Scorer => "scorer",
        OfficialRole::Organiser => "organiser",
    }
}

fn official_rows(conn: &Connection) -> Result<Vec<OfficialRow>> {
    let mut stmt = conn
        .prepare(
            "SELECT official, name, role, is_admin, password_hash, disabled_at IS NOT NULL \
             FROM officials ORDER BY official",
        )
        .ctx("reading the officials")?;
    let rows = stmt
        .query_map([], |r| {
            Ok(OfficialRow {
                id: r.get(0)?,
                name: r.get(1)?,
                role: r.get(2)?,
                admin: r.get(3)?,
                password_hash: r.get(4)?,
                disabled: r.get(5)?,
            })
        })
        .ctx("reading the officials")?;
    rows.collect::<rusqlite::Result<_>>()
        .ctx("reading the officials")
}

/// A token row: (fingerprint, official, label, expiry).
type TokenRow = (String, String, String, Option<i64>);

fn token_rows(conn: &Connection) -> Result<Vec<TokenRow>> {
    let mut stmt = conn
        .prepare("SELECT token_sha256, official, label, expires_at FROM api_tokens")
        .ctx("reading the API tokens")?;
    let rows = stmt
        .query_map([], |r| {
            Ok((
                token_print(&r.get::<_, Vec<u8>>(0)?),
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
            ))
        })
        .ctx("reading the API tokens")?;
    rows.collect::<rusqlite::Result<_>>()
        .ctx("reading the API tokens")
}

/// Session rows: (fingerprint, official, expiry).
fn session_rows(conn: &Connection) -> Result<Vec<(String, String, i64)>> {
    let mut stmt = conn
        .prepare("SELECT token_sha256, official, expires_at FROM sessions")
        .ctx("reading the sessions")?;
    let rows = stmt
        .query_map([], |r| {
            Ok((
                session_print(&r.get::<_, Vec<u8>>(0)?),
                r.get(1)?,
                r.get(2)?,
            ))
        })
        .ctx("reading the sessions")?;
    rows.collect::<rusqlite::Result<_>>()
        .ctx("reading the sessions")
}

fn has_officials_table(conn: &Connection) -> Result<bool> {
    conn.query_row(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'officials'",
        [],
        |_| Ok(()),
    )
    .optional()
    .ctx("looking for the officials table")
    .map(|found| found.is_some())
}

/// Every way the officials, sessions and API token tables differ from what the account events
/// say they must hold. A session missing from its table is no discrepancy (sessions expire and
/// are swept); anything else — a row changed, added or removed — is.
pub fn check(conn: &Connection) -> Result<Vec<Discrepancy>> {
    if !has_officials_table(conn)? {
        return Ok(Vec::new());
    }
    let expected = read_from(conn)?;
    let stream_name = stream().as_str().to_owned();
    let mut out: Vec<Discrepancy> = expected
        .problems
        .iter()
        .map(|(v, what)| Discrepancy {
            position: None,
            stream: Some(stream_name.clone()),
            version: Some(*v),
            what: what.clone(),
        })
        .collect();
    let mut found = |what: String| {
        out.push(Discrepancy {
            position: None,
            stream: None,
            version: None,
            what,
        })
    };
    let rows = official_rows(conn)?;
    if expected.officials.is_empty() && !rows.is_empty() {
        found(format!(
            "{} officials are in the officials table but no account event records them: the database predates accounts under audit (the server adopts them when it starts), or they were added behind the program's back",
            rows.len()
        ));
        return Ok(out);
    }
    for row in &rows {
        let Some(o) = expected.officials.get(&row.id) else {
            found(format!(
                "officials table: official `{}` has no account event: added behind the program's back",
                row.id
            ));
            continue;
        };
        let mut changed = Vec::new();
        if row.name != o.name {
            changed.push(format!("name `{}` (recorded `{}`)", row.name, o.name));
        }
        if row.role != role_name(o.role) {
            changed.push(format!(
                "role `{}` (recorded `{}`)",
                row.role,
                role_name(o.role)
            ));
        }
        if row.admin != o.admin {
            changed.push(format!(
                "administrator {} (recorded {})",
                row.admin, o.admin
            ));
        }
        if row.disabled != o.disabled {
            changed.push(format!(
                "disabled {} (recorded {})",
                row.disabled, o.disabled
            ));
        }
        if password_print(&row.password_hash) != o.password {
            changed.push("a password hash no account event set".to_owned());
        }
        if !changed.is_empty() {
            found(format!(
                "officials table: official `{}` has {}: edited behind the program's back",
                row.id,
                changed.join(", ")
            ));
        }
    }
    for id in expected.officials.keys() {
        if !rows.iter().any(|r| &r.id == id) {
            found(format!(
                "officials table: official `{id}` is recorded but missing: deleted behind the program's back"
            ));
        }
    }
    let tokens = token_rows(conn)?;
    for (print, official, label, expires_at) in &tokens {
        match expected.tokens.get(print) {
            None => found(format!(
                "api_tokens table: a token of `{official}` (`{label}`) that no account event issued, or one revoked: added behind the program's back"
            )),
            Some((o, l, e)) if o != official || l != label || e != expires_at => found(format!(
                "api_tokens table: the token `{l}` issued to `{o}` now reads official `{official}`, label `{label}`, expiry {expires_at:?} (recorded {e:?}): edited behind the program's back"
            )),
            Some(_) => {}
        }
    }
    for (print, (official, label, _)) in &expected.tokens {
        if !tokens.iter().any(|(p, ..)| p == print) {
            found(format!(
                "api_tokens table: the token `{label}` of `{official}` is recorded but missing: deleted behind the program's back"
            ));
        }
    }
    for (print, official, expires_at) in session_rows(conn)? {
        match expected.sessions.get(&print) {
            None => found(format!(
                "sessions table: a session of `{official}` that no login opened (or one ended): added behind the program's back"
            )),
            Some((o, e)) if *o != official || *e != expires_at => found(format!(
                "sessions table: a session of `{o}` now reads official `{official}`, expiry {expires_at} (recorded {e}): edited behind the program's back"
            )),
            Some(_) => {}
        }
    }
    Ok(out)
}

impl Ledger {
    /// Runs `f` on the ledger's own connection (the officials, sessions and API token tables
    /// live in the same database) and appends the account changes it returns, recorded by
    /// `by`, in one transaction: both happen, or neither.
    pub fn change_accounts<T, E: From<Error>>(
        &mut self,
        by: &OfficialId,
        f: impl FnOnce(&Connection) -> std::result::Result<(T, Vec<AccountChanged>), E>,
    ) -> std::result::Result<T, E> {
        self.batch(|l| {
            let (out, changes) = f(l.connection())?;
            if !changes.is_empty() {
                let events = changes.into_iter().map(NewEvent::new).collect();
                l.append(&stream(), ExpectedVersion::Any, events, by)?;
            }
            Ok(out)
        })
    }

    /// Records the officials, API tokens and sessions as they stand, once, for a database
    /// whose accounts predate the record: nothing when the accounts stream has events already
    /// or there are no officials. Returns how many events it appended.
    pub fn adopt_accounts(&mut self) -> Result<usize> {
        if !has_officials_table(self.connection())? || self.stream_version(&stream())? > 0 {
            return Ok(0);
        }
        let system = OfficialId::new("system").unwrap_or_else(|_| unreachable!());
        self.change_accounts(&system, |conn| {
            let mut changes = Vec::new();
            for row in official_rows(conn)? {
                let role = match row.role.as_str() {
                    "referee" => OfficialRole::Referee,
                    "scorer" => OfficialRole::Scorer,
                    _ => OfficialRole::Organiser,
                };
                let Ok(official) = OfficialId::new(&row.id) else {
                    continue;
                };
                changes.push(AccountChanged {
                    official: official.clone(),
                    change: AccountChange::Created {
                        name: row.name.clone(),
                        role,
                        admin: row.admin,
                        password: password_print(&row.password_hash),
                    },
                });
                if row.disabled {
                    changes.push(AccountChanged {
                        official,
                        change: AccountChange::Disabled,
                    });
                }
            }
            for (token, official, label, expires_at) in token_rows(conn)? {
                if let Ok(official) = OfficialId::new(&official) {
                    changes.push(AccountChanged {
                        official,
                        change: AccountChange::TokenIssued {
                            token,
                            label,
                            expires_at,
                        },
                    });
                }
            }
            for (session, official, expires_at) in session_rows(conn)? {
                if let Ok(official) = OfficialId::new(&official) {
                    changes.push(AccountChanged {
                        official,
                        change: AccountChange::SessionOpened {
                            session,
                            expires_at,
                        },
                    });
                }
            }
            let n = changes.len();
            Ok::<_, Error>((n, changes))
        })
    }
}
