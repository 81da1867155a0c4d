//! A database altered outside the program is detected, and the audit says where.

use ledger::{ChainHead, Discrepancy, Ledger};

use crate::util::*;

/// A file with a small history; returns its temp dir.
fn history() -> TempDir {
    let dir = TempDir::new("tamper");
    let mut ledger = Ledger::open(dir.db()).unwrap();
    small_history(&mut ledger, 3);
    assert!(ledger.audit().unwrap().is_clean());
    dir
}

fn audit(dir: &TempDir) -> Vec<Discrepancy> {
    let report = Ledger::open_existing(dir.db()).unwrap().audit().unwrap();
    assert!(!report.is_clean());
    assert!(report.to_string().contains("result: FAILED"));
    report.discrepancies
}

fn position_of(dir: &TempDir, stream: &str, version: u64) -> i64 {
    let raw = rusqlite::Connection::open(dir.db()).unwrap();
    raw.query_row(
        "SELECT position FROM events WHERE stream = ?1 AND version = ?2",
        rusqlite::params![stream, version as i64],
        |r| r.get(0),
    )
    .unwrap()
}

fn flagged(found: &[Discrepancy], stream: &str, version: u64, what: &str) -> bool {
    found.iter().any(|d| {
        d.stream.as_deref() == Some(stream) && d.version == Some(version) && d.what.contains(what)
    })
}

#[test]
fn an_edited_payload_is_pinpointed() {
    let dir = history();
    tamper(&dir.db(), |c| {
        c.execute(
            "UPDATE events SET payload = replace(payload, '\"named\":\"6p\"', '\"named\":\"5p\"') WHERE stream = 'hand:spring-t1-h2' AND version = 3",
            [],
        )
        .unwrap();
    });
    let found = audit(&dir);
    assert!(
        flagged(&found, "hand:spring-t1-h2", 3, "does not match its hash"),
        "{found:#?}"
    );
    assert_eq!(found.len(), 1, "one edit, one discrepancy: {found:#?}");
}

#[test]
fn a_deleted_row_is_pinpointed() {
    let dir = history();
    let pos = position_of(&dir, "hand:spring-t1-h2", 3);
    tamper(&dir.db(), |c| {
        c.execute("DELETE FROM events WHERE position = ?1", [pos])
            .unwrap();
    });
    let found = audit(&dir);
    assert!(
        found.iter().any(|d| d.position == Some(pos as u64 + 1)
            && d.what
                .contains(&format!("positions {pos}..{pos} are missing"))),
        "{found:#?}"
    );
    assert!(
        flagged(&found, "hand:spring-t1-h2", 4, "versions 3..3 are missing"),
        "{found:#?}"
    );
}

#[test]
fn a_deleted_last_row_is_caught_by_the_published_head() {
    let dir = history();
    let head = Ledger::open(dir.db()).unwrap().head().unwrap();
    tamper(&dir.db(), |c| {
        c.execute(
            "DELETE FROM events WHERE position = ?1",
            [head.position as i64],
        )
        .unwrap();
    });
    let report = Ledger::open(dir.db()).unwrap().audit_with(&[head]).unwrap();
    assert!(
        report
            .discrepancies
            .iter()
            .any(|d| d.what.contains("published")),
        "{report}"
    );
    let old = ChainHead {
        position: 2,
        chain_hash: Ledger::open(dir.db()).unwrap().read_all(2, 1).unwrap()[0].chain_hash,
    };
    assert!(!Ledger::open(dir.db())
        .unwrap()
        .audit_with(&[old])
        .unwrap()
        .discrepancies
        .iter()
        .any(|d| d.what.contains("published")));
}

