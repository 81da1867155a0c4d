//! A hand's result record and its corrections: those the table decides (of the settlement in
//! force, starting from its facts, changing only what they say, keeping the rotation of the
//! hands after), withdrawals (nested), corrections of anything else, settlements replaced
//! without a correction; folding one fact at a time gives what deriving from them all gives;
//! the table folds what it would not decide.

use quickcheck::{Arbitrary, Gen, QuickCheck};
use uuid::Uuid;

use super::tests::{conditions, given, report, wash_out, when, won};
use super::*;
use crate::event::*;
use crate::score::WinFrom;
use crate::settle::Payment;
use crate::BySeat;

fn win(winner: Seat, score: i64) -> Vec<HandEvent> {
    let payments: Vec<Payment<Seat>> = Seat::ALL
        .into_iter()
        .filter(|&w| w != winner)
        .map(|payer| Payment {
            payer,
            payee: winner,
            amount: score,
        })
        .collect();
    let nets = crate::settle::derive_nets(&payments).unwrap();
    vec![
        HandEvent::MahJonggDeclared(MahJonggDeclared {
            seat: winner,
            winning_tile: "5p".parse().unwrap(),
            self_drawn: false,
        }),
        HandEvent::SettlementRecorded(SettlementRecorded {
            winner: Some(winner),
            scores: BySeat::from_fn(|w| if w == winner { score } else { 0 }),
            payments,
            nets,
        }),
    ]
}

fn correction(supersedes: Uuid) -> HandEvent {
    HandEvent::CorrectionRecorded(CorrectionRecorded {
        supersedes,
        reason: "r".into(),
    })
}

fn id(n: u128) -> Uuid {
    Uuid::from_u128(n)
}

/// The events with ids 1, 2, 3, … (as u128).
fn numbered(events: Vec<HandEvent>) -> Vec<(Uuid, HandEvent)> {
    events
        .into_iter()
        .enumerate()
        .map(|(i, e)| (id(i as u128 + 1), e))
        .collect()
}

fn facts(events: &[(Uuid, HandEvent)]) -> Vec<(Uuid, Fact<'_>)> {
    events
        .iter()
        .filter_map(|(id, e)| Fact::of(e).map(|f| (*id, f)))
        .collect()
}

/// Folds one fact at a time, deriving again when a fact reaches back (as the table and the
/// read model do).
fn folded(events: &[(Uuid, HandEvent)]) -> ResultRecord {
    let mut r = ResultRecord::default();
    for (n, (id, e)) in events.iter().enumerate() {
        let Some(fact) = Fact::of(e) else { continue };
        if r.fold(*id, fact).is_err() {
            r = ResultRecord::derive(&facts(&events[..=n]));
        }
    }
    r
}

fn in_force(r: &ResultRecord) -> Option<Uuid> {
    r.settlement().map(|(id, _)| id)
}

#[test]
fn a_correction_of_the_settlement_in_force_takes_it_out_with_its_facts() {
    // 1 MJ West, 2 settle West; 3 correction of 2; 4 MJ South, 5 settle South.
    let mut events = win(Seat::West, 16);
    events.push(correction(id(2)));
    let taken_out = folded(&numbered(events.clone()));
    assert_eq!(in_force(&taken_out), None);
    assert_eq!(taken_out.scored(), None);
    assert_eq!(taken_out.settlements()[0].superseded_by(), Some(id(3)));
    events.extend(win(Seat::South, 8));
    let events = numbered(events);
    let r = folded(&events);
    assert_eq!(r, ResultRecord::derive(&facts(&events)));
    assert_eq!((r.winner(), in_force(&r)), (Some(Seat::South), Some(id(5))));
    assert!(r.is_superseded(id(1)) && r.is_superseded(id(2)));
    assert!(!r.is_superseded(id(4)) && !r.is_superseded(id(5)));
    assert_eq!(r.corrections(), [id(3)]);
}

#[test]
fn withdrawing_a_correction_restores_what_it_took_out_and_withdrawals_nest() {
    // 1 MJ West, 2 settle West; 3 correction of 2; 4 MJ South, 5 settle South;
    // 6 correction of 3 (the correction).
    let mut events = win(Seat::West, 16);
    events.push(correction(id(2)));
    events.extend(win(Seat::South, 8));
    events.push(correction(id(3)));
    let r = folded(&numbered(events.clone()));
    assert_eq!((r.winner(), in_force(&r)), (Some(Seat::West), Some(id(2))));
    let superseded: Vec<_> = r.superseded().map(|s| (s.id, s.superseded_by())).collect();
    assert_eq!(superseded, [(id(5), Some(id(6)))]);
    assert_eq!(r.corrections(), [id(3), id(6)]);
    assert_eq!(r.withdrawn(), [id(3)]);
    assert!(r.is_superseded(id(3)) && r.is_superseded(id(4)) && !r.is_superseded(id(1)));

    // Withdrawing the withdrawal brings the first correction back.
    events.push(correction(id(6)));
    let r = folded(&numbered(events));
    assert_eq!((r.winner(), in_force(&r)), (Some(Seat::South), Some(id(5))));
    assert_eq!(r.corrections().len(), 3);
    assert_eq!(r.withdrawn(), [id(6)]);
}

