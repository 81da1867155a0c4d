//! Opening the ledger and appending to it.
//!
//! An append decides before it writes: every event is encoded and checked (right kind of
//! stream, a settlement whose nets match its payments, a correction of an event that exists)
//! and the expected version compared, all inside one `BEGIN IMMEDIATE` transaction that holds
//! SQLite's write lock. Only then are rows inserted and projections updated, and the commit
//! makes all of it durable at once or none of it.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{params, Connection, OptionalExtension, TransactionBehavior};
use uuid::Uuid;

use crate::error::{Error, Result, SqlContext};
use crate::event::Event;
use crate::hash::{chain_hash, Hash, HashInput};
use crate::head::{ChainHead, ExpectedVersion};
use crate::ids::{OfficialId, StreamId};
use crate::projection::{EventMeta, Projector};
use crate::record::{canonical_time, now};
use crate::{schema, settlement};

/// How long a writer waits for another writer's lock before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// The event store: one SQLite database.
pub struct Ledger {
    pub(crate) conn: Connection,
    pub(crate) path: PathBuf,
    /// Inside [`Ledger::batch`]: whether an append has failed, leaving the batch to be undone.
    pub(crate) batch_failed: bool,
}

/// The page size of a new database, in bytes.
const PAGE_SIZE: u32 = 16384;

/// Statements each connection keeps prepared.
const STATEMENT_CACHE: usize = 128;

/// An event to append, with the id that makes retrying it idempotent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewEvent {
    pub id: Uuid,
    pub event: Event,
}

impl NewEvent {
    /// A new event with a fresh (time-ordered, v7) id. Keep the id to retry safely.
    pub fn new(event: impl Into<Event>) -> NewEvent {
        NewEvent {
            id: Uuid::now_v7(),
            event: event.into(),
        }
    }

    pub fn with_id(id: Uuid, event: impl Into<Event>) -> NewEvent {
        NewEvent {
            id,
            event: event.into(),
        }
    }
}

/// The outcome of a successful append.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Appended {
    /// The stream's version after the append.
    pub stream_version: u64,
    /// How many events the call covered.
    pub count: usize,
    /// The global position of the last event of the batch (or the current head when empty).
    pub last_position: u64,
    /// True when every event was already recorded by an earlier call (an idempotent retry).
    pub already_recorded: bool,
}

/// An event encoded and checked, ready to insert.
pub(crate) struct Prepared {
    pub id: Uuid,
    pub event: Event,
    pub payload: String,
}

/// A fully formed row, from an append or an import.
pub(crate) struct RowToInsert<'a> {
    pub stream: &'a StreamId,
    pub version: u64,
    pub event_id: Uuid,
    pub recorded_at: &'a str,
    pub recorded_by: &'a str,
    pub event: &'a Event,
    pub payload: &'a str,
    pub prev_hash: Hash,
}

impl Ledger {
    /// Opens (creating if needed) the database at `path`, applies pending migrations, and
    /// refuses a database written by a newer schema.
    ///
    /// A missing or empty file becomes a new ledger; a SQLite file holding tables of something
    /// else is refused untouched ([`Error::NotALedger`]), and one that cannot be written
    /// ([`Error::Unwritable`]) is refused here rather than at the first append.
    pub fn open(path: impl AsRef<Path>) -> Result<Ledger> {
        let path = path.as_ref().to_owned();
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
        Ledger::configure(conn, path.clone()).map_err(|e| match e {
            Error::Sqlite { source, .. } if is_unwritable(&source) => unwritable(&path, source),
            other => other,
        })
    }

