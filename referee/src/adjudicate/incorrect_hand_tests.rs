//! Given a deal, when a seat draws out of turn, declares a bonus tile late or lays down a set in
//! error, then (Code §89) its hand is found long, short or foul, with what follows; and a call
//! of Mah-Jongg on such a hand is ruled as a false call.

use crate::event::{BonusTileDeclared, ClaimKind, HandEvent};
use crate::tile::Bonus;
use crate::BySeat;
use crate::Seat::{East, North, South, West};

use super::incorrect_hand::{long_hand_payments, LongHandPayment};
use super::settle;
use super::test_support::*;
use super::{findings, Finding};

/// West draws out of turn and keeps the tile, then plays its own turn.
fn west_draws_out_of_turn() -> Vec<HandEvent> {
    vec![
        discard(East, "S"),
        draw(West, "5p"),
        draw(South, "6p"),
        discard(South, "1s"),
        draw(West, "4m"),
        discard(West, "N"),
    ]
}

#[test]
fn a_draw_out_of_turn_kept_makes_a_long_hand_at_the_next_discard() {
    let found = judge(&table(), &west_draws_out_of_turn());
    let f = only(&found, "long-hand");
    assert_eq!(f.event(), 6);
    assert_finding(
        f,
        "long-hand",
        Some(West),
        &["Code §89(a)", "Code §89(b)", "Code §89(c)", "Code §73"],
        &[
            "west has 14 tiles, but the correct number is 13",
            "cannot Mah-Jongg",
            "scores nothing",
            "full value of their hands",
        ],
    );
    // The draw out of turn is found too, at its own event.
    assert_eq!(only(&found, "draw-out-of-turn").event(), 2);
}

#[test]
fn a_long_hand_that_calls_mah_jongg_is_ruled_as_a_false_call() {
    let mut events = west_draws_out_of_turn();
    events.extend([
        draw(North, "7p"),
        discard(North, "8m"),
        draw(East, "5s"),
        discard(East, "5s"),
        draw(South, "4s"),
        discard(South, "1s"),
        draw(West, "3m"),
        mahjongg(West, "3m", true),
    ]);
    let r = replay(&table(), &events);
    let rules = code();
    let found = findings(&r, &rules);
    let f = only(&found, "incorrect-hand-mah-jongg");
    assert_finding(
        f,
        "incorrect-hand-mah-jongg",
        Some(West),
        &["Code §89(b)", "Code §82"],
        &[
            "holds a long hand (found at event 6)",
            "ruled as a false call",
        ],
    );
    assert_eq!(f.events(), vec![6, 14]);
    assert!(
        !found.iter().any(|f| matches!(f, Finding::Cannon(_))),
        "no cannon on a false call"
    );
    // North lays down tiles before West takes up his hand: West pays each opponent (§82).
    let mut p = r.replay;
    lay_down(&mut p, North);
    let (_, settled) = settle(&p, &rules, 0).unwrap().expect("settled");
    assert_eq!(settled.nets, BySeat::new(300, 300, -900, 300));
}

#[test]
fn a_bonus_tile_declared_late_leaves_a_short_hand() {
    let deal = started(
        "1m 2m 3m 4m 5m 6m 7m 8m 9m E E E S 1f",
        "2p 3p 5p 6p 7p 8p 8p 8p 1s 1s 2s 3s 4s",
        "9m 9m 5s 6s 7s 8s 9s R R G G N N",
        "W W 1p 1p 5m 5m 2s 2s 3s 3s 6m 6m 8m",
    );
    // East keeps the flower past his first discard and declares it in West's turn.
    let events = [
        discard(East, "S"),
        draw(South, "6p"),
        discard(South, "1s"),
        HandEvent::BonusTileDeclared(BonusTileDeclared {
            seat: East,
            tile: Bonus::ALL[0],
        }),
        draw(West, "4m"),
        discard(West, "N"),
        draw(North, "7p"),
        discard(North, "8m"),
        draw(East, "5s"),
        discard(East, "5s"),
    ];
    let found = judge(&deal, &events);
    let late: Vec<usize> = found
        .iter()
        .filter(|f| f.kind() == "late-bonus")
        .map(|f| f.event())
        .collect();
    assert_eq!(late, vec![1, 4], "kept at the discard, then declared late");
    let f = only(&found, "short-hand");
    assert_eq!(f.events(), vec![1, 10]);
    assert_finding(
        f,
        "short-hand",
        Some(East),
        &["Code §89(a)", "Code §89(c)", "Code §80"],
        &[
            "east has 13 tiles, but the correct number is 14",
            "one for each of its 1 bonus tiles",
            "count was right at its discard at event 1",
            "may not claim a discard if that would leave him no tile to discard",
            "properly constituted sets",
        ],
    );
}

