//! A hand's corrections are folded once (issue 25): whatever a table's hands record —
//! settlements, corrections of the settlement in force, corrections of corrections (withdrawals,
//! nested), corrections of any other event, settlements recorded without a correction — the
//! standings the read model keeps are the sums of the settlements in force the table aggregate
//! gives, and each hand's result in the read model is the table's own record of it.

use std::collections::BTreeMap;

use ledger::event::*;
use ledger::{ExpectedVersion, Ledger, NewEvent};
use quickcheck::{Arbitrary, Gen, QuickCheck, TestResult};
use readmodel::Reads;
use referee::rules::Ruleset;
use referee::table::{Decided, HandKey, Table};
use referee::{BySeat, Seat};
use uuid::Uuid;

use crate::util::*;

/// How many hands the table plays.
const HANDS: u8 = 3;

/// One thing recorded in a hand.
#[derive(Clone, Debug)]
enum Step {
    /// A win (the winner's hand laid down, Mah-Jongg, the settlement): a first settlement, or
    /// one recorded without a correction while another is in force.
    Win { winner: u8, score: u8 },
    /// A wash-out and its settlement, in which nobody pays.
    WashOut,
    /// A correction of the settlement in force (as the table decides them), then a win.
    Correct { winner: u8, score: u8 },
    /// A correction of the hand's `n`th correction (mod their number): it withdraws it.
    Withdraw(u8),
    /// A correction of the `n`th event recorded at the table (mod their number), whatever it
    /// is, in this hand or another.
    Other(u8),
}

impl Arbitrary for Step {
    fn arbitrary(g: &mut Gen) -> Step {
        let (winner, score) = (u8::arbitrary(g) % 4, 1 + u8::arbitrary(g) % 64);
        match u8::arbitrary(g) % 9 {
            0 | 1 => Step::Win { winner, score },
            2 => Step::WashOut,
            3..=5 => Step::Correct { winner, score },
            6 | 7 => Step::Withdraw(u8::arbitrary(g)),
            _ => Step::Other(u8::arbitrary(g)),
        }
    }
}

/// One append: the steps of one hand, recorded together.
#[derive(Clone, Debug)]
struct Append {
    hand: u8,
    steps: Vec<Step>,
}

impl Arbitrary for Append {
    fn arbitrary(g: &mut Gen) -> Append {
        let n = 1 + usize::arbitrary(g) % 3;
        Append {
            hand: u8::arbitrary(g) % HANDS,
            steps: (0..n).map(|_| Step::arbitrary(g)).collect(),
        }
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Append>> {
        let hand = self.hand;
        Box::new(
            self.steps
                .shrink()
                .filter(|s| !s.is_empty())
                .map(move |steps| Append { hand, steps }),
        )
    }
}

/// The table aggregate beside the ledger: every event appended is folded into it too.
struct Recorder {
    ledger: Ledger,
    table: Table,
    /// Every event recorded in a hand, in order, with its hand.
    recorded: Vec<(u8, Uuid)>,
}

fn key(hand: u8) -> HandKey {
    HandKey {
        game: 1,
        hand: u32::from(hand) + 1,
    }
}

impl Recorder {
    fn new() -> Recorder {
        let mut ledger = readmodel::open_in_memory().unwrap();
        set_up_tournament(&mut ledger);
        let rules = Ruleset::builtin("code-of-laws").unwrap();
        let mut r = Recorder {
            ledger,
            table: Table::new(table(), true, &rules),
            recorded: Vec::new(),
        };
        for h in 0..HANDS {
            let started = HandEvent::HandStarted(HandStarted {
                table: table(),
                game: 1,
                hand: u32::from(h) + 1,
                east: Seat::East,
                prevailing_wind: referee::Wind::East,
                dice: vec![2, 5],
                deal: Deal::Unknown,
            });
            let mut batch = Vec::new();
            r.push(h, &mut batch, started);
            r.append(h, batch);
        }
        r
    }

    /// Folds `event` into the table and adds it to the batch for the ledger.
    fn push(&mut self, hand: u8, batch: &mut Vec<NewEvent>, event: HandEvent) {
        let id = Uuid::now_v7();
        self.table
            .apply(id, &Decided::Hand(key(hand), event.clone()))
            .unwrap_or_else(|e| panic!("the table refuses {event:?}: {e}"));
        self.recorded.push((hand, id));
        batch.push(NewEvent {
            id,
            event: event.into(),
        });
    }

    fn append(&mut self, hand: u8, batch: Vec<NewEvent>) {
        if batch.is_empty() {
            return;
        }
        let stream = stream(hand);
        let v = self.ledger.stream_version(&stream).unwrap();
        self.ledger
            .append(&stream, ExpectedVersion::Exact(v), batch, &referee())
            .unwrap();
    }

