//! Stored events: the envelope around a payload, and reading rows back.
//!
//! Rows are read as borrowed views ([`RowRef`]) straight from SQLite's buffers, so verifying a
//! hash needs no copies; only events handed to the caller are decoded into owned values.

use chrono::{DateTime, SubsecRound, Utc};
use rusqlite::types::ValueRef;
use uuid::Uuid;

use crate::event::Event;
use crate::hash::{Hash, HashInput};
use crate::ids::{OfficialId, StreamId};

/// The canonical text of `recorded_at`: RFC 3339, UTC, exactly six fractional digits.
pub const TIME_FORMAT: &str = "%Y-%m-%dT%H:%M:%S%.6fZ";

/// The current time at the precision the ledger stores.
pub(crate) fn now() -> DateTime<Utc> {
    Utc::now().trunc_subsecs(6)
}

pub(crate) fn canonical_time(t: &DateTime<Utc>) -> String {
    t.format(TIME_FORMAT).to_string()
}

/// Parses a stored or imported `recorded_at`, refusing anything not in canonical form.
pub fn parse_canonical_time(s: &str) -> Option<DateTime<Utc>> {
    let t = DateTime::parse_from_rfc3339(s).ok()?.with_timezone(&Utc);
    (canonical_time(&t) == s).then_some(t)
}

/// An event as recorded: its envelope and its payload.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedEvent {
    /// Global order of recording in this database, from 1.
    pub position: u64,
    pub stream: StreamId,
    /// Version within the stream, from 1.
    pub version: u64,
    pub event_id: Uuid,
    pub recorded_at: DateTime<Utc>,
    pub recorded_by: OfficialId,
    pub schema_version: u32,
    pub event: Event,
    /// Hash of the previous event of the same stream ([`Hash::ZERO`] for version 1).
    pub prev_hash: Hash,
    /// Hash of this event (see the `hash` module for its encoding).
    pub hash: Hash,
    /// The global chain hash up to and including this event.
    pub chain_hash: Hash,
}

/// The columns of `events`, in the order [`RowRef::from_row`] reads them.
pub(crate) const COLUMNS: &str = "position, stream, version, event_id, recorded_at, recorded_by, \
     event_type, schema_version, payload, prev_hash, hash, chain_hash";

/// A stored row, borrowed, before anything about it is trusted. Text and blob columns are both
/// read as bytes, so a value rewritten with the wrong type in the sqlite3 shell is still seen.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RowRef<'a> {
    pub position: i64,
    pub stream: &'a [u8],
    pub version: i64,
    pub event_id: &'a [u8],
    pub recorded_at: &'a [u8],
    pub recorded_by: &'a [u8],
    pub event_type: &'a [u8],
    pub schema_version: i64,
    pub payload: &'a [u8],
    pub prev_hash: &'a [u8],
    pub hash: &'a [u8],
    pub chain_hash: &'a [u8],
}

fn bytes<'a>(v: ValueRef<'a>) -> &'a [u8] {
    match v {
        ValueRef::Text(b) | ValueRef::Blob(b) => b,
        _ => &[],
    }
}

fn int(v: ValueRef<'_>) -> i64 {
    // A non-integer where an integer belongs can only come from tampering; -1 never verifies.
    v.as_i64().unwrap_or(-1)
}

fn text(b: &[u8]) -> &str {
    std::str::from_utf8(b).unwrap_or("\u{fffd}")
}

impl<'a> RowRef<'a> {
    pub fn from_row(row: &'a rusqlite::Row<'a>) -> rusqlite::Result<RowRef<'a>> {
        Ok(RowRef {
            position: int(row.get_ref(0)?),
            stream: bytes(row.get_ref(1)?),
            version: int(row.get_ref(2)?),
            event_id: bytes(row.get_ref(3)?),
            recorded_at: bytes(row.get_ref(4)?),
            recorded_by: bytes(row.get_ref(5)?),
            event_type: bytes(row.get_ref(6)?),
            schema_version: int(row.get_ref(7)?),
            payload: bytes(row.get_ref(8)?),
            prev_hash: bytes(row.get_ref(9)?),
            hash: bytes(row.get_ref(10)?),
            chain_hash: bytes(row.get_ref(11)?),
        })
    }

    pub fn stream_text(&self) -> &'a str {
        text(self.stream)
    }

    pub fn version_u64(&self) -> u64 {
        self.version.max(0) as u64
    }

    pub fn position_u64(&self) -> u64 {
        self.position.max(0) as u64
    }

    /// The hash the row's content should have, or why it cannot be computed.
    pub fn recompute_hash(&self) -> Result<Hash, String> {
        let event_id: &[u8; 16] = self
            .event_id
            .try_into()
            .map_err(|_| "event id is not 16 bytes".to_owned())?;
        let prev_hash = Hash::from_slice(self.prev_hash).ok_or("previous hash is not 32 bytes")?;
        let schema_version =
            u32::try_from(self.schema_version).map_err(|_| "schema version out of range")?;
        Ok(HashInput {
            stream: text(self.stream),
            version: self.version_u64(),
            event_id,
            recorded_at: text(self.recorded_at),
            recorded_by: text(self.recorded_by),
            event_type: text(self.event_type),
            schema_version,
            payload: self.payload,
            prev_hash: &prev_hash,
        }
        .hash())
    }

    /// Decodes the row into an owned event, or says which part is unreadable.
    pub fn decode(&self) -> Result<RecordedEvent, String> {
        let stream: StreamId = text(self.stream).parse().map_err(|e| format!("{e}"))?;
        let recorded_by: OfficialId = text(self.recorded_by)
            .parse()
            .map_err(|e| format!("recorded by: {e}"))?;
        let recorded_at = DateTime::parse_from_rfc3339(text(self.recorded_at))
            .map_err(|e| format!("recorded at `{}`: {e}", text(self.recorded_at)))?
            .with_timezone(&Utc);
        let event_id = Uuid::from_slice(self.event_id).map_err(|e| format!("event id: {e}"))?;
        let schema_version =
            u32::try_from(self.schema_version).map_err(|_| "schema version out of range")?;
        let event = Event::decode(text(self.event_type), schema_version, self.payload)
            .map_err(|e| e.to_string())?;
        let hash = |b: &[u8], what: &str| {
            Hash::from_slice(b).ok_or_else(|| format!("{what} is not 32 bytes"))
        };
        Ok(RecordedEvent {
            position: self.position_u64(),
            stream,
            version: self.version_u64(),
            event_id,
            recorded_at,
            recorded_by,
            schema_version,
            event,
            prev_hash: hash(self.prev_hash, "previous hash")?,
            hash: hash(self.hash, "hash")?,
            chain_hash: hash(self.chain_hash, "chain hash")?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_stored_in_one_canonical_form() {
        let t = now();
        let s = canonical_time(&t);
        assert_eq!(s.len(), "2026-01-01T00:00:00.000000Z".len());
        assert_eq!(parse_canonical_time(&s), Some(t));
        assert_eq!(parse_canonical_time("2026-01-01T00:00:00Z"), None);
        assert_eq!(
            parse_canonical_time("2026-01-01T01:00:00.000000+01:00"),
            None
        );
    }
}
