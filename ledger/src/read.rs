//! Reading the ledger: a stream from a version, everything in global order, following new
//! events as they arrive, and a verified replay of the whole chain.

use std::thread;
use std::time::{Duration, Instant};

use rusqlite::{params, Connection};

use crate::chain::ChainVerifier;
use crate::error::{Error, Result, SqlContext};
use crate::event::{DecodeError, Event};
use crate::head::ChainHead;
use crate::ids::StreamId;
use crate::record::{RecordedEvent, RowRef, COLUMNS};
use crate::store::{chain_head, stream_version, Ledger};

/// How often [`Ledger::wait_for_new`] looks for new events.
const POLL_INTERVAL: Duration = Duration::from_millis(10);

fn corrupt(row: &RowRef<'_>, what: String) -> Error {
    Error::Corrupt {
        position: row.position_u64(),
        stream: row.stream_text().to_owned(),
        version: row.version_u64(),
        what,
    }
}

/// What a verified replay went through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplayStats {
    pub events: u64,
    pub head: ChainHead,
}

impl Ledger {
    /// The stream's events from `from_version` (1 for all) on, in version order.
    pub fn read_stream(&self, stream: &StreamId, from_version: u64) -> Result<Vec<RecordedEvent>> {
        // The whole stream is asked for far most often; a range on a bound value makes SQLite
        // (built with STAT4) prepare the statement again at every binding, so that case has a
        // statement of its own.
        if from_version <= 1 {
            let sql = format!("SELECT {COLUMNS} FROM events WHERE stream = ?1 ORDER BY version");
            return self.collect(&sql, params![stream.as_str()]);
        }
        let sql = format!(
            "SELECT {COLUMNS} FROM events WHERE stream = ?1 AND version >= ?2 ORDER BY version"
        );
        self.collect(
            &sql,
            params![stream.as_str(), from_version.min(i64::MAX as u64) as i64],
        )
    }

    /// Up to `limit` events at positions `from_position` (1 for all) and later, in global order.
    pub fn read_all(&self, from_position: u64, limit: usize) -> Result<Vec<RecordedEvent>> {
        let sql =
            format!("SELECT {COLUMNS} FROM events WHERE position >= ?1 ORDER BY position LIMIT ?2");
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.collect(
            &sql,
            params![from_position.min(i64::MAX as u64) as i64, limit],
        )
    }

    /// Follows the ledger: returns the events after `after_position` as soon as there are any,
    /// or an empty list when `timeout` passes first. Projections and pages call this in a loop
    /// with the last position they have seen.
    pub fn wait_for_new(
        &self,
        after_position: u64,
        limit: usize,
        timeout: Duration,
    ) -> Result<Vec<RecordedEvent>> {
        let deadline = Instant::now() + timeout;
        loop {
            let events = self.read_all(after_position.saturating_add(1), limit)?;
            if !events.is_empty() || Instant::now() >= deadline {
                return Ok(events);
            }
            thread::sleep(POLL_INTERVAL.min(deadline.saturating_duration_since(Instant::now())));
        }
    }

    /// The stream's current version (0 when it has no events).
    pub fn stream_version(&self, stream: &StreamId) -> Result<u64> {
        stream_version(&self.conn, stream)
    }

    /// The hash of `stream`'s event at `version`: whether a fold of the stream up to there is
    /// still of this ledger's stream (a restore may have put another history in its place).
    pub fn stream_hash_at(&self, stream: &StreamId, version: u64) -> Result<crate::Hash> {
        crate::store::stream_hash(&self.conn, stream, version)
    }

    /// The head of the global chain: the value to publish.
    pub fn head(&self) -> Result<ChainHead> {
        chain_head(&self.conn)
    }

    /// Reads every event in global order, verifying each hash, each stream link and the global
    /// chain, decoding each payload, and handing it to `f`. Stops at the first break with
    /// [`Error::Corrupt`] naming where; [`Ledger::audit`] is the variant that reports everything.
    pub fn replay(&self, mut f: impl FnMut(RecordedEvent)) -> Result<ReplayStats> {
        let sql = format!("SELECT {COLUMNS} FROM events ORDER BY position");
        let mut stmt = self.conn.prepare(&sql).ctx("reading the events")?;
        let mut rows = stmt.query([]).ctx("reading the events")?;
        let mut verifier = ChainVerifier::new();
        while let Some(row) = rows.next().ctx("reading the events")? {
            let r = RowRef::from_row(row).ctx("reading an event row")?;
            if let Some(first) = verifier.row(&r).into_iter().next() {
                return Err(corrupt(&r, first.to_string()));
            }
            f(r.decode().map_err(|what| corrupt(&r, what))?);
        }
        let head = verifier.head();
        Ok(ReplayStats {
            events: head.position,
            head,
        })
    }

    fn collect(&self, sql: &str, params: impl rusqlite::Params) -> Result<Vec<RecordedEvent>> {
        let mut stmt = self.conn.prepare_cached(sql).ctx("reading events")?;
        let mut rows = stmt.query(params).ctx("reading events")?;
        let mut out = Vec::new();
        while let Some(row) = rows.next().ctx("reading events")? {
            let r = RowRef::from_row(row).ctx("reading an event row")?;
            out.push(r.decode().map_err(|what| corrupt(&r, what))?);
        }
        Ok(out)
    }
}

/// A stored event decoded, or why it could not be.
pub(crate) type Decoded = std::result::Result<Event, DecodeError>;

/// Every event of `stream` stored in `conn`, in version order, each decoded or with why not:
/// for the ledger's own streams (accounts, checkpoints), which their modules fold and the audit
/// checks without stopping at a bad payload (the chain itself is the audit walk's).
pub(crate) fn stream_events(conn: &Connection, stream: &StreamId) -> Result<Vec<(u64, Decoded)>> {
    let mut stmt = conn
        .prepare_cached(
            "SELECT version, event_type, schema_version, payload FROM events \
             WHERE stream = ?1 ORDER BY version",
        )
        .ctx("reading a stream")?;
    let rows = stmt
        .query_map([stream.as_str()], |r| {
            Ok((
                r.get::<_, i64>(0)? as u64,
                r.get::<_, String>(1)?,
                r.get::<_, u32>(2)?,
                r.get_ref(3)?.as_bytes()?.to_vec(),
            ))
        })
        .ctx("reading a stream")?;
    let mut out = Vec::new();
    for row in rows {
        let (version, event_type, schema, payload) = row.ctx("reading a stream")?;
        out.push((version, Event::decode(&event_type, schema, &payload)));
    }
    Ok(out)
}
