//! An import cannot forge history: a record made elsewhere with a perfectly valid hash chain is
//! refused by a live ledger unless it is what the ledger itself would have recorded — its
//! officials, its table's next hand, the ruleset's settlement — and every problem is named with
//! its line.

use ledger::{ExpectedVersion, Ledger, NewEvent, OfficialId, StreamId};
use referee::table::{Decided, HandKey, HandReport, TableCommand};
use web::app::import_check;
use web::app::table::{Focus, TableContext};

use super::*;

/// The events the table would record for its next hand, stated as hand 1 was.
fn next_hand(t: &TestApp, table: &str) -> (String, Vec<ledger::event::HandEvent>) {
    t.state
        .read_now(|l| {
            let ctx =
                TableContext::load_focused(l, table, Focus::Hand(HandKey { game: 1, hand: 1 }))?;
            let first = ctx.state.hands[&HandKey { game: 1, hand: 1 }]
                .facts()
                .unwrap();
            let decided = ctx
                .state
                .decide(
                    &ctx.conditions,
                    &TableCommand::RecordHand {
                        report: HandReport::from_facts(&first),
                    },
                )
                .unwrap();
            let events = decided
                .into_iter()
                .filter_map(|d| match d {
                    Decided::Hand(_, e) => Some(e),
                    Decided::Table(_) => None,
                })
                .collect();
            Ok((ctx.state.next_hand_id(), events))
        })
        .unwrap()
}

/// `events` written as hand `id` in a scratch ledger by `by`, and exported: a record whose hash
/// chain is valid whatever it says.
fn made_elsewhere(id: &str, events: Vec<ledger::event::HandEvent>, by: &str) -> Vec<u8> {
    let dir = temp_dir();
    let mut scratch = Ledger::open(dir.0.join("elsewhere.db")).unwrap();
    let stream = StreamId::hand(id).unwrap();
    scratch
        .append(
            &stream,
            ExpectedVersion::Exact(0),
            events
                .into_iter()
                .map(|e| NewEvent::new(ledger::Event::from(e)))
                .collect(),
            &OfficialId::new(by).unwrap(),
        )
        .unwrap();
    let mut out = Vec::new();
    scratch.export_stream(&stream, &mut out).unwrap();
    out
}

fn problems(t: &TestApp, export: &[u8]) -> Vec<String> {
    let events = ledger::read_export(export).unwrap();
    t.state
        .read_now(|l| Ok(import_check::check(l, &events)))
        .unwrap()
}

#[actix_web::test]
async fn a_record_the_ledger_would_have_made_is_taken_and_forgeries_are_named() {
    let t = spawn();
    let svc = test::init_service(app(t.state.clone())).await;
    let table = setup(&svc, &t.token).await;
    record_discard_win(&svc, &t.token, &table).await;
    let (id, genuine) = next_hand(&t, &table);

    // Recorded by an official of this ledger, as the table would: nothing to say.
    let export = made_elsewhere(&id, genuine.clone(), "rita");
    assert_eq!(problems(&t, &export), Vec::<String>::new());

    // By someone who is not an official here.
    let found = problems(&t, &made_elsewhere(&id, genuine.clone(), "mallory")).join("\n");
    assert!(found.contains("line 1:"), "{found}");
    assert!(
        found.contains("recorded by `mallory`, who is not an official of this ledger"),
        "{found}"
    );

    // In a game the table has not reached.
    let mut later = genuine.clone();
    if let ledger::event::HandEvent::HandStarted(s) = &mut later[0] {
        s.game = 9;
    }
    let found = problems(&t, &made_elsewhere(&id, later, "rita")).join("\n");
    assert!(found.contains("game 9 hand 2"), "{found}");
    assert!(found.contains("next hand is game 1 hand 2"), "{found}");

    // Paying 100,000 more than the ruleset settles, the books still balanced.
    let mut richer = genuine.clone();
    let last = richer.len() - 1;
    let ledger::event::HandEvent::SettlementRecorded(s) = &mut richer[last] else {
        panic!("{:?}", richer[last])
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
    let export = made_elsewhere(&id, richer, "rita");
    let lines = String::from_utf8_lossy(&export).lines().count();
    let found = problems(&t, &export).join("\n");
    assert!(found.contains(&format!("line {lines}:")), "{found}");
    assert!(
        found.contains("but the ruleset `code-of-laws` settles these hands"),
        "{found}"
    );

    // Importing the genuine record works; importing it again finds it all present.
    t.state
        .write_now(|l| {
            l.import(&made_elsewhere(&id, genuine.clone(), "rita")[..])?;
            Ok(())
        })
        .unwrap();
    let hv = hand_json(&svc, &id).await;
    assert_eq!(hv["net_sum"], 0, "{hv}");
}
