//! Hands dealt with known tiles and events written shortly, for the findings' tests.

use crate::event::{
    ClaimGranted, ClaimKind, ClaimMade, ClaimRetracted, Deal, HandEvent, HandExposed, HandStarted,
    KongDeclared, KongKind, MahJonggDeclared, SetExposed, TileDiscarded, TileDrawn,
};
use crate::ids::TableId;
use crate::play::PlayRules;

use super::{Replay, Replayed};
use crate::tile::{AnyTile, Tile, Wind};
use crate::{BySeat, Ruleset, Seat};

use super::{findings, Finding};

pub fn t(s: &str) -> Tile {
    s.parse().unwrap()
}

pub fn code() -> Ruleset {
    Ruleset::builtin("code-of-laws").unwrap()
}

pub fn started(east: &str, south: &str, west: &str, north: &str) -> HandStarted {
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
            hands: BySeat::new(parse(east), parse(south), parse(west), parse(north)),
        },
    }
}

/// East holds 1p to throw and is calling 1p once the South wind goes; South waits on 1p or 4p
/// (2p 3p with four sets made); North holds pairs of 1p, 5m, 6m, 2s, 3s and West wind, and a
/// 5m 6m for a chow of 7m.
pub fn table() -> HandStarted {
    started(
        "1m 2m 3m 4m 5m 6m 7m 8m 9m E E E S 1p",
        "2p 3p 5p 6p 7p 8p 8p 8p 1s 1s 2s 3s 4s",
        "9m 9m 5s 6s 7s 8s 9s R R G G N N",
        "W W 1p 1p 5m 5m 2s 2s 3s 3s 6m 6m 8m",
    )
}

/// The hand `started` replayed through `events` under the Code; every event must apply.
pub fn replay(started: &HandStarted, events: &[HandEvent]) -> Replayed {
    let r = Replay::replay(PlayRules::of(&code()), started, events).unwrap();
    assert!(r.refused.is_none(), "{:?}", r.refused);
    r
}

/// Every finding of the hand `started` played through `events`.
pub fn judge(started: &HandStarted, events: &[HandEvent]) -> Vec<Finding> {
    findings(&replay(started, events), &code())
}

/// The one finding of `kind`.
pub fn only<'a>(found: &'a [Finding], kind: &str) -> &'a Finding {
    let of: Vec<&Finding> = found.iter().filter(|f| f.kind() == kind).collect();
    assert_eq!(of.len(), 1, "one {kind} in {found:#?}");
    of[0]
}

pub fn discard(seat: Seat, tile: &str) -> HandEvent {
    named(seat, tile, tile)
}

pub fn named(seat: Seat, placed: &str, named: &str) -> HandEvent {
    HandEvent::TileDiscarded(TileDiscarded {
        seat,
        placed: t(placed),
        named: t(named),
    })
}

pub fn draw(seat: Seat, tile: &str) -> HandEvent {
    HandEvent::TileDrawn(TileDrawn {
        seat,
        tile: Some(tile.parse().unwrap()),
    })
}

pub fn claim(seat: Seat, claim: ClaimKind, tile: &str) -> HandEvent {
    HandEvent::ClaimMade(ClaimMade {
        seat,
        claim,
        tile: t(tile),
    })
}

pub fn grant(seat: Seat, claim: ClaimKind) -> HandEvent {
    HandEvent::ClaimGranted(ClaimGranted { seat, claim })
}

pub fn expose(seat: Seat, claim: ClaimKind, lowest: &str) -> HandEvent {
    HandEvent::SetExposed(SetExposed {
        seat,
        claim,
        lowest: t(lowest),
    })
}

pub fn retract(seat: Seat, claim: ClaimKind) -> HandEvent {
    HandEvent::ClaimRetracted(ClaimRetracted {
        seat,
        claim,
        reason: "changed his mind".into(),
    })
}

pub fn kong(seat: Seat, kind: KongKind, tile: &str) -> HandEvent {
    HandEvent::KongDeclared(KongDeclared {
        seat,
        kind,
        tile: t(tile),
        unmarked: false,
    })
}

pub fn mahjongg(seat: Seat, tile: &str, self_drawn: bool) -> HandEvent {
    HandEvent::MahJonggDeclared(MahJonggDeclared {
        seat,
        winning_tile: t(tile),
        self_drawn,
    })
}

/// `seat` lays its hand down as it holds it, after the hand.
pub fn lay_down(p: &mut Replay, seat: Seat) {
    let hand = p.state().hand_of(seat).unwrap();
    p.apply(&HandEvent::HandExposed(HandExposed { seat, hand }))
        .unwrap();
}

/// Asserts what every finding of one kind must say: its kind, offender and citations, and that
/// its text explains what follows (each of `says`).
pub fn assert_finding(
    f: &Finding,
    kind: &str,
    offender: Option<Seat>,
    cites: &[&str],
    says: &[&str],
) {
    assert_eq!(f.kind(), kind, "{f}");
    assert_eq!(f.offender(), offender, "{f}");
    let citations = f.citations();
    for c in cites {
        assert!(citations.contains(c), "{kind} cites {c}: {citations:?}");
    }
    let text = f.to_string();
    for s in says {
        assert!(text.contains(s), "{kind} says `{s}`: {text}");
    }
    assert!(
        text.starts_with(&format!("Event {}: ", f.event())),
        "{text}"
    );
}
