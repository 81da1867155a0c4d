//! Export and import of streams as JSON Lines: one event per line, envelope and payload, with
//! both hashes, so a disputed hand's record can be sent to a referee and verified on its own.
//!
//! A line looks like (wrapped here):
//!
//! ```text
//! {"stream":"hand:t1-g1-h3","version":4,"event_id":"0190...","recorded_at":"2026-05-01T14:03:11.123456Z",
//!  "recorded_by":"ref-ann","event_type":"tile_discarded","schema_version":1,
//!  "payload":{"seat":"south","placed":"5p","named":"5p"},"prev_hash":"9f2c...","hash":"41d0..."}
//! ```
//!
//! `payload` is embedded byte for byte as stored, so the hash can be recomputed from the line.
//! Import checks every line (vocabulary, canonical form, hash, stream links) before writing
//! anything, then writes in one transaction: events already present with the same hash are
//! skipped, a different event at the same version is refused as a conflict.

use std::collections::HashMap;
use std::io::{BufRead, Write};

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use uuid::Uuid;

use crate::chain::{content_finding, StreamLinks};
use crate::error::{Error, Result, SqlContext};
use crate::event::{canonical_older, Event};
use crate::hash::{Hash, HashInput};
use crate::ids::{OfficialId, StreamId};
use crate::lines::read_line;
use crate::projector::Target;
use crate::record::{parse_canonical_time, RowRef, COLUMNS};
use crate::signing::{ExportSignature, LedgerKey, SignatureLine};
use crate::store::{
    chain_head, check_event, find_by_id, insert, stream_hash, stream_version, Ledger, RowToInsert,
};

#[derive(Serialize)]
struct LineOut<'a> {
    stream: &'a str,
    version: u64,
    event_id: Uuid,
    recorded_at: &'a str,
    recorded_by: &'a str,
    event_type: &'a str,
    schema_version: i64,
    payload: &'a RawValue,
    prev_hash: String,
    hash: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LineIn {
    stream: StreamId,
    version: u64,
    event_id: Uuid,
    recorded_at: String,
    recorded_by: OfficialId,
    event_type: String,
    schema_version: u32,
    payload: Box<RawValue>,
    prev_hash: Hash,
    hash: Hash,
}

impl<'de> Deserialize<'de> for Hash {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Hash, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// A checked import line.
struct Parsed {
    line: usize,
    stream: StreamId,
    version: u64,
    event_id: Uuid,
    recorded_at: String,
    recorded_by: OfficialId,
    event: Event,
    payload: String,
    prev_hash: Hash,
    hash: Hash,
}

/// One event of an export, as read and verified (its hash and its links within the file).
#[derive(Clone, Debug, PartialEq)]
pub struct ExportedEvent {
    /// The line it was read from, from 1.
    pub line: usize,
    pub stream: StreamId,
    pub version: u64,
    pub event_id: Uuid,
    pub recorded_at: String,
    pub recorded_by: OfficialId,
    pub event: Event,
}

/// Reads and verifies an export as [`Ledger::import`] would, without a ledger: the events, in
/// file order, for whoever must check them against the ledger before importing (that its
/// officials exist, that a hand follows its table's rotation, that its settlement is the
/// ruleset's: what only the service knows).
pub fn read_export(input: impl BufRead) -> Result<Vec<ExportedEvent>> {
    read_export_signed(input).map(|(events, _)| events)
}

/// [`read_export`], with each stream exported signed and the public key of the ledger that
/// signed it (its signature checked, covering the stream's last event in the file).
pub fn read_export_signed(input: impl BufRead) -> Result<(Vec<ExportedEvent>, Vec<SignedBy>)> {
    let (parsed, signed) = parse_all(input)?;
    let events = parsed
        .into_iter()
        .map(|p| ExportedEvent {
            line: p.line,
            stream: p.stream,
            version: p.version,
            event_id: p.event_id,
            recorded_at: p.recorded_at,
            recorded_by: p.recorded_by,
            event: p.event,
        })
        .collect();
    Ok((events, signed))
}

/// What an import did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImportReport {
    pub imported: u64,
    /// Events that were already in the ledger, identical.
    pub already_present: u64,
    /// Each stream touched and its version afterwards.
    pub streams: Vec<(StreamId, u64)>,
    /// The streams whose export was signed, with the signing ledger's public key (hex): the
    /// signature checked over the stream's last event (see the signing module).
    pub signed_by: Vec<(StreamId, String)>,
}

