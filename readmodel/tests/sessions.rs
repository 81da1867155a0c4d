//! Sessions: a session's hands are summed apart, hidden from the public standings while it is
//! open, and everything is rebuilt exactly by a replay and checked by the audit.

use ledger::event::*;
use ledger::{BySeat, ExpectedVersion, Ledger, NewEvent, PlayerId, StreamId, TableId};
use readmodel::{Reads, StandingsScope};
use referee::Seat;

use crate::util::*;

fn table_of(session: u32) -> TableId {
    TableId::new(&format!("S{session}")).unwrap()
}

/// Opens `session` with one table seating the four players of `set_up_tournament`.
fn open(ledger: &mut Ledger, session: u32) {
    let events = vec![
        NewEvent::new(SessionOpened {
            session,
            minutes: Some(90),
            seating: None,
        }),
        NewEvent::new(TableFormed {
            table: table_of(session),
            number: 10 + session,
            session: Some(session),
        }),
        NewEvent::new(SeatsDrawn {
            table: table_of(session),
            seats: BySeat::from_fn(player),
        }),
    ];
    ledger
        .append(&tournament(), ExpectedVersion::Any, events, &referee())
        .unwrap();
}

fn close(ledger: &mut Ledger, session: u32) {
    let events = vec![
        NewEvent::new(TableClosed {
            table: table_of(session),
        }),
        NewEvent::new(SessionClosed { session }),
    ];
    ledger
        .append(&tournament(), ExpectedVersion::Any, events, &referee())
        .unwrap();
}

/// A hand at the session's table won by `winner` for `score`.
fn play(ledger: &mut Ledger, session: u32, winner: Seat, score: i64) {
    let mut events = hand_events(1, winner, score);
    if let Event::HandStarted(h) = &mut events[0].event {
        h.table = table_of(session);
    }
    let stream = StreamId::hand(&format!("s{session}-h1")).unwrap();
    ledger
        .append(&stream, ExpectedVersion::Exact(0), events, &referee())
        .unwrap();
}

fn nets(ledger: &Ledger, scope: StandingsScope) -> Vec<(String, i64, u32)> {
    ledger
        .standings_in(&tournament(), scope)
        .unwrap()
        .into_iter()
        .map(|s| (s.player.as_str().to_owned(), s.net, s.rank))
        .collect()
}

/// Exercises every session projection: a substitute, a withdrawal, a session opened with a
/// seating, played and closed.
pub fn play_a_session(ledger: &mut Ledger) {
    let events = vec![
        NewEvent::new(PlayerRegistered {
            player: PlayerId::new("sub").unwrap(),
            name: "A Substitute".into(),
            substitute: true,
        }),
        NewEvent::new(PlayerWithdrew {
            player: player(Seat::North),
            reason: "called away".into(),
        }),
    ];
    ledger
        .append(&tournament(), ExpectedVersion::Any, events, &referee())
        .unwrap();
    open(ledger, 1);
    play(ledger, 1, Seat::East, 8);
    close(ledger, 1);
}

#[test]
fn an_open_sessions_hands_are_hidden_from_the_public_standings_until_it_closes() {
    let mut ledger = readmodel::open_in_memory().unwrap();
    set_up_tournament(&mut ledger);
    open(&mut ledger, 1);
    play(&mut ledger, 1, Seat::South, 10);
    close(&mut ledger, 1);
    open(&mut ledger, 2);
    play(&mut ledger, 2, Seat::West, 20);

    let sessions = ledger.sessions(&tournament()).unwrap();
    assert_eq!(sessions.len(), 2);
    assert!(!sessions[0].is_open() && sessions[1].is_open());
    assert_eq!(sessions[1].minutes, Some(90));
    assert_eq!(ledger.open_sessions(&tournament()).unwrap(), vec![2]);
    assert_eq!(
        ledger.table(&table_of(2)).unwrap().unwrap().session,
        Some(2)
    );

    let south = player(Seat::South).as_str().to_owned();
    let west = player(Seat::West).as_str().to_owned();
    let net_of = |rows: &[(String, i64, u32)], p: &str| rows.iter().find(|r| r.0 == p).unwrap().1;
    // Officials: both sessions. The public: session 1 only. Session 2 alone: its own hand.
    let all = nets(&ledger, StandingsScope::All);
    assert_eq!(
        (net_of(&all, &south), net_of(&all, &west)),
        (30 - 20, 60 - 10)
    );
    let public = nets(&ledger, StandingsScope::Public);
    assert_eq!((net_of(&public, &south), net_of(&public, &west)), (30, -10));
    assert_eq!(public[0].0, south);
    let second = nets(&ledger, StandingsScope::Session(2));
    assert_eq!(second.len(), 4);
    assert_eq!(second[0], (west.clone(), 60, 1));

    close(&mut ledger, 2);
    assert_eq!(
        nets(&ledger, StandingsScope::Public),
        nets(&ledger, StandingsScope::All)
    );

    let before = ledger.projection_snapshot().unwrap();
    assert_eq!(before.tables["proj_sessions"].len(), 2);
    ledger.rebuild_projections().unwrap();
    assert_eq!(ledger.projection_snapshot().unwrap(), before);
    assert!(ledger.audit().unwrap().is_clean());
}

