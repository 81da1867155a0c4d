//! Opening a ledger: creating or migrating the database, with the projections it keeps.
//!
//! A writer (`open`, `open_existing`, `open_in_memory`) applies pending migrations and then
//! builds every registered projection the database does not keep at its version, before
//! anything is read or written; a reader (`open_reader`) changes nothing and refuses a database
//! whose projections are not built yet. A file that is not a ledger is refused untouched.
//!
//! Each way of opening has a `_with` twin taking the [`Projections`] to keep; the plain one
//! keeps none (the store alone, as its own tests and tools use it).

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::Connection;

use crate::error::{Error, Result, SqlContext};
use crate::projector::{self, Projections};
use crate::rebuild::sync;
use crate::schema;
use crate::store::Ledger;

/// How long a writer waits for another writer's lock before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// The page size of a new database, in bytes.
const PAGE_SIZE: u32 = 16384;

/// Statements each connection keeps prepared.
const STATEMENT_CACHE: usize = 128;

impl Ledger {
    /// Opens (creating if needed) the database at `path`, applies pending migrations, and
    /// refuses a database written by a newer schema. Keeps no projection.
    ///
    /// A missing or empty file becomes a new ledger; a SQLite file holding tables of something
    /// else is refused untouched ([`Error::NotALedger`]), and one that cannot be written
    /// ([`Error::Unwritable`]) is refused here rather than at the first append.
    pub fn open(path: impl AsRef<Path>) -> Result<Ledger> {
        Ledger::open_with(path, &Projections::default())
    }

    /// [`Ledger::open`], keeping `projections`: each one the database does not keep at its
    /// version is built from the events before this returns.
    pub fn open_with(path: impl AsRef<Path>, projections: &Projections) -> Result<Ledger> {
        let path = path.as_ref().to_owned();
        // A FIFO, a device or a folder is no database file: SQLite would block on it, or
        // write beside it.
        if let Ok(meta) = std::fs::metadata(&path) {
            if !meta.is_file() {
                return Err(Error::Unwritable {
                    path,
                    why: "it is not a regular file (a folder, a FIFO or a device): a ledger is a database file".into(),
                });
            }
        }
        if let Found::Foreign = inspect(&path)? {
            return Err(Error::NotALedger(path));
        }
        let conn = Connection::open(&path).map_err(|e| unwritable(&path, e))?;
        if conn
            .is_readonly(rusqlite::MAIN_DB)
            .ctx("opening the database")?
        {
            return Err(Error::Unwritable {
                path,
                why: "the file is read-only".into(),
            });
        }
        let writing = crate::lock::shared(&path)?;
        Ledger::configure(conn, path.clone(), projections, Some(writing)).map_err(|e| match e {
            Error::Sqlite { source, .. } if is_unwritable(&source) => unwritable(&path, source),
            other => other,
        })
    }

    /// Opens an existing database; never creates one (for `audit`, `export`). Keeps no
    /// projection.
    pub fn open_existing(path: impl AsRef<Path>) -> Result<Ledger> {
        Ledger::open_existing_with(path, &Projections::default())
    }

    /// [`Ledger::open_existing`], keeping `projections` (see [`Ledger::open_with`]).
    pub fn open_existing_with(path: impl AsRef<Path>, projections: &Projections) -> Result<Ledger> {
        let path = path.as_ref();
        if !path.is_file() {
            return Err(Error::NotFound(path.to_owned()));
        }
        // Look before migrating: a file with no ledger schema is refused untouched.
        match inspect(path)? {
            Found::Missing => Err(Error::NotFound(path.to_owned())),
            Found::Empty | Found::Foreign => Err(Error::NotALedger(path.to_owned())),
            Found::Ledger => Ledger::open_with(path, projections),
        }
    }

    /// How long this connection waits for another writer's lock before answering
    /// [`Error::Busy`] (ten seconds unless set).
    pub fn set_busy_timeout(&self, timeout: Duration) -> Result<()> {
        self.conn
            .busy_timeout(timeout)
            .ctx("setting the busy timeout")
    }

    /// Opens an existing, migrated database for reading only: the connections a server's readers
    /// use beside its one writer (WAL lets them read while it appends). Never migrates. Keeps
    /// no projection.
    pub fn open_reader(path: impl AsRef<Path>) -> Result<Ledger> {
        Ledger::open_reader_with(path, &Projections::default())
    }

