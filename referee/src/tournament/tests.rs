//! Given / when / then: a tournament's history, a command, and the events or the refusal.

use std::collections::BTreeMap;

use super::*;
use crate::event::*;
use crate::table::TableStatus;
use crate::violation::Violation;

fn ruleset() -> LoadedRuleset {
    LoadedRuleset {
        pinned: RulesetRef {
            name: "code-of-laws".into(),
            content_sha256: "ab".repeat(32),
        },
        title: "The Code of Laws".into(),
        house_ruleset: None,
        limit: Some(1000),
    }
}

pub(super) fn create() -> TournamentCommand {
    TournamentCommand::Create(NewTournament {
        id: Some("spring".into()),
        name: "Spring Open".into(),
        ruleset: Ok(ruleset()),
        limit: None,
        starting_chips: 2000,
        tie_break: None,
        officials: Vec::new(),
    })
}

pub(super) fn register(names: &[&str]) -> TournamentCommand {
    TournamentCommand::RegisterPlayers {
        players: names
            .iter()
            .map(|n| NewPlayer {
                id: None,
                name: (*n).into(),
                substitute: false,
                different_person: false,
            })
            .collect(),
        labels: Vec::new(),
    }
}

pub(super) fn table(players: &[&str]) -> TournamentCommand {
    TournamentCommand::FormTable {
        number: None,
        players: players.iter().map(|p| (*p).to_owned()).collect(),
        draw: SeatDraw::AsListed,
    }
}

