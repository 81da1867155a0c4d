//! Standings under a tournament's tie-break chain: a total order, shared ranks, the chain
//! chosen by an event and kept across a rebuild.

use ledger::event::*;
use ledger::{ExpectedVersion, Ledger, NewEvent, PlayerId};
use readmodel::Reads;
use referee::Seat;

use crate::util::*;

fn ranks(ledger: &Ledger) -> Vec<(String, u32)> {
    ledger
        .standings(&tournament())
        .unwrap()
        .into_iter()
        .map(|s| (s.player.as_str().to_owned(), s.rank))
        .collect()
}

fn register(ledger: &mut Ledger, id: &str) {
    let event = NewEvent::new(PlayerRegistered {
        player: PlayerId::new(id).unwrap(),
        name: id.to_owned(),
        substitute: false,
    });
    ledger
        .append(&tournament(), ExpectedVersion::Any, vec![event], &referee())
        .unwrap();
}

#[test]
fn players_who_have_not_played_stand_too_and_equal_players_share_a_rank() {
    let mut ledger = readmodel::open_in_memory().unwrap();
    set_up_tournament(&mut ledger);
    register(&mut ledger, "p-zed");
    register(&mut ledger, "p-amy");
    ledger
        .append(
            &hand(1),
            ExpectedVersion::Exact(0),
            hand_events(1, Seat::West, 8),
            &referee(),
        )
        .unwrap();
    // West +24; the two who have not played are at 0 and tie; the three losers tie at -8.
    assert_eq!(
        ranks(&ledger),
        [
            ("p-west".into(), 1),
            ("p-amy".into(), 2),
            ("p-zed".into(), 2),
            ("p-east".into(), 4),
            ("p-north".into(), 4),
            ("p-south".into(), 4),
        ]
    );
}

#[test]
fn the_chain_the_tournament_chose_orders_its_standings() {
    let mut ledger = readmodel::open_in_memory().unwrap();
    set_up_tournament(&mut ledger);
    assert_eq!(
        ledger.tie_break(&tournament()).unwrap(),
        TieBreak::default()
    );
    // South wins twice for 4 (+24 net), North once for 16 (+48 net).
    for (n, winner, score) in [
        (1, Seat::South, 4),
        (2, Seat::South, 4),
        (3, Seat::North, 16),
    ] {
        ledger
            .append(
                &hand(n),
                ExpectedVersion::Exact(0),
                hand_events(n, winner, score),
                &referee(),
            )
            .unwrap();
    }
    let first = |l: &Ledger| l.standings(&tournament()).unwrap()[0].player.clone();
    assert_eq!(first(&ledger), player(Seat::North));

    let chain = TieBreak::parse(&["hands_won", "net"]).unwrap();
    ledger
        .append(
            &tournament(),
            ExpectedVersion::Any,
            vec![NewEvent::new(TieBreakChosen {
                chain: chain.clone(),
            })],
            &referee(),
        )
        .unwrap();
    assert_eq!(ledger.tie_break(&tournament()).unwrap(), chain);
    assert_eq!(
        ledger.tournament(&tournament()).unwrap().unwrap().tie_break,
        chain
    );
    assert_eq!(first(&ledger), player(Seat::South));

    let before = ledger.projection_snapshot().unwrap();
    ledger.rebuild_projections().unwrap();
    assert_eq!(ledger.projection_snapshot().unwrap(), before);
    assert!(ledger.audit().unwrap().is_clean());
}

#[test]
fn a_stored_chain_that_is_not_one_is_refused_on_reading() {
    // The serde boundary: an empty or unknown chain never decodes, so it is never projected.
    for payload in [
        &br#"{"chain":[]}"#[..],
        br#"{"chain":["luck"]}"#,
        br#"{"chain":["net","net"]}"#,
    ] {
        assert!(Event::decode("tie_break_chosen", 1, payload).is_err());
    }
    assert!(Event::decode("tie_break_chosen", 1, br#"{"chain":["net"]}"#).is_ok());
}
