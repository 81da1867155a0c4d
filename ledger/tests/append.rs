//! Appending: optimistic concurrency, idempotent retries, all-or-nothing batches, reading back.

use std::time::Duration;

use ledger::event::*;
use ledger::{Error, ExpectedVersion, Ledger, NewEvent, StreamId};
use referee::Seat;
use uuid::Uuid;

use crate::util::*;

/// Appends one discard by `seat`, which must succeed.
fn append_discard(ledger: &mut Ledger, stream: &StreamId, expected: ExpectedVersion, seat: Seat) {
    ledger
        .append(stream, expected, vec![discard(seat)], &referee())
        .unwrap();
}

fn discard(seat: Seat) -> NewEvent {
    NewEvent::new(TileDiscarded {
        seat,
        placed: tile("5p"),
        named: tile("5p"),
    })
}

#[test]
fn appended_events_read_back_in_order_with_linked_hashes() {
    let mut ledger = Ledger::open_in_memory().unwrap();
    let h = hand(1);
    let events = hand_events(1, Seat::South, 8);
    let ids: Vec<Uuid> = events.iter().map(|e| e.id).collect();
    let done = ledger
        .append(&h, ExpectedVersion::Exact(0), events.clone(), &referee())
        .unwrap();
    assert_eq!(
        (
            done.stream_version,
            done.count,
            done.last_position,
            done.already_recorded
        ),
        (6, 6, 6, false)
    );
    let read = ledger.read_stream(&h, 1).unwrap();
    assert_eq!(read.iter().map(|e| e.event_id).collect::<Vec<_>>(), ids);
    assert_eq!(
        read.iter().map(|e| e.event.clone()).collect::<Vec<_>>(),
        events.into_iter().map(|e| e.event).collect::<Vec<_>>()
    );
    assert_eq!(
        read.iter().map(|e| e.version).collect::<Vec<_>>(),
        vec![1, 2, 3, 4, 5, 6]
    );
    assert_eq!(read[0].prev_hash, ledger::Hash::ZERO);
    for w in read.windows(2) {
        assert_eq!(w[1].prev_hash, w[0].hash);
    }
    assert_eq!(ledger.read_stream(&h, 5).unwrap().len(), 2);
    assert_eq!(ledger.head().unwrap().chain_hash, read[5].chain_hash);
}

#[test]
fn a_stale_writer_gets_a_conflict_and_nothing_is_written() {
    let mut ledger = Ledger::open_in_memory().unwrap();
    let h = hand(1);
    append_discard(&mut ledger, &h, ExpectedVersion::Exact(0), Seat::East);
    let head = ledger.head().unwrap();
    let err = ledger.append(
        &h,
        ExpectedVersion::Exact(0),
        vec![discard(Seat::South), discard(Seat::West)],
        &referee(),
    );
    match err {
        Err(Error::Conflict {
            stream,
            expected: ExpectedVersion::Exact(0),
            actual: 1,
        }) => assert_eq!(stream, "hand:spring-t1-h1"),
        other => panic!("expected a conflict, got {other:?}"),
    }
    assert_eq!(ledger.head().unwrap(), head);
    let msg = ledger
        .append(
            &h,
            ExpectedVersion::Exact(7),
            vec![discard(Seat::South)],
            &referee(),
        )
        .unwrap_err()
        .to_string();
    assert!(
        msg.contains("hand:spring-t1-h1") && msg.contains("version 7") && msg.contains("version 1"),
        "{msg}"
    );
    append_discard(&mut ledger, &h, ExpectedVersion::Any, Seat::South);
    assert_eq!(ledger.stream_version(&h).unwrap(), 2);
}

