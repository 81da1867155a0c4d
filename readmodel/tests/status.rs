//! Closing and voiding: folded into the status projection with the events, read back, rebuilt
//! exactly by a replay, and checked by the audit.

use ledger::event::*;
use ledger::{ExpectedVersion, Ledger, NewEvent, PlayerId, TableId};
use readmodel::{Reads, Voided, VoidedKind};
use referee::Seat;

use crate::util::*;

/// After `set_up_tournament`: a second table drawn at random and voided, the first closed, a
/// player and the tournament voided. Exercises every status projection.
pub fn close_and_void(ledger: &mut Ledger) {
    let t2 = TableId::new("T2").unwrap();
    let events = vec![
        NewEvent::new(TableFormed {
            table: t2.clone(),
            number: 2,
            session: None,
        }),
        NewEvent::new(SeatDrawSeeded {
            table: t2.clone(),
            seed: 7,
            method: "a named method".into(),
        }),
        NewEvent::new(TableClosed { table: table() }),
        NewEvent::new(TableVoided {
            table: t2,
            reason: "formed twice".into(),
        }),
        NewEvent::new(PlayerVoided {
            player: player(Seat::North),
            reason: "never came".into(),
        }),
        NewEvent::new(TournamentVoided {
            reason: "a test entry".into(),
        }),
    ];
    ledger
        .append(&tournament(), ExpectedVersion::Any, events, &referee())
        .unwrap();
}

#[test]
fn voidings_closings_and_draw_methods_are_projected_and_replay_exactly() {
    let mut ledger = readmodel::open_in_memory().unwrap();
    set_up_tournament(&mut ledger);
    assert!(ledger.voided(&tournament()).unwrap().is_empty());
    assert!(ledger.closed_tables(&tournament()).unwrap().is_empty());
    close_and_void(&mut ledger);
    let t2 = TableId::new("T2").unwrap();
    assert_eq!(
        ledger.voided(&tournament()).unwrap(),
        vec![
            Voided {
                kind: VoidedKind::Table,
                id: "T2".into(),
                reason: "formed twice".into()
            },
            Voided {
                kind: VoidedKind::Player,
                id: PlayerId::as_str(&player(Seat::North)).to_owned(),
                reason: "never came".into()
            },
            Voided {
                kind: VoidedKind::Tournament,
                id: "spring".into(),
                reason: "a test entry".into()
            },
        ]
    );
    assert_eq!(ledger.closed_tables(&tournament()).unwrap(), vec![table()]);
    assert_eq!(
        ledger.draw_method(&t2).unwrap().as_deref(),
        Some("a named method")
    );
    assert_eq!(ledger.draw_method(&table()).unwrap(), None);
    // The projection is a pure fold: a rebuild reproduces it, and the audit agrees.
    let before = ledger.projection_snapshot().unwrap();
    assert!(before.tables["proj_voided"].len() == 3);
    ledger.rebuild_projections().unwrap();
    assert_eq!(ledger.projection_snapshot().unwrap(), before);
    assert!(ledger.audit().unwrap().is_clean());
}