fn bad(line: usize, what: impl Into<String>) -> Error {
    Error::Import {
        line,
        what: what.into(),
    }
}

impl Ledger {
    /// Writes the stream as JSON Lines, verifying each event's hash and link as it goes (a
    /// broken record is refused, not exported). Returns the number of events written.
    pub fn export_stream(&self, stream: &StreamId, out: impl Write) -> Result<u64> {
        self.export_stream_signed(stream, None, out)
    }

    /// [`Ledger::export_stream`], ending with a line `{"signed": …}`: the ledger's signature
    /// (with `key`) over the stream's last version and hash, which link to every event before.
    pub fn export_stream_signed(
        &self,
        stream: &StreamId,
        key: Option<&LedgerKey>,
        mut out: impl Write,
    ) -> Result<u64> {
        let sql = format!("SELECT {COLUMNS} FROM events WHERE stream = ?1 ORDER BY version");
        let mut stmt = self.conn.prepare(&sql).ctx("reading the stream")?;
        let mut rows = stmt.query([stream.as_str()]).ctx("reading the stream")?;
        let mut links = StreamLinks::new();
        let mut count = 0;
        let mut last: Option<Hash> = None;
        while let Some(row) = rows.next().ctx("reading the stream")? {
            let r = RowRef::from_row(row).ctx("reading an event row")?;
            last = write_line(&r, stream.as_str(), &mut links, &mut out)?;
            count = r.version_u64();
        }
        if let (Some(key), Some(hash)) = (key, last) {
            write_signature(key, stream.as_str(), count, hash, &mut out)?;
        }
        flush(&mut out)?;
        Ok(count)
    }

    /// Every stream of the club's play (tournaments, tables, hands: not the ledger's own
    /// accounts and checkpoints) as JSON Lines, in the order the events were recorded (so an
    /// import meets each tournament before its tables and each table before its hands), each
    /// stream's signature line at the end. Returns the events and the streams written.
    pub fn export_all_signed(
        &self,
        key: Option<&LedgerKey>,
        mut out: impl Write,
    ) -> Result<(u64, u64)> {
        let sql = format!("SELECT {COLUMNS} FROM events ORDER BY position");
        let mut stmt = self.conn.prepare(&sql).ctx("reading the events")?;
        let mut rows = stmt.query([]).ctx("reading the events")?;
        let mut links = StreamLinks::new();
        // Each stream once, in the order first met.
        let mut order: Vec<String> = Vec::new();
        let mut count = 0;
        while let Some(row) = rows.next().ctx("reading the events")? {
            let r = RowRef::from_row(row).ctx("reading an event row")?;
            let stream = std::str::from_utf8(r.stream).map_err(|e| Error::Corrupt {
                position: r.position_u64(),
                stream: String::from_utf8_lossy(r.stream).into_owned(),
                version: r.version_u64(),
                what: format!("stream name: {e}"),
            })?;
            // The officials' accounts and the checkpoints are this ledger's own, not the
            // club's play: another ledger keeps its own (and `import` refuses them).
            if stream
                .parse::<StreamId>()
                .is_ok_and(|s| s.kind().is_ledgers_own())
            {
                continue;
            }
            if r.version_u64() == 1 {
                order.push(stream.to_owned());
            }
            write_line(&r, stream, &mut links, &mut out)?;
            count += 1;
        }
        let heads = links.into_heads();
        if let Some(key) = key {
            for stream in &order {
                if let Some(&(version, hash)) = heads.get(stream) {
                    write_signature(key, stream, version, hash, &mut out)?;
                }
            }
        }
        flush(&mut out)?;
        Ok((count, order.len() as u64))
    }

