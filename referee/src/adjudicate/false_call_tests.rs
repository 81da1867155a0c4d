//! Given a call of Mah-Jongg, when the hand is not complete, then (Code §82) the caller takes up
//! his hand and play continues — or, once another player has laid down tiles, he pays each
//! opponent, the hand is finished, and East passes only if he was East.

use crate::event::{
    ClaimGranted, ClaimKind, ClaimMade, ClaimRetracted, Deal, HandEvent, HandExposed, HandStarted,
    MahJonggDeclared, TileDiscarded, TileDrawn,
};
use crate::ids::TableId;
use crate::play::{Applied, Ending, PlayRules, Turn};

use super::{report, settle, Replay};
use crate::tile::{AnyTile, Tile, Wind};
use crate::{BySeat, Ruleset, Seat};

use super::{findings, Finding};

fn t(s: &str) -> Tile {
    s.parse().unwrap()
}

fn code() -> Ruleset {
    Ruleset::builtin("code-of-laws").unwrap()
}

/// A hand dealt these tiles, East to North, East the dealer.
fn started(hands: [&str; 4]) -> HandStarted {
    let parse = |s: &str| -> Vec<AnyTile> {
        s.split_whitespace()
            .map(|x| x.parse::<AnyTile>().unwrap())
            .collect()
    };
    HandStarted {
        table: "t1".parse::<TableId>().unwrap(),
        game: 1,
        hand: 1,
        east: Seat::East,
        prevailing_wind: Wind::East,
        dice: vec![3, 4],
        deal: Deal::Hands {
            hands: BySeat::new(
                parse(hands[0]),
                parse(hands[1]),
                parse(hands[2]),
                parse(hands[3]),
            ),
        },
    }
}

/// South waits on 1p or 4p; East holds a spare South wind to discard.
fn dealt() -> Replay {
    let started = started([
        "1m 2m 3m 4m 5m 6m 7m 8m 9m E E E S 4p",
        "2p 3p 5p 6p 7p 8p 8p 8p 1s 1s 2s 3s 4s",
        "9m 9m 5s 6s 7s 8s 9s R R G G N N",
        "W W 1p 1p 5m 5m 2s 2s 3s 3s 6m 6m 8m",
    ]);
    Replay::start(PlayRules::of(&code()), &started).unwrap()
}

fn apply(p: &mut Replay, e: HandEvent) -> Applied {
    p.apply(&e).unwrap_or_else(|err| panic!("{e:?}: {err}"))
}

fn lay_down(p: &mut Replay, seat: Seat) -> Applied {
    let hand = p.state().hand_of(seat).unwrap();
    apply(p, HandEvent::HandExposed(HandExposed { seat, hand }))
}

/// East discards the South wind; South calls Mah-Jongg on it, falsely, and lays his hand down.
fn south_calls_falsely() -> Replay {
    let mut p = dealt();
    let s = Seat::South;
    for e in [
        HandEvent::TileDiscarded(TileDiscarded {
            seat: Seat::East,
            placed: t("S"),
            named: t("S"),
        }),
        HandEvent::ClaimMade(ClaimMade {
            seat: s,
            claim: ClaimKind::MahJongg,
            tile: t("S"),
        }),
        HandEvent::ClaimGranted(ClaimGranted {
            seat: s,
            claim: ClaimKind::MahJongg,
        }),
        HandEvent::MahJonggDeclared(MahJonggDeclared {
            seat: s,
            winning_tile: t("S"),
            self_drawn: false,
        }),
    ] {
        apply(&mut p, e);
    }
    lay_down(&mut p, s);
    p
}

fn take_up(seat: Seat) -> HandEvent {
    HandEvent::ClaimRetracted(ClaimRetracted {
        seat,
        claim: ClaimKind::MahJongg,
        reason: "the hand is not complete".into(),
    })
}

