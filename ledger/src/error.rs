//! The ledger's error type. Every error says what went wrong and where (stream, version,
//! position, line, or the operation in progress); no error leaves a partial write behind,
//! because every write happens in one SQLite transaction that is rolled back on error.

use std::path::PathBuf;

use referee::settle::SettlementError;
use uuid::Uuid;

use crate::head::ExpectedVersion;
use crate::ids::StreamKind;

/// Everything that can go wrong in the ledger.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Optimistic concurrency: the stream moved on since the writer read it. Nothing was written.
    #[error(
        "{stream}: expected {expected} but the stream is at version {actual}; nothing was written"
    )]
    Conflict {
        stream: String,
        expected: ExpectedVersion,
        actual: u64,
    },

    /// An event id was reused for a different event (an idempotent retry must repeat the same
    /// event in the same stream).
    #[error("event id {event_id} is already recorded as {stream} version {version} with different content; nothing was written")]
    EventIdReused {
        event_id: Uuid,
        stream: String,
        version: u64,
    },

    /// The same event id appears twice in one batch.
    #[error("event id {event_id} appears twice in the batch; nothing was written")]
    DuplicateIdInBatch { event_id: Uuid },

    /// The event does not belong in this kind of stream.
    #[error("event {index} of the batch (`{event_type}`) belongs in a {expected} stream, not in {stream}; nothing was written")]
    WrongStream {
        index: usize,
        event_type: &'static str,
        stream: String,
        expected: StreamKind,
    },

    /// A settlement's payments and nets disagree.
    #[error(
        "event {index} of the batch: settlement refused: {}; nothing was written",
        join(problems)
    )]
    BadSettlement {
        index: usize,
        problems: Vec<SettlementError>,
    },

    /// A correction names an event that is not in the ledger.
    #[error("event {index} of the batch: the correction supersedes event {target}, which is not in the ledger; nothing was written")]
    UnknownSuperseded { index: usize, target: Uuid },

    /// The database was written by a newer build.
    #[error("{path}: the database has schema version {found} but this build of mahjong-referee knows versions up to {supported}; upgrade mahjong-referee to open it")]
    NewerSchema {
        path: PathBuf,
        found: i64,
        supported: i64,
    },

    /// The database file does not exist (and opening for audit must not create it).
    #[error("{0}: no such database")]
    NotFound(PathBuf),

    /// The file is a SQLite database, but not one this program wrote: opening it for audit must
    /// not turn it into one.
    #[error("{0}: not a mahjong-referee ledger (it has no ledger schema); nothing was changed")]
    NotALedger(PathBuf),

    /// The database keeps a projection this ledger was not opened with: appending would leave
    /// it behind the events.
    #[error("the database keeps the projection `{name}`, which this program did not register; open it with that projection to write to it; nothing was written")]
    UnregisteredProjection { name: String },

    /// A reader was opened with a projection the database does not keep at its version yet
    /// (the writer builds it when it opens the database).
    #[error("{path}: the projection `{name}` version {version} is not built yet (the database keeps {}); open the database for writing first, which builds it", found.map_or("none".to_owned(), |v| format!("version {v}")))]
    ProjectionNotBuilt {
        path: PathBuf,
        name: &'static str,
        version: u32,
        found: Option<i64>,
    },

    /// Two projections of one registry share a name or a table.
    #[error("the projections `{first}` and `{second}` both claim {what}")]
    ProjectionClash {
        first: &'static str,
        second: &'static str,
        what: String,
    },

    /// A stored row cannot be read back or fails verification.
    #[error("stored event at position {position} ({stream} version {version}): {what}")]
    Corrupt {
        position: u64,
        stream: String,
        version: u64,
        what: String,
    },

    /// The ledger's signing key cannot be created or read (see the signing module).
    #[error("ledger key {0}")]
    Key(String),

    /// An import line is malformed, does not verify, or conflicts with what is stored.
    #[error("import line {line}: {what}; nothing was imported")]
    Import { line: usize, what: String },

    /// The ledger is in use in a way that forbids what was asked (a restore while it is
    /// written, a write while it is restored).
    #[error("{}: {why}", path.display())]
    InUse { path: PathBuf, why: String },

    /// A copy of the ledger (a backup, a restore) could not be made; the place it was going to
    /// is left as it was.
    #[error("{}: {why}", path.display())]
    Copy { path: PathBuf, why: String },

    /// An event could not be encoded as JSON.
    #[error("event {index} of the batch could not be encoded: {source}")]
    Encode {
        index: usize,
        source: serde_json::Error,
    },

    /// Another connection holds the database's lock (SQLITE_BUSY or SQLITE_LOCKED) for longer
    /// than the busy timeout. The transaction was rolled back, so retrying is safe.
    #[error("the database is busy (another writer holds its lock) while {context}; nothing was written, and retrying is safe")]
    Busy {
        context: &'static str,
        source: rusqlite::Error,
    },

    /// The disk (or the file system's quota) is full (SQLITE_FULL). The transaction was rolled
    /// back.
    #[error("the database's disk is full while {context}; nothing was written: free some space, then retry")]
    DiskFull {
        context: &'static str,
        source: rusqlite::Error,
    },

    /// The database cannot be written: the file is read-only, or its directory does not let
    /// SQLite create the file or the write-ahead log (`-wal`) and shared-memory (`-shm`) files
    /// beside it. Found when opening, before anything is served.
    #[error("{path}: cannot write the database ({why}); the database and its directory must be writable, since SQLite keeps {path}-wal and {path}-shm beside it")]
    Unwritable { path: PathBuf, why: String },

    /// SQLite failed.
    #[error("database error while {context}: {source}")]
    Sqlite {
        context: &'static str,
        source: rusqlite::Error,
    },

    /// An append inside a batch (`Ledger::batch`) failed, so the whole batch is undone even
    /// though its caller carried on.
    #[error(
        "an append in this batch failed earlier, so the batch was undone; nothing was written"
    )]
    BatchFailed,

    /// Reading or writing a file or pipe failed.
    #[error("i/o error while {context}: {source}")]
    Io {
        context: &'static str,
        source: std::io::Error,
    },
}

fn join(problems: &[SettlementError]) -> String {
    problems
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Attaches what was being done to a SQLite error, typed as [`Error::sqlite`] types it: for the
/// ledger's own queries and for the projections folded and read beside it.
pub trait SqlContext<T> {
    fn ctx(self, context: &'static str) -> Result<T>;
}

impl<T> SqlContext<T> for rusqlite::Result<T> {
    fn ctx(self, context: &'static str) -> Result<T> {
        self.map_err(|source| Error::sqlite(context, source))
    }
}

impl Error {
    /// A SQLite error met while doing `context`, typed by what the caller can do about it: a
    /// busy or locked database ([`Error::Busy`], retry later) and a full disk
    /// ([`Error::DiskFull`]) apart from every other failure ([`Error::Sqlite`]).
    pub fn sqlite(context: &'static str, source: rusqlite::Error) -> Error {
        use rusqlite::ErrorCode::{DatabaseBusy, DatabaseLocked, DiskFull};
        match source.sqlite_error_code() {
            Some(DatabaseBusy | DatabaseLocked) => Error::Busy { context, source },
            Some(DiskFull) => Error::DiskFull { context, source },
            _ => Error::Sqlite { context, source },
        }
    }
}
