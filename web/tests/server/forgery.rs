//! Every class of forgery the second trust review made from a copy of the ledger — a
//! continuation of a stream the ledger holds, re-hashed so its chain is perfect — is refused by
//! the import check with its problem named, and caught by the audit when the same events are
//! written into a database behind the program's back.

use ledger::event::{
    HandEvent, PlayerRegistered, SettlementRecorded, TileDiscarded, TournamentVoided,
};
use ledger::{Event, ExpectedVersion, Ledger, NewEvent, OfficialId, PlayerId, StreamId};
use referee::table::{Decided, HandKey, HandReport, TableCommand};
use referee::{Seat, Tile, WinFrom};
use web::app::table::{Focus, TableContext};
use web::app::{import_check, redecide};

use super::*;

const HAND: &str = "spring-t1-g1-h1";

/// A copy of the service's database, as whoever holds a backup has it.
fn copy_of(t: &TestApp, dir: &TempDir, name: &str) -> Ledger {
    let path = dir.0.join(name);
    let raw = rusqlite::Connection::open(t.state.path()).unwrap();
    raw.execute("VACUUM INTO ?1", [path.to_str().unwrap()])
        .unwrap();
    readmodel::open(&path).unwrap()
}

/// `events` appended to `stream` of `ledger` by `by`, as no command of the service would.
fn append_behind(ledger: &mut Ledger, stream: &str, events: &[Event], by: &str) {
    let stream: StreamId = stream.parse().unwrap();
    let version = ledger.stream_version(&stream).unwrap();
    ledger
        .append(
            &stream,
            ExpectedVersion::Exact(version),
            events.iter().cloned().map(NewEvent::new).collect(),
            &OfficialId::new(by).unwrap(),
        )
        .unwrap();
}

/// The forgery of `events` continuing `stream` by `by`: refused by the import check of the
/// service's ledger with `expect` among the problems, the service's ledger unchanged, and —
/// written into a copy of the database directly — caught by the audit's re-decision.
fn refused_and_caught(t: &TestApp, stream: &str, events: &[Event], by: &str, expect: &str) {
    refused_and_caught_as(t, stream, events, by, expect, expect)
}

/// As [`refused_and_caught`], with what the import and the audit each name.
fn refused_and_caught_as(
    t: &TestApp,
    stream: &str,
    events: &[Event],
    by: &str,
    expect: &str,
    audit_expect: &str,
) {
    let dir = temp_dir();
    let before = head(&t.state);
    // Made from a copy: a continuation with a valid chain, exported.
    let mut copy = copy_of(t, &dir, "forged.db");
    append_behind(&mut copy, stream, events, by);
    let mut export = Vec::new();
    copy.export_stream(&stream.parse().unwrap(), &mut export)
        .unwrap();
    let exported = ledger::read_export(&export[..]).unwrap();
    let found = t
        .state
        .read_now(|l| Ok(import_check::check(l, &exported)))
        .unwrap()
        .join("\n");
    assert!(found.contains(expect), "import of {stream}: {found}");
    assert_eq!(head(&t.state), before, "nothing was imported");
    // Written behind the program's back: the audit decides it again and refuses it.
    let caught = redecide::audit(&copy).unwrap().join("\n");
    assert!(caught.contains(audit_expect), "audit of {stream}: {caught}");
}

/// The hand's events as the service recorded them.
fn stream_events(t: &TestApp, stream: &str) -> Vec<ledger::RecordedEvent> {
    t.state
        .read_now(|l| Ok(l.read_stream(&stream.parse().unwrap(), 1)?))
        .unwrap()
}

/// The hand's events of a decision (the table's own left out).
fn hand_events(decided: Vec<Decided>) -> Vec<Event> {
    decided
        .into_iter()
        .filter_map(|d| match d {
            Decided::Hand(_, e) => Some(Event::from(e)),
            Decided::Table(_) => None,
        })
        .collect()
}

/// A genuine correction of hand 1 (won from the wall instead of West's discard), as the table
/// decides it.
fn correction(t: &TestApp, table: &str) -> Vec<Event> {
    t.state
        .read_now(|l| {
            let key = HandKey { game: 1, hand: 1 };
            let ctx = TableContext::load_focused(l, table, Focus::Hand(key))?;
            let mut report = HandReport::from_facts(&ctx.state.hands[&key].facts().unwrap());
            report.win_from = Some(WinFrom::Wall);
            report.discarder = None;
            let command = TableCommand::CorrectHand {
                hand: key,
                reason: "won from the wall".into(),
                report,
            };
            Ok(hand_events(
                ctx.state.decide(&ctx.conditions, &command).unwrap(),
            ))
        })
        .unwrap()
}