#[test]
fn false_call_taken_up_before_anyone_lays_down_lets_play_continue() {
    let mut p = south_calls_falsely();
    let rules = code();
    // While the call stands and no one else has laid down, the hand waits: no result.
    let standing = p.false_call(&rules).expect("the call is false");
    assert!(!standing.abandons());
    assert_eq!(report(&p, &rules), None);
    assert_eq!(apply(&mut p, take_up(Seat::South)), Applied::Legal);
    // Replay resumes after East's discard, which stays on the table, dead (§71).
    assert_eq!(p.state().turn, Turn::Draw(Seat::South));
    assert_eq!(p.state().discards[0].claimed_by, None);
    assert_eq!(
        p.state().hand_of(Seat::South).unwrap().concealed().len(),
        13
    );
    apply(
        &mut p,
        HandEvent::TileDrawn(TileDrawn {
            seat: Seat::South,
            tile: None,
        }),
    );
    // The finding stays, with no penalty.
    let calls = p.false_calls(&rules);
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].taken_up, Some(6));
    assert_eq!(calls[0].penalty(), None);
    assert!(calls[0].citations().contains(&"Code §71"));
    assert!(p.false_call(&rules).is_none());
}

#[test]
fn false_call_after_another_lays_down_is_penalised_and_finishes_the_hand() {
    let mut p = south_calls_falsely();
    let rules = code();
    lay_down(&mut p, Seat::West);
    // Too late to take the hand up.
    let err = p.apply(&take_up(Seat::South)).unwrap_err();
    assert!(err.to_string().contains("§82"), "{err}");
    let f = p.false_call(&rules).expect("false");
    assert!(f.abandons());
    assert!(!f.east_passes(), "South was not East: East keeps the title");
    assert_eq!(f.laid_down, vec![(Seat::West, 6)]);
    let (report, settled) = settle(&p, &rules, 0).unwrap().expect("settled");
    assert_eq!(report.winner, None);
    // Code §82: 300 to each opponent, and no other score.
    assert_eq!(settled.nets, BySeat::new(300, -900, 300, 300));
    assert_eq!(
        settled.nets.iter().map(|(_, n)| n).sum::<i64>(),
        0,
        "zero sum"
    );
}

#[test]
fn a_false_call_is_a_finding_and_no_cannon() {
    let mut p = south_calls_falsely();
    lay_down(&mut p, Seat::North);
    let replayed = super::Replayed {
        replay: p,
        irregular: Vec::new(),
        refused: None,
    };
    let found = findings(&replayed, &code());
    assert_eq!(found.len(), 1, "{found:?}");
    let Finding::FalseMahJongg(f) = &found[0] else {
        panic!("{found:?}")
    };
    assert_eq!(found[0].kind(), "false-mah-jongg");
    assert_eq!(found[0].offender(), Some(Seat::South));
    assert_eq!(found[0].citations(), vec!["Code §82"]);
    let text = found[0].to_string();
    assert!(text.contains("not complete"), "{text}");
    assert!(text.contains("north laid down tiles"), "{text}");
    assert!(
        text.contains("the east seat keeps the title of East"),
        "{text}"
    );
    assert_eq!(f.events(), vec![4, 6]);
}

#[test]
fn a_complete_hand_is_no_false_call() {
    let mut p = dealt();
    let s = Seat::South;
    for e in [
        HandEvent::TileDiscarded(TileDiscarded {
            seat: Seat::East,
            placed: t("4p"),
            named: t("4p"),
        }),
        HandEvent::ClaimMade(ClaimMade {
            seat: s,
            claim: ClaimKind::MahJongg,
            tile: t("4p"),
        }),
        HandEvent::ClaimGranted(ClaimGranted {
            seat: s,
            claim: ClaimKind::MahJongg,
        }),
        HandEvent::MahJonggDeclared(MahJonggDeclared {
            seat: s,
            winning_tile: t("4p"),
            self_drawn: false,
        }),
    ] {
        apply(&mut p, e);
    }
    lay_down(&mut p, Seat::West);
    assert!(p.false_calls(&code()).is_empty());
    assert!(matches!(
        p.state().turn,
        Turn::Over(Ending::MahJongg {
            seat: Seat::South,
            ..
        })
    ));
}