    /// Imports JSON Lines written by [`Ledger::export_stream`], all or nothing.
    pub fn import(&mut self, input: impl BufRead) -> Result<ImportReport> {
        self.writable()?;
        let (parsed, signatures) = parse_all(input)?;
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .ctx("starting an import")?;
        let mut report = ImportReport::default();
        let mut head = chain_head(&tx)?;
        // In the order first touched; the set answers "seen?" (a whole ledger's export
        // touches a hundred thousand streams: searching the list for each line was quadratic).
        let mut touched: Vec<StreamId> = Vec::new();
        let mut seen: std::collections::HashSet<StreamId> = Default::default();
        let mut folds = self.projections.begin();
        for p in &parsed {
            if p.stream.kind().is_ledgers_own() {
                return Err(bad(
                    p.line,
                    format!(
                        "{} is a ledger's own record of its accounts or checkpoints, which are not imported: each ledger keeps its own",
                        p.stream
                    ),
                ));
            }
            if seen.insert(p.stream.clone()) {
                touched.push(p.stream.clone());
            }
            if let Some(existing) = find_by_id(&tx, p.event_id)? {
                if existing.stream == p.stream.as_str()
                    && existing.version == p.version
                    && existing.hash == p.hash.0
                {
                    report.already_present += 1;
                    continue;
                }
                let what = format!(
                    "conflicts with the ledger: event id {} is already recorded as {} version {} with different content",
                    p.event_id, existing.stream, existing.version
                );
                return Err(bad(p.line, what));
            }
            let current = stream_version(&tx, &p.stream)?;
            if p.version <= current {
                let what = format!(
                    "conflicts with the ledger: {} version {} is already a different event (this record's id is {})",
                    p.stream, p.version, p.event_id
                );
                return Err(bad(p.line, what));
            }
            if p.version != current + 1 || stream_hash(&tx, &p.stream, current)? != p.prev_hash {
                let what = format!(
                    "does not continue the ledger's {} (at version {current}): the record's version {} links to a different predecessor",
                    p.stream, p.version
                );
                return Err(bad(p.line, what));
            }
            if let Event::CorrectionRecorded(c) = &p.event {
                if find_by_id(&tx, c.supersedes)?.is_none() {
                    return Err(bad(
                        p.line,
                        format!(
                            "the correction supersedes event {}, which is not in the ledger",
                            c.supersedes
                        ),
                    ));
                }
            }
            let row = RowToInsert {
                stream: &p.stream,
                version: p.version,
                event_id: p.event_id,
                recorded_at: &p.recorded_at,
                recorded_by: p.recorded_by.as_str(),
                event: &p.event,
                payload: &p.payload,
                prev_hash: p.prev_hash,
            };
            let (hash, next) = insert(&tx, &mut folds, &row, head)?;
            if hash != p.hash {
                // Cannot happen: parse_line verified the same fields. Refuse rather than panic.
                return Err(bad(
                    p.line,
                    "the stored hash would differ from the record's",
                ));
            }
            head = next;
            report.imported += 1;
        }
        folds.finish(&Target::new(&tx, &tx))?;
        for stream in touched {
            let v = stream_version(&tx, &stream)?;
            report.streams.push((stream, v));
        }
        report.signed_by = signatures;
        tx.commit().ctx("committing an import")?;
        Ok(report)
    }
}

/// Why an event that verifies is still not acceptable, worded for an import line.
fn refusal(stream: &StreamId, version: u64, e: Error) -> String {
    match e {
        Error::BadSettlement { problems, .. } => {
            let problems: Vec<String> = problems.iter().map(ToString::to_string).collect();
            format!(
                "{stream} version {version}: settlement refused: {}",
                problems.join("; ")
            )
        }
        Error::WrongStream {
            event_type,
            expected,
            ..
        } => {
            format!("{stream} version {version}: `{event_type}` belongs in a {expected} stream")
        }
        other => other.to_string(),
    }
}

fn hex(b: &[u8]) -> String {
    Hash::from_slice(b).map(|h| h.to_hex()).unwrap_or_default()
}

