//! Properties (quickcheck): appends and reads round-trip; concurrent writers with stale
//! versions never interleave a stream; any single-byte change to a stored event is detected.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Mutex;

use ledger::event::*;
use ledger::{Error, Event, ExpectedVersion, Ledger, NewEvent, StreamId};
use quickcheck::{Arbitrary, Gen, QuickCheck, TestResult};
use referee::Seat;

use crate::util::*;

/// One step of a random session against the store.
#[derive(Clone, Debug)]
struct Op {
    stream: u8,
    /// Reasons of the wash-out events to append (any text, including odd Unicode).
    reasons: Vec<String>,
    stale: bool,
}

impl Arbitrary for Op {
    fn arbitrary(g: &mut Gen) -> Op {
        let n = usize::arbitrary(g) % 4;
        Op {
            stream: u8::arbitrary(g) % 3,
            reasons: (0..n).map(|_| String::arbitrary(g)).collect(),
            stale: bool::arbitrary(g),
        }
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Op>> {
        let (stream, stale) = (self.stream, self.stale);
        Box::new(self.reasons.shrink().map(move |reasons| Op {
            stream,
            reasons,
            stale,
        }))
    }
}

fn any_sequence_of_appends_and_reads_round_trips(ops: Vec<Op>) -> TestResult {
    let mut ledger = Ledger::open_in_memory().unwrap();
    let mut model: HashMap<u8, Vec<Event>> = HashMap::new();
    let mut global: Vec<Event> = Vec::new();
    for op in ops {
        let stream = StreamId::hand(&format!("h{}", op.stream)).unwrap();
        let have = model.entry(op.stream).or_default();
        let events: Vec<Event> = op
            .reasons
            .iter()
            .map(|r| WashOut { reason: r.clone() }.into())
            .collect();
        let batch = events.iter().map(|e| NewEvent::new(e.clone())).collect();
        let len = have.len() as u64;
        let expected = if op.stale {
            ExpectedVersion::Exact(len + 1)
        } else {
            ExpectedVersion::Exact(len)
        };
        match ledger.append(&stream, expected, batch, &referee()) {
            Ok(done) if !op.stale => {
                assert_eq!(done.stream_version, len + events.len() as u64);
                have.extend(events.iter().cloned());
                global.extend(events);
            }
            Err(Error::Conflict { actual, .. }) if op.stale => assert_eq!(actual, len),
            other => return TestResult::error(format!("unexpected outcome {other:?}")),
        }
        let read: Vec<Event> = ledger
            .read_stream(&stream, 1)
            .unwrap()
            .into_iter()
            .map(|e| e.event)
            .collect();
        if &read != have {
            return TestResult::error(format!("{stream} read back {read:?}, expected {have:?}"));
        }
    }
    let all: Vec<Event> = ledger
        .read_all(1, usize::MAX)
        .unwrap()
        .into_iter()
        .map(|e| e.event)
        .collect();
    let stats = ledger.replay(|_| {}).unwrap();
    TestResult::from_bool(
        all == global && stats.events == global.len() as u64 && ledger.audit().unwrap().is_clean(),
    )
}

#[test]
fn appends_and_reads_round_trip() {
    QuickCheck::new()
        .tests(60)
        .quickcheck(any_sequence_of_appends_and_reads_round_trips as fn(Vec<Op>) -> TestResult);
}

/// Several writers, each with its own connection, append tagged batches to one stream with the
/// version they last read, retrying on conflict.
fn stale_writers_never_interleave(writers: u8, batches: u8, size: u8) -> TestResult {
    let (writers, batches, size) = (2 + writers % 3, 1 + batches % 3, 1 + size % 4);
    let dir = TempDir::new("concurrent");
    drop(Ledger::open(dir.db()).unwrap());
    let stream = StreamId::hand("contested").unwrap();
    let handles: Vec<_> = (0..writers)
        .map(|w| {
            let (path, stream) = (dir.db(), stream.clone());
            std::thread::spawn(move || {
                let mut ledger = Ledger::open(path).unwrap();
                let mut conflicts = 0;
                for b in 0..batches {
                    let batch: Vec<NewEvent> = (0..size)
                        .map(|k| {
                            NewEvent::new(WashOut {
                                reason: format!("{w}/{b}/{k}"),
                            })
                        })
                        .collect();
                    loop {
                        let v = ledger.stream_version(&stream).unwrap();
                        match ledger.append(
                            &stream,
                            ExpectedVersion::Exact(v),
                            batch.clone(),
                            &referee(),
                        ) {
                            Ok(_) => break,
                            Err(Error::Conflict { .. }) => conflicts += 1,
                            Err(e) => panic!("{e}"),
                        }
                    }
                }
                conflicts
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
    let ledger = Ledger::open(dir.db()).unwrap();
    let reasons: Vec<String> = ledger
        .read_stream(&stream, 1)
        .unwrap()
        .into_iter()
        .map(|e| match e.event {
            Event::WashOut(w) => w.reason,
            other => panic!("{other:?}"),
        })
        .collect();
    // Cut the stream into runs of `size`: each must be one whole batch, in order.
    let mut seen = Vec::new();
    for chunk in reasons.chunks(usize::from(size)) {
        let (w, b, _) = split(&chunk[0]);
        for (k, r) in chunk.iter().enumerate() {
            if split(r) != (w.clone(), b.clone(), k) {
                return TestResult::error(format!("interleaved: {reasons:?}"));
            }
        }
        seen.push((w, b));
    }
    seen.sort_unstable();
    let want: Vec<_> = (0..writers)
        .flat_map(|w| (0..batches).map(move |b| (w.to_string(), b.to_string())))
        .collect();
    TestResult::from_bool(seen == want)
}

fn split(r: &str) -> (String, String, usize) {
    let mut parts = r.split('/');
    let mut next = || parts.next().unwrap_or_default().to_owned();
    (next(), next(), next().parse().unwrap_or(usize::MAX))
}

#[test]
fn concurrent_stale_writers_never_interleave_a_stream() {
    QuickCheck::new()
        .tests(6)
        .quickcheck(stale_writers_never_interleave as fn(u8, u8, u8) -> TestResult);
}

/// The database every byte-flip case starts from.
static TEMPLATE: Mutex<Option<PathBuf>> = Mutex::new(None);

const COLUMNS: [&str; 12] = [
    "position",
    "stream",
    "version",
    "event_id",
    "recorded_at",
    "recorded_by",
    "event_type",
    "schema_version",
    "payload",
    "prev_hash",
    "hash",
    "chain_hash",
];

fn a_single_byte_change_is_detected(row: u16, column: u8, byte: u16, xor: u8) -> TestResult {
    if xor == 0 {
        return TestResult::discard();
    }
    let template = TEMPLATE.lock().unwrap().clone().unwrap();
    let dir = TempDir::new("flip");
    std::fs::copy(&template, dir.db()).unwrap();
    let column = COLUMNS[usize::from(column) % COLUMNS.len()];
    let mut changed = String::new();
    let mut discard = false;
    tamper(&dir.db(), |c| {
        let rows: i64 = c
            .query_row("SELECT COUNT(*) FROM events", [], |r| r.get(0))
            .unwrap();
        let position = 1 + i64::from(row) % rows;
        let value: rusqlite::types::Value = c
            .query_row(
                &format!("SELECT {column} FROM events WHERE position = ?1"),
                [position],
                |r| r.get(0),
            )
            .unwrap();
        use rusqlite::types::Value;
        let new = match value {
            Value::Integer(i) => Value::Integer(i ^ i64::from(xor)),
            Value::Text(t) => {
                let mut b = t.into_bytes();
                let i = usize::from(byte) % b.len();
                b[i] ^= xor;
                String::from_utf8(b)
                    .map(Value::Text)
                    .unwrap_or_else(|e| Value::Blob(e.into_bytes()))
            }
            Value::Blob(mut b) => {
                let i = usize::from(byte) % b.len();
                b[i] ^= xor;
                Value::Blob(b)
            }
            other => panic!("unexpected {other:?}"),
        };
        changed = format!("{column} of position {position} -> {new:?}");
        match c.execute(
            &format!("UPDATE events SET {column} = ?1 WHERE position = ?2"),
            rusqlite::params![new, position],
        ) {
            Ok(_) => {}
            // Moving a row onto another's position or id: not a single-row change.
            Err(e) if e.to_string().contains("UNIQUE") => discard = true,
            Err(e) => panic!("{e}"),
        }
    });
    if discard {
        return TestResult::discard();
    }
    let report = Ledger::open_existing(dir.db()).unwrap().audit().unwrap();
    if report.is_clean() {
        return TestResult::error(format!("undetected change: {changed}"));
    }
    TestResult::passed()
}

#[test]
fn the_hash_chain_detects_any_single_byte_change() {
    let dir = TempDir::new("template");
    {
        let mut ledger = Ledger::open(dir.db()).unwrap();
        set_up_tournament(&mut ledger);
        ledger
            .append(
                &hand(1),
                ExpectedVersion::Exact(0),
                hand_events(1, Seat::North, 16),
                &referee(),
            )
            .unwrap();
    }
    *TEMPLATE.lock().unwrap() = Some(dir.db());
    QuickCheck::new()
        .tests(150)
        .quickcheck(a_single_byte_change_is_detected as fn(u16, u8, u16, u8) -> TestResult);
}
