//! The read model under audit: a database altered outside the program is detected, the read
//! model's rows among the rest (moved from the ledger's own tamper tests, whose audit no longer
//! keeps a read model).

use ledger::Discrepancy;

use crate::util::*;

/// A file with a small history, the read model kept; returns its temp dir.
fn history() -> TempDir {
    let dir = TempDir::new("tamper");
    let mut ledger = readmodel::open(dir.db()).unwrap();
    small_history(&mut ledger, 3);
    assert!(ledger.audit().unwrap().is_clean());
    dir
}

fn audit(dir: &TempDir) -> Vec<Discrepancy> {
    let report = readmodel::open_existing(dir.db()).unwrap().audit().unwrap();
    assert!(!report.is_clean());
    assert!(report.to_string().contains("result: FAILED"));
    report.discrepancies
}

fn flagged(found: &[Discrepancy], stream: &str, version: u64, what: &str) -> bool {
    found.iter().any(|d| {
        d.stream.as_deref() == Some(stream) && d.version == Some(version) && d.what.contains(what)
    })
}

#[test]
fn an_edited_amount_is_pinpointed_and_the_settlement_no_longer_re_derives() {
    let dir = history();
    tamper(&dir.db(), |c| {
        let n = c
            .execute(
                "UPDATE events SET payload = replace(payload, '\"amount\":16', '\"amount\":160') \
                 WHERE stream = 'hand:spring-t1-h2' AND event_type = 'settlement_recorded'",
                [],
            )
            .unwrap();
        assert_eq!(n, 1);
    });
    let found = audit(&dir);
    assert!(
        flagged(&found, "hand:spring-t1-h2", 6, "does not match its hash"),
        "{found:#?}"
    );
    assert!(
        flagged(
            &found,
            "hand:spring-t1-h2",
            6,
            "settlement does not re-derive"
        ),
        "{found:#?}"
    );
    assert!(
        found
            .iter()
            .any(|d| d.what.contains("projection proj_standings")),
        "{found:#?}"
    );
}

#[test]
fn an_edited_projection_is_found_by_the_replay() {
    let dir = history();
    let raw = rusqlite::Connection::open(dir.db()).unwrap();
    raw.execute(
        "UPDATE proj_standings SET net = net + 100 WHERE player = 'p-east'",
        [],
    )
    .unwrap();
    drop(raw);
    let found = audit(&dir);
    assert_eq!(
        found.len(),
        2,
        "the stored row and the replayed row: {found:#?}"
    );
    assert!(found
        .iter()
        .all(|d| d.what.contains("proj_standings")
            && d.stream.as_deref() == Some("tournament:spring")));
}
