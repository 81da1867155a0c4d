//! Who may write: officials, their passwords, sessions, CSRF tokens and API tokens.
//!
//! Reading is public; every write needs an official. A person logs in with a password (stored
//! only as an argon2id hash) and gets a session cookie (`HttpOnly`, `SameSite=Strict`) holding
//! a random token of which the database keeps only the SHA-256. Each session has a CSRF token
//! that every form must echo (synchronizer token); the login form itself uses a double-submit
//! cookie. Programs send `Authorization: Bearer <token>`; an API token is random, shown once,
//! and stored only as its SHA-256 — a bearer token is not sent by browsers on their own, so the
//! API needs no CSRF token. Passwords and tokens are never logged.

use std::future::Future;
use std::pin::Pin;
use std::time::{SystemTime, UNIX_EPOCH};

use actix_web::cookie::{Cookie, SameSite};
use actix_web::{dev::Payload, web, FromRequest, HttpRequest};
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use ledger::accounts::{self as recorded, AccountChange, AccountChanged};
use ledger::event::OfficialRole;
use ledger::{Ledger, OfficialId};
use rusqlite::{params, Connection, OptionalExtension};
use sha2::{Digest, Sha256};

use super::error::AppError;
use super::nav::Nav;
use super::roles::Action;
use super::state::AppState;

/// The session cookie's name.
pub const SESSION_COOKIE: &str = "mjr_session";
/// The login form's double-submit CSRF cookie.
pub const LOGIN_CSRF_COOKIE: &str = "mjr_login_csrf";
/// How long a session lasts.
const SESSION_SECONDS: i64 = 12 * 3600;

/// A logged-in official (by session or API token).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Official {
    pub id: OfficialId,
    pub name: String,
    pub role: OfficialRole,
    pub is_admin: bool,
    /// The session's CSRF token; `None` for an API token (no cookie, no CSRF).
    pub csrf: Option<String>,
}

impl Official {
    /// Refuses a form whose CSRF token is not this session's.
    pub fn check_csrf(&self, sent: &str) -> Result<(), AppError> {
        match &self.csrf {
            Some(expected) if constant_time_eq(expected.as_bytes(), sent.as_bytes()) => Ok(()),
            Some(_) => Err(AppError::forbidden(
                "the form's security token does not match your session: reload the page and submit again",
            )),
            None => Ok(()),
        }
    }

    /// Whether this official may do `action`: the administrator may do everything, anyone
    /// else what the role permits ([`Action::permitted`], the one table of the policy).
    pub fn may(&self, action: Action) -> bool {
        self.is_admin || action.permitted(self.role)
    }

    /// Refuses (403, saying who may) an action the official's role does not permit.
    pub fn require_role(&self, action: Action) -> Result<(), AppError> {
        if self.may(action) {
            Ok(())
        } else {
            Err(AppError::forbidden(format!(
                "only {} may {}; you are logged in as {} ({})",
                action.who(),
                action.describe(),
                self.id,
                role_name(self.role)
            )))
        }
    }
}

// The navigation bar's constructors live here, beside the official they read, so that `nav`
// (which the error page renders) depends on nothing.
impl Nav {
    pub fn for_viewer(viewer: &Viewer) -> Nav {
        match &viewer.0 {
            Some(o) => Nav::for_official(o),
            None => Nav::anonymous(),
        }
    }

    pub fn for_official(o: &Official) -> Nav {
        Nav {
            official: Some(o.name.clone()),
            is_admin: o.is_admin,
            csrf: o.csrf.clone().unwrap_or_default(),
            may_record: o.may(Action::RecordHand),
            may_correct: o.may(Action::CorrectHand),
            may_organise: o.may(Action::CreateTournament),
        }
    }
}

/// Whoever sent the request: an official or an anonymous reader.
#[derive(Clone, Debug, Default)]
pub struct Viewer(pub Option<Official>);

impl Viewer {
    /// The official, or 401.
    pub fn require(&self) -> Result<&Official, AppError> {
        self.0.as_ref().ok_or_else(AppError::unauthorized)
    }
}

impl FromRequest for Viewer {
    type Error = actix_web::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Viewer, actix_web::Error>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let state = req.app_data::<web::Data<AppState>>().cloned();
        let bearer = req
            .headers()
            .get("authorization")
            .and_then(|h| h.to_str().ok())
            .and_then(bearer_token)
            .map(str::to_owned);
        let session = req.cookie(SESSION_COOKIE).map(|c| c.value().to_owned());
        Box::pin(async move {
            let Some(state) = state else {
                return Ok(Viewer(None));
            };
            if bearer.is_none() && session.is_none() {
                return Ok(Viewer(None));
            }
            let found = state
                .auth(move |conn| match (bearer, session) {
                    (Some(token), _) => by_api_token(conn, &token),
                    (None, Some(token)) => by_session(conn, &token),
                    (None, None) => Ok(None),
                })
                .await;
            match found {
                Ok(official) => Ok(Viewer(official)),
                Err(e) => Err(super::error::HtmlError(e).into()),
            }
        })
    }
}

pub(crate) fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