#[test]
fn a_false_caller_who_was_east_gives_up_the_title() {
    let mut p = dealt();
    // East calls Mah-Jongg on his dealt hand, which is not complete.
    apply(
        &mut p,
        HandEvent::MahJonggDeclared(MahJonggDeclared {
            seat: Seat::East,
            winning_tile: t("S"),
            self_drawn: true,
        }),
    );
    let rules = code();
    assert!(p.false_call(&rules).is_some());
    lay_down(&mut p, Seat::South);
    let f = p.false_call(&rules).unwrap();
    assert!(f.east_passes());
    assert!(f.to_string().contains("passes"), "{f}");
    let (_, settled) = settle(&p, &rules, 0).unwrap().unwrap();
    assert_eq!(settled.nets, BySeat::new(-900, 300, 300, 300));
}

#[test]
fn a_false_self_drawn_call_taken_up_returns_the_turn_to_the_caller() {
    let mut p = dealt();
    apply(
        &mut p,
        HandEvent::MahJonggDeclared(MahJonggDeclared {
            seat: Seat::East,
            winning_tile: t("S"),
            self_drawn: true,
        }),
    );
    apply(&mut p, take_up(Seat::East));
    assert_eq!(p.state().turn, Turn::Discard(Seat::East));
    assert_eq!(p.state().seats[Seat::East].concealed.len(), 14);
}

/// §82 with §71 and §61: South (nearer the discarder) calls falsely on East's discard and takes
/// up his hand; the discard is dead but for another player's claim, so West's genuine
/// Mah-Jongg on it stands, and South pays nothing.
#[test]
fn a_genuine_mah_jongg_takes_the_discard_a_false_caller_gave_back() {
    let started = started([
        "1m 2m 3m 4m 5m 6m 7m 8m 9m E E E S 4p",
        "2p 3p 5p 6p 7p 8p 8p 8p 1s 1s 2s 3s 4s",
        "2m 2m 2m 5p 5p 5p 7s 7s 7s G G G S",
        "W W 1p 1p 5m 5m 9s 9s 3s 3s 6m 6m 8m",
    ]);
    let rules = code();
    let mut p = Replay::start(PlayRules::of(&rules), &started).unwrap();
    let s = t("S");
    let claim = |seat| {
        HandEvent::ClaimMade(ClaimMade {
            seat,
            claim: ClaimKind::MahJongg,
            tile: s,
        })
    };
    let grant = |seat| {
        HandEvent::ClaimGranted(ClaimGranted {
            seat,
            claim: ClaimKind::MahJongg,
        })
    };
    let declare = |seat| {
        HandEvent::MahJonggDeclared(MahJonggDeclared {
            seat,
            winning_tile: s,
            self_drawn: false,
        })
    };
    apply(
        &mut p,
        HandEvent::TileDiscarded(TileDiscarded {
            seat: Seat::East,
            placed: s,
            named: s,
        }),
    );
    apply(&mut p, claim(Seat::South));
    apply(&mut p, claim(Seat::West));
    // §61: of two Mah-Jongg claims, the player nearer the discarder.
    assert_eq!(apply(&mut p, grant(Seat::South)), Applied::Legal);
    apply(&mut p, declare(Seat::South));
    lay_down(&mut p, Seat::South);
    apply(&mut p, take_up(Seat::South));
    // §71: another player may claim the discard given back, for any purpose.
    apply(&mut p, claim(Seat::West));
    apply(&mut p, grant(Seat::West));
    apply(&mut p, declare(Seat::West));
    for seat in [Seat::West, Seat::North, Seat::East, Seat::South] {
        lay_down(&mut p, seat);
    }
    assert!(p.false_call(&rules).is_none(), "West's call is genuine");
    let calls = p.false_calls(&rules);
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].caller, Seat::South);
    assert_eq!(calls[0].penalty(), None);
    let (report, settled) = settle(&p, &rules, 0).unwrap().expect("settled");
    assert_eq!(report.winner, Some(Seat::West));
    assert!(report.penalties.is_empty());
    assert_eq!(settled.nets.iter().map(|(_, n)| n).sum::<i64>(), 0);
    assert!(settled.nets[Seat::West] > 0);
}

fn claim_mj(seat: Seat, tile: &str) -> HandEvent {
    HandEvent::ClaimMade(ClaimMade {
        seat,
        claim: ClaimKind::MahJongg,
        tile: t(tile),
    })
}