#[test]
fn retrying_the_same_events_is_a_no_op_and_reusing_an_id_is_an_error() {
    let mut ledger = Ledger::open_in_memory().unwrap();
    let h = hand(1);
    let batch = vec![discard(Seat::East), discard(Seat::South)];
    ledger
        .append(&h, ExpectedVersion::Exact(0), batch.clone(), &referee())
        .unwrap();
    let again = ledger
        .append(&h, ExpectedVersion::Exact(0), batch.clone(), &referee())
        .unwrap();
    assert!(again.already_recorded);
    assert_eq!(ledger.stream_version(&h).unwrap(), 2);

    let reused = NewEvent::with_id(
        batch[0].id,
        WashOut {
            reason: "different".into(),
        },
    );
    let err = ledger
        .append(&h, ExpectedVersion::Exact(2), vec![reused], &referee())
        .unwrap_err();
    assert!(
        matches!(err, Error::EventIdReused { version: 1, .. }),
        "{err}"
    );

    // Part of an earlier batch plus a new event is not a retry.
    let partial = vec![batch[1].clone(), discard(Seat::West)];
    assert!(matches!(
        ledger.append(&h, ExpectedVersion::Exact(2), partial, &referee()),
        Err(Error::EventIdReused { .. })
    ));
    // Nor is a new event followed by a recorded one: the reused id is named, nothing written.
    let head = ledger.head().unwrap();
    let late = vec![discard(Seat::West), batch[1].clone()];
    let err = ledger
        .append(&h, ExpectedVersion::Exact(2), late, &referee())
        .unwrap_err();
    assert!(
        matches!(&err, Error::EventIdReused { event_id, version: 2, .. } if *event_id == batch[1].id),
        "{err}"
    );
    assert_eq!(ledger.head().unwrap(), head);
    assert_eq!(ledger.stream_version(&h).unwrap(), 2);

    let twice = discard(Seat::North);
    let dup = vec![twice.clone(), twice];
    assert!(matches!(
        ledger.append(&h, ExpectedVersion::Exact(2), dup, &referee()),
        Err(Error::DuplicateIdInBatch { .. })
    ));
    assert_eq!(ledger.stream_version(&h).unwrap(), 2);
}

#[test]
fn a_batch_with_one_bad_event_writes_nothing() {
    let mut ledger = Ledger::open_in_memory().unwrap();
    let h = hand(1);
    let mut bad = settlement(Seat::East, 8);
    bad.nets.east += 1;
    let batch = vec![
        discard(Seat::East),
        discard(Seat::South),
        NewEvent::new(bad),
    ];
    let err = ledger
        .append(&h, ExpectedVersion::Exact(0), batch, &referee())
        .unwrap_err();
    let msg = err.to_string();
    assert!(
        matches!(err, Error::BadSettlement { index: 2, .. }),
        "{msg}"
    );
    assert!(
        msg.contains("east: recorded net 25 but the payments add up to 24"),
        "{msg}"
    );
    assert_eq!(ledger.head().unwrap().position, 0);

    let wrong_stream = vec![NewEvent::new(TableFormed {
        table: table(),
        number: 1,
        session: None,
    })];
    let err = ledger
        .append(&h, ExpectedVersion::Exact(0), wrong_stream, &referee())
        .unwrap_err();
    assert!(
        err.to_string().contains("belongs in a tournament stream"),
        "{err}"
    );

    let orphan = vec![NewEvent::new(CorrectionRecorded {
        supersedes: Uuid::now_v7(),
        reason: "x".into(),
    })];
    assert!(matches!(
        ledger.append(&h, ExpectedVersion::Exact(0), orphan, &referee()),
        Err(Error::UnknownSuperseded { index: 0, .. })
    ));
    assert_eq!(ledger.head().unwrap().position, 0);
    assert!(ledger.audit().unwrap().is_clean());
}

#[test]
fn the_database_itself_refuses_update_and_delete() {
    let dir = TempDir::new("triggers");
    let mut ledger = Ledger::open(dir.db()).unwrap();
    append_discard(&mut ledger, &hand(1), ExpectedVersion::Exact(0), Seat::East);
    let raw = rusqlite::Connection::open(dir.db()).unwrap();
    let update = raw
        .execute("UPDATE events SET payload = '{}' WHERE position = 1", [])
        .unwrap_err();
    assert!(update.to_string().contains("append-only"), "{update}");
    let delete = raw.execute("DELETE FROM events", []).unwrap_err();
    assert!(delete.to_string().contains("append-only"), "{delete}");
    assert_eq!(ledger.read_all(1, 10).unwrap().len(), 1);
}

