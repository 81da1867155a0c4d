//! The event store and appending to it.
//!
//! An append decides before it writes: every event is encoded and checked (right kind of
//! stream, a settlement whose nets match its payments, a correction of an event that exists)
//! and the expected version compared, all inside one `BEGIN IMMEDIATE` transaction that holds
//! SQLite's write lock. Only then are rows inserted and folded into every registered projection
//! (the `projector` module), and the commit makes all of it durable at once or none of it.

use std::path::PathBuf;

use rusqlite::{params, Connection, OptionalExtension, TransactionBehavior};
use uuid::Uuid;

use crate::error::{Error, Result, SqlContext};
use crate::event::Event;
use crate::hash::{chain_hash, Hash, HashInput};
use crate::head::{ChainHead, ExpectedVersion};
use crate::ids::{OfficialId, StreamId};
use crate::projector::{EventMeta, Folds, Projections, Target};
use crate::record::{canonical_time, now};
use crate::settlement;

/// The event store: one SQLite database, and the projections kept in it.
pub struct Ledger {
    pub(crate) conn: Connection,
    pub(crate) path: PathBuf,
    /// Inside [`Ledger::batch`]: whether an append has failed, leaving the batch to be undone.
    pub(crate) batch_failed: bool,
    /// The projections every append folds into (and rebuild and the audit go through).
    pub(crate) projections: Projections,
    /// Projections the database keeps that were not registered: appends are refused.
    pub(crate) unregistered: Vec<String>,
    /// A writer's share of the database's lock (`lock`): no restore replaces the ledger while
    /// it is open. Dropped after the connection (fields drop in order).
    pub(crate) _writing: Option<std::fs::File>,
}

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
        self.writable()?;
        let prepared = prepare(stream, events)?;
        let projections = self.projections.clone();
        if !self.conn.is_autocommit() {
            return self.in_batch(|conn| {
                append_in(conn, &projections, stream, expected, &prepared, recorded_by)
            });
        }
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .ctx("starting an append")?;
        let done = append_in(&tx, &projections, stream, expected, &prepared, recorded_by)?;
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

    /// Refuses to write while the database keeps a projection that was not registered: it
    /// would fall behind the events.
    pub(crate) fn writable(&self) -> Result<()> {
        match self.unregistered.first() {
            Some(name) => Err(Error::UnregisteredProjection { name: name.clone() }),
            None => Ok(()),
        }
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
        self.writable()?;
        let projections = self.projections.clone();
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
                    .map(|(stream, expected, p)| {
                        append_in(conn, &projections, stream, *expected, p, recorded_by)
                    })
                    .collect()
            });
        }
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .ctx("starting an append")?;
        let mut out = Vec::with_capacity(prepared.len());
        for (stream, expected, p) in &prepared {
            out.push(append_in(
                &tx,
                &projections,
                stream,
                *expected,
                p,
                recorded_by,
            )?);
        }
        tx.commit().ctx("committing an append")?;
        Ok(out)
    }
}

/// One stream's append inside an open write transaction.
fn append_in(
    tx: &Connection,
    projections: &Projections,
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
    let mut folds = projections.begin();
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
        (prev_hash, head) = insert(tx, &mut folds, &row, head)?;
    }
    folds.finish(&Target::new(tx, tx))?;
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

/// Inserts one row after `head`, folds it into the projections (`folds`, finished by the
/// caller before the transaction ends), and returns the row's hash and the new head.
pub(crate) fn insert(
    tx: &Connection,
    folds: &mut Folds<'_>,
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
    .or_else(|e| match find_by_id(tx, row.event_id)? {
        // The unique index on event ids: an id reused further into a new batch.
        Some(existing) => Err(Error::EventIdReused {
            event_id: row.event_id,
            stream: existing.stream,
            version: existing.version,
        }),
        None => Err(Error::sqlite("inserting an event", e)),
    })?;
    let meta = EventMeta {
        position: next.position,
        stream: row.stream,
        version: row.version,
        event_id: row.event_id,
    };
    folds.apply(&Target::new(tx, tx), &meta, row.event)?;
    Ok((hash, next))
}