    /// Opens an existing database; never creates one (for `audit`, `export`).
    pub fn open_existing(path: impl AsRef<Path>) -> Result<Ledger> {
        let path = path.as_ref();
        if !path.is_file() {
            return Err(Error::NotFound(path.to_owned()));
        }
        // Look before migrating: a file with no ledger schema is refused untouched.
        match inspect(path)? {
            Found::Missing => Err(Error::NotFound(path.to_owned())),
            Found::Empty | Found::Foreign => Err(Error::NotALedger(path.to_owned())),
            Found::Ledger => Ledger::open(path),
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
    /// use beside its one writer (WAL lets them read while it appends). Never migrates.
    pub fn open_reader(path: impl AsRef<Path>) -> Result<Ledger> {
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
        Ok(Ledger {
            conn,
            path: path.to_owned(),
            batch_failed: false,
        })
    }

    /// A private in-memory ledger, for tests and tools.
    pub fn open_in_memory() -> Result<Ledger> {
        let conn = Connection::open_in_memory().ctx("opening an in-memory database")?;
        Ledger::configure(conn, PathBuf::from(":memory:"))
    }

    fn configure(mut conn: Connection, path: PathBuf) -> Result<Ledger> {
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
        Ok(Ledger {
            conn,
            path,
            batch_failed: false,
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

    /// Appends `events` to `stream`, all or nothing, if the stream is at `expected`.
    ///
    /// Retrying a call that may have succeeded is safe: when every event id is already
    /// recorded with the same content in the same stream, the call succeeds without writing
    /// (`already_recorded`), whatever `expected` says. An id reused for different content is an
    /// error. A stale `expected` is [`Error::Conflict`] and nothing is written.
    pub fn append(
        &mut self,
        stream: &StreamId,
        expected: ExpectedVersion,
        events: Vec<NewEvent>,
        recorded_by: &OfficialId,
    ) -> Result<Appended> {
        let prepared = prepare(stream, events)?;
        if !self.conn.is_autocommit() {
            return self.in_batch(|conn| append_in(conn, stream, expected, &prepared, recorded_by));
        }
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .ctx("starting an append")?;
        let done = append_in(&tx, stream, expected, &prepared, recorded_by)?;
        if !done.already_recorded {
            tx.commit().ctx("committing an append")?;
        }
        Ok(done)
    }

    /// Runs `f` in one transaction (one write to disk instead of one per append), for bulk
    /// work such as importing whole games: everything `f` appends is committed when it
    /// succeeds, and nothing when it fails (its error is returned). An append that fails
    /// inside dooms the whole batch, even if `f` carries on: later appends are refused and
    /// nothing is committed ([`Error::BatchFailed`]). Appends inside take no savepoint of
    /// their own — copying each page they touch into a statement journal cost an import a
    /// tenth of its time — so a batch is all or nothing as a whole, never append by append.
    pub fn batch<T, E: From<Error>>(
        &mut self,
        f: impl FnOnce(&mut Ledger) -> std::result::Result<T, E>,
    ) -> std::result::Result<T, E> {
        if !self.conn.is_autocommit() {
            return f(self);
        }
        // A bulk transaction's pages stay in memory until the commit instead of spilling to
        // the log page by page (64 MiB at most).
        self.conn
            .execute_batch("PRAGMA cache_size = -65536; BEGIN IMMEDIATE")
            .ctx("starting a batch")?;
        self.batch_failed = false;
        let out = f(self);
        let failed = std::mem::take(&mut self.batch_failed);
        let ended = match &out {
            Ok(_) if failed => Err(Error::BatchFailed),
            Ok(_) => self.conn.execute_batch("COMMIT").ctx("committing a batch"),
            Err(_) => Ok(()),
        };
        if out.is_err() || ended.is_err() {
            let _ = self.conn.execute_batch("ROLLBACK");
        }
        let _ = self.conn.execute_batch("PRAGMA cache_size = -2000");
        ended?;
        out
    }

    /// Runs one append inside [`Ledger::batch`]: refused once an earlier one has failed, and
    /// dooming the batch if it fails itself.
    fn in_batch<T>(&mut self, append: impl FnOnce(&Connection) -> Result<T>) -> Result<T> {
        if self.batch_failed {
            return Err(Error::BatchFailed);
        }
        let done = append(&self.conn);
        self.batch_failed = done.is_err();
        done
    }

    /// Appends to several streams in one transaction: all of it is recorded, or — a stale
    /// version, a bad event in any batch — none of it. Each batch is checked against its own
    /// expected version, as [`Ledger::append`] does; a batch already recorded (a retry) is
    /// skipped.
    pub fn append_all(
        &mut self,
        batches: Vec<(StreamId, ExpectedVersion, Vec<NewEvent>)>,
        recorded_by: &OfficialId,
    ) -> Result<Vec<Appended>> {
        let prepared = batches
            .into_iter()
            .map(|(stream, expected, events)| {
                prepare(&stream, events).map(|p| (stream, expected, p))
            })
            .collect::<Result<Vec<_>>>()?;
        if !self.conn.is_autocommit() {
            return self.in_batch(|conn| {
                prepared
                    .iter()
                    .map(|(stream, expected, p)| append_in(conn, stream, *expected, p, recorded_by))
                    .collect()
            });
        }
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .ctx("starting an append")?;
        let mut out = Vec::with_capacity(prepared.len());
        for (stream, expected, p) in &prepared {
            out.push(append_in(&tx, stream, *expected, p, recorded_by)?);
        }
        tx.commit().ctx("committing an append")?;
        Ok(out)
    }
}

/// One stream's append inside an open write transaction.
fn append_in(
    tx: &Connection,
    stream: &StreamId,
    expected: ExpectedVersion,
    prepared: &[Prepared],
    recorded_by: &OfficialId,
) -> Result<Appended> {
    // A retry repeats a whole batch, so its first id tells: only then is every id looked up.
    // An id reused further into a new batch breaks the unique index on insert, and is named
    // there.
    let retry = match prepared.first() {
        Some(p) => find_by_id(tx, p.id)?.is_some(),
        None => false,
    };
    if retry {
        if let Some(done) = already_recorded(tx, stream, prepared, recorded_by)? {
            return Ok(done);
        }
    }
    let current = stream_version(tx, stream)?;
    if let ExpectedVersion::Exact(v) = expected {
        if v != current {
            return Err(Error::Conflict {
                stream: stream.to_string(),
                expected,
                actual: current,
            });
        }
    }
    check_corrections(tx, prepared)?;
    let recorded_at = canonical_time(&now());
    let mut head = chain_head(tx)?;
    let mut prev_hash = stream_hash(tx, stream, current)?;
    let mut projector = Projector::default();
    for (i, p) in prepared.iter().enumerate() {
        let row = RowToInsert {
            stream,
            version: current + 1 + i as u64,
            event_id: p.id,
            recorded_at: &recorded_at,
            recorded_by: recorded_by.as_str(),
            event: &p.event,
            payload: &p.payload,
            prev_hash,
        };
        (prev_hash, head) = match insert(tx, &mut projector, &row, head) {
            Ok(next) => next,
            Err(e) => {
                if let Some(existing) = find_by_id(tx, p.id)? {
                    return Err(Error::EventIdReused {
                        event_id: p.id,
                        stream: existing.stream,
                        version: existing.version,
                    });
                }
                return Err(e);
            }
        };
    }
    projector.finish(tx)?;
    Ok(Appended {
        stream_version: current + prepared.len() as u64,
        count: prepared.len(),
        last_position: head.position,
        already_recorded: false,
    })
}

/// Encodes and checks each event, refusing the whole batch at the first bad one.
fn prepare(stream: &StreamId, events: Vec<NewEvent>) -> Result<Vec<Prepared>> {
    let mut out: Vec<Prepared> = Vec::with_capacity(events.len());
    // A hand played event by event is a batch of hundreds: ids are checked through a set.
    let mut ids = std::collections::HashSet::with_capacity(events.len());
    for (index, NewEvent { id, event }) in events.into_iter().enumerate() {
        check_event(index, stream, &event)?;
        if !ids.insert(id) {
            return Err(Error::DuplicateIdInBatch { event_id: id });
        }
        let payload = event
            .to_payload()
            .map_err(|source| Error::Encode { index, source })?;
        // serde_json writes UTF-8; the conversion cannot fail but is not worth a panic.
        let payload = String::from_utf8(payload).map_err(|e| Error::Encode {
            index,
            source: serde::ser::Error::custom(e),
        })?;
        out.push(Prepared { id, event, payload });
    }
    Ok(out)
}

/// The checks an event must pass wherever it comes from (append or import).
pub(crate) fn check_event(index: usize, stream: &StreamId, event: &Event) -> Result<()> {
    if event.stream_kind() != stream.kind() {
        return Err(Error::WrongStream {
            index,
            event_type: event.event_type(),
            stream: stream.to_string(),
            expected: event.stream_kind(),
        });
    }
    if let Event::SettlementRecorded(s) = event {
        let problems = settlement::check(s);
        if !problems.is_empty() {
            return Err(Error::BadSettlement { index, problems });
        }
    }
    Ok(())
}

/// A correction must supersede an event already recorded or earlier in the same batch.
pub(crate) fn check_corrections(tx: &Connection, batch: &[Prepared]) -> Result<()> {
    for (index, p) in batch.iter().enumerate() {
        if let Event::CorrectionRecorded(c) = &p.event {
            let earlier = batch[..index].iter().any(|q| q.id == c.supersedes);
            if !earlier && find_by_id(tx, c.supersedes)?.is_none() {
                return Err(Error::UnknownSuperseded {
                    index,
                    target: c.supersedes,
                });
            }
        }
    }
    Ok(())
}

/// A stored event's identity and content, for idempotency checks.
pub(crate) struct Existing {
    pub stream: String,
    pub version: u64,
    pub event_type: String,
    pub schema_version: u32,
    pub payload: Vec<u8>,
    pub recorded_by: String,
    pub hash: Vec<u8>,
}

pub(crate) fn find_by_id(conn: &Connection, id: Uuid) -> Result<Option<Existing>> {
    conn.prepare_cached(
        "SELECT stream, version, event_type, schema_version, payload, recorded_by, hash FROM events WHERE event_id = ?1",
    )
    .ctx("looking up an event id")?
    .query_row([id.as_bytes().as_slice()], |r| {
        Ok(Existing {
            stream: r.get(0)?,
            version: r.get::<_, i64>(1)?.max(0) as u64,
            event_type: r.get(2)?,
            schema_version: r.get::<_, i64>(3)?.clamp(0, i64::from(u32::MAX)) as u32,
            payload: match r.get_ref(4)? {
                rusqlite::types::ValueRef::Text(b) | rusqlite::types::ValueRef::Blob(b) => b.to_vec(),
                _ => Vec::new(),
            },
            recorded_by: r.get(5)?,
            hash: r.get(6)?,
        })
    })
    .optional()
    .ctx("looking up an event id")
}

/// `Some` when the whole batch is already recorded, identically and in order; an error when
/// any id is recorded with different content or only part of the batch is there.
fn already_recorded(
    tx: &Connection,
    stream: &StreamId,
    batch: &[Prepared],
    recorded_by: &OfficialId,
) -> Result<Option<Appended>> {
    let mut found = Vec::new();
    for p in batch {
        if let Some(e) = find_by_id(tx, p.id)? {
            let same = e.stream == stream.as_str()
                && e.event_type == p.event.event_type()
                && e.schema_version == p.event.schema_version()
                && e.payload == p.payload.as_bytes()
                && e.recorded_by == recorded_by.as_str();
            if !same {
                return Err(Error::EventIdReused {
                    event_id: p.id,
                    stream: e.stream,
                    version: e.version,
                });
            }
            found.push((p.id, e.version));
        }
    }
    if found.is_empty() {
        return Ok(None);
    }
    let in_order = found.windows(2).all(|w| w[1].1 == w[0].1 + 1);
    if found.len() != batch.len() || !in_order {
        // Part of the batch exists: this is not a retry of one earlier append.
        let (event_id, version) = found[0];
        return Err(Error::EventIdReused {
            event_id,
            stream: stream.to_string(),
            version,
        });
    }
    let head = chain_head(tx)?;
    Ok(Some(Appended {
        stream_version: stream_version(tx, stream)?,
        count: batch.len(),
        last_position: head.position,
        already_recorded: true,
    }))
}

/// The stream's current version: 0 when it has no events.
pub(crate) fn stream_version(conn: &Connection, stream: &StreamId) -> Result<u64> {
    conn.prepare_cached("SELECT COALESCE(MAX(version), 0) FROM events WHERE stream = ?1")
        .ctx("reading a stream's version")?
        .query_row([stream.as_str()], |r| r.get::<_, i64>(0))
        .ctx("reading a stream's version")
        .map(|v| v.max(0) as u64)
}

/// The hash of the stream's event at `version` (ZERO for version 0).
pub(crate) fn stream_hash(conn: &Connection, stream: &StreamId, version: u64) -> Result<Hash> {
    if version == 0 {
        return Ok(Hash::ZERO);
    }
    let bytes: Vec<u8> = conn
        .prepare_cached("SELECT hash FROM events WHERE stream = ?1 AND version = ?2")
        .ctx("reading a stream's head")?
        .query_row(params![stream.as_str(), version as i64], |r| r.get(0))
        .ctx("reading a stream's head")?;
    Hash::from_slice(&bytes).ok_or_else(|| Error::Corrupt {
        position: 0,
        stream: stream.to_string(),
        version,
        what: "stored hash is not 32 bytes".into(),
    })
}

/// The last row's position and chain hash.
pub(crate) fn chain_head(conn: &Connection) -> Result<ChainHead> {
    let row: Option<(i64, Vec<u8>)> = conn
        .prepare_cached("SELECT position, chain_hash FROM events ORDER BY position DESC LIMIT 1")
        .ctx("reading the chain head")?
        .query_row([], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()
        .ctx("reading the chain head")?;
    match row {
        None => Ok(ChainHead {
            position: 0,
            chain_hash: Hash::ZERO,
        }),
        Some((position, bytes)) => {
            let chain_hash = Hash::from_slice(&bytes).ok_or_else(|| Error::Corrupt {
                position: position.max(0) as u64,
                stream: String::new(),
                version: 0,
                what: "stored chain hash is not 32 bytes".into(),
            })?;
            Ok(ChainHead {
                position: position.max(0) as u64,
                chain_hash,
            })
        }
    }
}

/// Inserts one row after `head`, folds it into the projections (`projector`, finished by the
/// caller before the transaction ends), and returns the row's hash and the new head.
pub(crate) fn insert(
    tx: &Connection,
    projector: &mut Projector,
    row: &RowToInsert<'_>,
    head: ChainHead,
) -> Result<(Hash, ChainHead)> {
    let hash = HashInput {
        stream: row.stream.as_str(),
        version: row.version,
        event_id: row.event_id.as_bytes(),
        recorded_at: row.recorded_at,
        recorded_by: row.recorded_by,
        event_type: row.event.event_type(),
        schema_version: row.event.schema_version(),
        payload: row.payload.as_bytes(),
        prev_hash: &row.prev_hash,
    }
    .hash();
    let next = ChainHead {
        position: head.position + 1,
        chain_hash: chain_hash(&head.chain_hash, &hash),
    };
    tx.prepare_cached(
        "INSERT INTO events (position, stream, version, event_id, recorded_at, recorded_by, event_type, \
         schema_version, payload, prev_hash, hash, chain_hash) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
    )
    .ctx("inserting an event")?
    .execute(params![
        next.position as i64,
        row.stream.as_str(),
        row.version as i64,
        row.event_id.as_bytes().as_slice(),
        row.recorded_at,
        row.recorded_by,
        row.event.event_type(),
        row.event.schema_version(),
        row.payload,
        row.prev_hash.0.as_slice(),
        hash.0.as_slice(),
        next.chain_hash.0.as_slice(),
    ])
    .ctx("inserting an event")?;
    let meta = EventMeta {
        position: next.position,
        stream: row.stream,
        version: row.version,
        event_id: row.event_id,
    };
    projector.apply(tx, tx, &meta, row.event)?;
    Ok((hash, next))
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