#[test]
fn read_all_is_in_global_order_and_wait_for_new_follows_other_writers() {
    let dir = TempDir::new("follow");
    let mut ledger = Ledger::open(dir.db()).unwrap();
    append_discard(&mut ledger, &hand(1), ExpectedVersion::Exact(0), Seat::East);
    append_discard(
        &mut ledger,
        &hand(2),
        ExpectedVersion::Exact(0),
        Seat::South,
    );
    append_discard(&mut ledger, &hand(1), ExpectedVersion::Exact(1), Seat::West);
    let all = ledger.read_all(1, 100).unwrap();
    let order: Vec<_> = all
        .iter()
        .map(|e| (e.position, e.stream.to_string(), e.version))
        .collect();
    assert_eq!(
        order,
        vec![
            (1, "hand:spring-t1-h1".into(), 1),
            (2, "hand:spring-t1-h2".into(), 1),
            (3, "hand:spring-t1-h1".into(), 2)
        ]
    );
    assert_eq!(ledger.read_all(2, 1).unwrap()[0].position, 2);

    assert!(ledger
        .wait_for_new(3, 10, Duration::from_millis(30))
        .unwrap()
        .is_empty());
    let path = dir.db();
    let writer = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(50));
        let mut other = Ledger::open(path).unwrap();
        append_discard(
            &mut other,
            &StreamId::hand("late").unwrap(),
            ExpectedVersion::Exact(0),
            Seat::North,
        );
    });
    let new = ledger.wait_for_new(3, 10, Duration::from_secs(10)).unwrap();
    writer.join().unwrap();
    assert_eq!(new.len(), 1);
    assert_eq!(
        (new[0].position, new[0].stream.to_string()),
        (4, "hand:late".into())
    );
}

#[test]
fn replay_verifies_the_chain_and_reaches_the_published_head() {
    let mut ledger = Ledger::open_in_memory().unwrap();
    small_history(&mut ledger, 3);
    let mut seen = 0;
    let stats = ledger.replay(|_| seen += 1).unwrap();
    assert_eq!(stats.events, seen);
    assert_eq!(stats.head, ledger.head().unwrap());
}

#[test]
fn an_append_to_several_streams_is_all_or_nothing() {
    let mut ledger = Ledger::open_in_memory().unwrap();
    let (a, b) = (hand(1), hand(2));
    append_discard(&mut ledger, &b, ExpectedVersion::Exact(0), Seat::East);
    let head = ledger.head().unwrap();
    // The second batch is stale: nothing of the first is written either.
    let stale = ledger.append_all(
        vec![
            (
                a.clone(),
                ExpectedVersion::Exact(0),
                vec![discard(Seat::South)],
            ),
            (
                b.clone(),
                ExpectedVersion::Exact(0),
                vec![discard(Seat::West)],
            ),
        ],
        &referee(),
    );
    assert!(
        matches!(stale, Err(Error::Conflict { actual: 1, .. })),
        "{stale:?}"
    );
    assert_eq!(ledger.head().unwrap(), head);
    assert_eq!(ledger.stream_version(&a).unwrap(), 0);
    // At the right versions, both are written in one transaction.
    let done = ledger
        .append_all(
            vec![
                (
                    a.clone(),
                    ExpectedVersion::Exact(0),
                    vec![discard(Seat::South)],
                ),
                (
                    b.clone(),
                    ExpectedVersion::Exact(1),
                    vec![discard(Seat::West)],
                ),
            ],
            &referee(),
        )
        .unwrap();
    assert_eq!((done[0].stream_version, done[1].stream_version), (1, 2));
    assert!(ledger.audit().unwrap().is_clean());
}

