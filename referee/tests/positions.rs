//! Ruling from a position (`referee::position`): given the table as the referee finds it, when
//! the acts in dispute are replayed from it, then the findings are those of a recorded hand —
//! a cannon let off (Code §90–96), a plea of No Choice that stands or not (§95), an act out of
//! turn.

use referee::adjudicate::Replay;
use referee::adjudicate::{findings, Finding, NoChoice, Signal};
use referee::play::{Ending, Inconsistent, Play, PlayRules, Turn};
use referee::position::Position;
use referee::{Ruleset, Seat, Suit, WinFrom};

fn rules() -> PlayRules {
    PlayRules::of(&Ruleset::builtin("code-of-laws").unwrap())
}

/// North displays three bamboo pungs (§90(a)); South is to discard; the acts: South discards
/// 8 bamboo, North claims it for Mah-Jongg and lays down a Clear Suit hand.
fn position(south: &str, discards: &str, wall: &str, turn: &str, pleads: bool) -> Position {
    let plea = if pleads { ", S:nochoice" } else { "" };
    let line = format!(
        "g1 h1 dealer:E prevailing:E | E: ?13 | S: {south} | W: ?13 \
         | N: ?4 [222s] [444s] [777s] | {discards} | {wall} | {turn} \
         | S:discard 8s, N:claim mahjongg 8s, N:grant mahjongg, N:mahjongg 8s{plea}, \
         N:show 1179s [222s] [444s] [777s] =8s"
    );
    line.parse().unwrap_or_else(|e| panic!("{line}\n{e}"))
}

const DISCARDS: &str = "E:9p S:1m W:R N:5m E:2p";

fn cannon(p: &Position) -> referee::adjudicate::Cannon {
    let replayed = Replay::replay_from_position(rules(), p).unwrap();
    assert!(replayed.refused.is_none(), "{:?}", replayed.refused);
    let found = findings(&replayed, &Ruleset::builtin("code-of-laws").unwrap());
    let cannons: Vec<_> = found
        .iter()
        .filter_map(|f| match f {
            Finding::Cannon(c) => Some(c.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(cannons.len(), 1, "{found:?}");
    cannons[0].clone()
}

#[test]
fn from_a_position_a_discard_into_a_displayed_clear_suit_is_a_cannon() {
    // South drew, and held safe tiles (characters, circles, winds): it had a choice.
    let p = position(
        "12345m 668p 3889s EE",
        DISCARDS,
        "live:70 box:16",
        "S:drew 3s",
        false,
    );
    let c = cannon(&p);
    assert_eq!((c.discarder, c.winner), (Seat::South, Seat::North));
    assert_eq!(c.danger.signal, Signal::OneSuit(Suit::Bamboo));
    assert_eq!(c.event, 1, "the position is event 0, its first act event 1");
    assert!(matches!(c.no_choice, NoChoice::HeldSafe(_)));
    assert!(!c.excused());
    assert_eq!(c.kind(), "cannon");
    assert!(c.penalty().is_some());
}

#[test]
fn from_a_position_after_claiming_for_pung_no_choice_cannot_be_pleaded_section_95a() {
    // South claimed East's East wind for pung and holds nothing but bamboo: it brought the
    // necessity of a dangerous discard on itself, and its plea does not stand.
    let p = position(
        "11335566899s [EEE]",
        "E:9p S:1m W:R N:5m E:E>S",
        "live:71 box:16",
        "S:pung",
        true,
    );
    let c = cannon(&p);
    assert_eq!(c.discarder, Seat::South);
    assert_eq!(
        c.no_choice,
        NoChoice::BarredAfterClaim(referee::event::ClaimKind::Pung)
    );
    assert!(c.pleaded);
    assert!(!c.excused());
    assert!(c.to_string().contains("may not plead it"), "{c}");
}

#[test]
fn from_a_position_after_a_draw_with_only_dangerous_tiles_no_choice_stands() {
    // The same tiles, but South drew them from the wall: the plea excuses the discard.
    let p = position(
        "11335566899s [EEE]",
        DISCARDS,
        "live:70 box:16",
        "S:drew",
        true,
    );
    let c = cannon(&p);
    assert_eq!(c.no_choice, NoChoice::Open);
    assert!(c.excused());
    assert_eq!(c.kind(), "no-choice-excused");
    assert_eq!(c.penalty(), None);
}

#[test]
fn from_a_position_mah_jongg_on_a_loose_tile_is_from_the_kong_box_section_117h() {
    let line = "g1 h1 dealer:E prevailing:E | E: ?13 | S: 123456789m 33p {EEEE} | W: ?13 \
                | N: ?13 | E:9p S:1m W:R N:5m E:2p | live:70 box:15 | S:loose 3p \
                | S:mahjongg self 3p";
    let p: Position = line.parse().unwrap();
    let r = Replay::replay_from_position(rules(), &p).unwrap();
    assert!(r.refused.is_none() && r.irregular.is_empty(), "{r:?}");
    assert!(matches!(
        r.replay.state().turn,
        Turn::Over(Ending::MahJongg {
            seat: Seat::South,
            from: WinFrom::LooseTile,
            ..
        })
    ));
}

#[test]
fn from_a_position_an_act_out_of_turn_is_found_irregular() {
    let line = "g1 h1 dealer:E prevailing:E | E: ?13 | S: 12345m 668p 3889s EE | W: ?13 \
                | N: ?4 [222s] [444s] [777s] | E:9p S:1m W:R N:5m E:2p | live:70 | S:drew \
                | W:discard 1m";
    let p: Position = line.parse().unwrap();
    let r = Replay::replay_from_position(rules(), &p).unwrap();
    let found = findings(&r, &Ruleset::builtin("code-of-laws").unwrap());
    assert!(
        found.iter().any(|f| matches!(f, Finding::Irregular(i) if i.event == 1 && i.irregularity.rule == "Code §74")
            && f.kind() == "discard-out-of-turn"
            && f.offender() == Some(Seat::West)),
        "{found:?}"
    );
}

#[test]
fn a_position_is_refused_when_its_tiles_do_not_add_up_to_the_set() {
    let line = |wall: &str| {
        format!(
            "g1 h1 dealer:E prevailing:E | E: ?13 | S: 12345m 668p 3889s EE | W: ?13 \
             | N: ?4 [222s] [444s] [777s] | {DISCARDS} | {wall} | S:drew"
        )
        .parse::<Position>()
        .unwrap()
    };
    let err = Play::from_position(rules(), &line("live:69 box:16")).unwrap_err();
    assert_eq!(err.event, 0);
    assert_eq!(
        err.kind,
        Inconsistent::PositionTiles {
            accounted: 143,
            expected: 144
        }
    );
    // With the kong box left off, it is what the set leaves.
    let play = Play::from_position(rules(), &line("live:69")).unwrap();
    let state = play.state();
    assert_eq!(state.wall.kong_box, 17);
    assert_eq!(state.accounted(), 144);
    assert!(Play::from_position(rules(), &line("live:200")).is_err());
    // The state holds what the position says.
    assert_eq!(state.turn, Turn::Discard(Seat::South));
    assert_eq!(
        state.last_draw.map(|d| (d.seat, d.loose)),
        Some((Seat::South, false))
    );
    assert_eq!(state.seats[Seat::North].sets.len(), 3);
    assert_eq!(state.seats[Seat::East].discards, vec![0, 4]);
    assert_eq!(state.window, None);
    assert_eq!(play.events(), 1);
}