#[test]
fn a_correction_of_anything_else_is_counted_and_changes_nothing() {
    // 1 MJ West, 2 settle West; 3 correction of 1 (not a settlement); 4 correction of 99.
    let mut events = win(Seat::West, 16);
    let before = folded(&numbered(events.clone()));
    events.push(correction(id(1)));
    events.push(correction(id(99)));
    let r = folded(&numbered(events));
    assert_eq!(r.corrections().len(), 2);
    assert_eq!(r.settlements(), before.settlements());
    assert_eq!((r.winner(), in_force(&r)), (Some(Seat::West), Some(id(2))));
}

#[test]
fn a_settlement_recorded_without_a_correction_replaces_the_one_in_force() {
    let mut events = win(Seat::West, 16);
    events.extend(win(Seat::North, 4));
    let r = folded(&numbered(events));
    assert_eq!(in_force(&r), Some(id(4)));
    assert_eq!(r.settlements()[0].standing, Standing::Replaced);
    assert_eq!(r.settlements()[0].superseded_by(), None);
}

/// A stored stream may withdraw a correction, or correct something other than the settlement
/// in force (a raw append, an import): the table folds it as the read model does.
#[test]
fn the_table_folds_a_withdrawal_it_would_not_decide() {
    let mut t = given(&[won(Seat::West)]);
    let key = HandKey { game: 1, hand: 1 };
    let original = t.hands[&key].settlement().unwrap().0;
    // West went out from South's discard, not from the wall.
    let mut report = HandReport::from_facts(&t.hands[&key].facts().unwrap());
    report.win_from = Some(WinFrom::Discard);
    report.discarder = Some(Seat::South);
    let decided = t
        .decide(
            &conditions(),
            &TableCommand::CorrectHand {
                hand: key,
                reason: "South gave the tile".into(),
                report,
            },
        )
        .unwrap();
    let first = Uuid::now_v7();
    for (n, e) in decided.iter().enumerate() {
        let id = if n == 0 { first } else { Uuid::now_v7() };
        t.apply(id, e).unwrap();
    }
    let win = |t: &Table| t.hands[&key].facts().unwrap().win.unwrap();
    assert_eq!(win(&t).discarder, Some(Seat::South));
    assert_ne!(t.hands[&key].settlement().unwrap().0, original);
    // The correction is withdrawn: the first settlement counts again, and its facts.
    t.apply(Uuid::now_v7(), &Decided::Hand(key, correction(first)))
        .unwrap();
    let hand = &t.hands[&key];
    assert_eq!(hand.settlement().unwrap().0, original);
    assert_eq!(hand.end(), Some(HandEnd::Won(Seat::West)));
    assert_eq!((win(&t).from, win(&t).discarder), (WinFrom::Wall, None));
    // A correction of something else is folded and changes nothing.
    t.apply(Uuid::now_v7(), &Decided::Hand(key, correction(Uuid::nil())))
        .unwrap();
    assert_eq!(t.hands[&key].settlement().unwrap().0, original);
    assert_eq!(t.hands[&key].record().corrections().len(), 3);
}

// Corrections as the table decides them: of the settlement in force, starting from its facts.

#[test]
fn a_correction_that_changes_nothing_is_refused() {
    let t = given(&[won(Seat::West)]);
    let key = HandKey { game: 1, hand: 1 };
    let recorded = t.hands[&key].facts().unwrap();
    let v = t
        .decide(
            &conditions(),
            &TableCommand::CorrectHand {
                hand: key,
                reason: "checking".into(),
                report: HandReport::from_facts(&recorded),
            },
        )
        .unwrap_err();
    assert!(v.to_string().contains("changes nothing"), "{v}");
}

#[test]
fn a_correction_starts_from_the_record_and_changes_only_what_it_says() {
    // Given West won from South's discard,
    let mut t = given(&[TableCommand::RecordHand {
        report: report(Some(Seat::West), WinFrom::Discard, Some(Seat::South)),
    }]);
    let key = HandKey { game: 1, hand: 1 };
    let before = t.hands[&key]
        .settlement()
        .map(|(id, s)| (id, s.clone()))
        .unwrap();
    // when the referee corrects only the discarder to North,
    let mut report = HandReport::from_facts(&t.hands[&key].facts().unwrap());
    report.discarder = Some(Seat::North);
    let events = when(
        &mut t,
        &TableCommand::CorrectHand {
            hand: key,
            reason: "North gave the tile".into(),
            report,
        },
    )
    .unwrap();
    // then the old settlement is superseded and the win is still from a discard.
    assert!(matches!(
        &events[0],
        Decided::Hand(_, HandEvent::CorrectionRecorded(c)) if c.supersedes == before.0
    ));
    let facts = t.hands[&key].facts().unwrap();
    let win = facts.win.as_ref().unwrap();
    assert_eq!(
        (win.from, win.discarder),
        (WinFrom::Discard, Some(Seat::North))
    );
    assert_ne!(t.hands[&key].settlement().unwrap().0, before.0);
}