/// A stream exported signed, and the public key of the ledger that signed it.
pub type SignedBy = (StreamId, String);

/// Reads and checks every line before anything is written: the events, and the signatures of
/// the streams exported signed, each checked and covering its stream's last event.
fn parse_all(mut input: impl BufRead) -> Result<(Vec<Parsed>, Vec<SignedBy>)> {
    let mut out: Vec<Parsed> = Vec::new();
    let mut signatures: Vec<(StreamId, String, u64, usize)> = Vec::new();
    let mut links = StreamLinks::resuming();
    // Each stream's last line so far: what a signature must cover (looked up, not searched
    // for — a whole ledger's export signs a hundred thousand streams).
    let mut last_of: HashMap<StreamId, (u64, Hash)> = HashMap::new();
    let mut raw = Vec::new();
    for n in 1.. {
        raw.clear();
        let read = read_line(&mut input, &mut raw).map_err(|e| match e.kind() {
            std::io::ErrorKind::InvalidData => bad(n, e.to_string()),
            _ => bad(n, format!("cannot read: {e}")),
        })?;
        if read == 0 {
            break;
        }
        let line = std::str::from_utf8(&raw)
            .map_err(|e| bad(n, format!("not UTF-8 (byte {})", e.valid_up_to() + 1)))?;
        if line.trim().is_empty() {
            continue;
        }
        if line.trim_start().starts_with("{\"signed\"") {
            let s: SignatureLine = serde_json::from_str(line)
                .map_err(|e| bad(n, format!("not an export signature: {e}")))?;
            let s = s.signed;
            s.verify()
                .map_err(|e| bad(n, format!("export signature of {}: {e}", s.stream)))?;
            let stream = s.stream.parse::<StreamId>().ok();
            let last = stream
                .as_ref()
                .and_then(|stream| last_of.get(stream).map(|last| (stream, last)));
            match last {
                Some((stream, &(version, hash)))
                    if version == s.version && hash.to_hex() == s.hash =>
                {
                    signatures.push((stream.clone(), s.ledger, s.version, n));
                }
                _ => {
                    return Err(bad(
                        n,
                        format!(
                            "the export signature of {} covers version {} (hash {}), which is not the stream's last line above it",
                            s.stream, s.version, s.hash
                        ),
                    ))
                }
            }
            continue;
        }
        let p = parse_line(n, line)?;
        if let Some(finding) = links.link(p.stream.as_str(), p.version, Some(p.prev_hash), p.hash) {
            let what = format!(
                "broken chain: {} version {}: {finding}",
                p.stream, p.version
            );
            return Err(bad(n, what));
        }
        last_of.insert(p.stream.clone(), (p.version, p.hash));
        out.push(p);
    }
    // A signature covers its stream only if nothing of the stream follows it.
    for (stream, _, version, n) in &signatures {
        if last_of
            .get(stream)
            .is_some_and(|&(last, _)| last > *version)
        {
            return Err(bad(
                *n,
                format!("events of {stream} follow its export signature: they are not covered"),
            ));
        }
    }
    let signed = signatures
        .into_iter()
        .map(|(stream, ledger, ..)| (stream, ledger))
        .collect();
    Ok((out, signed))
}

