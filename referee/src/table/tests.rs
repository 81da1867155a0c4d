//! Given / when / then: a table's history, a command, and the events or violations decided.

use super::*;
use crate::event::*;
use crate::score::WinFrom;
use crate::violation::Violations;
use crate::BySeat;

pub(super) fn conditions() -> Conditions {
    Conditions::new(Ruleset::builtin("code-of-laws").unwrap(), 2000)
}

pub(super) fn given(history: &[TableCommand]) -> Table {
    let c = conditions();
    let mut t = Table::new("t1".parse().unwrap(), true, &c.ruleset);
    for cmd in history {
        when(&mut t, cmd).unwrap();
    }
    t
}

/// Decides and applies, as the ledger would after storing.
pub(super) fn when(t: &mut Table, cmd: &TableCommand) -> Result<Vec<Decided>, Violations> {
    let events = t.decide(&conditions(), cmd)?;
    for e in &events {
        t.apply(Uuid::now_v7(), e).unwrap();
    }
    Ok(events)
}

pub(super) fn report(winner: Option<Seat>, from: WinFrom, discarder: Option<Seat>) -> HandReport {
    HandReport {
        hands: crate::report::tests::four_hands(winner),
        winner,
        win_from: winner.map(|_| from),
        discarder,
        ..HandReport::default()
    }
}

pub(super) fn won(by: Seat) -> TableCommand {
    TableCommand::RecordHand {
        report: report(Some(by), WinFrom::Wall, None),
    }
}

pub(super) fn wash_out() -> TableCommand {
    TableCommand::RecordHand {
        report: HandReport {
            hands: BySeat::default(),
            ..HandReport::default()
        },
    }
}

#[test]
fn the_first_hand_starts_the_first_game_with_east_in_the_east_seat() {
    let mut t = given(&[]);
    let events = when(&mut t, &won(Seat::West)).unwrap();
    assert!(matches!(
        &events[0],
        Decided::Table(TableEvent::GameStarted(g)) if g.game == 1 && g.starting_chips == 2000
    ));
    assert!(matches!(
        &events[1],
        Decided::Hand(HandKey { game: 1, hand: 1 }, HandEvent::HandStarted(h)) if h.east == Seat::East
    ));
    assert!(matches!(
        events.last(),
        Some(Decided::Hand(_, HandEvent::SettlementRecorded(s))) if s.winner == Some(Seat::West)
    ));
    // West won: the deal passes to the South seat (Code §11).
    assert_eq!(t.next().east, Seat::South);
    assert_eq!(t.next_hand_id(), "t1-g1-h2");
}

#[test]
fn a_game_ends_after_four_rounds_and_the_next_begins() {
    let seats = [Seat::South, Seat::West, Seat::North, Seat::East];
    let history: Vec<TableCommand> = (0..15).map(|i| won(seats[i % 4])).collect();
    let mut t = given(&history);
    assert_eq!(
        (t.next().prevailing, t.next().east),
        (crate::Wind::North, Seat::North)
    );
    // When the North seat's player, East in the last hand, loses it,
    let events = when(&mut t, &won(Seat::East)).unwrap();
    // then the game is over (§14): the next hand starts game 2.
    assert!(!events.iter().any(|e| matches!(e, Decided::Table(_))));
    let events = when(&mut t, &won(Seat::South)).unwrap();
    assert!(matches!(&events[0], Decided::Table(TableEvent::GameEnded(g)) if g.game == 1));
    assert!(matches!(&events[1], Decided::Table(TableEvent::GameStarted(g)) if g.game == 2));
}

#[test]
fn a_wash_out_keeps_the_deal() {
    let t = given(&[won(Seat::South), wash_out()]);
    assert_eq!((t.next().east, t.next().hand), (Seat::South, 3));
}

