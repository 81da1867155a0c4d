//! The audit: verify everything the ledger claims, from the bytes up, and say exactly where
//! anything disagrees.
//!
//! Unlike [`Ledger::replay`], which stops at the first break, the audit goes through every
//! row and collects every discrepancy (STYLE.md habit 2), each with the position, stream and
//! version it concerns:
//!
//! * each row's hash against its content (an edited payload, amount, time or official);
//! * each row's global chain link and the positions' continuity (a deleted, inserted or
//!   swapped row anywhere);
//! * each stream's versions and previous-hash links;
//! * each payload against the vocabulary, and each event against its kind of stream;
//! * each settlement's nets re-derived from its payments, and its sum;
//! * the append-only triggers;
//! * every registered projection (the `projector` module) against a fresh replay into an
//!   in-memory database holding only their schemas, every table each names, row by row; and
//!   that the database keeps no projection the audit was not given, nor one at another version;
//! * the officials, sessions and API token tables against the account events (the `accounts`
//!   module): an edit made behind the program's back;
//! * the signed checkpoints recorded (the `signing` module): each signature, and that the
//!   chain still passes through each;
//! * optionally, chain heads published earlier: the chain must still pass through them.

use std::fmt;

use rusqlite::Connection;

use crate::chain::ChainVerifier;
use crate::discrepancy::Discrepancy;
use crate::error::{Result, SqlContext};
use crate::event::Event;
use crate::hash::Hash;
use crate::head::ChainHead;
use crate::ids::StreamId;
use crate::projector::{self, replay_into, Projection, Projections};
use crate::record::{RowRef, COLUMNS};
use crate::snapshot::snapshot;
use crate::store::Ledger;
use crate::{accounts, settlement, signing};

/// The head of one stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StreamHead {
    pub stream: String,
    pub version: u64,
    pub hash: Hash,
}

/// What the audit checked and found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuditReport {
    pub path: String,
    pub events_checked: u64,
    pub settlements_checked: u64,
    /// Every stream's last version and hash, by stream name.
    pub streams: Vec<StreamHead>,
    /// The global chain head recomputed from the rows' content: the value to publish.
    pub head: ChainHead,
    pub discrepancies: Vec<Discrepancy>,
}

impl AuditReport {
    pub fn is_clean(&self) -> bool {
        self.discrepancies.is_empty()
    }
}

/// Above this many streams, the report prints a count instead of every head.
const LIST_STREAMS_UP_TO: usize = 50;

impl AuditReport {
    /// The report without the database's path, the streams (their number, names and
    /// versions), the settlements counted (how many hands, of an open session too), or where
    /// each discrepancy lies: what anyone may read of it (the events counted — the chain head's
    /// position says as much —, the chain head, the result).
    pub fn summary(&self) -> String {
        let mut out = format!(
            "events checked: {}\nchain head: position {} chain hash {}\n",
            self.events_checked, self.head.position, self.head.chain_hash
        );
        if self.is_clean() {
            out.push_str("discrepancies: none\nresult: OK");
        } else {
            out.push_str(&format!(
                "discrepancies: {} (officials see where)\nresult: FAILED",
                self.discrepancies.len()
            ));
        }
        out
    }
}

impl fmt::Display for AuditReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "ledger audit of {}", self.path)?;
        writeln!(f, "events checked: {}", self.events_checked)?;
        writeln!(f, "settlements re-derived: {}", self.settlements_checked)?;
        writeln!(f, "streams: {}", self.streams.len())?;
        if self.streams.len() <= LIST_STREAMS_UP_TO {
            for s in &self.streams {
                writeln!(f, "  {} at version {} hash {}", s.stream, s.version, s.hash)?;
            }
        }
        writeln!(
            f,
            "chain head: position {} chain hash {}",
            self.head.position, self.head.chain_hash
        )?;
        if self.is_clean() {
            writeln!(f, "discrepancies: none")?;
            write!(f, "result: OK")
        } else {
            writeln!(f, "discrepancies: {}", self.discrepancies.len())?;
            for d in &self.discrepancies {
                writeln!(f, "  {d}")?;
            }
            write!(f, "result: FAILED")
        }
    }
}

/// The running state of the walk over the rows.
struct Walk<'p> {
    report: AuditReport,
    chain: ChainVerifier<'p>,
}

impl Walk<'_> {
    fn flag(&mut self, r: &RowRef<'_>, what: String) {
        self.report.discrepancies.push(Discrepancy {
            position: Some(r.position_u64()),
            stream: Some(r.stream_text().to_owned()),
            version: Some(r.version_u64()),
            what,
        });
    }

    fn row(&mut self, r: &RowRef<'_>) {
        self.report.events_checked += 1;
        for finding in self.chain.row(r) {
            self.flag(r, finding.to_string());
        }
        match r.decode() {
            Err(why) => self.flag(r, format!("does not decode: {why}")),
            Ok(e) => self.event(r, &e.stream, &e.event),
        }
    }

    fn event(&mut self, r: &RowRef<'_>, stream: &StreamId, event: &Event) {
        if event.stream_kind() != stream.kind() {
            let what = format!(
                "`{}` belongs in a {} stream",
                event.event_type(),
                event.stream_kind()
            );
            self.flag(r, what);
        }
        if let Event::SettlementRecorded(s) = event {
            self.report.settlements_checked += 1;
            for problem in settlement::check(s) {
                self.flag(r, format!("settlement does not re-derive: {problem}"));
            }
        }
    }
}