/// A fresh random token: 32 bytes as hex.
pub fn random_token() -> String {
    hex(&rand::random::<[u8; 32]>())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn sha256(token: &str) -> Vec<u8> {
    Sha256::digest(token.as_bytes()).to_vec()
}

/// Compares without stopping at the first difference.
pub fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// A SQLite error of the officials' tables, typed as the ledger types its own (a busy database
/// is 503, not 500).
fn sql(context: &'static str) -> impl Fn(rusqlite::Error) -> AppError {
    move |e| ledger::Error::sqlite(context, e).into()
}

/// A role's name as stored and shown.
pub fn role_name(role: OfficialRole) -> &'static str {
    match role {
        OfficialRole::Referee => "referee",
        OfficialRole::Scorer => "scorer",
        OfficialRole::Organiser => "organiser",
    }
}

/// Reads a role name.
pub fn parse_role(s: &str) -> Result<OfficialRole, AppError> {
    match s {
        "referee" => Ok(OfficialRole::Referee),
        "scorer" => Ok(OfficialRole::Scorer),
        "organiser" => Ok(OfficialRole::Organiser),
        other => Err(AppError::bad_request(format!(
            "`{other}` is not a role (referee, scorer, organiser)"
        ))),
    }
}

fn official_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<(String, String, String, bool)> {
    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
}

fn to_official(
    row: Option<(String, String, String, bool)>,
    csrf: Option<String>,
) -> Result<Option<Official>, AppError> {
    let Some((id, name, role, is_admin)) = row else {
        return Ok(None);
    };
    Ok(Some(Official {
        id: OfficialId::new(&id).map_err(AppError::internal)?,
        name,
        role: parse_role(&role).map_err(|e| AppError::internal(e.message))?,
        is_admin,
        csrf,
    }))
}

// A disabled official's sessions and tokens are refused here, on every request that carries
// one (`o.disabled_at IS NULL`): disabling takes effect at once, with no cache to outlive it.
fn by_session(conn: &Connection, token: &str) -> Result<Option<Official>, AppError> {
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

fn by_api_token(conn: &Connection, token: &str) -> Result<Option<Official>, AppError> {
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

/// The token of an `Authorization: Bearer <token>` header; the scheme's name is
/// case-insensitive (RFC 7235 §2.1), so `bearer` and `BEARER` do as well.
pub fn bearer_token(header: &str) -> Option<&str> {
    let (scheme, token) = header.trim_start().split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

/// Who changes an account when no official does: the first run, the command line.
pub fn system() -> OfficialId {
    OfficialId::new("system").unwrap_or_else(|_| unreachable!("a valid id"))
}

/// The record of a change to official `id`'s account.
pub(crate) fn changed(id: &str, change: AccountChange) -> Result<AccountChanged, AppError> {
    let official = OfficialId::new(id)
        .map_err(|e| AppError::not_found(format!("there is no official `{id}`: {e}")))?;
    Ok(AccountChanged { official, change })
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

/// The login form's CSRF value for the pre-login cookie `cookie`: HMAC-SHA-256 under the
/// server's `key`, in hex. Only the server can compute it, so a cookie and field an attacker
/// planted to be equal do not pass (a double-submit check alone would take any equal pair).
pub fn login_csrf_value(key: &[u8; 32], cookie: &str) -> String {
    use hmac::{KeyInit, Mac};
    let Ok(mut mac) = hmac::Hmac::<Sha256>::new_from_slice(key) else {
        // HMAC takes a key of any length: this cannot happen, and a value that never matches
        // refuses the login rather than panicking.
        return String::new();
    };
    mac.update(cookie.as_bytes());
    mac.finalize()
        .into_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Whether `field` is the login form's CSRF value for `cookie` ([`login_csrf_value`]).
pub fn login_csrf_ok(key: &[u8; 32], cookie: Option<&str>, field: &str) -> bool {
    cookie.is_some_and(|c| {
        let expected = login_csrf_value(key, c);
        !expected.is_empty() && constant_time_eq(expected.as_bytes(), field.as_bytes())
    })
}

/// The minimum length of a password.
pub const MIN_PASSWORD: usize = 8;

/// Whether `password` is long enough ([`MIN_PASSWORD`] characters).
pub fn password_long_enough(password: &str) -> bool {
    password.chars().count() >= MIN_PASSWORD
}

/// The refusal of a password too short.
pub fn too_short() -> String {
    format!("a password needs at least {MIN_PASSWORD} characters")
}

fn check_password_length(password: &str) -> Result<(), AppError> {
    if !password_long_enough(password) {
        return Err(AppError::unprocessable(too_short()));
    }
    Ok(())
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

/// The hash verified for an unknown official, so that a wrong id takes as long as a wrong
/// password.
const DUMMY_HASH: &str =
    "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$MVJaOtDnWQQx3RnVCFqDgSmJ1Bk8Vc3SX3NC3qkQ0Fc";

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
        super::error::ErrorKind::Unauthorized,
        "unknown official or wrong password",
    )
}

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

/// The session cookie.
pub fn session_cookie(token: String, secure: bool) -> Cookie<'static> {
    Cookie::build(SESSION_COOKIE, token)
        .path("/")
        .http_only(true)
        .same_site(SameSite::Strict)
        .secure(secure)
        .max_age(actix_web::cookie::time::Duration::seconds(SESSION_SECONDS))
        .finish()
}

/// The login form's CSRF cookie.
pub fn login_csrf_cookie(token: String, secure: bool) -> Cookie<'static> {
    Cookie::build(LOGIN_CSRF_COOKIE, token)
        .path("/")
        .http_only(true)
        .same_site(SameSite::Strict)
        .secure(secure)
        .finish()
}