fn parse_line(n: usize, line: &str) -> Result<Parsed> {
    let l: LineIn =
        serde_json::from_str(line).map_err(|e| bad(n, format!("not a ledger export line: {e}")))?;
    if l.version == 0 {
        return Err(bad(n, "version 0 does not exist; versions start at 1"));
    }
    if parse_canonical_time(&l.recorded_at).is_none() {
        return Err(bad(
            n,
            format!(
                "recorded_at `{}` is not a canonical UTC time like 2026-01-01T00:00:00.000000Z",
                l.recorded_at
            ),
        ));
    }
    let payload = l.payload.get().to_owned();
    let event = Event::decode(&l.event_type, l.schema_version, payload.as_bytes())
        .map_err(|e| bad(n, e.to_string()))?;
    let canonical = match canonical_older(&l.event_type, l.schema_version, payload.as_bytes()) {
        Some(old) => old.map_err(|e| bad(n, e.to_string()))?,
        None => event.to_payload().map_err(|e| bad(n, e.to_string()))?,
    };
    if canonical != payload.as_bytes() {
        return Err(bad(
            n,
            "payload is not in canonical form (it was re-encoded or edited)",
        ));
    }
    let recomputed = HashInput {
        stream: l.stream.as_str(),
        version: l.version,
        event_id: l.event_id.as_bytes(),
        recorded_at: &l.recorded_at,
        recorded_by: l.recorded_by.as_str(),
        event_type: &l.event_type,
        schema_version: l.schema_version,
        payload: payload.as_bytes(),
        prev_hash: &l.prev_hash,
    }
    .hash();
    if recomputed != l.hash {
        let what = format!(
            "{} version {}: content does not match its hash (stated {}, recomputed {recomputed})",
            l.stream, l.version, l.hash
        );
        return Err(bad(n, what));
    }
    check_event(0, &l.stream, &event).map_err(|e| bad(n, refusal(&l.stream, l.version, e)))?;
    Ok(Parsed {
        line: n,
        stream: l.stream,
        version: l.version,
        event_id: l.event_id,
        recorded_at: l.recorded_at,
        recorded_by: l.recorded_by,
        event,
        payload,
        prev_hash: l.prev_hash,
        hash: l.hash,
    })
}
/// Writes one stored row as an export line, after checking its hash and its link in its
/// stream (a broken record is refused, not exported). Returns its hash.
fn write_line(
    r: &RowRef<'_>,
    stream: &str,
    links: &mut StreamLinks,
    out: &mut impl Write,
) -> Result<Option<Hash>> {
    let corrupt = |what: String| Error::Corrupt {
        position: r.position_u64(),
        stream: stream.to_owned(),
        version: r.version_u64(),
        what,
    };
    let recomputed = r.recompute_hash();
    let broken = content_finding(r, &recomputed).or_else(|| {
        let hash = recomputed.as_ref().ok().copied().unwrap_or(Hash::ZERO);
        let prev = Hash::from_slice(r.prev_hash);
        links.link(stream, r.version_u64(), prev, hash)
    });
    if let Some(finding) = broken {
        return Err(corrupt(format!("{finding}; run the audit")));
    }
    let text = |b: &'_ [u8]| {
        std::str::from_utf8(b)
            .map(str::to_owned)
            .map_err(|e| corrupt(e.to_string()))
    };
    let payload =
        RawValue::from_string(text(r.payload)?).map_err(|e| corrupt(format!("payload: {e}")))?;
    let line = LineOut {
        stream,
        version: r.version_u64(),
        event_id: Uuid::from_slice(r.event_id).map_err(|e| corrupt(e.to_string()))?,
        recorded_at: &text(r.recorded_at)?,
        recorded_by: &text(r.recorded_by)?,
        event_type: &text(r.event_type)?,
        schema_version: r.schema_version,
        payload: &payload,
        prev_hash: hex(r.prev_hash),
        hash: hex(r.hash),
    };
    serde_json::to_writer(&mut *out, &line).map_err(|e| export_io(e.into()))?;
    out.write_all(b"\n").map_err(export_io)?;
    Ok(recomputed.ok())
}

/// Writes a stream's signature line: the ledger's signature over its last version and hash.
fn write_signature(
    key: &LedgerKey,
    stream: &str,
    version: u64,
    hash: Hash,
    out: &mut impl Write,
) -> Result<()> {
    let line = SignatureLine {
        signed: ExportSignature::sign(key, stream, version, hash),
    };
    serde_json::to_writer(&mut *out, &line).map_err(|e| export_io(e.into()))?;
    out.write_all(b"\n").map_err(export_io)
}

fn flush(out: &mut impl Write) -> Result<()> {
    out.flush().map_err(export_io)
}

fn export_io(source: std::io::Error) -> Error {
    Error::Io {
        context: "writing the export",
        source,
    }
}
