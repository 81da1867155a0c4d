//! Given a hand won and laid down, when a player counts his own hand (a `ScoreClaimed`) or lays
//! it down in an arrangement that scores less than its best, then (Code §104–105, §110) the
//! finding says so, and an undervalued count stands in the settlement.

use super::{settle, Replay};
use crate::event::{ClaimKind, HandEvent, HandExposed, ScoreClaimed};
use crate::hand::ConcealedGroup;
use crate::shape::Set;
use crate::Seat::{self, East, North, South, West};

use super::test_support::*;
use super::{findings, Finding};

/// East goes Mah-Jongg on North's 1p; nobody has laid down yet.
fn east_wins() -> Replay {
    let events = [
        discard(East, "S"),
        draw(South, "6p"),
        discard(South, "1s"),
        draw(West, "4m"),
        discard(West, "N"),
        draw(North, "7p"),
        discard(North, "1p"),
        claim(East, ClaimKind::MahJongg, "1p"),
        grant(East, ClaimKind::MahJongg),
        mahjongg(East, "1p", false),
    ];
    replay(&table(), &events).replay
}

fn all_laid_down() -> Replay {
    let mut p = east_wins();
    for seat in [East, South, West, North] {
        lay_down(&mut p, seat);
    }
    p
}

fn counts(seat: Seat, points: i64) -> HandEvent {
    HandEvent::ScoreClaimed(ScoreClaimed {
        seat,
        points,
        elements: vec!["as I see it".into()],
    })
}

fn judged(p: &Replay) -> Vec<Finding> {
    let replayed = super::Replayed {
        replay: p.clone(),
        irregular: Vec::new(),
        refused: None,
    };
    findings(&replayed, &code())
}

/// The hand's value for `seat`, as the table scores it.
fn value(p: &Replay, seat: Seat) -> u64 {
    let (_, settled) = settle(p, &code(), 0).unwrap().unwrap();
    settled.sheets[seat].total
}

#[test]
fn an_undervalued_count_stands_in_the_settlement() {
    let mut p = all_laid_down();
    let (_, before) = settle(&p, &code(), 0).unwrap().unwrap();
    let worth = value(&p, East);
    assert!(worth > 10, "East's hand is worth {worth}");
    p.apply(&counts(East, 10)).unwrap();
    let found = judged(&p);
    let f = only(&found, "undervalued");
    assert_finding(
        f,
        "undervalued",
        Some(East),
        &["Code §110"],
        &[
            &format!("counted his hand at 10, but as laid down it scores {worth}"),
            "the hand stands at 10",
            "reimburses the others",
        ],
    );
    assert_eq!(
        f.penalty(),
        Some(crate::settle::Penalty::OwnCount {
            seat: East,
            counted: 10
        })
    );
    let (report, after) = settle(&p, &code(), 0).unwrap().unwrap();
    assert!(report.penalties.contains(&f.penalty().unwrap()));
    // East, the winner, collects twice his count from each loser: 60 in all, not 6 × worth;
    // the losers settle among themselves as before.
    assert_eq!(after.nets[East], 60);
    let shift = (before.nets[East] - 60) / 3;
    for seat in [South, West, North] {
        assert_eq!(after.nets[seat], before.nets[seat] + shift, "{seat}");
    }
}

#[test]
fn an_overscored_count_is_corrected_to_the_hands_value() {
    let mut p = all_laid_down();
    let (_, before) = settle(&p, &code(), 0).unwrap().unwrap();
    let worth = value(&p, South);
    p.apply(&counts(South, worth as i64 + 20)).unwrap();
    let found = judged(&p);
    let f = only(&found, "overscored");
    assert_finding(
        f,
        "overscored",
        Some(South),
        &["Code §110"],
        &["may correct him", &format!("he is paid {worth}")],
    );
    assert_eq!(f.penalty(), None);
    let (_, after) = settle(&p, &code(), 0).unwrap().unwrap();
    assert_eq!(after.nets, before.nets);
}

#[test]
fn a_right_count_is_no_finding_and_the_last_count_stands() {
    let mut p = all_laid_down();
    let worth = value(&p, West);
    p.apply(&counts(West, worth as i64 + 4)).unwrap();
    p.apply(&counts(West, worth as i64)).unwrap();
    let found = judged(&p);
    assert!(
        !found.iter().any(|f| matches!(f, Finding::Miscount(_))),
        "{found:?}"
    );
}

#[test]
fn a_count_is_of_a_seen_hand_and_no_less_than_nothing() {
    let mut p = east_wins();
    let err = p.apply(&counts(East, -4)).unwrap_err();
    assert!(err.to_string().contains("below nothing"), "{err}");
    // Refused events change nothing.
    assert!(p.notes().own_counts.is_empty());
    // A hand not yet laid down is counted as it lies.
    p.apply(&counts(East, 2)).unwrap();
    assert_eq!(p.notes().own_counts.len(), 1);
}

#[test]
fn a_count_during_the_play_is_refused() {
    let r = replay(&table(), &[discard(East, "S")]);
    let mut p = r.replay;
    let err = p.apply(&counts(South, 0)).unwrap_err();
    assert!(
        err.to_string().contains("before the hand was over"),
        "{err}"
    );
}

/// A long hand claims no score (§89(c)): its count is refused.
#[test]
fn a_long_hand_cannot_be_counted() {
    let events = [
        discard(East, "S"),
        draw(West, "5p"),
        draw(South, "6p"),
        discard(South, "1s"),
        draw(West, "4m"),
        discard(West, "N"),
        draw(North, "7p"),
        discard(North, "1p"),
        claim(East, ClaimKind::MahJongg, "1p"),
        grant(East, ClaimKind::MahJongg),
        mahjongg(East, "1p", false),
    ];
    let mut p = replay(&table(), &events).replay;
    let err = p.apply(&counts(West, 0)).unwrap_err();
    assert!(
        err.to_string().contains("long hand claims no score"),
        "{err}"
    );
}

/// §105: South lays down 678p as a chow where his three 8p make a concealed pung; the
/// arrangement binds, and the finding says what it cost.
#[test]
fn an_arrangement_that_undervalues_the_hand_binds_and_is_found() {
    let mut p = east_wins();
    for seat in [East, West, North] {
        lay_down(&mut p, seat);
    }
    let chow = ConcealedGroup::Set(Set::chow(t("6p")).unwrap());
    let hand = p.state().hand_grouped(South, &[chow], None).unwrap();
    p.apply(&HandEvent::HandExposed(HandExposed { seat: South, hand }))
        .unwrap();
    let found = judged(&p);
    let f = only(&found, "arrangement-undervalues");
    let Finding::Arrangement(a) = f else {
        panic!("{f:?}")
    };
    assert!(a.best > a.as_grouped, "{a:?}");
    assert_eq!(a.event, 14);
    assert_finding(
        f,
        "arrangement-undervalues",
        Some(South),
        &["Code §105"],
        &["binds", "678p"],
    );
    assert_eq!(f.penalty(), None);
    // The settlement scores the hand as grouped.
    assert_eq!(value(&p, South), a.as_grouped);
}