#[test]
fn seats_must_be_drawn_first() {
    let c = conditions();
    let t = Table::new("t1".parse().unwrap(), false, &c.ruleset);
    let v = t.decide(&c, &won(Seat::East)).unwrap_err();
    assert_eq!(v.iter().next().unwrap().rule.as_deref(), Some("Code §15"));
}

#[test]
fn replay_is_a_fold_and_gives_the_same_table() {
    let history = [
        won(Seat::East),
        wash_out(),
        won(Seat::North),
        won(Seat::South),
    ];
    let c = conditions();
    let mut live = Table::new("t1".parse().unwrap(), true, &c.ruleset);
    let mut log = Vec::new();
    for cmd in &history {
        for e in live.decide(&c, cmd).unwrap() {
            let id = Uuid::now_v7();
            live.apply(id, &e).unwrap();
            log.push((id, e));
        }
    }
    let mut replayed = Table::new("t1".parse().unwrap(), true, &c.ruleset);
    for (id, e) in &log {
        replayed.apply(*id, e).unwrap();
    }
    assert_eq!(replayed, live);
    assert_eq!((live.next().east, live.next().east_wins), (Seat::South, 1));
    assert_eq!(
        live.hands[&HandKey { game: 1, hand: 2 }].position.east_wins,
        1
    );
}

#[test]
fn an_event_of_a_hand_never_started_is_an_error() {
    let mut t = given(&[]);
    let e = Decided::Hand(
        HandKey { game: 1, hand: 9 },
        HandEvent::WashOut(WashOut { reason: "x".into() }),
    );
    assert_eq!(
        t.apply(Uuid::nil(), &e),
        Err(ApplyError::HandNotStarted(HandKey { game: 1, hand: 9 }))
    );
}

#[test]
fn a_rule_penalty_is_priced_by_the_ruleset() {
    // Given a wash-out at which West called Mah-Jongg falsely and others had laid down tiles,
    let mut t = given(&[]);
    let report = HandReport {
        penalties: vec![crate::settle::Penalty::FalseMahJongg {
            offenders: vec![Seat::West],
        }],
        ..HandReport::default()
    };
    let events = when(&mut t, &TableCommand::RecordHand { report }).unwrap();
    // then West pays each opponent the Code's 300 (§82).
    let Some(Decided::Hand(_, HandEvent::SettlementRecorded(s))) = events.last() else {
        panic!("{events:?}")
    };
    assert_eq!(s.nets[Seat::West], -900);
    assert_eq!(s.nets[Seat::East], 300);
}

#[test]
fn a_closed_table_records_no_hand_but_corrects_and_a_voided_one_neither() {
    let mut t = given(&[won(Seat::West)]);
    t.status = TableStatus::Closed;
    let v = t.decide(&conditions(), &won(Seat::East)).unwrap_err();
    assert!(v.to_string().contains("closed"), "{v}");
    let key = HandKey { game: 1, hand: 1 };
    let correct = TableCommand::CorrectHand {
        hand: key,
        reason: "it was North".into(),
        report: report(Some(Seat::North), WinFrom::Wall, None),
    };
    assert!(t.decide(&conditions(), &correct).is_ok());
    t.status = TableStatus::Voided {
        reason: "entered twice".into(),
    };
    let v = t.decide(&conditions(), &correct).unwrap_err();
    assert!(v.to_string().contains("entered twice"), "{v}");
}