#[test]
fn a_substitute_takes_no_place_and_a_withdrawn_player_keeps_his() {
    let mut ledger = readmodel::open_in_memory().unwrap();
    set_up_tournament(&mut ledger);
    let sub = PlayerId::new("sub").unwrap();
    let events = vec![
        NewEvent::new(PlayerRegistered {
            player: sub.clone(),
            name: "A Substitute".into(),
            substitute: true,
        }),
        NewEvent::new(PlayerWithdrew {
            player: player(Seat::North),
            reason: "called away".into(),
        }),
    ];
    ledger
        .append(&tournament(), ExpectedVersion::Any, events, &referee())
        .unwrap();
    ledger
        .append(
            &hand(1),
            ExpectedVersion::Exact(0),
            hand_events(1, Seat::East, 8),
            &referee(),
        )
        .unwrap();
    let rows = ledger.standings(&tournament()).unwrap();
    let ranks: Vec<(&str, u32, bool)> = rows
        .iter()
        .map(|s| (s.player.as_str(), s.rank, s.withdrawn))
        .collect();
    // East won 24; the substitute (0, no hands) sorts second by net but takes no place, so the
    // three losers (-8 each) share place 2, not 3.
    assert_eq!(ranks[0], (player(Seat::East).as_str(), 1, false));
    let of = |p: &str| ranks.iter().find(|r| r.0 == p).unwrap().1;
    assert_eq!(of("sub"), 0);
    assert_eq!(of(player(Seat::North).as_str()), 2);
    assert_eq!(ranks[1].0, "sub");
    assert!(rows
        .iter()
        .any(|s| s.withdrawn && s.player == player(Seat::North)));
    let players = ledger.players(&tournament()).unwrap();
    assert!(players.iter().any(|p| p.player == sub && p.substitute));
    assert_eq!(
        players
            .iter()
            .find(|p| p.player == player(Seat::North))
            .unwrap()
            .withdrawn
            .as_deref(),
        Some("called away")
    );
}

#[test]
fn the_sessions_standings_always_sum_to_the_standings_through_corrections() {
    let mut ledger = readmodel::open_in_memory().unwrap();
    // Hands outside sessions (one corrected, one a wash-out), then a session of its own.
    small_history(&mut ledger, 5);
    play_a_session(&mut ledger);
    let all = ledger.standings(&tournament()).unwrap();
    let outside = ledger
        .standings_in(&tournament(), StandingsScope::Session(0))
        .unwrap();
    let first = ledger
        .standings_in(&tournament(), StandingsScope::Session(1))
        .unwrap();
    for s in &all {
        let part = |rows: &[readmodel::Standing]| {
            rows.iter()
                .find(|r| r.player == s.player)
                .map_or((0, 0, 0, 0), |r| {
                    (r.net, r.hands_played, r.hands_won, r.largest_hand)
                })
        };
        let (a, b) = (part(&outside), part(&first));
        assert_eq!(s.net, a.0 + b.0, "{}", s.player);
        assert_eq!(s.hands_played, a.1 + b.1, "{}", s.player);
        assert_eq!(s.hands_won, a.2 + b.2, "{}", s.player);
        assert_eq!(s.largest_hand, a.3.max(b.3), "{}", s.player);
    }
    assert!(all.iter().any(|s| s.net != 0));
}
