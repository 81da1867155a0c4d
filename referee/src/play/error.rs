//! What applying an event can come to: legal, irregular (with the rule), or inconsistent.

use std::fmt;

use crate::event::ClaimKind;
use crate::seat::Seat;
use crate::tile::{AnyTile, Tile};

use super::breach::Breach;

/// An event that was applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Applied {
    Legal,
    /// It happened against the rules: applied as it happened, for the referee to rule on.
    Irregular(Vec<Irregularity>),
}

/// One rule an event breaks: which ([`Breach`]), by whom, where the rule is, and what happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Irregularity {
    /// The rule broken, from a closed list.
    pub breach: Breach,
    /// The seat whose act broke it; `None` only for what the table did as a whole (a hand
    /// abandoned as a wash-out with tiles left in the wall).
    pub seat: Option<Seat>,
    /// Where the rule is: "Code §73" (always `breach.rule()`).
    pub rule: &'static str,
    /// What happened, in a sentence.
    pub what: String,
}

impl Irregularity {
    pub(crate) fn new(breach: Breach, seat: Option<Seat>, what: impl Into<String>) -> Irregularity {
        Irregularity {
            breach,
            seat,
            rule: breach.rule(),
            what: what.into(),
        }
    }

    /// `seat` broke `breach`.
    pub(crate) fn by(seat: Seat, breach: Breach, what: impl Into<String>) -> Irregularity {
        Irregularity::new(breach, Some(seat), what)
    }
}

impl fmt::Display for Irregularity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.what, self.rule)
    }
}

/// An event that cannot have happened given what is known: refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("event {event} of the hand cannot be applied: {kind}")]
pub struct PlayError {
    /// Its position in the hand's stream (the start is 0).
    pub event: usize,
    pub kind: Inconsistent,
}

/// Why an event is inconsistent.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Inconsistent {
    #[error(
        "the deal gives {got} tiles, but a hand starts with {expected} dealt ({seat} {seat_count})"
    )]
    BadDeal {
        got: usize,
        expected: usize,
        seat: Seat,
        seat_count: usize,
    },
    #[error("the wall holds {got} tiles, but this set has {expected}")]
    BadWall { got: usize, expected: u32 },
    #[error("a fifth `{0}` would be in play")]
    FifthCopy(Tile),
    #[error("more `{0}` than the set holds would be in play")]
    TooManyBonus(crate::tile::Bonus),
    #[error("{seat} draws from the {wall}, which is empty")]
    WallEmpty { seat: Seat, wall: &'static str },
    #[error("{seat} drew `{tile}`, which is not left in the wall")]
    NotInWall { seat: Seat, tile: AnyTile },
    #[error("{seat} does not hold `{tile}`")]
    NotHeld { seat: Seat, tile: AnyTile },
    #[error("{seat} would hold fewer than no tiles")]
    NothingHeld { seat: Seat },
    #[error("there is no discard to {what}")]
    NoLiveDiscard { what: &'static str },
    #[error("{seat} took no discard `{tile}` into its hand to return (Code §81)")]
    NothingToReturn { seat: Seat, tile: Tile },
    #[error("{seat} claims `{tile}`, but the live discard is `{placed}`")]
    NotTheDiscard {
        seat: Seat,
        tile: Tile,
        placed: Tile,
    },
    #[error("{seat} has made no claim for {} to {what}", claim.name())]
    NoSuchClaim {
        seat: Seat,
        claim: ClaimKind,
        what: &'static str,
    },
    #[error("the set exposed by {seat} does not hold the claimed `{tile}`")]
    SetWithoutDiscard { seat: Seat, tile: Tile },
    #[error("there is no chow beginning with `{0}`")]
    NoSuchChow(Tile),
    #[error("{seat} has no exposed pung of `{tile}` to add a fourth to")]
    NoExposedPung { seat: Seat, tile: Tile },
    #[error("no kong of `{tile}` is being declared by {from}, so none can be robbed")]
    NoKongToRob { from: Seat, tile: Tile },
    #[error("the hand is over ({0})")]
    HandOver(String),
    #[error("a hand is started once, by its first event")]
    StartedTwice,
    #[error("{0} is not part of the play (it belongs to the scoring or adjudication of the hand)")]
    NotPlay(&'static str),
    #[error("the position accounts for {accounted} tiles (in hands, sets and bonus tiles, among the discards showing, in the live wall and the kong box as written), but the set has {expected}")]
    PositionTiles { accounted: u32, expected: u32 },
    #[error("{seat} laid its hand down before the hand was over (Code §104: after Mah-Jongg)")]
    LaidDownEarly { seat: Seat },
    #[error("the hand {seat} laid down does not match its tiles: {why}")]
    LaidDownMismatch { seat: Seat, why: String },
    #[error("{seat} claimed a score {why}")]
    ScoreClaim { seat: Seat, why: &'static str },
}

impl From<crate::FifthCopy> for Inconsistent {
    fn from(e: crate::FifthCopy) -> Inconsistent {
        Inconsistent::FifthCopy(e.tile)
    }
}
