//! What applying an event can come to: legal, irregular (with the rule), or inconsistent.

use std::fmt;

use crate::event::{ClaimKind, KongKind};
use crate::seat::Seat;
use crate::tile::{AnyTile, Bonus, Tile};

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

/// Each rule of play the replay can find broken by one event (Code §16–81, §84–88, §95, and
/// the ruleset's own limits). The adjudication turns each into a finding with its consequence
/// ([`crate::adjudicate::irregular`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Breach {
    /// §31: a bonus tile declared after the turn it was drawn in.
    BonusDeclaredLate(Bonus),
    /// §31: a discard made while a bonus tile drawn in that turn was still undeclared.
    BonusNotDeclared(Bonus),
    /// §36: a seat claimed its own discard.
    OwnDiscardClaimed,
    /// §40: a chow claimed of a discard from a seat not on the claimer's left.
    ChowNotFromLeft { discarder: Seat },
    /// §39, §43: a set laid down by a seat that was not to lay one down.
    ExposedOutOfTurn,
    /// The ruleset's limit on chows (a house rule, not the Code's).
    ChowBeyondLimit { max: u8 },
    /// §55(a): an Original Call announced other than straight after the seat's first discard.
    OriginalCallMistimed,
    /// §95(b): No Choice pleaded other than straight after the discard was claimed.
    NoChoiceLate,
    /// §72: a tile drawn from a known wall that was not the next one.
    WrongTileDrawn,
    /// §73: a draw from the live wall out of turn.
    DrawOutOfTurn { turn_of: Option<Seat> },
    /// §46, §48, §50 (with §73): a loose tile drawn when none was owed.
    LooseTileOutOfTurn { turn_of: Option<Seat> },
    /// §74: a discard out of turn.
    DiscardOutOfTurn { turn_of: Option<Seat> },
    /// §75: a second tile discarded while the first was still the live discard.
    TwoDiscards,
    /// §84: a discard placed as one tile and named as another.
    FalselyNamed { placed: Tile, named: Tile },
    /// §85–88: a claim of the tile named, not the tile placed.
    NamedTileClaimed {
        discarder: Seat,
        claim: ClaimKind,
        placed: Tile,
        named: Tile,
    },
    /// §61: the discard went to a claim over another that takes precedence.
    Precedence {
        claim: ClaimKind,
        over: Seat,
        their: ClaimKind,
    },
    /// §71: a discard taken back after it was claimed.
    DiscardTakenBackAfterClaim,
    /// §81: a discard taken into a concealed hand.
    DiscardIntoHand,
    /// §46, §48, §50–51: a kong declared by a seat that was not to declare one.
    KongOutOfTurn(KongKind),
    /// The ruleset has no robbing of kongs.
    KongRobbedUnderRuleset { from: Seat },
    /// §58: a concealed kong robbed other than for the Thirteen Unique Wonders.
    ConcealedKongRobbed { from: Seat },
    /// §54: Mah-Jongg on a seat's own draw, out of its turn.
    MahJonggOutOfTurn,
    /// §53: Mah-Jongg on a discard the seat had not been granted for Mah-Jongg.
    MahJonggOnUnclaimedDiscard,
    /// §36, §97: the hand ended as a wash-out with tiles left in the live wall.
    EarlyWashOut { left: u32 },
}

impl Breach {
    /// Where the rule is.
    pub const fn rule(self) -> &'static str {
        match self {
            Breach::BonusDeclaredLate(_) | Breach::BonusNotDeclared(_) => "Code §31",
            Breach::OwnDiscardClaimed => "Code §36",
            Breach::ChowNotFromLeft { .. } => "Code §40",
            Breach::ExposedOutOfTurn => "Code §39, §43",
            Breach::ChowBeyondLimit { .. } => "ruleset: one chow per hand",
            Breach::OriginalCallMistimed => "Code §55",
            Breach::NoChoiceLate => "Code §95(b)",
            Breach::WrongTileDrawn => "Code §72",
            Breach::DrawOutOfTurn { .. } => "Code §73",
            Breach::LooseTileOutOfTurn { .. } => "Code §46, §48, §50",
            Breach::DiscardOutOfTurn { .. } => "Code §74",
            Breach::TwoDiscards => "Code §75",
            Breach::FalselyNamed { .. } => "Code §84",
            Breach::NamedTileClaimed { .. } => "Code §85–88",
            Breach::Precedence { .. } => "Code §61",
            Breach::DiscardTakenBackAfterClaim => "Code §71",
            Breach::DiscardIntoHand => "Code §81",
            Breach::KongOutOfTurn(KongKind::Concealed) => "Code §50–51",
            Breach::KongOutOfTurn(KongKind::AddedToExposedPung) => "Code §48",
            Breach::KongOutOfTurn(KongKind::AnnexedDiscard) => "Code §46",
            Breach::KongRobbedUnderRuleset { .. } => "the ruleset's kong_robbing",
            Breach::ConcealedKongRobbed { .. } => "Code §58",
            Breach::MahJonggOutOfTurn => "Code §54",
            Breach::MahJonggOnUnclaimedDiscard => "Code §53",
            Breach::EarlyWashOut { .. } => "Code §36, §97",
        }
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
    #[error("{seat} claims `{tile}`, but the live discard is `{placed}`")]
    NotTheDiscard {
        seat: Seat,
        tile: Tile,
        placed: Tile,
    },
    #[error("{seat} has made no {claim:?} claim to {what}")]
    NoSuchClaim {
        seat: Seat,
        claim: Option<ClaimKind>,
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
