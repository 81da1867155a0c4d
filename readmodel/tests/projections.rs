//! Projections: maintained with the events, honouring corrections, and rebuilt exactly.

use ledger::event::*;
use ledger::{BySeat, ExpectedVersion, NewEvent};
use readmodel::{Reads, Standing};
use referee::Seat;

use crate::util::*;

fn standing(rank: u32, w: Seat, net: i64, played: u32, won: u32, largest: i64) -> Standing {
    Standing {
        rank,
        player: player(w),
        net,
        hands_played: played,
        hands_won: won,
        largest_hand: largest,
        substitute: false,
        withdrawn: false,
        voided: false,
    }
}

#[test]
fn standings_follow_settlements_and_a_correction_replaces_one() {
    let mut ledger = readmodel::open_in_memory().unwrap();
    small_history(&mut ledger, 3);
    // Hand 1 was first won by South for 8, then corrected to 4; hands 2 and 3 went to West
    // (16) and North (24); the wash-out scores nothing.
    let expected = vec![
        standing(1, Seat::North, 52, 3, 1, 24),
        standing(2, Seat::West, 20, 3, 1, 16),
        standing(3, Seat::South, -28, 3, 1, 4),
        standing(4, Seat::East, -44, 3, 0, 0),
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
    let mut ledger = readmodel::open_in_memory().unwrap();
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
    assert_eq!(west, standing(1, Seat::West, 0, 0, 0, 0));
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
    let a = ledger.audit().unwrap();
    assert!(a.is_clean(), "{a:?}");
}

#[test]
fn rebuild_reproduces_the_projections_exactly() {
    let mut ledger = readmodel::open_in_memory().unwrap();
    small_history(&mut ledger, 6);
    crate::sessions::play_a_session(&mut ledger);
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
    let mut ledger = readmodel::open_in_memory().unwrap();
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

/// A wash-out as the web service records it: the hand laid down, `WashOut`, and a settlement
/// in which nobody pays.
fn washed_out_hand(n: u32) -> Vec<NewEvent> {
    let mut events = hand_events(n, Seat::East, 0);
    events.truncate(3);
    events.push(NewEvent::new(WashOut {
        reason: "wall exhausted".into(),
    }));
    events.push(NewEvent::new(SettlementRecorded {
        winner: None,
        scores: BySeat::default(),
        payments: Vec::new(),
        nets: BySeat::default(),
    }));
    events
}

/// The correction of a hand: supersede `settlement`, then record `winner` winning for `score`.
fn correct_to_win(settlement: uuid::Uuid, winner: Seat, score: i64) -> Vec<NewEvent> {
    vec![
        NewEvent::new(CorrectionRecorded {
            supersedes: settlement,
            reason: "it was not a wash-out".into(),
        }),
        NewEvent::new(MahJonggDeclared {
            seat: winner,
            winning_tile: tile("5p"),
            self_drawn: false,
        }),
        NewEvent::new(settlement_for(winner, score)),
    ]
}

fn settlement_for(winner: Seat, score: i64) -> SettlementRecorded {
    crate::util::settlement(winner, score)
}

/// Issue 9: a correction that turned a wash-out into a win left the hand marked washed out in
/// one read model while the other showed the win.
#[test]
fn issue_9_a_wash_out_corrected_to_a_win_is_a_win_everywhere() {
    let mut ledger = readmodel::open_in_memory().unwrap();
    set_up_tournament(&mut ledger);
    ledger
        .append(
            &hand(1),
            ExpectedVersion::Exact(0),
            washed_out_hand(1),
            &referee(),
        )
        .unwrap();
    let washed = ledger.settlements(&hand(1)).unwrap()[0].event_id;
    assert!(ledger.hand_summary(&hand(1)).unwrap().unwrap().washed_out);

    ledger
        .append(
            &hand(1),
            ExpectedVersion::Exact(5),
            correct_to_win(washed, Seat::South, 8),
            &referee(),
        )
        .unwrap();

    let summary = ledger.hand_summary(&hand(1)).unwrap().unwrap();
    let record = ledger.hand_record(&hand(1)).unwrap().unwrap();
    assert!(!summary.washed_out, "{summary:#?}");
    assert!(!record.result.washed_out());
    assert_eq!(record.result.winner(), Some(Seat::South));
    assert_eq!(
        summary.current_settlement().unwrap().winner,
        Some(Seat::South)
    );
    let south = ledger
        .standings(&tournament())
        .unwrap()
        .into_iter()
        .find(|s| s.player == player(Seat::South))
        .unwrap();
    assert_eq!((south.net, south.hands_played, south.hands_won), (24, 1, 1));
    let before = ledger.projection_snapshot().unwrap();
    ledger.rebuild_projections().unwrap();
    assert_eq!(ledger.projection_snapshot().unwrap(), before);
    assert!(ledger.audit().unwrap().is_clean());
}

/// A correction may supersede an earlier correction: that correction is withdrawn, the
/// settlement it took out counts again, and the settlement it brought stops counting.
#[test]
fn a_correction_superseding_a_correction_restores_what_that_correction_replaced() {
    let mut ledger = readmodel::open_in_memory().unwrap();
    set_up_tournament(&mut ledger);
    ledger
        .append(
            &hand(1),
            ExpectedVersion::Exact(0),
            hand_events(1, Seat::West, 16),
            &referee(),
        )
        .unwrap();
    let original = ledger.settlements(&hand(1)).unwrap()[0].event_id;
    let first = correct_to_win(original, Seat::South, 8);
    let first_correction = first[0].id;
    ledger
        .append(&hand(1), ExpectedVersion::Exact(6), first, &referee())
        .unwrap();
    let wrong = ledger.hand_record(&hand(1)).unwrap().unwrap();
    assert_eq!(wrong.result.winner(), Some(Seat::South));

    let withdraw = vec![NewEvent::new(CorrectionRecorded {
        supersedes: first_correction,
        reason: "the first correction was itself mistaken".into(),
    })];
    ledger
        .append(&hand(1), ExpectedVersion::Exact(9), withdraw, &referee())
        .unwrap();

    let record = ledger.hand_record(&hand(1)).unwrap().unwrap();
    assert_eq!(record.result.winner(), Some(Seat::West), "{record:#?}");
    assert_eq!(record.result.settlement().unwrap().0, original);
    assert_eq!(record.result.corrections().len(), 2);
    let summary = ledger.hand_summary(&hand(1)).unwrap().unwrap();
    assert_eq!(summary.current_settlement().unwrap().event_id, original);
    assert_eq!(
        summary
            .settlements
            .iter()
            .filter(|s| s.superseded_by.is_none())
            .count(),
        1,
        "{summary:#?}"
    );
    let standings = ledger.standings(&tournament()).unwrap();
    let of = |w: Seat| standings.iter().find(|s| s.player == player(w)).unwrap();
    assert_eq!((of(Seat::West).net, of(Seat::West).hands_won), (48, 1));
    assert_eq!((of(Seat::South).net, of(Seat::South).hands_won), (-16, 0));
    assert_eq!(of(Seat::West).largest_hand, 16);
    assert_eq!(of(Seat::South).largest_hand, 0);
    assert_eq!(standings.iter().map(|s| s.net).sum::<i64>(), 0);

    // And a correction of the original settlement still works afterwards.
    let again = correct_to_win(original, Seat::North, 4);
    ledger
        .append(&hand(1), ExpectedVersion::Exact(10), again, &referee())
        .unwrap();
    let record = ledger.hand_record(&hand(1)).unwrap().unwrap();
    assert_eq!(record.result.winner(), Some(Seat::North));
    let standings = ledger.standings(&tournament()).unwrap();
    let north = standings
        .iter()
        .find(|s| s.player == player(Seat::North))
        .unwrap();
    assert_eq!((north.net, north.hands_played, north.hands_won), (12, 1, 1));

    let before = ledger.projection_snapshot().unwrap();
    ledger.rebuild_projections().unwrap();
    assert_eq!(ledger.projection_snapshot().unwrap(), before);
    assert!(ledger.audit().unwrap().is_clean());
}