#[test]
fn a_batch_commits_everything_it_appended_or_nothing() {
    let mut ledger = Ledger::open_in_memory().unwrap();
    let (h1, h2) = (hand(1), hand(2));
    let out: Result<(), Error> = ledger.batch(|l| {
        l.append(
            &h1,
            ExpectedVersion::Exact(0),
            vec![discard(Seat::East)],
            &referee(),
        )?;
        l.append(
            &h2,
            ExpectedVersion::Exact(0),
            vec![discard(Seat::South)],
            &referee(),
        )?;
        Ok(())
    });
    out.unwrap();
    assert_eq!(ledger.stream_version(&h1).unwrap(), 1);
    assert_eq!(ledger.stream_version(&h2).unwrap(), 1);
    // A failure inside undoes the whole batch, the appends that succeeded before it included.
    let head = ledger.head().unwrap();
    let out: Result<(), Error> = ledger.batch(|l| {
        l.append(
            &h1,
            ExpectedVersion::Exact(1),
            vec![discard(Seat::West)],
            &referee(),
        )?;
        l.append(
            &h2,
            ExpectedVersion::Exact(0),
            vec![discard(Seat::North)],
            &referee(),
        )?;
        Ok(())
    });
    assert!(matches!(out, Err(Error::Conflict { .. })));
    assert_eq!(ledger.head().unwrap(), head);
    assert_eq!(ledger.stream_version(&h1).unwrap(), 1);
    // And the ledger takes ordinary appends afterwards.
    ledger
        .append(
            &h1,
            ExpectedVersion::Exact(1),
            vec![discard(Seat::West)],
            &referee(),
        )
        .unwrap();
    assert_eq!(ledger.stream_version(&h1).unwrap(), 2);
}

#[test]
fn a_failed_append_dooms_its_batch_even_when_the_caller_carries_on() {
    let mut ledger = Ledger::open_in_memory().unwrap();
    let (h1, h2) = (hand(1), hand(2));
    let head = ledger.head().unwrap();
    let out: Result<(), Error> = ledger.batch(|l| {
        l.append(
            &h1,
            ExpectedVersion::Exact(0),
            vec![discard(Seat::East)],
            &referee(),
        )?;
        // A stale version, its error swallowed: the batch must still not commit.
        let stale = l.append(
            &h2,
            ExpectedVersion::Exact(3),
            vec![discard(Seat::South)],
            &referee(),
        );
        assert!(matches!(stale, Err(Error::Conflict { .. })));
        // Later appends are refused rather than written on top of a failure.
        let later = l.append(
            &h2,
            ExpectedVersion::Exact(0),
            vec![discard(Seat::South)],
            &referee(),
        );
        assert!(matches!(later, Err(Error::BatchFailed)));
        Ok(())
    });
    assert!(matches!(out, Err(Error::BatchFailed)));
    assert_eq!(ledger.head().unwrap(), head);
    assert_eq!(ledger.stream_version(&h1).unwrap(), 0);
    // The next batch starts afresh.
    let out: Result<(), Error> = ledger.batch(|l| {
        l.append(
            &h1,
            ExpectedVersion::Exact(0),
            vec![discard(Seat::East)],
            &referee(),
        )
        .map(drop)
    });
    out.unwrap();
    assert_eq!(ledger.stream_version(&h1).unwrap(), 1);
    assert!(ledger.audit().unwrap().is_clean());
}

#[test]
fn a_new_ledger_has_sixteen_kilobyte_pages() {
    let dir = std::env::temp_dir().join(format!("ledger-page-size-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("pages.db");
    drop(Ledger::open(&path).unwrap());
    let conn = rusqlite::Connection::open(&path).unwrap();
    let size: i64 = conn
        .query_row("PRAGMA page_size", [], |r| r.get(0))
        .unwrap();
    drop(conn);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(size, 16384);
}
