//! The projector registry: a projection registered with a ledger is folded with every append
//! and import, built when the database does not keep it at its version, rebuilt exactly, and
//! compared by the audit; a database keeping a projection its opener did not register refuses
//! to be written.

use std::sync::Arc;

use ledger::event::*;
use ledger::{Error, EventMeta, ExpectedVersion, Fold, Ledger, Projection, Projections, Target};
use referee::Seat;
use rusqlite::params;

use crate::util::*;

/// How many events each stream has, and the position of its last one: the smallest projection
/// that depends on every event.
struct Counts {
    version: u32,
    /// The fold refuses events of this stream, as a broken projection would.
    refuse: Option<&'static str>,
}

const COUNTS: Counts = Counts {
    version: 1,
    refuse: None,
};

impl Projection for Counts {
    fn name(&self) -> &'static str {
        "stream_counts"
    }

    fn version(&self) -> u32 {
        self.version
    }

    fn tables(&self) -> &'static [&'static str] {
        &["test_stream_counts"]
    }

    fn schema(&self) -> &'static str {
        "DROP TABLE IF EXISTS test_stream_counts;
         CREATE TABLE test_stream_counts (stream TEXT PRIMARY KEY, events INTEGER NOT NULL, last INTEGER NOT NULL);"
    }

    fn begin(&self) -> Box<dyn Fold + '_> {
        Box::new(CountFold {
            refuse: self.refuse,
            pending: Vec::new(),
        })
    }
}

/// Holds its rows in memory until `finish`, as the read model holds a hand's record.
struct CountFold {
    refuse: Option<&'static str>,
    pending: Vec<(String, u64)>,
}

impl Fold for CountFold {
    fn apply(&mut self, _: &Target<'_>, meta: &EventMeta<'_>, _: &Event) -> ledger::Result<()> {
        if Some(meta.stream.as_str()) == self.refuse {
            return Err(Error::Corrupt {
                position: meta.position,
                stream: meta.stream.to_string(),
                version: meta.version,
                what: "refused by the test projection".into(),
            });
        }
        self.pending
            .push((meta.stream.as_str().to_owned(), meta.position));
        Ok(())
    }

    fn finish(&mut self, target: &Target<'_>) -> ledger::Result<()> {
        for (stream, position) in self.pending.drain(..) {
            target
                .rows()
                .execute(
                    "INSERT INTO test_stream_counts (stream, events, last) VALUES (?1, 1, ?2) \
                     ON CONFLICT (stream) DO UPDATE SET events = events + 1, last = excluded.last",
                    params![stream, position as i64],
                )
                .map_err(|e| Error::sqlite("counting", e))?;
        }
        Ok(())
    }
}

fn registry(p: Counts) -> Projections {
    Projections::new([Arc::new(p) as Arc<dyn Projection>]).unwrap()
}

fn counts(ledger: &Ledger) -> Vec<(String, i64, i64)> {
    let mut stmt = ledger
        .connection()
        .prepare("SELECT stream, events, last FROM test_stream_counts ORDER BY stream")
        .unwrap();
    let rows = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap();
    rows.map(Result::unwrap).collect()
}

fn play(ledger: &mut Ledger, n: u32) {
    ledger
        .append(
            &hand(n),
            ExpectedVersion::Exact(0),
            hand_events(n, Seat::East, 8),
            &referee(),
        )
        .unwrap();
}

#[test]
fn a_registered_projection_is_folded_with_every_append_and_rebuilt_exactly() {
    let mut ledger = Ledger::open_in_memory_with(&registry(COUNTS)).unwrap();
    play(&mut ledger, 1);
    play(&mut ledger, 2);
    assert_eq!(
        counts(&ledger),
        [
            ("hand:spring-t1-h1".into(), 6, 6),
            ("hand:spring-t1-h2".into(), 6, 12)
        ]
    );
    // A stale append writes nothing, in the projection either.
    let stale = ledger.append(
        &hand(1),
        ExpectedVersion::Exact(0),
        hand_events(1, Seat::East, 8),
        &referee(),
    );
    assert!(matches!(stale, Err(Error::Conflict { .. })));
    let before = ledger.projection_snapshot().unwrap();
    assert_eq!(before.tables["test_stream_counts"].len(), 2);
    ledger.rebuild_projections().unwrap();
    assert_eq!(ledger.projection_snapshot().unwrap(), before);
    assert!(ledger.audit().unwrap().is_clean());
}

#[test]
fn a_fold_that_fails_undoes_the_append() {
    let refusing = Counts {
        version: 1,
        refuse: Some("hand:spring-t1-h2"),
    };
    let mut ledger = Ledger::open_in_memory_with(&registry(refusing)).unwrap();
    play(&mut ledger, 1);
    let head = ledger.head().unwrap();
    let refused = ledger.append(
        &hand(2),
        ExpectedVersion::Exact(0),
        hand_events(2, Seat::East, 8),
        &referee(),
    );
    assert!(matches!(refused, Err(Error::Corrupt { .. })), "{refused:?}");
    assert_eq!(ledger.head().unwrap(), head);
    assert_eq!(ledger.stream_version(&hand(2)).unwrap(), 0);
}