fn grant_mj(seat: Seat) -> HandEvent {
    HandEvent::ClaimGranted(ClaimGranted {
        seat,
        claim: ClaimKind::MahJongg,
    })
}

fn declare_on(seat: Seat, tile: &str) -> HandEvent {
    HandEvent::MahJonggDeclared(MahJonggDeclared {
        seat,
        winning_tile: t(tile),
        self_drawn: false,
    })
}

/// East discards the South wind, and `claimants` claim it for Mah-Jongg; South, nearest the
/// discarder (§61), is granted it and calls.
fn claimed_by(p: &mut Replay, claimants: &[Seat]) {
    apply(
        p,
        HandEvent::TileDiscarded(TileDiscarded {
            seat: Seat::East,
            placed: t("S"),
            named: t("S"),
        }),
    );
    for &seat in claimants {
        apply(p, claim_mj(seat, "S"));
    }
    apply(p, grant_mj(Seat::South));
    apply(p, declare_on(Seat::South, "S"));
}

/// §83: South and West both claim East's discard for Mah-Jongg and neither hand is complete
/// with it; West shows his hand (pressing his claim, which does not abandon the hand), then
/// North lays down. Each offender pays each non-offender 150, and East keeps the title.
#[test]
fn two_false_callers_on_one_discard_each_pay_the_non_offenders() {
    let mut p = dealt();
    let rules = code();
    claimed_by(&mut p, &[Seat::South, Seat::West]);
    lay_down(&mut p, Seat::South);
    lay_down(&mut p, Seat::West);
    let f = p.false_call(&rules).expect("South's call is false");
    assert!(!f.abandons(), "a rival showing his hand abandons nothing");
    assert_eq!(f.offenders(), vec![Seat::South, Seat::West]);
    lay_down(&mut p, Seat::North);
    let f = p.false_call(&rules).unwrap();
    assert!(f.abandons());
    assert!(!f.east_passes());
    assert_eq!(f.laid_down, vec![(Seat::North, 8)]);
    assert!(f.citations().contains(&"Code §83"), "{:?}", f.citations());
    let text = f.to_string();
    assert!(text.contains("south and west each pay"), "{text}");
    assert!(
        text.contains("west also claimed the discard for Mah-Jongg, falsely too"),
        "{text}"
    );
    let (report, settled) = settle(&p, &rules, 0).unwrap().expect("settled");
    assert_eq!(report.winner, None);
    assert_eq!(settled.nets, BySeat::new(300, -300, -300, 300));
}

/// §83: three false callers on one discard each pay the fourth player 100.
#[test]
fn three_false_callers_on_one_discard_each_pay_the_fourth() {
    let mut p = dealt();
    let rules = code();
    claimed_by(&mut p, &[Seat::North, Seat::West, Seat::South]);
    lay_down(&mut p, Seat::East);
    let f = p.false_call(&rules).unwrap();
    assert_eq!(f.offenders(), vec![Seat::South, Seat::West, Seat::North]);
    assert!(f.to_string().contains("the fourth player"), "{f}");
    let (_, settled) = settle(&p, &rules, 0).unwrap().unwrap();
    assert_eq!(settled.nets, BySeat::new(300, -100, -100, -100));
}

/// A rival who withdraws his claim before anyone else lays down is no offender: the caller
/// then pays alone, as §82 says.
#[test]
fn a_rival_who_withdraws_in_time_is_no_offender() {
    let mut p = dealt();
    let rules = code();
    claimed_by(&mut p, &[Seat::South, Seat::West]);
    assert_eq!(apply(&mut p, take_up(Seat::West)), Applied::Legal);
    lay_down(&mut p, Seat::North);
    // Too late now for the caller, and for a withdrawn rival it is nothing to withdraw.
    assert!(p.apply(&take_up(Seat::South)).is_err());
    let f = p.false_call(&rules).unwrap();
    assert_eq!(f.offenders(), vec![Seat::South]);
    assert!(
        f.to_string().contains("withdrew the claim at event 6"),
        "{f}"
    );
    let (_, settled) = settle(&p, &rules, 0).unwrap().unwrap();
    assert_eq!(settled.nets, BySeat::new(300, -900, 300, 300));
}

