//! Given a settled hand, when a player's own count is recorded, then (Code §110) an undervalued
//! hand stands at the count, an overscored one is paid its value, and the count is refused
//! where no hand is scored.

use uuid::Uuid;

use super::tests::{conditions, given, won};
use super::*;
use crate::event::*;
use crate::settle::Penalty;
use crate::violation::Violations;
use crate::BySeat;

const KEY: HandKey = HandKey { game: 1, hand: 1 };

fn when(t: &mut Table, cmd: &TableCommand) -> Result<Vec<Decided>, Violations> {
    let events = t.decide(&conditions(), cmd)?;
    for e in &events {
        t.apply(Uuid::now_v7(), e).unwrap();
    }
    Ok(events)
}

fn count(seat: Seat, points: i64) -> TableCommand {
    TableCommand::Count {
        hand: KEY,
        count: ScoreClaimed {
            seat,
            points,
            elements: vec!["  pung of dragons ".into(), " ".into()],
        },
    }
}

fn hand(t: &Table) -> &HandState {
    &t.hands[&KEY]
}

fn nets(t: &Table) -> BySeat<i64> {
    hand(t).settlement().unwrap().1.nets
}

#[test]
fn an_undervalued_count_stands_and_an_overscored_one_is_paid_its_value() {
    let mut t = given(&[won(Seat::South)]);
    let before = hand(&t).settlement().unwrap().1.clone();
    let worth = before.scores[Seat::South];
    assert!(worth > 2, "South's hand is worth {worth}");
    let events = when(&mut t, &count(Seat::South, 2)).unwrap();
    // The count, then a correction and the settlement again.
    let Decided::Hand(_, HandEvent::ScoreClaimed(c)) = &events[0] else {
        panic!("{events:?}")
    };
    assert_eq!(c.elements, vec!["pung of dragons".to_owned()]);
    assert!(matches!(
        &events[1],
        Decided::Hand(_, HandEvent::CorrectionRecorded(r)) if r.reason.contains("south's own count of 2")
    ));
    // South, the winner, is paid on 2: twice by East, once by West and North (§108).
    assert_eq!(nets(&t)[Seat::South], 2 * 2 + 2 + 2);
    assert_eq!(
        hand(&t).facts().unwrap().penalties,
        vec![Penalty::OwnCount {
            seat: Seat::South,
            counted: 2
        }]
    );
    assert_eq!(nets(&t).iter().map(|(_, n)| n).sum::<i64>(), 0);
    // He counts again, over the value: the last count replaces the first, and he is paid the
    // value — the settlement before any count.
    when(&mut t, &count(Seat::South, worth + 50)).unwrap();
    assert_eq!(nets(&t), before.nets);
    assert_eq!(hand(&t).facts().unwrap().penalties.len(), 1);
}

#[test]
fn a_count_is_refused_where_no_hand_is_scored() {
    let mut t = given(&[won(Seat::South)]);
    let err = when(&mut t, &count(Seat::South, -1)).unwrap_err();
    assert!(err.to_string().contains("a count is 0 to"), "{err}");
    let missing = TableCommand::Count {
        hand: HandKey { game: 1, hand: 9 },
        count: ScoreClaimed {
            seat: Seat::East,
            points: 0,
            elements: Vec::new(),
        },
    };
    let err = when(&mut t, &missing).unwrap_err();
    assert!(err.to_string().contains("no such hand"), "{err}");
    let mut washed = given(&[TableCommand::RecordHand {
        report: HandReport::default(),
    }]);
    let err = when(&mut washed, &count(Seat::East, 0)).unwrap_err();
    assert!(err.to_string().contains("Code §97"), "{err}");
}

/// A played hand settled again keeps the discards its play left on the table: mj-server's
/// seed-21 hand 1 scores differently without them (a tile seen among the discards decides
/// "the only place", Code §115(c)), so a count that changes nothing leaves every net as it was.
#[test]
fn a_played_hand_settled_again_keeps_the_discards_seen() {
    let text = include_str!("../../../fixtures/mj-server/single/seed-21-hand-01.mjs");
    let robot = crate::import::mjs::read(text, "t1".parse().unwrap(), 1, 1).unwrap();
    let mut t = given(&[TableCommand::RecordPlayedHand {
        dice: vec![3, 4],
        deal: robot.started.deal.clone(),
        events: robot.events.iter().map(|(_, e)| e.clone()).collect(),
        east: Some(robot.started.east),
    }]);
    let before = hand(&t).settlement().unwrap().1.clone();
    let winner = before.winner.unwrap();
    when(&mut t, &count(winner, before.scores[winner])).unwrap();
    assert_eq!(nets(&t), before.nets);
}

#[test]
fn a_count_at_a_closed_table_is_refused_its_results_change_only_by_a_referee() {
    let mut t = given(&[won(Seat::South)]);
    let before = hand(&t).settlement().unwrap().1.clone();
    t.status = TableStatus::Closed;
    let refused = t.may_count().unwrap_err();
    assert!(
        refused
            .to_string()
            .contains("only by a referee's correction or ruling"),
        "{refused}"
    );
    assert_eq!(hand(&t).settlement().unwrap().1, &before);
}
