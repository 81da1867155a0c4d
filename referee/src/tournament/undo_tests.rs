//! Given / when / then for the undoings of the night: a table or session reopened, a voiding
//! undone — each with why, and never into a state forward actions could not reach.

use super::tests::{eight, given, id, open_session, table, when};
use super::*;
use crate::event::*;

fn reopen_table(t: &str) -> TournamentCommand {
    TournamentCommand::ReopenTable {
        table: id(t),
        reason: "closed by mistake".into(),
    }
}

fn close_table(t: &str) -> TournamentCommand {
    TournamentCommand::CloseTable { table: id(t) }
}

fn refused(t: &Tournament, cmd: &TournamentCommand) -> String {
    match t.decide(cmd) {
        Err(Refusal::Conflict(m) | Refusal::Unprocessable(m) | Refusal::NotFound(m)) => m,
        other => panic!("not refused: {other:?}"),
    }
}

#[test]
fn a_closed_table_is_reopened_with_why_unless_its_players_sit_elsewhere_now() {
    let mut t = given(&eight());
    when(&mut t, &table(&["ann", "ben", "cat", "dan"])).unwrap();
    assert!(refused(&t, &reopen_table("spring-t1")).contains("is open"));
    when(&mut t, &close_table("spring-t1")).unwrap();
    // Why is said, always.
    let no_reason = TournamentCommand::ReopenTable {
        table: id("spring-t1"),
        reason: " ".into(),
    };
    assert!(refused(&t, &no_reason).contains("say why"));
    let events = when(&mut t, &reopen_table("spring-t1")).unwrap();
    assert_eq!(
        events,
        [TournamentEvent::TableReopened(TableReopened {
            table: id("spring-t1"),
            reason: "closed by mistake".into()
        })]
    );
    assert!(t.table(&id("spring-t1")).unwrap().is_open());
    // Ann sat down at another table meanwhile: the first is not reopened under her.
    when(&mut t, &close_table("spring-t1")).unwrap();
    when(&mut t, &table(&["ann", "eve", "fay", "gus"])).unwrap();
    assert!(refused(&t, &reopen_table("spring-t1")).contains("Ann now sits at table 2"));
}

#[test]
fn only_the_last_session_is_reopened_and_its_tables_after_it() {
    let mut t = given(&eight());
    when(&mut t, &open_session("random")).unwrap();
    let close = TournamentCommand::CloseSession { session: 1 };
    when(&mut t, &close).unwrap();
    let first = t.tables[0].id.clone();
    // Its table waits for the session.
    let reopen_first = TournamentCommand::ReopenTable {
        table: first.clone(),
        reason: "too soon".into(),
    };
    assert!(refused(&t, &reopen_first).contains("reopen the session first"));
    let reopen = |n| TournamentCommand::ReopenSession {
        session: n,
        reason: "closed before the last hands were in".into(),
    };
    assert!(refused(&t, &reopen(2)).contains("no session 2"));
    when(&mut t, &reopen(1)).unwrap();
    assert_eq!(t.open_session().map(|s| s.number), Some(1));
    assert!(refused(&t, &reopen(1)).contains("session 1 is open"));
    when(&mut t, &reopen_first).unwrap();
    // A later session opened: the earlier one stays closed.
    when(&mut t, &close).unwrap();
    when(&mut t, &open_session("random")).unwrap();
    assert!(refused(&t, &reopen(1)).contains("session 2 is open"));
    when(&mut t, &TournamentCommand::CloseSession { session: 2 }).unwrap();
    assert!(refused(&t, &reopen(1)).contains("only the last session"));
}

#[test]
fn a_voiding_is_undone_with_why_for_a_player_a_table_and_the_tournament() {
    let mut t = given(&eight());
    when(&mut t, &table(&["ann", "ben", "cat", "dan"])).unwrap();
    let undo = |target| TournamentCommand::UndoVoid {
        target,
        reason: "voided the wrong one".into(),
    };
    assert!(refused(&t, &undo(VoidTarget::Player("eve".into()))).contains("Eve is not voided"));
    when(
        &mut t,
        &TournamentCommand::VoidPlayer {
            player: "eve".into(),
            reason: "a duplicate".into(),
        },
    )
    .unwrap();
    when(&mut t, &undo(VoidTarget::Player("eve".into()))).unwrap();
    assert_eq!(t.player_voided(&PlayerId::new("eve").unwrap()), None);
    // A table voided while open: undone, its players must be free again.
    when(
        &mut t,
        &TournamentCommand::VoidTable {
            table: id("spring-t1"),
            reason: "formed twice".into(),
        },
    )
    .unwrap();
    when(&mut t, &table(&["ann", "eve", "fay", "gus"])).unwrap();
    let table_back = undo(VoidTarget::Table(id("spring-t1")));
    assert!(refused(&t, &table_back).contains("Ann now sits at table 2"));
    when(&mut t, &close_table("spring-t2")).unwrap();
    when(&mut t, &table_back).unwrap();
    assert!(t.table(&id("spring-t1")).unwrap().is_open());
    // The tournament itself.
    when(
        &mut t,
        &TournamentCommand::VoidTournament {
            reason: "a test".into(),
        },
    )
    .unwrap();
    when(&mut t, &undo(VoidTarget::Tournament)).unwrap();
    assert_eq!(t.tournament_voided(), None);
}

#[test]
fn an_undone_voiding_never_opens_a_table_in_a_closed_session_nor_seats_a_voided_player() {
    let mut t = given(&eight());
    when(&mut t, &open_session("random")).unwrap();
    let first = t.tables[0].id.clone();
    let seated = t.tables[0].seats.clone().unwrap();
    let (_, someone) = seated.iter().next().unwrap();
    let someone = someone.clone();
    when(
        &mut t,
        &TournamentCommand::VoidTable {
            table: first.clone(),
            reason: "formed by mistake".into(),
        },
    )
    .unwrap();
    when(&mut t, &TournamentCommand::CloseSession { session: 1 }).unwrap();
    let undo_table = TournamentCommand::UndoVoid {
        target: VoidTarget::Table(first.clone()),
        reason: "it was a real table".into(),
    };
    assert!(refused(&t, &undo_table).contains("reopen the session first"));
    // The session open again, but one of the table's players voided meanwhile.
    when(
        &mut t,
        &TournamentCommand::ReopenSession {
            session: 1,
            reason: "closed too soon".into(),
        },
    )
    .unwrap();
    when(
        &mut t,
        &TournamentCommand::VoidPlayer {
            player: someone.to_string(),
            reason: "a duplicate".into(),
        },
    )
    .unwrap();
    assert!(refused(&t, &undo_table).contains("was voided since"));
}
