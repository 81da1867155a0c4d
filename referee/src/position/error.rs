//! What can be wrong with a position line: its syntax ([`SyntaxError`]) apart from its meaning
//! ([`Problem`]). Each says where: the field, and the character column in the whole line
//! (from 1).

use std::fmt;

use crate::hand::{HandError, HandProblem, HandSyntaxError};
use crate::notation::ParseTileError;
use crate::seat::Seat;
use crate::tile::{Bonus, Tile};

/// A field of the line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    Context,
    Seat(Seat),
    Discards,
    Wall,
    Turn,
    Acts,
}

impl Field {
    /// The field's number in the line, from 1.
    pub const fn number(self) -> usize {
        match self {
            Field::Context => 1,
            Field::Seat(s) => 2 + s.index(),
            Field::Discards => 6,
            Field::Wall => 7,
            Field::Turn => 8,
            Field::Acts => 9,
        }
    }
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.number();
        match self {
            Field::Context => write!(f, "field {n} (context)"),
            Field::Seat(s) => write!(f, "field {n} ({s} seat)"),
            Field::Discards => write!(f, "field {n} (discards)"),
            Field::Wall => write!(f, "field {n} (wall)"),
            Field::Turn => write!(f, "field {n} (turn)"),
            Field::Acts => write!(f, "field {n} (acts)"),
        }
    }
}

/// Text that is not position notation, where it is.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("column {column}, {field}: {kind}")]
pub struct SyntaxError {
    pub field: Field,
    pub column: usize,
    pub kind: SyntaxKind,
}

/// Why text is not position notation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SyntaxKind {
    #[error("a position has 8 fields separated by `|` (9 with the acts), not {0}")]
    FieldCount(usize),
    #[error("`{0}` is not part of the context (write `g1 h1 dealer:E prevailing:E`)")]
    UnknownContext(String),
    #[error("the context gives `{0}` twice")]
    RepeatedContext(&'static str),
    #[error("the context lacks `{0}`")]
    MissingContext(&'static str),
    #[error("`{0}` is not a number")]
    NotANumber(String),
    #[error("`{0}` is not a seat: E, S, W or N")]
    NotASeat(String),
    #[error("`{0}` is not a wind: E, S, W or N")]
    NotAWind(String),
    #[error("the seat field is labelled `{found}`, but this field is {expected}'s (write `{}:`)", expected.letter())]
    WrongLabel { expected: Seat, found: String },
    #[error("a seat field begins with its label, `E:`, `S:`, `W:` or `N:`")]
    MissingLabel,
    #[error("the concealed tiles are counted (`?{0}`) and also written")]
    CountedAndKnown(u32),
    #[error("the concealed tiles are counted twice")]
    CountedTwice,
    #[error(transparent)]
    Hand(HandSyntaxError),
    #[error("`{0}` is not a discard: write the seat, `:` and the tile, as `S:5p`, and `>W` if West claimed it")]
    NotADiscard(String),
    #[error("`{0}` is not a tile count of the wall: write `live:70` and, if known, `box:16`")]
    NotAWallCount(String),
    #[error("the wall field lacks `live:`")]
    MissingLive,
    #[error("`{0}` is not a turn: write the seat, `:` and draw, dealt, drew, loose, chow, pung or kong (as `S:drew 5p`)")]
    NotATurn(String),
    #[error("`{0}` is not a tile here: {1}")]
    BadTile(String, ParseTileError),
    #[error("`{0}` is not an act: {1}")]
    NotAnAct(String, &'static str),
    #[error("the hand shown: {0}")]
    HandShown(HandError),
    #[error("an empty field: write `-` for no discards, or leave the acts off")]
    Empty,
}

/// Something a well-formed position says that cannot be, where it is.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("column {column}, {field}: {kind}")]
pub struct Problem {
    pub field: Field,
    pub column: usize,
    pub kind: ProblemKind,
}

/// Why a position cannot be.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ProblemKind {
    #[error("a fifth `{0}` (the set holds four of each tile)")]
    FifthCopy(Tile),
    #[error("bonus tile `{0}` more than twice (no set has more than two of each)")]
    TooManyBonus(Bonus),
    #[error("{0}")]
    Set(HandProblem),
    #[error("{seat} holds {held} tiles counting each set as three; no hand at a table holds more than {max} (thirteen, one drawn, and a few drawn out of turn, Code §73, §89)")]
    TooManyTiles { seat: Seat, held: u32, max: u32 },
    #[error(
        "a winning tile belongs to a hand laid down after Mah-Jongg (an act), not to a position"
    )]
    WinningTile,
    #[error("concealed groups belong to a hand laid down after Mah-Jongg, not to a position")]
    Grouped,
    #[error("the {0}th hand or game: they are counted from 1")]
    CountedFromOne(u32),
    #[error("{seat} claimed its own discard")]
    OwnDiscard { seat: Seat },
    #[error("{claimer} claimed {seat}'s `{tile}`, but has no exposed set holding it")]
    ClaimedNotInSet {
        seat: Seat,
        claimer: Seat,
        tile: Tile,
    },
    #[error("{claimer} claimed {seat}'s `{tile}` for chow, but only the next player may chow a discard (Code §40)")]
    ChowNotFromLeft {
        seat: Seat,
        claimer: Seat,
        tile: Tile,
    },
    #[error("{claimer} has claimed {claims} discards but holds {sets} sets made with a discard")]
    MoreClaimsThanSets {
        claimer: Seat,
        claims: usize,
        sets: usize,
    },
    #[error("the turn ({seat}, {stage}) cannot be: {why}")]
    Turn {
        seat: Seat,
        stage: &'static str,
        why: String,
    },
}

/// Why a line is not a position: its syntax, or (once the syntax is sound) its meaning; every
/// error found of the kind.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("{}", join(.0))]
    Syntax(Vec<SyntaxError>),
    #[error("{}", join(.0))]
    Invalid(Vec<Problem>),
}

impl PositionError {
    /// The syntax errors (empty when the syntax is sound).
    pub fn syntax(&self) -> &[SyntaxError] {
        match self {
            PositionError::Syntax(v) => v,
            PositionError::Invalid(_) => &[],
        }
    }

    /// The problems of meaning (empty when the syntax is not sound: they are then not looked
    /// for).
    pub fn problems(&self) -> &[Problem] {
        match self {
            PositionError::Syntax(_) => &[],
            PositionError::Invalid(v) => v,
        }
    }
}

fn join<T: fmt::Display>(v: &[T]) -> String {
    v.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}
