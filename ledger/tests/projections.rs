//! Projections: maintained with the events, honouring corrections, and rebuilt exactly.

use ledger::event::*;
use ledger::{BySeat, ExpectedVersion, Ledger, NewEvent, Standing};
use referee::Seat;

use crate::util::*;

fn standing(w: Seat, net: i64, played: u32, won: u32, largest: i64) -> Standing {
    Standing {
        player: player(w),
        net,
        hands_played: played,
        hands_won: won,
        largest_hand: largest,
    }
}

#[test]
fn standings_follow_settlements_and_a_correction_replaces_one() {
    let mut ledger = Ledger::open_in_memory().unwrap();
    small_history(&mut ledger, 3);
    // Hand 1 was first won by South for 8, then corrected to 4; hands 2 and 3 went to West
    // (16) and North (24); the wash-out scores nothing.
    let expected = vec![
        standing(Seat::North, 52, 3, 1, 24),
        standing(Seat::West, 20, 3, 1, 16),
        standing(Seat::South, -28, 3, 1, 4),
        standing(Seat::East, -44, 3, 0, 0),
    ];
    assert_eq!(ledger.standings(&tournament()).unwrap(), expected);
    assert_eq!(expected.iter().map(|s| s.net).sum::<i64>(), 0);

    let summary = ledger.hand_summary(&hand(1)).unwrap().unwrap();
    assert_eq!(summary.players, BySeat::from_fn(|w| Some(player(w))));
    assert_eq!(summary.settlements.len(), 2);
    assert!(summary.settlements[0].superseded_by.is_some());
    let current = summary.current_settlement().unwrap();
    assert_eq!(current.nets, BySeat::new(-4, 12, -4, -4));
    assert_eq!(current.winner, Some(Seat::South));

    let wash = ledger
        .hand_summary(&ledger::StreamId::hand("spring-t1-wash").unwrap())
        .unwrap()
        .unwrap();
    assert!(wash.washed_out && wash.settlements.is_empty());
}

#[test]
fn superseding_the_only_win_resets_the_largest_hand() {
    let mut ledger = Ledger::open_in_memory().unwrap();
    set_up_tournament(&mut ledger);
    ledger
        .append(
            &hand(1),
            ExpectedVersion::Exact(0),
            hand_events(1, Seat::West, 32),
            &referee(),
        )
        .unwrap();
    let id = ledger.settlements(&hand(1)).unwrap()[0].event_id;
    let fix = vec![NewEvent::new(CorrectionRecorded {
        supersedes: id,
        reason: "not a valid hand".into(),
    })];
    ledger
        .append(&hand(1), ExpectedVersion::Exact(6), fix, &referee())
        .unwrap();
    let west = ledger
        .standings(&tournament())
        .unwrap()
        .into_iter()
        .find(|s| s.player == player(Seat::West))
        .unwrap();
    assert_eq!(west, standing(Seat::West, 0, 0, 0, 0));
    // Superseding it twice changes nothing more.
    let again = vec![NewEvent::new(CorrectionRecorded {
        supersedes: id,
        reason: "again".into(),
    })];
    ledger
        .append(&hand(1), ExpectedVersion::Exact(7), again, &referee())
        .unwrap();
    assert_eq!(
        ledger
            .standings(&tournament())
            .unwrap()
            .iter()
            .map(|s| s.net)
            .sum::<i64>(),
        0
    );
    assert!(ledger.audit().unwrap().is_clean());
}

#[test]
fn rebuild_reproduces_the_projections_exactly() {
    let mut ledger = Ledger::open_in_memory().unwrap();
    small_history(&mut ledger, 6);
    crate::status::close_and_void(&mut ledger);
    let before = ledger.projection_snapshot().unwrap();
    assert!(
        before.tables.values().all(|rows| !rows.is_empty()),
        "{before:?}"
    );
    ledger.rebuild_projections().unwrap();
    assert_eq!(ledger.projection_snapshot().unwrap(), before);
    let report = ledger.audit().unwrap();
    assert!(report.is_clean(), "{report}");
}

#[test]
fn a_hand_recorded_before_its_seats_are_known_counts_for_no_one() {
    let mut ledger = Ledger::open_in_memory().unwrap();
    ledger
        .append(
            &hand(1),
            ExpectedVersion::Exact(0),
            hand_events(1, Seat::East, 8),
            &referee(),
        )
        .unwrap();
    assert!(ledger.standings(&tournament()).unwrap().is_empty());
    assert_eq!(ledger.settlements(&hand(1)).unwrap().len(), 1);
    let before = ledger.projection_snapshot().unwrap();
    ledger.rebuild_projections().unwrap();
    assert_eq!(ledger.projection_snapshot().unwrap(), before);
}