    /// [`Ledger::open_reader`] for reading `projections`: refused
    /// ([`Error::ProjectionNotBuilt`]) unless the database keeps each at its version, since a
    /// reader builds nothing.
    pub fn open_reader_with(path: impl AsRef<Path>, projections: &Projections) -> Result<Ledger> {
        let path = path.as_ref();
        if !path.is_file() {
            return Err(Error::NotFound(path.to_owned()));
        }
        let conn = Connection::open_with_flags(
            path,
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .ctx("opening the database read-only")?;
        conn.busy_timeout(BUSY_TIMEOUT)
            .ctx("setting the busy timeout")?;
        // A page runs a dozen or so distinct queries and a reader serves every kind of page:
        // rusqlite's default cache of 16 statements made readers parse their SQL again and again.
        conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
        let version: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .ctx("reading the schema version")?;
        if version != schema::SCHEMA_VERSION {
            return Err(Error::NotALedger(path.to_owned()));
        }
        let recorded = projector::recorded(&conn)?;
        for p in projections.iter() {
            let found = recorded.get(p.name()).copied();
            if found != Some(i64::from(p.version())) {
                return Err(Error::ProjectionNotBuilt {
                    path: path.to_owned(),
                    name: p.name(),
                    version: p.version(),
                    found,
                });
            }
        }
        Ok(Ledger {
            conn,
            path: path.to_owned(),
            batch_failed: false,
            projections: projections.clone(),
            unregistered: recorded
                .into_keys()
                .filter(|name| projections.get(name).is_none())
                .collect(),
            _writing: None,
        })
    }

    /// A private in-memory ledger, for tests and tools. Keeps no projection.
    pub fn open_in_memory() -> Result<Ledger> {
        Ledger::open_in_memory_with(&Projections::default())
    }

    /// [`Ledger::open_in_memory`], keeping `projections`.
    pub fn open_in_memory_with(projections: &Projections) -> Result<Ledger> {
        let conn = Connection::open_in_memory().ctx("opening an in-memory database")?;
        Ledger::configure(conn, PathBuf::from(":memory:"), projections, None)
    }

    fn configure(
        mut conn: Connection,
        path: PathBuf,
        projections: &Projections,
        writing: Option<std::fs::File>,
    ) -> Result<Ledger> {
        // An append runs some thirty distinct statements (the event, its checks, the
        // projections): with rusqlite's default cache of 16 they were parsed again and again.
        conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
        conn.busy_timeout(BUSY_TIMEOUT)
            .ctx("setting the busy timeout")?;
        // A new database gets 16 KiB pages (an existing one keeps its own: the pragma only
        // applies before the first table). Against SQLite's 4 KiB: a hand's record (a few
        // kilobytes of JSON) fits in a page instead of a chain of overflow pages, and a bulk
        // import writes a quarter as many pages to the log and then the file. Fifty robot
        // games import in 1.9 s instead of 2.2 s; a single durable append, which writes whole
        // pages, takes about 0.2 ms instead of 0.13 ms.
        conn.execute_batch(&format!("PRAGMA page_size = {PAGE_SIZE}"))
            .ctx("setting the page size")?;
        // WAL lets readers (projections, pages) run while one writer appends; with
        // synchronous=FULL every commit is fsynced before it is reported, so an acknowledged
        // append survives the process being killed (tests/durability.rs) and power loss.
        let mode: String = conn
            .query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))
            .ctx("switching to WAL")?;
        // SQLite keeps its old journal mode, without an error, when it cannot create the log.
        if mode != "wal" && mode != "memory" {
            return Err(Error::Unwritable {
                path,
                why: format!("SQLite could not switch it to write-ahead logging (the journal mode stays `{mode}`)"),
            });
        }
        conn.pragma_update(None, "synchronous", "FULL")
            .ctx("setting synchronous=FULL")?;
        schema::migrate(&mut conn, &path)?;
        let unregistered = sync(&mut conn, projections)?;
        Ok(Ledger {
            conn,
            path,
            batch_failed: false,
            projections: projections.clone(),
            unregistered,
            _writing: writing,
        })
    }

    /// Where the database lives.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The ledger's own connection, to read the tables that live beside the events (the
    /// officials'). Change those only through [`Ledger::change_accounts`], which records the
    /// change: anything else is an edit the audit will name.
    pub fn connection(&self) -> &Connection {
        &self.conn
    }

    /// The projections this ledger keeps.
    pub fn projections(&self) -> &Projections {
        &self.projections
    }
}

/// What is at a database path, looked at read-only before anything is written there.
enum Found {
    /// No file: opening creates a new ledger.
    Missing,
    /// An empty file, or a SQLite database with no tables: a new ledger may be made of it.
    Empty,
    /// A SQLite database with tables but no ledger schema (or not a SQLite database at all).
    Foreign,
    /// A ledger (its schema version is set).
    Ledger,
}

fn inspect(path: &Path) -> Result<Found> {
    if !path.exists() {
        return match path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() && !dir.is_dir() => Err(Error::Unwritable {
                path: path.to_owned(),
                why: format!("its directory {} does not exist", dir.display()),
            }),
            _ => Ok(Found::Missing),
        };
    }
    if path.metadata().is_ok_and(|m| m.is_file() && m.len() == 0) {
        return Ok(Found::Empty);
    }
    let probe = Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
        .map_err(|e| unwritable(path, e))?;
    let looked = probe
        .query_row("PRAGMA user_version", [], |r| r.get::<_, i64>(0))
        .and_then(|version| match version {
            0 => probe.query_row("SELECT count(*) FROM sqlite_master", [], |r| {
                r.get::<_, i64>(0)
            }),
            _ => Ok(-1),
        });
    match looked {
        Ok(-1) => Ok(Found::Ledger),
        Ok(0) => Ok(Found::Empty),
        Ok(_) => Ok(Found::Foreign),
        Err(e) if e.sqlite_error_code() == Some(rusqlite::ErrorCode::NotADatabase) => {
            Ok(Found::Foreign)
        }
        Err(e) if is_unwritable(&e) => Err(unwritable(path, e)),
        Err(e) => Err(Error::sqlite("reading the schema version", e)),
    }
}

/// Whether SQLite could not create or write a file it needs (the database, its `-wal` or
/// `-shm`).
fn is_unwritable(e: &rusqlite::Error) -> bool {
    use rusqlite::ErrorCode::{CannotOpen, PermissionDenied, ReadOnly};
    matches!(
        e.sqlite_error_code(),
        Some(CannotOpen | PermissionDenied | ReadOnly)
    )
}

/// An error met while opening `path`: [`Error::Unwritable`] when SQLite could not create or
/// write a file, as typed by [`Error::sqlite`] otherwise.
fn unwritable(path: &Path, e: rusqlite::Error) -> Error {
    if is_unwritable(&e) {
        Error::Unwritable {
            path: path.to_owned(),
            why: e.to_string(),
        }
    } else {
        Error::sqlite("opening the database", e)
    }
}