#[actix_web::test]
async fn continuations_of_a_hand_stream_are_decided_as_live_writes() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let table = setup(&svc, &t.token).await;
    record_discard_win(&svc, &t.token, &table).await;
    let stream = format!("hand:{HAND}");
    let genuine = correction(&t, &table);

    // A correction that pays 100,000 more than the ruleset, the books still balanced.
    let mut richer = genuine.clone();
    let Some(Event::SettlementRecorded(s)) = richer.last_mut() else {
        panic!("{richer:?}")
    };
    let winner = s.winner.unwrap();
    let payer = winner.next();
    s.payments.push(ledger::Payment {
        payer,
        payee: winner,
        amount: 100_000,
    });
    s.nets[winner] += 100_000;
    s.nets[payer] -= 100_000;
    refused_and_caught(
        &t,
        &stream,
        &richer,
        "rita",
        "but the ruleset `code-of-laws` settles these hands",
    );

    // The genuine correction, but by a scorer: only a referee corrects a hand.
    refused_and_caught(
        &t,
        &stream,
        &genuine,
        "sam",
        "recorded by `sam`, a scorer then: only",
    );

    // A discard after the hand's end.
    let discard = Event::from(HandEvent::TileDiscarded(TileDiscarded {
        seat: Seat::East,
        placed: "5p".parse::<Tile>().unwrap(),
        named: "5p".parse::<Tile>().unwrap(),
    }));
    refused_and_caught(&t, &stream, &[discard], "sam", "is not in play");

    // A second settlement with no correction before it.
    let settled: SettlementRecorded = stream_events(&t, &stream)
        .into_iter()
        .find_map(|e| match e.event {
            Event::SettlementRecorded(s) => Some(s),
            _ => None,
        })
        .unwrap();
    refused_and_caught(
        &t,
        &stream,
        &[Event::SettlementRecorded(settled)],
        "rita",
        "is never recorded on its own",
    );

    // By an official disabled before he recorded it.
    let resp = test::call_service(
        &svc,
        post_json("/api/officials/rita/disable", Some(&t.token), json!({})),
    )
    .await;
    assert!(resp.status().is_success(), "{}", resp.status());
    refused_and_caught(
        &t,
        &stream,
        &genuine,
        "rita",
        "recorded by `rita`, whose account was disabled",
    );
}

#[actix_web::test]
async fn continuations_of_a_tournament_stream_are_decided_as_live_writes() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    setup(&svc, &t.token).await;
    let stream = "tournament:spring";
    // A player registered twice.
    let again = Event::PlayerRegistered(PlayerRegistered {
        player: PlayerId::new("ann").unwrap(),
        name: "Ann".into(),
        substitute: false,
    });
    refused_and_caught(&t, stream, &[again], "olga", "already");
    // The tournament voided by a scorer.
    let voided = Event::TournamentVoided(TournamentVoided {
        reason: "mischief".into(),
    });
    refused_and_caught(
        &t,
        stream,
        std::slice::from_ref(&voided),
        "sam",
        "recorded by `sam`, a scorer then: only",
    );
    // By someone who is no official here.
    refused_and_caught(
        &t,
        stream,
        &[voided],
        "mallory",
        "recorded by `mallory`, who is not an official of this ledger",
    );
}

/// The events the table would record for its next hand, stated as hand 1 was.
fn next_hand(t: &TestApp, table: &str) -> Vec<Event> {
    t.state
        .read_now(|l| {
            let key = HandKey { game: 1, hand: 1 };
            let ctx = TableContext::load_focused(l, table, Focus::Hand(key))?;
            let report = HandReport::from_facts(&ctx.state.hands[&key].facts().unwrap());
            let mut open = ctx.state.clone();
            open.status = referee::table::TableStatus::Open;
            Ok(hand_events(
                open.decide(&ctx.conditions, &TableCommand::RecordHand { report })
                    .unwrap(),
            ))
        })
        .unwrap()
}

#[actix_web::test]
async fn new_hands_at_closed_or_voided_tables_are_refused() {
    // Closing a table signs a checkpoint: what it sealed takes nothing by import, and the
    // audit finds the table closed.
    for (action, body, expect, audit_expect) in [
        (
            "close",
            json!({}),
            "under a signed checkpoint: nothing it covers changes",
            "is closed (its play is over)",
        ),
        (
            "void",
            json!({"reason": "a mistake"}),
            "is voided (a mistake)",
            "is voided (a mistake)",
        ),
    ] {
        let t = spawn();
        let svc = test::init_service(app(t.state.clone())).await;
        let table = setup(&svc, &t.token).await;
        record_discard_win(&svc, &t.token, &table).await;
        let resp = test::call_service(
            &svc,
            post_json(
                &format!("/api/tables/{table}/{action}"),
                Some(&t.token),
                body,
            ),
        )
        .await;
        assert!(resp.status().is_success(), "{action}: {}", resp.status());
        let events = next_hand(&t, &table);
        let stream = format!("hand:{table}-g1-h2");
        refused_and_caught_as(&t, &stream, &events, "sam", expect, audit_expect);
    }
}