    fn win(&mut self, hand: u8, batch: &mut Vec<NewEvent>, winner: u8, score: u8) {
        let winner = Seat::from_index(winner.into());
        let exposed = HandEvent::HandExposed(HandExposed {
            seat: winner,
            hand: "123m 456m 789s 5p [EEE] =5p".parse().unwrap(),
        });
        self.push(hand, batch, exposed);
        let declared = HandEvent::MahJonggDeclared(MahJonggDeclared {
            seat: winner,
            winning_tile: tile("5p"),
            self_drawn: false,
        });
        self.push(hand, batch, declared);
        let settled = settlement(winner, i64::from(score));
        self.push(hand, batch, HandEvent::SettlementRecorded(settled));
    }

    fn correction(&mut self, hand: u8, batch: &mut Vec<NewEvent>, supersedes: Uuid) {
        let c = HandEvent::CorrectionRecorded(CorrectionRecorded {
            supersedes,
            reason: "corrected".into(),
        });
        self.push(hand, batch, c);
    }

    fn record(&mut self, a: &Append) {
        let h = a.hand;
        let mut batch = Vec::new();
        for step in &a.steps {
            let record = self.table.hands[&key(h)].record();
            let in_force = record.settlement().map(|(id, _)| id);
            let corrections = record.corrections().to_vec();
            match *step {
                Step::Win { winner, score } => self.win(h, &mut batch, winner, score),
                Step::WashOut => {
                    let w = HandEvent::WashOut(WashOut {
                        reason: "wall exhausted".into(),
                    });
                    self.push(h, &mut batch, w);
                    let nobody = SettlementRecorded {
                        winner: None,
                        scores: BySeat::default(),
                        payments: Vec::new(),
                        nets: BySeat::default(),
                    };
                    self.push(h, &mut batch, HandEvent::SettlementRecorded(nobody));
                }
                Step::Correct { winner, score } => {
                    if let Some(s) = in_force {
                        self.correction(h, &mut batch, s);
                    }
                    self.win(h, &mut batch, winner, score);
                }
                Step::Withdraw(n) => {
                    if !corrections.is_empty() {
                        let c = corrections[usize::from(n) % corrections.len()];
                        self.correction(h, &mut batch, c);
                    }
                }
                Step::Other(n) => {
                    let target = self.recorded[usize::from(n) % self.recorded.len()].1;
                    self.correction(h, &mut batch, target);
                }
            }
        }
        self.append(h, batch);
    }
}

fn stream(hand: u8) -> ledger::StreamId {
    ledger::StreamId::hand(&format!("spring-t1-h{}", u32::from(hand) + 1)).unwrap()
}

/// Each player's net, hands counted, hands won and largest win, summed over the settlements
/// in force the table gives.
fn expected(table: &Table) -> BTreeMap<String, (i64, u32, u32, i64)> {
    let mut sums: BTreeMap<String, (i64, u32, u32, i64)> = Seat::ALL
        .into_iter()
        .map(|w| (player(w).as_str().to_owned(), (0, 0, 0, 0)))
        .collect();
    for hand in table.hands.values() {
        let Some((_, s)) = hand.settlement() else {
            continue;
        };
        for seat in Seat::ALL {
            let e = sums.get_mut(player(seat).as_str()).unwrap();
            e.0 += *s.nets.get(seat);
            e.1 += 1;
            if s.winner == Some(seat) {
                e.2 += 1;
                e.3 = e.3.max(*s.scores.get(seat));
            }
        }
    }
    sums
}

fn standings(ledger: &Ledger) -> BTreeMap<String, (i64, u32, u32, i64)> {
    ledger
        .standings(&tournament())
        .unwrap()
        .into_iter()
        .map(|s| {
            let sums = (s.net, s.hands_played, s.hands_won, s.largest_hand);
            (s.player.as_str().to_owned(), sums)
        })
        .collect()
}

fn standings_are_the_settlements_in_force(appends: Vec<Append>) -> TestResult {
    let mut r = Recorder::new();
    for a in &appends {
        r.record(a);
        let (have, want) = (standings(&r.ledger), expected(&r.table));
        if have != want {
            return TestResult::error(format!("after {a:?}: standings {have:?}, table {want:?}"));
        }
    }
    for h in 0..HANDS {
        let record = r.ledger.hand_record(&stream(h)).unwrap().unwrap();
        let table = r.table.hands[&key(h)].record();
        if &record.result != table {
            return TestResult::error(format!(
                "hand {h}: the read model has {:#?}, the table {table:#?}",
                record.result
            ));
        }
    }
    // Folded from scratch, the read model is the same.
    let before = r.ledger.projection_snapshot().unwrap();
    r.ledger.rebuild_projections().unwrap();
    TestResult::from_bool(r.ledger.projection_snapshot().unwrap() == before)
}

#[test]
fn the_standings_always_equal_the_settlements_in_force_the_table_gives() {
    QuickCheck::new()
        .tests(60)
        .quickcheck(standings_are_the_settlements_in_force as fn(Vec<Append>) -> TestResult);
}
