//! Export a stream as JSON Lines; import verifies it and refuses broken or conflicting records.

use ledger::event::*;
use ledger::{Error, ExpectedVersion, Ledger, NewEvent};
use referee::Seat;

use crate::util::*;

fn exported(ledger: &Ledger, n: u32) -> String {
    let mut out = Vec::new();
    ledger.export_stream(&hand(n), &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

fn source() -> Ledger {
    let mut ledger = Ledger::open_in_memory().unwrap();
    small_history(&mut ledger, 2);
    ledger
}

#[test]
fn an_exported_hand_imports_with_the_same_ids_and_hashes() {
    let src = source();
    let text = exported(&src, 1);
    assert_eq!(text.lines().count(), 8);
    let mut dst = Ledger::open_in_memory().unwrap();
    let report = dst.import(text.as_bytes()).unwrap();
    assert_eq!((report.imported, report.already_present), (8, 0));
    assert_eq!(report.streams, vec![(hand(1), 8)]);
    let strip = |l: &Ledger| -> Vec<_> {
        l.read_stream(&hand(1), 1)
            .unwrap()
            .into_iter()
            .map(|e| (e.version, e.event_id, e.recorded_at, e.event, e.hash))
            .collect()
    };
    assert_eq!(strip(&src), strip(&dst));
    assert!(dst.audit().unwrap().is_clean());
    // Re-exporting gives the same bytes, and importing again is a no-op.
    assert_eq!(exported(&dst, 1), text);
    assert_eq!(dst.import(text.as_bytes()).unwrap().already_present, 8);
}

fn import_err(dst: &mut Ledger, text: &str) -> String {
    let head = dst.head().unwrap();
    let err = dst.import(text.as_bytes()).unwrap_err();
    assert!(matches!(err, Error::Import { .. }), "{err}");
    assert_eq!(dst.head().unwrap(), head, "a refused import writes nothing");
    err.to_string()
}

#[test]
fn a_broken_record_is_refused_with_the_line() {
    let text = exported(&source(), 2);
    let lines: Vec<&str> = text.lines().collect();
    let mut dst = Ledger::open_in_memory().unwrap();

    let edited = text.replacen("\"named\":\"6p\"", "\"named\":\"5p\"", 1);
    let msg = import_err(&mut dst, &edited);
    assert!(
        msg.contains("line 3") && msg.contains("does not match its hash"),
        "{msg}"
    );

    let missing: String = lines
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != 2)
        .map(|(_, l)| format!("{l}\n"))
        .collect();
    let msg = import_err(&mut dst, &missing);
    assert!(
        msg.contains("line 3") && msg.contains("broken chain"),
        "{msg}"
    );

    let msg = import_err(
        &mut dst,
        &format!("{}\n{{\"not\": \"an event\"}}\n", lines[0]),
    );
    assert!(
        msg.contains("line 2") && msg.contains("not a ledger export line"),
        "{msg}"
    );

    let spaced = lines[0].replacen("\"payload\":{\"table\"", "\"payload\":{ \"table\"", 1);
    assert_ne!(spaced, lines[0]);
    let msg = import_err(&mut dst, &spaced);
    assert!(msg.contains("line 1") && msg.contains("canonical"), "{msg}");

    let msg = import_err(&mut dst, "\u{0}\u{1}garbage");
    assert!(msg.contains("line 1"), "{msg}");
}

#[test]
fn a_conflicting_record_is_refused() {
    let text = exported(&source(), 1);
    let mut dst = Ledger::open_in_memory().unwrap();
    // The destination already has a different hand under the same name.
    dst.append(
        &hand(1),
        ExpectedVersion::Exact(0),
        vec![NewEvent::new(WashOut {
            reason: "other".into(),
        })],
        &referee(),
    )
    .unwrap();
    let msg = import_err(&mut dst, &text);
    assert!(
        msg.contains("line 1")
            && msg.contains("conflicts")
            && msg.contains("hand:spring-t1-h1 version 1"),
        "{msg}"
    );
}

#[test]
fn a_record_can_continue_a_stream_the_ledger_already_has() {
    let mut src = Ledger::open_in_memory().unwrap();
    src.append(
        &hand(1),
        ExpectedVersion::Exact(0),
        hand_events(1, Seat::East, 8)[..2].to_vec(),
        &referee(),
    )
    .unwrap();
    let mut dst = Ledger::open_in_memory().unwrap();
    dst.import(exported(&src, 1).as_bytes()).unwrap();
    src.append(
        &hand(1),
        ExpectedVersion::Exact(2),
        hand_events(1, Seat::East, 8)[2..].to_vec(),
        &referee(),
    )
    .unwrap();
    let report = dst.import(exported(&src, 1).as_bytes()).unwrap();
    assert_eq!((report.imported, report.already_present), (4, 2));
    assert!(dst.audit().unwrap().is_clean());
}