/// A rival may not withdraw once a seat that did not claim the discard has laid down.
#[test]
fn a_rival_cannot_withdraw_after_another_lays_down() {
    let mut p = dealt();
    claimed_by(&mut p, &[Seat::South, Seat::West]);
    lay_down(&mut p, Seat::North);
    let err = p.apply(&take_up(Seat::West)).unwrap_err();
    assert!(
        err.to_string().contains("west can no longer withdraw"),
        "{err}"
    );
}

/// Both false callers may still take up their hands while only they have shown tiles: the
/// caller takes up his, play resumes, and nobody pays.
#[test]
fn two_false_callers_who_have_only_shown_their_own_hands_may_take_them_up() {
    let mut p = dealt();
    let rules = code();
    claimed_by(&mut p, &[Seat::South, Seat::West]);
    lay_down(&mut p, Seat::West);
    assert_eq!(apply(&mut p, take_up(Seat::South)), Applied::Legal);
    assert_eq!(p.state().turn, Turn::Draw(Seat::South));
    let calls = p.false_calls(&rules);
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].penalty(), None);
}

/// A genuine rival behind a false call is no offender: South pays alone (§82), and the genuine
/// win does not count once the hand is abandoned.
#[test]
fn a_genuine_rival_is_no_offender() {
    let started = started([
        "1m 2m 3m 4m 5m 6m 7m 8m 9m E E E S 4p",
        "2p 3p 5p 6p 7p 8p 8p 8p 1s 1s 2s 3s 4s",
        "2m 2m 2m 5p 5p 5p 7s 7s 7s G G G S",
        "W W 1p 1p 5m 5m 9s 9s 3s 3s 6m 6m 8m",
    ]);
    let rules = code();
    let mut p = Replay::start(PlayRules::of(&rules), &started).unwrap();
    claimed_by(&mut p, &[Seat::South, Seat::West]);
    lay_down(&mut p, Seat::West);
    lay_down(&mut p, Seat::North);
    let f = p.false_call(&rules).unwrap();
    assert_eq!(f.offenders(), vec![Seat::South]);
    assert!(!f.citations().contains(&"Code §83"));
    assert!(
        f.to_string()
            .contains("it completes his hand: he is no offender"),
        "{f}"
    );
    let (_, settled) = settle(&p, &rules, 0).unwrap().unwrap();
    assert_eq!(settled.nets, BySeat::new(300, -900, 300, 300));
}

/// §83 read with §82: a false caller who was East gives up the title, rival or not. South
/// discards; West (nearer) and East both claim it for Mah-Jongg, falsely.
#[test]
fn a_co_offender_who_was_east_gives_up_the_title() {
    let mut p = dealt();
    let rules = code();
    for e in [
        HandEvent::TileDiscarded(TileDiscarded {
            seat: Seat::East,
            placed: t("4p"),
            named: t("4p"),
        }),
        HandEvent::ClaimPassed(crate::event::ClaimPassed { seat: Seat::South }),
        HandEvent::TileDrawn(TileDrawn {
            seat: Seat::South,
            tile: Some(AnyTile::Playing(t("9p"))),
        }),
        HandEvent::TileDiscarded(TileDiscarded {
            seat: Seat::South,
            placed: t("9p"),
            named: t("9p"),
        }),
        claim_mj(Seat::East, "9p"),
        claim_mj(Seat::West, "9p"),
        grant_mj(Seat::West),
        declare_on(Seat::West, "9p"),
    ] {
        apply(&mut p, e);
    }
    lay_down(&mut p, Seat::North);
    let f = p.false_call(&rules).unwrap();
    assert_eq!(f.offenders(), vec![Seat::West, Seat::East]);
    assert!(f.east_passes());
    assert!(
        f.to_string()
            .contains("east was East: the title of East passes"),
        "{f}"
    );
    let (_, settled) = settle(&p, &rules, 0).unwrap().unwrap();
    assert_eq!(settled.nets, BySeat::new(-300, 300, -300, 300));
}
