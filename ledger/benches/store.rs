//! Ledger benchmarks on a 1,000,000-event database (built once under `target/ledger-bench/`
//! and reused): verified replay, batched appends of 1,000 events, single durable appends, and
//! the baseline those are judged against — a bare rusqlite INSERT with the same durability
//! settings (WAL, synchronous=FULL) into the same database file.
//!
//! Run with `cargo bench -p ledger`; the figures go in ledger/README.md.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use ledger::event::*;
use ledger::{
    BySeat, ExpectedVersion, Ledger, NewEvent, OfficialId, Payment, PlayerId, StreamId, TableId,
};
use referee::{AnyTile, Seat, Tile};

const EVENTS: u64 = 1_000_000;
const BATCH: usize = 1_000;

fn bench_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"));
    let dir = target.join("ledger-bench");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn by() -> OfficialId {
    OfficialId::new("bench").unwrap()
}

/// A stream's worth of play: a hand start, draws and discards, and a settlement at the end.
fn batch(hand: u32, size: usize) -> Vec<NewEvent> {
    let table = TableId::new("T1").unwrap();
    let tiles: Vec<Tile> = Tile::ALL.to_vec();
    let mut events = vec![NewEvent::new(HandStarted {
        table,
        game: 1,
        hand,
        east: Seat::East,
        prevailing_wind: referee::Wind::East,
        dice: vec![3, 5],
        deal: Deal::Unknown,
    })];
    for i in 1..size - 1 {
        let seat = Seat::from_index(i % 4);
        let tile = tiles[i % tiles.len()];
        events.push(if i % 2 == 0 {
            NewEvent::new(TileDrawn {
                seat,
                tile: Some(AnyTile::Playing(tile)),
            })
        } else {
            NewEvent::new(TileDiscarded {
                seat,
                placed: tile,
                named: tile,
            })
        });
    }
    let winner = Seat::from_index(hand as usize % 4);
    let payments: Vec<Payment> = Seat::ALL
        .into_iter()
        .filter(|&w| w != winner)
        .map(|w| Payment {
            payer: w,
            payee: winner,
            amount: 16,
        })
        .collect();
    events.push(NewEvent::new(SettlementRecorded {
        winner: Some(winner),
        scores: BySeat::from_fn(|w| if w == winner { 16 } else { 0 }),
        payments,
        nets: BySeat::from_fn(|w| if w == winner { 48 } else { -16 }),
    }));
    events
}

/// The 1,000,000-event database, built on first use.
fn million() -> PathBuf {
    let path = bench_dir().join(format!("million-v{}.db", ledger::SCHEMA_VERSION));
    if path.exists() {
        if let Ok(l) = Ledger::open(&path) {
            if l.head().map(|h| h.position).ok() == Some(EVENTS) {
                return path;
            }
        }
    }
    eprintln!("building {} (once)...", path.display());
    let building = path.with_extension("building");
    for ext in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{ext}", building.display()));
    }
    let mut ledger = Ledger::open(&building).unwrap();
    let tournament = StreamId::tournament("bench").unwrap();
    let seats = BySeat::from_fn(|w| PlayerId::new(w.name()).unwrap());
    let setup = vec![
        NewEvent::new(TableFormed {
            table: TableId::new("T1").unwrap(),
            number: 1,
            session: None,
        }),
        NewEvent::new(SeatsDrawn {
            table: TableId::new("T1").unwrap(),
            seats,
        }),
    ];
    ledger
        .append(&tournament, ExpectedVersion::Exact(0), setup, &by())
        .unwrap();
    let mut hand = 0;
    while ledger.head().unwrap().position < EVENTS {
        let left = (EVENTS - ledger.head().unwrap().position) as usize;
        let size = left.min(BATCH);
        let stream = StreamId::hand(&format!("bench-{hand}")).unwrap();
        let events = if size >= 2 {
            batch(hand, size)
        } else {
            vec![NewEvent::new(WashOut {
                reason: "end".into(),
            })]
        };
        ledger
            .append(&stream, ExpectedVersion::Exact(0), events, &by())
            .unwrap();
        hand += 1;
    }
    drop(ledger);
    std::fs::rename(&building, &path).unwrap();
    path
}

/// A fresh copy of the million-event database to append to, so the original stays at 1,000,000.
fn scratch_copy(src: &Path) -> PathBuf {
    let dst = bench_dir().join("append-scratch.db");
    for ext in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{ext}", dst.display()));
    }
    std::fs::copy(src, &dst).unwrap();
    dst
}

fn replay(c: &mut Criterion) {
    let path = million();
    let ledger = Ledger::open(&path).unwrap();
    let mut group = c.benchmark_group("replay");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(25))
        .throughput(Throughput::Elements(EVENTS));
    group.bench_function("read+verify+deserialize 1M events", |b| {
        b.iter(|| {
            let stats = ledger
                .replay(|e| {
                    black_box(e);
                })
                .unwrap();
            assert_eq!(stats.events, EVENTS);
        })
    });
    group.finish();
}

fn appends(c: &mut Criterion) {
    let path = scratch_copy(&million());
    let mut ledger = Ledger::open(&path).unwrap();
    let mut group = c.benchmark_group("append");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(10));

    let mut next = 10_000_000u32;
    group.throughput(Throughput::Elements(BATCH as u64));
    group.bench_function("batch of 1000 events, one transaction", |b| {
        b.iter_batched(
            || {
                next += 1;
                (
                    StreamId::hand(&format!("batch-{next}")).unwrap(),
                    batch(next, BATCH),
                )
            },
            |(stream, events)| {
                ledger
                    .append(&stream, ExpectedVersion::Exact(0), events, &by())
                    .unwrap()
            },
            BatchSize::SmallInput,
        )
    });

    let single = StreamId::hand("single").unwrap();
    let mut version = 0;
    group.throughput(Throughput::Elements(1));
    group.bench_function("single event, durable commit", |b| {
        b.iter_batched(
            || {
                NewEvent::new(TileDiscarded {
                    seat: Seat::South,
                    placed: Tile::ALL[4],
                    named: Tile::ALL[4],
                })
            },
            |e| {
                ledger
                    .append(&single, ExpectedVersion::Exact(version), vec![e], &by())
                    .unwrap();
                version += 1;
            },
            BatchSize::SmallInput,
        )
    });

    // The baseline: the same file, the same pragmas, one bare INSERT per transaction of a row
    // shaped like an event (a stream name, a version, an id, a JSON payload and a hash).
    let raw = rusqlite::Connection::open(&path).unwrap();
    let _: String = raw
        .query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))
        .unwrap();
    raw.pragma_update(None, "synchronous", "FULL").unwrap();
    raw.execute_batch(
        "CREATE TABLE IF NOT EXISTS bench_baseline (id INTEGER PRIMARY KEY, stream TEXT, version INTEGER, \
         event_id BLOB, payload TEXT, hash BLOB)",
    )
    .unwrap();
    let payload = r#"{"seat":"south","placed":"5m","named":"5m"}"#;
    let mut n = 0i64;
    group.bench_function("baseline: bare rusqlite INSERT, same durability", |b| {
        b.iter(|| {
            n += 1;
            raw.prepare_cached("INSERT INTO bench_baseline (stream, version, event_id, payload, hash) VALUES (?1, ?2, ?3, ?4, ?5)")
                .unwrap()
                .execute(rusqlite::params!["hand:single", n, uuid::Uuid::now_v7().as_bytes().as_slice(), payload, [7u8; 32].as_slice()])
                .unwrap();
        })
    });
    group.finish();
}

criterion_group!(benches, replay, appends);
criterion_main!(benches);