#[test]
fn a_correction_may_not_change_who_dealt_a_later_hand() {
    // Given West won hand 1 (the deal passed to South) and hand 2 is recorded,
    let t = given(&[won(Seat::West), won(Seat::South)]);
    let key = HandKey { game: 1, hand: 1 };
    // when hand 1 is corrected to a win by East (who would have kept the deal),
    let v = t
        .decide(
            &conditions(),
            &TableCommand::CorrectHand {
                hand: key,
                reason: "it was East".into(),
                report: report(Some(Seat::East), WinFrom::Wall, None),
            },
        )
        .unwrap_err();
    // then it is refused, citing the rotation.
    let v = v.iter().next().unwrap();
    assert_eq!(v.field, "winner");
    assert!(v.rule.as_deref().unwrap().contains("§11"), "{v}");
    // A correction of the last hand may change the winner.
    let last = HandKey { game: 1, hand: 2 };
    assert!(t
        .decide(
            &conditions(),
            &TableCommand::CorrectHand {
                hand: last,
                reason: "it was West".into(),
                report: report(Some(Seat::West), WinFrom::Wall, None),
            },
        )
        .is_ok());
}

#[test]
fn a_correction_from_wash_out_to_win_moves_the_deal() {
    let mut t = given(&[wash_out()]);
    let key = HandKey { game: 1, hand: 1 };
    when(
        &mut t,
        &TableCommand::CorrectHand {
            hand: key,
            reason: "South went out".into(),
            report: report(Some(Seat::South), WinFrom::Wall, None),
        },
    )
    .unwrap();
    assert_eq!(t.hands[&key].end(), Some(HandEnd::Won(Seat::South)));
    assert_eq!(t.next().east, Seat::South);
}

#[test]
fn a_correction_that_keeps_the_deal_where_it_was_is_allowed_before_later_hands() {
    // Given East won hand 1 (keeping the deal) and hand 2 is recorded,
    let t = given(&[won(Seat::East), won(Seat::South)]);
    // when hand 1 is corrected to a wash-out (East keeps the deal just the same),
    let report = HandReport {
        hands: BySeat::default(),
        ..HandReport::default()
    };
    let decided = t.decide(
        &conditions(),
        &TableCommand::CorrectHand {
            hand: HandKey { game: 1, hand: 1 },
            reason: "nobody went out".into(),
            report,
        },
    );
    // then it is accepted: hand 2 was dealt by the same seat either way.
    assert!(decided.is_ok(), "{decided:?}");
}

/// One result event of a random history; its targets are indices into the events before it.
#[derive(Clone, Debug)]
enum Step {
    Win(u8, u8),
    /// A correction of the settlement in force, then a win.
    Correct(u8, u8),
    /// A correction of the `n`th correction recorded so far.
    Withdraw(u8),
    /// A correction of the `n`th event recorded so far, whatever it is.
    Other(u8),
}

impl Arbitrary for Step {
    fn arbitrary(g: &mut Gen) -> Step {
        let n = u8::arbitrary(g);
        match u8::arbitrary(g) % 4 {
            0 => Step::Win(n % 4, 1 + u8::arbitrary(g) % 50),
            1 => Step::Correct(n % 4, 1 + u8::arbitrary(g) % 50),
            2 => Step::Withdraw(n),
            _ => Step::Other(n),
        }
    }
}

fn history(steps: &[Step]) -> Vec<(Uuid, HandEvent)> {
    fn push(events: &mut Vec<(Uuid, HandEvent)>, e: HandEvent) {
        let id = id(events.len() as u128 + 1);
        events.push((id, e));
    }
    let mut events: Vec<(Uuid, HandEvent)> = Vec::new();
    for step in steps {
        match *step {
            Step::Win(seat, score) => {
                for e in win(Seat::from_index(seat.into()), score.into()) {
                    push(&mut events, e);
                }
            }
            Step::Correct(seat, score) => {
                let r = folded(&events);
                if let Some(s) = in_force(&r) {
                    push(&mut events, correction(s));
                }
                for e in win(Seat::from_index(seat.into()), score.into()) {
                    push(&mut events, e);
                }
            }
            Step::Withdraw(n) => {
                let r = folded(&events);
                if !r.corrections().is_empty() {
                    let c = r.corrections()[usize::from(n) % r.corrections().len()];
                    push(&mut events, correction(c));
                }
            }
            Step::Other(n) if !events.is_empty() => {
                let target = events[usize::from(n) % events.len()].0;
                push(&mut events, correction(target));
            }
            Step::Other(_) => {}
        }
    }
    events
}

#[test]
fn folding_fact_by_fact_gives_what_deriving_from_them_all_gives() {
    fn prop(steps: Vec<Step>) -> bool {
        let events = history(&steps);
        let r = folded(&events);
        let at_most_one = r
            .settlements()
            .iter()
            .filter(|s| s.standing == Standing::InForce)
            .count()
            <= 1;
        r == ResultRecord::derive(&facts(&events)) && at_most_one
    }
    QuickCheck::new()
        .tests(300)
        .quickcheck(prop as fn(Vec<Step>) -> bool);
}
