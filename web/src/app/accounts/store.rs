//! The officials' tables in the ledger's database, as the other account modules read and
//! change them: an official read from a row, the clock their rows are stamped with, SQLite
//! errors typed as the ledger's, and the record of a change to an account.

use std::time::{SystemTime, UNIX_EPOCH};

use ledger::accounts::{AccountChange, AccountChanged};
use ledger::OfficialId;

use super::roles::parse_role;
use super::viewer::Official;
use crate::app::error::AppError;

/// Now, in Unix seconds: what sessions, tokens and the officials' rows are stamped with.
pub(crate) fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

/// A SQLite error of the officials' tables, typed as the ledger types its own (a busy database
/// is 503, not 500).
pub(crate) fn sql(context: &'static str) -> impl Fn(rusqlite::Error) -> AppError {
    move |e| ledger::Error::sqlite(context, e).into()
}

/// The first four columns of an official's row: id, name, role, administrator.
pub(crate) fn official_row(
    r: &rusqlite::Row<'_>,
) -> rusqlite::Result<(String, String, String, bool)> {
    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
}

/// The official of a row read by [`official_row`], with the session's CSRF token (`None` for
/// an API token).
pub(crate) fn to_official(
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

/// The command line's own names, under which a command run on the server records what it
/// writes: the first run and `admin` (`system`), `load-fixture` (`loader`), `import-game`
/// (`importer`). They are no officials and log in nowhere. Whoever runs a command holds the
/// database itself, so the audit counts their records as the administrator's
/// (`app::redecide`); an import never takes them, and no official may be named so.
pub const COMMAND_LINE: [&str; 3] = ["system", "loader", "importer"];

/// The command line acting under `id` (one of [`COMMAND_LINE`]) as the administrator: the
/// commands it runs check roles as the server's do.
pub fn command_line(id: &str, name: &str) -> Official {
    debug_assert!(COMMAND_LINE.contains(&id));
    Official {
        id: OfficialId::new(id).unwrap_or_else(|_| system()),
        name: name.to_owned(),
        role: ledger::event::OfficialRole::Organiser,
        is_admin: true,
        csrf: None,
    }
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