#[test]
fn the_audit_compares_every_registered_table_with_a_fresh_replay() {
    let dir = TempDir::new("projector-audit");
    let mut ledger = Ledger::open_with(dir.db(), &registry(COUNTS)).unwrap();
    play(&mut ledger, 1);
    ledger
        .connection()
        .execute("UPDATE test_stream_counts SET events = 7", [])
        .unwrap();
    let report = ledger.audit().unwrap();
    let found: Vec<_> = report
        .discrepancies
        .iter()
        .map(|d| d.what.as_str())
        .collect();
    assert_eq!(found.len(), 2, "{report}");
    assert!(found.iter().all(|w| w.contains("test_stream_counts")));
    assert_eq!(
        report.discrepancies[0].stream.as_deref(),
        Some("hand:spring-t1-h1")
    );
}

#[test]
fn opening_builds_a_projection_the_database_does_not_keep_and_rebuilds_a_new_version() {
    let dir = TempDir::new("projector-build");
    let mut bare = Ledger::open_with(dir.db(), &Projections::default()).unwrap();
    play(&mut bare, 1);
    drop(bare);
    // Registered for the first time: built from the events already there.
    let mut ledger = Ledger::open_with(dir.db(), &registry(COUNTS)).unwrap();
    assert_eq!(counts(&ledger), [("hand:spring-t1-h1".into(), 6, 6)]);
    play(&mut ledger, 2);
    ledger
        .connection()
        .execute("DELETE FROM test_stream_counts", [])
        .unwrap();
    drop(ledger);
    // The same version again: nothing is rebuilt (the rows deleted stay deleted).
    let ledger = Ledger::open_with(dir.db(), &registry(COUNTS)).unwrap();
    assert_eq!(counts(&ledger), []);
    drop(ledger);
    // A new version: built again from nothing.
    let v2 = Counts {
        version: 2,
        refuse: None,
    };
    let ledger = Ledger::open_with(dir.db(), &registry(v2)).unwrap();
    assert_eq!(counts(&ledger).len(), 2);
    let version: i64 = ledger
        .connection()
        .query_row(
            "SELECT version FROM ledger_projections WHERE name = 'stream_counts'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(version, 2);
}

#[test]
fn a_database_keeping_a_projection_not_registered_refuses_writes_and_the_audit_says_so() {
    let dir = TempDir::new("projector-unregistered");
    let mut ledger = Ledger::open_with(dir.db(), &registry(COUNTS)).unwrap();
    play(&mut ledger, 1);
    drop(ledger);
    let mut bare = Ledger::open_with(dir.db(), &Projections::default()).unwrap();
    let head = bare.head().unwrap();
    let refused = bare.append(
        &hand(2),
        ExpectedVersion::Exact(0),
        hand_events(2, Seat::East, 8),
        &referee(),
    );
    assert!(
        matches!(&refused, Err(Error::UnregisteredProjection { name }) if name == "stream_counts"),
        "{refused:?}"
    );
    let mut export = Vec::new();
    bare.export_stream(&hand(1), &mut export).unwrap();
    assert!(matches!(
        bare.import(export.as_slice()),
        Err(Error::UnregisteredProjection { .. })
    ));
    assert_eq!(bare.head().unwrap(), head);
    let report = bare.audit().unwrap();
    assert!(
        report
            .discrepancies
            .iter()
            .any(|d| d.what.contains("projection `stream_counts`")
                && d.what.contains("not given to the audit")),
        "{report}"
    );
}

#[test]
fn a_reader_refuses_a_projection_not_built_yet() {
    let dir = TempDir::new("projector-reader");
    drop(Ledger::open_with(dir.db(), &Projections::default()).unwrap());
    let err = Ledger::open_reader_with(dir.db(), &registry(COUNTS))
        .err()
        .expect("nothing built yet");
    assert!(
        matches!(
            err,
            Error::ProjectionNotBuilt {
                name: "stream_counts",
                found: None,
                ..
            }
        ),
        "{err}"
    );
    drop(Ledger::open_with(dir.db(), &registry(COUNTS)).unwrap());
    assert!(Ledger::open_reader_with(dir.db(), &registry(COUNTS)).is_ok());
}

#[test]
fn an_import_is_folded_like_an_append() {
    let mut source = Ledger::open_in_memory_with(&Projections::default()).unwrap();
    play(&mut source, 1);
    let mut export = Vec::new();
    source.export_stream(&hand(1), &mut export).unwrap();
    let mut ledger = Ledger::open_in_memory_with(&registry(COUNTS)).unwrap();
    ledger.import(export.as_slice()).unwrap();
    assert_eq!(counts(&ledger), [("hand:spring-t1-h1".into(), 6, 6)]);
    assert!(ledger.audit().unwrap().is_clean());
}

#[test]
fn two_projections_may_not_share_a_name_or_a_table() {
    let twice = Projections::new([
        Arc::new(COUNTS) as Arc<dyn Projection>,
        Arc::new(Counts {
            version: 2,
            refuse: None,
        }),
    ]);
    assert!(matches!(
        twice,
        Err(Error::ProjectionClash {
            first: "stream_counts",
            ..
        })
    ));
}