#[test]
fn two_swapped_rows_are_pinpointed() {
    let dir = history();
    let a = position_of(&dir, "hand:spring-t1-h1", 2);
    let b = position_of(&dir, "hand:spring-t1-h3", 2);
    tamper(&dir.db(), |c| {
        c.execute_batch(&format!(
            "UPDATE events SET position = -1 WHERE position = {a};
             UPDATE events SET position = {a} WHERE position = {b};
             UPDATE events SET position = {b} WHERE position = -1;"
        ))
        .unwrap();
    });
    let found = audit(&dir);
    let at = |p: i64| {
        found
            .iter()
            .any(|d| d.position == Some(p as u64) && d.what.contains("chain link broken"))
    };
    assert!(at(a) && at(b), "{found:#?}");
    // Each stream now sees a version out of its place.
    assert!(
        flagged(&found, "hand:spring-t1-h3", 2, "versions 1..1 are missing"),
        "{found:#?}"
    );
    assert!(
        flagged(&found, "hand:spring-t1-h1", 3, "versions 2..2 are missing"),
        "{found:#?}"
    );
}

#[test]
fn dropped_triggers_are_reported() {
    let dir = history();
    let raw = rusqlite::Connection::open(dir.db()).unwrap();
    raw.execute_batch("DROP TRIGGER events_no_delete").unwrap();
    drop(raw);
    let found = audit(&dir);
    assert!(
        found.iter().any(|d| d.what.contains("events_no_delete")),
        "{found:#?}"
    );
}

#[test]
fn the_report_prints_the_chain_head() {
    let dir = history();
    let ledger = Ledger::open(dir.db()).unwrap();
    let report = ledger.audit().unwrap();
    let text = report.to_string();
    let head = ledger.head().unwrap();
    assert!(
        text.contains(&format!(
            "chain head: position {} chain hash {}",
            head.position, head.chain_hash
        )),
        "{text}"
    );
    assert!(
        text.contains("result: OK") && text.contains("hand:spring-t1-h1 at version 8"),
        "{text}"
    );
    assert_eq!(report.settlements_checked, 4);
}

/// A way to tamper, and where and what the audit must then find.
type Case = (
    &'static str,
    fn(&rusqlite::Connection),
    &'static str,
    u64,
    &'static str,
);

/// The replay and the export use the audit's verifier: each refuses a tampered ledger at the
/// row the audit pinpoints, for the same reason.
#[test]
fn replay_and_export_refuse_what_the_audit_pinpoints() {
    let cases: [Case; 3] = [
        (
            "edited",
            |c| {
                c.execute(
                    "UPDATE events SET payload = replace(payload, '\"named\":\"6p\"', '\"named\":\"5p\"') \
                     WHERE stream = 'hand:spring-t1-h2' AND version = 3",
                    [],
                )
                .unwrap();
            },
            "hand:spring-t1-h2",
            3,
            "does not match its hash",
        ),
        (
            "deleted",
            |c| {
                c.execute(
                    "DELETE FROM events WHERE stream = 'hand:spring-t1-h2' AND version = 3",
                    [],
                )
                .unwrap();
            },
            "hand:spring-t1-h2",
            4,
            "versions 3..3 are missing",
        ),
        (
            "relinked",
            |c| {
                c.execute(
                    "UPDATE events SET prev_hash = zeroblob(32) WHERE stream = 'hand:spring-t1-h2' AND version = 2",
                    [],
                )
                .unwrap();
            },
            "hand:spring-t1-h2",
            2,
            "",
        ),
    ];
    for (name, edit, stream, version, what) in cases {
        let dir = history();
        tamper(&dir.db(), edit);
        let found = audit(&dir);
        assert!(flagged(&found, stream, version, what), "{name}: {found:#?}");
        let ledger = Ledger::open_existing(dir.db()).unwrap();
        let is_here = |e: ledger::Error| match e {
            ledger::Error::Corrupt {
                stream: s,
                version: v,
                what: w,
                ..
            } => s == stream && v == version && w.contains(what),
            _ => false,
        };
        let replayed = ledger.replay(|_| {}).unwrap_err();
        let stream_id: ledger::StreamId = stream.parse().unwrap();
        let exported = ledger
            .export_stream(&stream_id, std::io::sink())
            .unwrap_err();
        // The deletion also breaks the global chain before the stream's link; the replay
        // stops at that first break, in the same row.
        if name == "deleted" {
            assert!(replayed.to_string().contains("positions"), "{replayed}");
        } else {
            assert!(is_here(replayed), "{name}");
        }
        assert!(is_here(exported), "{name}");
    }
}