pub(super) fn eight() -> Vec<TournamentCommand> {
    vec![
        create(),
        register(&["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]),
    ]
}

pub(super) fn given(history: &[TournamentCommand]) -> Tournament {
    let mut t = Tournament::new("spring");
    for cmd in history {
        when(&mut t, cmd).unwrap();
    }
    t
}

/// Decides and applies, as the ledger would after storing.
pub(super) fn when(
    t: &mut Tournament,
    cmd: &TournamentCommand,
) -> Result<Vec<TournamentEvent>, Refusal> {
    let events = t.decide(cmd)?;
    for e in &events {
        t.apply(e).unwrap();
    }
    Ok(events)
}

pub(super) fn id(s: &str) -> TableId {
    s.parse().unwrap()
}

fn violations(r: Refusal) -> Vec<(String, String)> {
    match r {
        Refusal::Invalid(v) => v.0.into_iter().map(|v| (v.field, v.message)).collect(),
        other => panic!("not violations: {other:?}"),
    }
}

#[test]
fn creating_records_the_conditions_and_a_second_creation_conflicts() {
    let mut t = given(&[]);
    let events = when(&mut t, &create()).unwrap();
    assert!(matches!(&events[0], TournamentEvent::TournamentCreated(c) if c.name == "Spring Open"));
    let TournamentEvent::TournamentConfigured(c) = &events[1] else {
        panic!("{events:?}")
    };
    // The ruleset's own limit, when the command names none.
    assert_eq!((c.limit, c.starting_chips), (Some(1000), 2000));
    assert!(
        matches!(t.decide(&create()), Err(Refusal::Conflict(m)) if m.contains("already a tournament"))
    );
}

#[test]
fn creating_lists_every_problem_in_the_order_of_the_form() {
    let t = given(&[]);
    let mut bad = match create() {
        TournamentCommand::Create(c) => c,
        _ => unreachable!(),
    };
    bad.name = " ".into();
    bad.starting_chips = -1;
    bad.limit = Some(0);
    bad.ruleset =
        Err(Violation::new("ruleset", "choose a ruleset or upload a house ruleset").into());
    bad.tie_break = Some(vec!["nonsense".into()]);
    bad.id = Some("a b".into());
    let fields: Vec<String> = violations(t.decide(&TournamentCommand::Create(bad)).unwrap_err())
        .into_iter()
        .map(|(f, _)| f)
        .collect();
    assert_eq!(
        fields,
        [
            "name",
            "starting_chips",
            "limit",
            "ruleset",
            "tie_break",
            "id"
        ]
    );
}

#[test]
fn a_list_of_players_gets_numbered_ids_for_names_that_collide() {
    let t = given(&eight());
    let mut list = register(&["Ann", "Ann", "李雷"]);
    if let TournamentCommand::RegisterPlayers { players, .. } = &mut list {
        players.iter_mut().for_each(|p| p.different_person = true);
    }
    let events = t.decide(&list).unwrap();
    let ids: Vec<&str> = events
        .iter()
        .map(|e| match e {
            TournamentEvent::PlayerRegistered(p) => p.player.as_str(),
            _ => panic!("{e:?}"),
        })
        .collect();
    assert_eq!(ids, ["ann-2", "ann-3", "player"]);
}

#[test]
fn a_list_sent_twice_registers_nobody_twice_unless_the_organiser_says_they_are_different_people() {
    let mut t = given(&eight());
    let first = register(&["Fay Wong", "Gus Lam"]);
    when(&mut t, &first).unwrap();
    // The same list again, spelt a little differently: every line refused, nobody registered.
    let again = register(&["fay  wong", "Gus Lam "]);
    let v = violations(t.decide(&again).unwrap_err());
    assert_eq!(v.len(), 2, "{v:?}");
    assert!(
        v[0].1.contains("already registered (as `fay-wong`)"),
        "{v:?}"
    );
    // The same name twice in one list.
    let v = violations(t.decide(&register(&["Hal Ito", "Hal Ito"])).unwrap_err());
    assert_eq!(
        v,
        [(
            "players[1].name".to_owned(),
            "Hal Ito is listed twice: if they are different people, confirm it".to_owned()
        )]
    );
    // Confirmed as a different person: registered, with an id of his own.
    let mut other = register(&["Fay Wong"]);
    if let TournamentCommand::RegisterPlayers { players, .. } = &mut other {
        players[0].different_person = true;
    }
    let events = when(&mut t, &other).unwrap();
    assert!(
        matches!(&events[0], TournamentEvent::PlayerRegistered(p) if p.player.as_str() == "fay-wong-2"),
        "{events:?}"
    );
}

#[test]
fn one_player_already_registered_is_a_conflict_and_one_bad_name_a_sentence() {
    let t = given(&eight());
    assert!(
        matches!(t.decide(&register(&["Ann"])), Err(Refusal::Conflict(m)) if m.starts_with("Ann is already registered (as `ann`)"))
    );
    assert!(
        matches!(t.decide(&register(&[""])), Err(Refusal::Unprocessable(m)) if m.contains("1–100 characters"))
    );
    // Several problems: each named with its place in the list (an id given is not renumbered).
    let mut list = register(&["", "Ben"]);
    if let TournamentCommand::RegisterPlayers { players, .. } = &mut list {
        players[1].id = Some("ben".into());
        players[1].different_person = true;
    }
    let v = violations(t.decide(&list).unwrap_err());
    assert_eq!(v[0].0, "players[0].name");
    assert_eq!(v[1].0, "players[1].id");
}

#[test]
fn a_table_seats_four_as_listed_in_the_open_session_of_the_moment() {
    let mut t = given(&eight());
    let events = when(&mut t, &table(&["ann", "ben", "cat", "dan"])).unwrap();
    assert!(
        matches!(&events[0], TournamentEvent::TableFormed(f) if f.number == 1 && f.session.is_none() && f.table.as_str() == "spring-t1")
    );
    let TournamentEvent::SeatsDrawn(s) = &events[1] else {
        panic!("{events:?}")
    };
    assert_eq!(s.seats.east.as_str(), "ann");
    assert_eq!(s.seats.north.as_str(), "dan");
    assert_eq!(t.table_status(&id("spring-t1")), Some(TableStatus::Open));
}

#[test]
fn a_random_draw_records_its_seed_and_verifies() {
    let mut t = given(&eight());
    let cmd = TournamentCommand::FormTable {
        number: Some(7),
        players: vec!["dan".into(), "cat".into(), "ben".into(), "ann".into()],
        draw: SeatDraw::Random { seed: 42 },
    };
    let events = when(&mut t, &cmd).unwrap();
    assert!(
        matches!(&events[1], TournamentEvent::SeatDrawSeeded(s) if s.seed == 42 && s.method == draw::METHOD)
    );
    // Shuffled in registration order, whatever order they were listed in.
    let TournamentEvent::SeatsDrawn(s) = &events[2] else {
        panic!("{events:?}")
    };
    let ids = ["ann", "ben", "cat", "dan"].map(|p| PlayerId::new(p).unwrap());
    assert_eq!(s.seats.clone().into_array(), draw::shuffle(42, ids));
    assert_eq!(
        t.draw_check(&id("spring-t7")),
        Some(draw::DrawCheck::Verified)
    );
}

#[test]
fn forming_a_table_lists_every_problem_of_every_player() {
    let mut t = given(&eight());
    when(&mut t, &table(&["ann", "ben", "cat", "dan"])).unwrap();
    when(
        &mut t,
        &TournamentCommand::Withdraw {
            player: "eve".into(),
            reason: "ill".into(),
        },
    )
    .unwrap();
    let v = violations(
        t.decide(&TournamentCommand::FormTable {
            number: Some(1),
            players: vec![
                "ann".into(),
                "eve".into(),
                "eve".into(),
                "zed".into(),
                "fay".into(),
            ],
            draw: SeatDraw::AsListed,
        })
        .unwrap_err(),
    );
    let said: Vec<String> = v.iter().map(|(f, m)| format!("{f}: {m}")).collect();
    assert_eq!(said.len(), 6, "{said:#?}");
    assert!(said[0].contains("seats four players, not 5"));
    assert!(said[1].starts_with("players[0]: Ann already sits at table 1"));
    assert!(said[2].starts_with("players[1]: Eve has withdrawn (ill)"));
    assert!(said[3].starts_with("players[2]: Eve is listed twice"));
    assert!(said[4].starts_with("players[3]: `zed` is not a registered player"));
    assert!(said[5].starts_with("number: there is already a table 1"));
}

#[test]
fn a_closed_table_frees_its_players_and_takes_no_hand() {
    let mut t = given(&eight());
    when(&mut t, &table(&["ann", "ben", "cat", "dan"])).unwrap();
    let close = TournamentCommand::CloseTable {
        table: id("spring-t1"),
    };
    when(&mut t, &close).unwrap();
    assert_eq!(t.table_status(&id("spring-t1")), Some(TableStatus::Closed));
    assert!(matches!(t.decide(&close), Err(Refusal::Unprocessable(m)) if m.contains("is closed")));
    assert!(when(&mut t, &table(&["ann", "ben", "cat", "dan"])).is_ok());
}

#[test]
fn voiding_takes_things_out_of_play() {
    let mut t = given(&eight());
    when(&mut t, &table(&["ann", "ben", "cat", "dan"])).unwrap();
    let void_ann = TournamentCommand::VoidPlayer {
        player: "ann".into(),
        reason: "twice".into(),
    };
    // A player seated at an open table is not voided.
    assert!(
        matches!(t.decide(&void_ann), Err(Refusal::Unprocessable(m)) if m.contains("sits at table 1"))
    );
    when(
        &mut t,
        &TournamentCommand::VoidTable {
            table: id("spring-t1"),
            reason: "wrong players".into(),
        },
    )
    .unwrap();
    assert_eq!(
        t.table_status(&id("spring-t1")),
        Some(TableStatus::Voided {
            reason: "wrong players".into()
        })
    );
    when(&mut t, &void_ann).unwrap();
    assert!(
        matches!(t.decide(&void_ann), Err(Refusal::Unprocessable(m)) if m.contains("already voided"))
    );
    let v = violations(t.decide(&table(&["ann", "ben", "cat", "dan"])).unwrap_err());
    assert_eq!(v[0], ("players[0]".into(), "Ann is voided (twice)".into()));
    when(
        &mut t,
        &TournamentCommand::VoidTournament {
            reason: "a test".into(),
        },
    )
    .unwrap();
    assert!(
        matches!(t.decide(&register(&["Ivy"])), Err(Refusal::Unprocessable(m)) if m.contains("is voided"))
    );
    assert_eq!(
        t.table_status(&id("spring-t1")),
        Some(TableStatus::Voided {
            reason: "its tournament is voided: a test".into()
        })
    );
}

#[test]
fn a_withdrawal_needs_a_reason_and_happens_once() {
    let mut t = given(&eight());
    let w = |reason: &str| TournamentCommand::Withdraw {
        player: "ben".into(),
        reason: reason.into(),
    };
    assert!(matches!(t.decide(&w(" ")), Err(Refusal::Unprocessable(_))));
    assert!(matches!(
        t.decide(&TournamentCommand::Withdraw {
            player: "zed".into(),
            reason: "ill".into()
        }),
        Err(Refusal::NotFound(_))
    ));
    when(&mut t, &w("ill")).unwrap();
    assert!(
        matches!(t.decide(&w("ill")), Err(Refusal::Conflict(m)) if m == "Ben has already withdrawn (ill)")
    );
    assert!(!t.roster().present.iter().any(|p| p.as_str() == "ben"));
}

pub(super) fn open_session(method: &str) -> TournamentCommand {
    TournamentCommand::OpenSession {
        method: method.into(),
        seed: 1,
        sessions: Some(3),
        minutes: Some(90),
        nets: BTreeMap::new(),
    }
}

#[test]
fn sessions_run_one_after_another_and_closing_one_closes_its_tables() {
    let mut t = given(&eight());
    let events = when(&mut t, &open_session("no-repeat")).unwrap();
    assert!(
        matches!(&events[0], TournamentEvent::SessionOpened(o) if o.session == 1 && o.minutes == Some(90))
    );
    let formed = events
        .iter()
        .filter(|e| matches!(e, TournamentEvent::TableFormed(f) if f.session == Some(1)))
        .count();
    assert_eq!(formed, 2);
    assert!(
        matches!(t.decide(&open_session("no-repeat")), Err(Refusal::Conflict(m)) if m.starts_with("session 1 is still open"))
    );
    let events = when(&mut t, &TournamentCommand::CloseSession { session: 1 }).unwrap();
    assert_eq!(events.len(), 3);
    assert!(t.tables.iter().all(|t| t.closed));
    assert!(matches!(
        t.decide(&TournamentCommand::CloseSession { session: 1 }),
        Err(Refusal::Conflict(_))
    ));
    assert!(matches!(
        t.decide(&TournamentCommand::CloseSession { session: 9 }),
        Err(Refusal::NotFound(_))
    ));
    // The plan goes on: the second session seats nobody with someone he met in the first.
    let events = when(&mut t, &open_session("no-repeat")).unwrap();
    assert!(matches!(&events[0], TournamentEvent::SessionOpened(o) if o.session == 2));
}

#[test]
fn a_session_is_not_opened_over_a_table_formed_by_hand() {
    let mut t = given(&eight());
    when(&mut t, &table(&["ann", "ben", "cat", "dan"])).unwrap();
    let v = violations(t.decide(&open_session("nonsense")).unwrap_err());
    assert_eq!(v[0].0, "method");
    assert!(v[1]
        .1
        .starts_with("close or void the open tables first; still seated: Ann (table 1)"));
}

#[test]
fn the_public_sees_no_voided_thing_and_no_result_of_an_open_session() {
    let mut t = given(&eight());
    when(&mut t, &open_session("random")).unwrap();
    let first = t.tables[0].id.clone();
    assert_eq!(
        t.results_hidden(Audience::Public, &first),
        Some(Hidden::SessionInPlay(1))
    );
    assert_eq!(t.results_hidden(Audience::Officials, &first), None);
    assert_eq!(t.table_hidden(Audience::Public, &first), None);
    assert_eq!(t.hidden_sessions(Audience::Public), [1]);
    assert_eq!(t.tables_with_hidden_results(Audience::Public).len(), 2);
    when(&mut t, &TournamentCommand::CloseSession { session: 1 }).unwrap();
    assert_eq!(t.results_hidden(Audience::Public, &first), None);
    when(
        &mut t,
        &TournamentCommand::VoidTable {
            table: first.clone(),
            reason: "x".into(),
        },
    )
    .unwrap();
    assert_eq!(
        t.results_hidden(Audience::Public, &first)
            .map(|h| h.to_string()),
        Some("voided: x".into())
    );
}

#[test]
fn a_broadcast_table_s_play_is_the_public_s_while_its_session_is_in_play() {
    let mut t = given(&eight());
    when(&mut t, &open_session("random")).unwrap();
    let (first, second) = (t.tables[0].id.clone(), t.tables[1].id.clone());
    let broadcast = |table: &TableId, on: bool| TournamentCommand::Broadcast {
        table: table.clone(),
        broadcast: on,
    };
    assert!(t.play_hidden(Audience::Public, &first).is_some());
    when(&mut t, &broadcast(&first, true)).unwrap();
    // Its play is open; its results stay out of the standings until the session closes.
    assert_eq!(t.play_hidden(Audience::Public, &first), None);
    assert_eq!(
        t.results_hidden(Audience::Public, &first),
        Some(Hidden::SessionInPlay(1))
    );
    assert_eq!(t.tables_with_hidden_results(Audience::Public).len(), 2);
    assert!(t.play_hidden(Audience::Public, &second).is_some());
    // Said twice, it is refused; stopped, the play is hidden again.
    assert!(
        matches!(t.decide(&broadcast(&first, true)), Err(Refusal::Unprocessable(m)) if m.contains("already"))
    );
    when(&mut t, &broadcast(&first, false)).unwrap();
    assert!(t.play_hidden(Audience::Public, &first).is_some());
    // A voided table is never the public's.
    when(&mut t, &broadcast(&first, true)).unwrap();
    when(
        &mut t,
        &TournamentCommand::VoidTable {
            table: first.clone(),
            reason: "x".into(),
        },
    )
    .unwrap();
    assert_eq!(
        t.play_hidden(Audience::Public, &first)
            .map(|h| h.to_string()),
        Some("voided: x".into())
    );
}

#[test]
fn a_stored_event_that_contradicts_the_record_is_refused_loudly() {
    let mut t = Tournament::new("x");
    let e = TournamentEvent::TableClosed(TableClosed { table: id("x-t1") });
    assert_eq!(t.apply(&e), Err(ApplyError::NotCreated("x".into())));
    for e in t.clone().decide(&create()).unwrap() {
        t.apply(&e).unwrap();
    }
    assert_eq!(t.apply(&e), Err(ApplyError::NoSuchTable(id("x-t1"))));
}

#[test]
fn slugs() {
    assert_eq!(slug("Spring Open 2026!", "t"), "spring-open-2026");
    assert_eq!(slug("  ", "t"), "t");
    assert_eq!(slug("Zoë", "t"), "zo");
}