impl Ledger {
    /// Audits the whole database; see the module docs for what is checked.
    pub fn audit(&self) -> Result<AuditReport> {
        self.audit_with(&[])
    }

    /// Audits, and also checks that the chain still passes through heads published earlier.
    pub fn audit_with(&self, published: &[ChainHead]) -> Result<AuditReport> {
        let mut walk = Walk {
            report: AuditReport {
                path: self.path.display().to_string(),
                events_checked: 0,
                settlements_checked: 0,
                streams: Vec::new(),
                head: ChainHead {
                    position: 0,
                    chain_hash: Hash::ZERO,
                },
                discrepancies: Vec::new(),
            },
            chain: ChainVerifier::with_published(published),
        };
        let tx = self
            .conn
            .unchecked_transaction()
            .ctx("starting the audit")?;
        {
            let mut stmt = tx
                .prepare(&format!("SELECT {COLUMNS} FROM events ORDER BY position"))
                .ctx("reading the events")?;
            let mut rows = stmt.query([]).ctx("reading the events")?;
            while let Some(row) = rows.next().ctx("reading the events")? {
                let r = RowRef::from_row(row).ctx("reading an event row")?;
                walk.row(&r);
            }
        }
        walk.report.head = walk.chain.head();
        let (beyond, heads) = walk.chain.finish();
        for (position, finding) in beyond {
            walk.report.discrepancies.push(Discrepancy {
                position: Some(position),
                stream: None,
                version: None,
                what: finding.to_string(),
            });
        }
        let mut streams: Vec<_> = heads
            .into_iter()
            .map(|(stream, (version, hash))| StreamHead {
                stream,
                version,
                hash,
            })
            .collect();
        streams.sort_by(|a, b| a.stream.cmp(&b.stream));
        walk.report.streams = streams;
        check_triggers(&tx, &mut walk.report.discrepancies)?;
        check_projections(&tx, &self.projections, &mut walk.report.discrepancies)?;
        walk.report.discrepancies.extend(accounts::check(&tx)?);
        walk.report.discrepancies.extend(signing::check(&tx)?);
        Ok(walk.report)
    }
}

fn check_triggers(conn: &Connection, out: &mut Vec<Discrepancy>) -> Result<()> {
    for trigger in ["events_no_update", "events_no_delete"] {
        let present: bool = conn
            .query_row(
                "SELECT COUNT(*) > 0 FROM sqlite_master WHERE type = 'trigger' AND name = ?1",
                [trigger],
                |r| r.get(0),
            )
            .ctx("looking for the append-only triggers")?;
        if !present {
            out.push(Discrepancy {
                position: None,
                stream: None,
                version: None,
                what: format!("append-only trigger `{trigger}` is missing: the database was altered outside the program"),
            });
        }
    }
    Ok(())
}

/// Replays every event into a fresh in-memory copy of the registered projections' tables and
/// compares every table; names the projections the database keeps that cannot be compared.
fn check_projections(
    conn: &Connection,
    projections: &Projections,
    out: &mut Vec<Discrepancy>,
) -> Result<()> {
    let mut found = |what: String| {
        out.push(Discrepancy {
            position: None,
            stream: None,
            version: None,
            what,
        })
    };
    let recorded = projector::recorded(conn)?;
    for (name, version) in &recorded {
        match projections.get(name) {
            None => found(format!(
                "projection `{name}` (version {version}) is kept in the database but was not given to the audit: its tables were not compared"
            )),
            Some(p) if i64::from(p.version()) != *version => found(format!(
                "projection `{name}` is recorded at version {version} but this build keeps version {}: it was not rebuilt",
                p.version()
            )),
            Some(_) => {}
        }
    }
    for p in projections
        .iter()
        .filter(|p| !recorded.contains_key(p.name()))
    {
        found(format!(
            "projection `{}` is not recorded as kept in the database: it was never built, or its record was removed",
            p.name()
        ));
    }
    if projections.is_empty() {
        return Ok(());
    }
    let fresh = Connection::open_in_memory().ctx("opening the replay database")?;
    let all: Vec<&dyn Projection> = projections.iter().collect();
    for p in &all {
        fresh
            .execute_batch(p.schema())
            .ctx("creating the replay's projections")?;
    }
    replay_into(conn, &fresh, &all)?;
    let tables = projections.tables();
    let stored = snapshot(conn, &tables)?;
    let replayed = snapshot(&fresh, &tables)?;
    for d in stored.differences(&replayed) {
        let what = if d.only_stored {
            format!(
                "projection {}: stored row differs from a fresh replay: {}",
                d.table, d.row
            )
        } else {
            format!(
                "projection {}: a fresh replay gives a row that is not stored: {}",
                d.table, d.row
            )
        };
        let (stream, version) = locate(&d.row);
        out.push(Discrepancy {
            position: None,
            stream,
            version,
            what,
        });
    }
    Ok(())
}

/// Pulls `stream="..."` and `version=N` out of a rendered projection row, when it has them.
fn locate(row: &str) -> (Option<String>, Option<u64>) {
    let field = |name: &str| {
        row.split(", ")
            .find_map(|kv| kv.strip_prefix(name).and_then(|v| v.strip_prefix('=')))
            .map(|v| v.trim_matches('"').to_owned())
    };
    let stream = field("stream").or_else(|| field("tournament"));
    let version = field("version").and_then(|v| v.parse().ok());
    (stream, version)
}