#[test]
fn east_s_thirteenth_win_scores_the_limit_and_gives_up_the_deal() {
    // Code §122(r): "the thirteenth hand completed scores as a full hand, irrespective of its
    // composition. After winning such a hand, East relinquishes his title".
    let history: Vec<TableCommand> = (0..12).map(|_| won(Seat::East)).collect();
    let mut t = given(&history);
    assert_eq!(t.next().east_wins, 12);
    let events = when(&mut t, &won(Seat::East)).unwrap();
    let sheet = events
        .iter()
        .find_map(|e| match e {
            Decided::Hand(_, HandEvent::HandScored(s)) => Some(s.sheets[Seat::East].clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(sheet.total, 1000, "{sheet}");
    assert_eq!(t.next().east, Seat::South);
}

/// The first hand of mj-server's robot game (fixtures/mj-server/seed-7), recorded play by play.
pub(super) fn played_hand() -> (Deal, Vec<HandEvent>) {
    let text = include_str!("../../../fixtures/mj-server/seed-7/hand-01.mjs");
    let hand = crate::import::mjs::read(text, "t1".parse().unwrap(), 1, 1).unwrap();
    (
        hand.started.deal,
        hand.events.into_iter().map(|(_, e)| e).collect(),
    )
}

#[test]
fn a_hand_recorded_play_by_play_is_scored_and_settled_from_its_replay() {
    let mut t = given(&[]);
    let (deal, events) = played_hand();
    let n = events.len();
    let decided = when(
        &mut t,
        &TableCommand::RecordPlayedHand {
            dice: vec![3, 4],
            deal,
            events: events.clone(),
            east: None,
        },
    )
    .unwrap();
    let hand_events: Vec<&HandEvent> = decided
        .iter()
        .filter_map(|d| match d {
            Decided::Hand(_, e) => Some(e),
            Decided::Table(_) => None,
        })
        .collect();
    // The start with its wall, the play as given, the four hands laid down, the score and
    // the settlement; the Mah-Jongg only once, in the play.
    assert!(
        matches!(hand_events[0], HandEvent::HandStarted(s) if matches!(s.deal, Deal::Wall { .. }))
    );
    assert_eq!(
        hand_events[1..=n]
            .iter()
            .map(|e| (*e).clone())
            .collect::<Vec<_>>(),
        events
    );
    let tail: Vec<&str> = hand_events[n + 1..]
        .iter()
        .map(|e| match e {
            HandEvent::HandExposed(_) => "exposed",
            HandEvent::HandScored(_) => "scored",
            HandEvent::SettlementRecorded(_) => "settled",
            _ => "other",
        })
        .collect();
    // The four hands were laid down in the play itself (mj-server's robots group their
    // tiles, §104), so the result adds only the score and the settlement.
    assert_eq!(tail, ["scored", "settled"]);
    let laid = events
        .iter()
        .filter(|e| matches!(e, HandEvent::HandExposed(_)))
        .count();
    assert_eq!(laid, 4);
    let mahjongg = hand_events
        .iter()
        .filter(|e| matches!(e, HandEvent::MahJonggDeclared(_)))
        .count();
    assert_eq!(mahjongg, 1);
    // North won (the server's hand 1): the deal passes to South.
    let Some(HandEvent::SettlementRecorded(s)) = hand_events.last().copied() else {
        panic!("settled")
    };
    assert_eq!(s.winner, Some(Seat::North));
    assert_eq!(s.nets.north, 88);
    assert_eq!(t.next().east, Seat::South);
}

#[test]
fn a_play_that_breaks_off_or_contradicts_the_tiles_is_refused_with_its_event() {
    let t = given(&[]);
    let (deal, mut events) = played_hand();
    let unfinished = TableCommand::RecordPlayedHand {
        dice: Vec::new(),
        deal: deal.clone(),
        events: events[..40].to_vec(),
        east: None,
    };
    let v = t.decide(&conditions(), &unfinished).unwrap_err();
    assert!(
        v.to_string().contains("does not reach the end of the hand"),
        "{v}"
    );
    // The first discard changed to a tile its seat does not hold.
    let i = events
        .iter()
        .position(|e| matches!(e, HandEvent::TileDiscarded(_)))
        .unwrap();
    if let HandEvent::TileDiscarded(d) = &mut events[i] {
        d.placed = "9s".parse().unwrap();
        d.named = d.placed;
    }
    let wrong = TableCommand::RecordPlayedHand {
        dice: Vec::new(),
        deal,
        events,
        east: None,
    };
    let v = t.decide(&conditions(), &wrong).unwrap_err();
    assert!(v.to_string().contains(&format!("events.{i}")), "{v}");
}

#[test]
fn a_hand_recorded_one_event_at_a_time_ends_as_the_same_record_as_all_at_once() {
    let (deal, events) = played_hand();
    let mut at_once = given(&[]);
    let all = when(
        &mut at_once,
        &TableCommand::RecordPlayedHand {
            dice: vec![3, 4],
            deal: deal.clone(),
            events: events.clone(),
            east: None,
        },
    )
    .unwrap();

    let mut t = given(&[]);
    let mut decided = when(
        &mut t,
        &TableCommand::StartHand {
            dice: vec![3, 4],
            deal,
        },
    )
    .unwrap();
    let key = HandKey { game: 1, hand: 1 };
    assert_eq!(t.in_play().map(|(k, _)| k), Some(key));
    // While the hand is in play it is still the one to play.
    assert_eq!(t.next().east, Seat::East);
    // The hands laid down come with the event that ends the hand.
    let (play, laid): (Vec<&HandEvent>, Vec<HandExposed>) = {
        let mut play = Vec::new();
        let mut laid = Vec::new();
        for e in &events {
            match e {
                HandEvent::HandExposed(x) => laid.push(x.clone()),
                e => play.push(e),
            }
        }
        (play, laid)
    };
    let last = play.len() - 1;
    for (i, e) in play.into_iter().enumerate() {
        assert!(t.in_play().is_some(), "in play before event {i}");
        decided.extend(
            when(
                &mut t,
                &TableCommand::Play {
                    hand: key,
                    event: e.clone(),
                    laid_down: if i == last { laid.clone() } else { Vec::new() },
                },
            )
            .unwrap(),
        );
    }
    assert!(t.in_play().is_none());
    assert_eq!(decided, all);
    assert_eq!(t.next().east, Seat::South);
    let settled = |t: &Table| t.hands[&key].settlement().map(|(_, s)| s.clone());
    assert_eq!(settled(&t), settled(&at_once));
    assert!(settled(&t).is_some());
}

#[test]
fn while_a_hand_is_in_play_no_other_starts_and_its_events_are_checked() {
    let (deal, events) = played_hand();
    let start = TableCommand::StartHand {
        dice: Vec::new(),
        deal: deal.clone(),
    };
    let mut t = given(std::slice::from_ref(&start));
    let key = HandKey { game: 1, hand: 1 };
    let v = t.decide(&conditions(), &start).unwrap_err();
    assert!(v.to_string().contains("still being played"), "{v}");
    let v = t
        .decide(
            &conditions(),
            &TableCommand::RecordPlayedHand {
                dice: Vec::new(),
                deal,
                events: events.clone(),
                east: None,
            },
        )
        .unwrap_err();
    assert!(v.to_string().contains("play by play"), "{v}");
    // An inconsistent event is refused with its index in the hand and changes nothing.
    let i = events
        .iter()
        .position(|e| matches!(e, HandEvent::TileDiscarded(_)))
        .unwrap();
    for e in &events[..i] {
        when(
            &mut t,
            &TableCommand::Play {
                hand: key,
                event: e.clone(),
                laid_down: Vec::new(),
            },
        )
        .unwrap();
    }
    let mut wrong = events[i].clone();
    if let HandEvent::TileDiscarded(d) = &mut wrong {
        d.placed = "9s".parse().unwrap();
        d.named = d.placed;
    }
    let before = t.clone();
    let v = when(
        &mut t,
        &TableCommand::Play {
            hand: key,
            event: wrong,
            laid_down: Vec::new(),
        },
    )
    .unwrap_err();
    assert!(v.to_string().contains(&format!("event {}", i + 1)), "{v}");
    assert_eq!(t, before);
    // A result is not an event of the play.
    let v = t
        .decide(
            &conditions(),
            &TableCommand::Play {
                hand: key,
                event: HandEvent::WashOut(WashOut {
                    reason: String::new(),
                })
                .clone(),
                laid_down: Vec::new(),
            },
        )
        .unwrap_err();
    assert!(!v.is_empty());
    // A hand that is not in play takes no event.
    let v = t
        .decide(
            &conditions(),
            &TableCommand::Play {
                hand: HandKey { game: 1, hand: 2 },
                event: events[i].clone(),
                laid_down: Vec::new(),
            },
        )
        .unwrap_err();
    assert!(v.to_string().contains("no such hand"), "{v}");
}

#[test]
fn a_hand_in_play_may_be_finished_from_a_report() {
    let (deal, events) = played_hand();
    let mut t = given(&[TableCommand::StartHand {
        dice: Vec::new(),
        deal,
    }]);
    let key = HandKey { game: 1, hand: 1 };
    for e in &events[..10] {
        when(
            &mut t,
            &TableCommand::Play {
                hand: key,
                event: e.clone(),
                laid_down: Vec::new(),
            },
        )
        .unwrap();
    }
    let decided = when(&mut t, &won(Seat::West)).unwrap();
    // No second start: the result goes to the hand in play.
    assert!(decided.iter().all(
        |d| matches!(d, Decided::Hand(k, e) if *k == key && !matches!(e, HandEvent::HandStarted(_)))
    ));
    assert!(t.in_play().is_none());
    assert_eq!(t.next().east, Seat::South);
}

/// East discards the South wind; South calls Mah-Jongg on it, falsely, and lays down.
fn a_false_call_at_the_table() -> (Table, HandKey) {
    use crate::event::{ClaimGranted, ClaimKind, ClaimMade, HandExposed, MahJonggDeclared};
    let parse = |s: &str| -> Vec<crate::tile::AnyTile> {
        s.split_whitespace().map(|x| x.parse().unwrap()).collect()
    };
    let deal = Deal::Hands {
        hands: BySeat::new(
            parse("1m 2m 3m 4m 5m 6m 7m 8m 9m E E E S 4p"),
            parse("2p 3p 5p 6p 7p 8p 8p 8p 1s 1s 2s 3s 4s"),
            parse("9m 9m 5s 6s 7s 8s 9s R R G G N N"),
            parse("W W 1p 1p 5m 5m 2s 2s 3s 3s 6m 6m 8m"),
        ),
    };
    let key = HandKey { game: 1, hand: 1 };
    let mut t = given(&[TableCommand::StartHand {
        dice: Vec::new(),
        deal,
    }]);
    let s = Seat::South;
    let south_wind: crate::Tile = "S".parse().unwrap();
    for e in [
        HandEvent::TileDiscarded(crate::event::TileDiscarded {
            seat: Seat::East,
            placed: south_wind,
            named: south_wind,
        }),
        HandEvent::ClaimMade(ClaimMade {
            seat: s,
            claim: ClaimKind::MahJongg,
            tile: south_wind,
        }),
        HandEvent::ClaimGranted(ClaimGranted {
            seat: s,
            claim: ClaimKind::MahJongg,
        }),
    ] {
        play_event(&mut t, key, e).unwrap();
    }
    let mj = HandEvent::MahJonggDeclared(MahJonggDeclared {
        seat: s,
        winning_tile: south_wind,
        self_drawn: false,
    });
    let mut after = t.in_play().unwrap().1.clone();
    after.apply(&mj).unwrap();
    let hand = after.state().hand_of(s).unwrap();
    let decided = when(
        &mut t,
        &TableCommand::Play {
            hand: key,
            event: mj,
            laid_down: vec![HandExposed { seat: s, hand }],
        },
    )
    .unwrap();
    // The false call is recorded, not settled: the hand waits (§82).
    assert!(decided
        .iter()
        .all(|d| !matches!(d, Decided::Hand(_, e) if e.is_result())));
    assert!(t.in_play().is_some());
    (t, key)
}

fn play_event(t: &mut Table, hand: HandKey, event: HandEvent) -> Result<Vec<Decided>, Violations> {
    when(
        t,
        &TableCommand::Play {
            hand,
            event,
            laid_down: Vec::new(),
        },
    )
}

#[test]
fn a_false_mah_jongg_taken_up_lets_play_go_on_with_no_winner() {
    let (mut t, key) = a_false_call_at_the_table();
    play_event(
        &mut t,
        key,
        HandEvent::ClaimRetracted(crate::event::ClaimRetracted {
            seat: Seat::South,
            claim: crate::event::ClaimKind::MahJongg,
            reason: "not complete".into(),
        }),
    )
    .unwrap();
    assert_eq!(t.hands[&key].record().winner(), None);
    assert_eq!(t.hands[&key].end(), None);
    let (_, play) = t.in_play().unwrap();
    assert_eq!(play.state().turn, crate::play::Turn::Draw(Seat::South));
}

#[test]
fn a_false_mah_jongg_laid_down_after_is_settled_as_its_penalty_alone() {
    let (mut t, key) = a_false_call_at_the_table();
    let west = t.in_play().unwrap().1.state().hand_of(Seat::West).unwrap();
    let decided = play_event(
        &mut t,
        key,
        HandEvent::HandExposed(crate::event::HandExposed {
            seat: Seat::West,
            hand: west,
        }),
    )
    .unwrap();
    let settlement = decided.iter().find_map(|d| match d {
        Decided::Hand(_, HandEvent::SettlementRecorded(s)) => Some(s),
        _ => None,
    });
    let s = settlement.expect("settled");
    assert_eq!(s.winner, None);
    assert_eq!(s.nets, BySeat::new(300, -900, 300, 300));
    assert!(t.in_play().is_none());
    // South was not East: East keeps the title (§82), as after a wash-out but by §82's rule.
    assert_eq!(
        t.hands[&key].end(),
        Some(HandEnd::Abandoned { east_passes: false })
    );
    assert_eq!(t.next().east, Seat::East);
    assert_eq!(t.next().hand, 2);
}

#[test]
fn a_hand_played_to_its_end_folds_from_its_decisions_replay_as_from_its_events() {
    let (deal, events) = played_hand();
    let cmd = TableCommand::RecordPlayedHand {
        dice: vec![3, 4],
        deal,
        events,
        east: None,
    };
    let mut replayed = given(&[]);
    let mut taken = given(&[]);
    let decision = taken.decision(&conditions(), &cmd).unwrap();
    assert!(decision.played.is_some(), "the decision carries its replay");
    let ids: Vec<Uuid> = decision.events.iter().map(|_| Uuid::now_v7()).collect();
    for (id, e) in ids.iter().zip(&decision.events) {
        replayed.apply(*id, e).unwrap();
    }
    taken.apply_decision(&ids, decision).unwrap();
    assert_eq!(taken.hands, replayed.hands);
    assert_eq!(taken.next(), replayed.next());
}

#[test]
fn the_dice_are_two_or_four_each_one_to_six() {
    let (deal, _) = played_hand();
    let t = given(&[]);
    for (dice, ok) in [
        (vec![], true),
        (vec![3, 4], true),
        (vec![6, 6, 1, 2], true),
        (vec![3], false),
        (vec![3, 4, 5], false),
        (vec![0, 4], false),
        (vec![3, 7], false),
        (vec![255, 255], false),
    ] {
        let start = TableCommand::StartHand {
            dice: dice.clone(),
            deal: deal.clone(),
        };
        match t.decide(&conditions(), &start) {
            Ok(_) => assert!(ok, "{dice:?} taken"),
            Err(v) => {
                assert!(!ok, "{dice:?}: {v}");
                assert!(v.to_string().contains("Code §18–19"), "{v}");
            }
        }
    }
}