#[test]
fn a_chow_of_a_discard_not_from_the_left_not_corrected_makes_a_foul_hand() {
    let events = [
        discard(East, "7m"),
        claim(North, ClaimKind::Chow, "7m"),
        grant(North, ClaimKind::Chow),
        expose(North, ClaimKind::Chow, "5m"),
        discard(North, "8m"),
        draw(East, "3m"),
    ];
    let found = judge(&table(), &events);
    assert_eq!(only(&found, "chow-not-from-left").offender(), Some(North));
    let f = only(&found, "foul-hand");
    assert_eq!(f.events(), vec![4, 6]);
    assert_finding(
        f,
        "foul-hand",
        Some(North),
        &["Code §89(b)", "Code §76"],
        &[
            "declared a set at event 4 in error",
            "a chow of a discard from east",
            "cannot Mah-Jongg",
            "properly constituted sets",
        ],
    );
    // Before the next player draws, the chance to put it right is still open: no foul yet.
    assert!(judge(&table(), &events[..5])
        .iter()
        .all(|f| f.kind() != "foul-hand"));
}

#[test]
fn a_granted_discard_never_laid_down_before_the_next_draw_makes_a_foul_hand() {
    let found = judge(
        &table(),
        &[
            discard(East, "1p"),
            claim(North, ClaimKind::Pung, "1p"),
            grant(North, ClaimKind::Pung),
            draw(North, "6p"),
        ],
    );
    assert_finding(
        only(&found, "foul-hand"),
        "foul-hand",
        Some(North),
        &["Code §78"],
        &[
            "was not laid down with its set",
            "scores nothing (Code §78)",
        ],
    );
}

#[test]
fn a_long_hand_pays_the_other_losers_the_full_value_doubled_with_east() {
    let scores = BySeat::new(10, 200, 20, 8);
    // East holds the long hand, South won: East pays West and North twice their scores.
    assert_eq!(
        long_hand_payments(East, South, East, &scores),
        vec![
            LongHandPayment {
                to: West,
                amount: 40
            },
            LongHandPayment {
                to: North,
                amount: 16
            },
        ]
    );
    // West holds it: East, a loser, is paid twice; North once.
    assert_eq!(
        long_hand_payments(West, South, East, &scores),
        vec![
            LongHandPayment {
                to: East,
                amount: 20
            },
            LongHandPayment {
                to: North,
                amount: 8
            },
        ]
    );
    assert!(long_hand_payments(South, South, East, &scores).is_empty());
}

/// §89(c) in a played hand: West holds a long hand when East goes Mah-Jongg, so the played
/// settlement carries the long-hand penalty without a ruling: West scores nothing and pays
/// South and North the full value of their hands.
#[test]
fn a_played_hand_settles_a_long_hand_by_section_89c() {
    let mut events = west_draws_out_of_turn();
    events.extend([
        draw(North, "7p"),
        discard(North, "1p"),
        claim(East, ClaimKind::MahJongg, "1p"),
        grant(East, ClaimKind::MahJongg),
        mahjongg(East, "1p", false),
    ]);
    let mut p = replay(&table(), &events).replay;
    // West's fourteen tiles cannot be laid down as a hand: it has no place on the sheet.
    assert!(p.state().hand_of(West).is_none());
    for seat in [East, South, North] {
        lay_down(&mut p, seat);
    }
    let rules = code();
    let (report, settled) = settle(&p, &rules, 0).unwrap().expect("settled");
    assert_eq!(report.winner, Some(East));
    assert!(
        report
            .penalties
            .contains(&crate::settle::Penalty::LongHand { seat: West }),
        "{:?}",
        report.penalties
    );
    assert_eq!(report.hands[West], None, "{report:?}");
    // East wins 96, doubled as East, from each: 192. South's concealed pung of 8p scores 4,
    // North nothing, West nothing (§89(c)); the losers settle their differences, so West pays
    // South the full 4 and North nothing.
    assert_eq!(
        settled.nets,
        BySeat::new(576, -192 + 4 + 4, -192 - 4, -192 - 4)
    );
}
