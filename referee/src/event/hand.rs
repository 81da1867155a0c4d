//! Events of a hand stream (`hand:<id>`): the deal, the play, and the hands laid down.
//!
//! Seats are the seats as drawn at the table (`SeatsDrawn`); `HandStarted::east` says which of
//! them is East, the dealer, in this hand.

use crate::{AnyTile, Bonus, Hand, Seat, Tile, Wind};
use serde::{Deserialize, Serialize};

use crate::ids::TableId;
use crate::BySeat;

/// What is known of the deal when the hand starts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "known")]
pub enum Deal {
    /// Nothing beyond the dice: the tiles are recorded as they are drawn.
    Unknown,
    /// The whole wall in drawing order, from the break, dealt in `order`.
    Wall {
        tiles: Vec<AnyTile>,
        #[serde(default, skip_serializing_if = "DealOrder::is_code")]
        order: DealOrder,
    },
    /// The tiles dealt to each seat.
    Hands { hands: BySeat<Vec<AnyTile>> },
}

/// The order the first fifty-three tiles of a known wall are dealt in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DealOrder {
    /// Code §24: three rounds of two stacks (four tiles) to East, South, West, North; then East
    /// one stack (two tiles), and South, West and North one tile each.
    #[default]
    Code,
    /// mj-server's: three rounds of four tiles, then one tile each, then East's fourteenth.
    FourFourFourOne,
}

impl DealOrder {
    pub fn is_code(&self) -> bool {
        *self == DealOrder::Code
    }

    /// (seat counted from East, tiles taken), in drawing order.
    pub fn takes(self) -> &'static [(usize, usize)] {
        #[rustfmt::skip]
        const CODE: [(usize, usize); 16] = [
            (0, 4), (1, 4), (2, 4), (3, 4),
            (0, 4), (1, 4), (2, 4), (3, 4),
            (0, 4), (1, 4), (2, 4), (3, 4),
            (0, 2), (1, 1), (2, 1), (3, 1),
        ];
        #[rustfmt::skip]
        const FOUR_FOUR_FOUR_ONE: [(usize, usize); 17] = [
            (0, 4), (1, 4), (2, 4), (3, 4),
            (0, 4), (1, 4), (2, 4), (3, 4),
            (0, 4), (1, 4), (2, 4), (3, 4),
            (0, 1), (1, 1), (2, 1), (3, 1),
            (0, 1),
        ];
        match self {
            DealOrder::Code => &CODE,
            DealOrder::FourFourFourOne => &FOUR_FOUR_FOUR_ONE,
        }
    }
}

/// A hand started.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HandStarted {
    pub table: TableId,
    pub game: u32,
    pub hand: u32,
    /// The seat that is East (the dealer) in this hand: its player holds East, the next seat South, and so on (Code §11).
    pub east: Seat,
    pub prevailing_wind: Wind,
    /// The dice thrown to break the wall.
    pub dice: Vec<u8>,
    pub deal: Deal,
}

/// A seat drew a tile from the live wall; `None` when the tile was not shown to the scorer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TileDrawn {
    pub seat: Seat,
    pub tile: Option<AnyTile>,
}

/// A seat drew a loose tile (replacement for a kong or a bonus tile).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LooseTileDrawn {
    pub seat: Seat,
    pub tile: Option<AnyTile>,
}

/// A seat declared a bonus tile (flower or season) and set it aside.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BonusTileDeclared {
    pub seat: Seat,
    pub tile: Bonus,
}

/// A seat discarded. The tile placed and the tile named can differ (Code §84): both are facts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TileDiscarded {
    pub seat: Seat,
    pub placed: Tile,
    pub named: Tile,
}

/// What a claim of a discard is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClaimKind {
    Chow,
    Pung,
    Kong,
    MahJongg,
}

impl ClaimKind {
    /// Every kind, lowest precedence first (Code §61).
    pub const ALL: [ClaimKind; 4] = [
        ClaimKind::Chow,
        ClaimKind::Pung,
        ClaimKind::Kong,
        ClaimKind::MahJongg,
    ];

    /// Its name in a sentence: "chow", "pung", "kong", "Mah-Jongg".
    pub const fn name(self) -> &'static str {
        match self {
            ClaimKind::Chow => "chow",
            ClaimKind::Pung => "pung",
            ClaimKind::Kong => "kong",
            ClaimKind::MahJongg => "Mah-Jongg",
        }
    }
}

impl std::fmt::Display for ClaimKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A seat claimed a discard.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClaimMade {
    pub seat: Seat,
    pub claim: ClaimKind,
    pub tile: Tile,
}

/// A seat took back the tile it discarded (Code §70: unclaimed, before the next player drew;
/// §74: a discard out of turn; §75: one of several tiles discarded together).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiscardTakenBack {
    pub seat: Seat,
    pub tile: Tile,
}

/// A seat took the live discard into its concealed hand (Code §81: never allowed; any player
/// may demand it back).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiscardTakenIntoHand {
    pub seat: Seat,
    pub tile: Tile,
}

/// A discard a seat had taken into its concealed hand goes back to the table, as another
/// player may demand (Code §81), not to be used for any purpose by that seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiscardReturned {
    /// The seat that had taken it.
    pub seat: Seat,
    pub tile: Tile,
}

/// A seat let the live discard go: it makes no claim on it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClaimPassed {
    pub seat: Seat,
}

/// The live discard went to a claimant, the claims on it weighed (Code §61–65).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClaimGranted {
    pub seat: Seat,
    pub claim: ClaimKind,
}

/// A seat laid on the table the set it completed with a claimed discard: `[123m]`, `[555p]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetExposed {
    pub seat: Seat,
    /// What the discard was claimed for: `chow` or `pung` (a kong is [`KongDeclared`]).
    pub claim: ClaimKind,
    /// The set's lowest tile (a chow's first).
    pub lowest: Tile,
}

/// A claim was withdrawn before or after exposure (Code §69–71).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClaimRetracted {
    pub seat: Seat,
    pub claim: ClaimKind,
    pub reason: String,
}

/// How a kong was formed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KongKind {
    /// Four drawn tiles, declared concealed: `{5555p}`.
    Concealed,
    /// A discard annexed to a concealed pung: `[5555p]`.
    AnnexedDiscard,
    /// A drawn tile added to an exposed pung: `[555p+5p]`.
    AddedToExposedPung,
}

/// A seat declared a kong.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KongDeclared {
    pub seat: Seat,
    pub kind: KongKind,
    pub tile: Tile,
    /// A concealed kong left unmarked (its two end tiles not turned down) when its declarer
    /// discarded: it "may score that kong as exposed only" (Code §52). Absent when marked.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unmarked: bool,
}

/// A seat announced an Original Call.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OriginalCallAnnounced {
    pub seat: Seat,
}

/// A seat whose dangerous discard was claimed showed its concealed tiles and pleaded No Choice
/// (Code §95): straight after the claim, before its next draw and before claiming anything.
/// Whether the plea stands — only dangerous tiles, after a draw — is the adjudication's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoChoicePleaded {
    pub seat: Seat,
}

/// A seat robbed a kong: took the tile added to an exposed pung to go Mah-Jongg.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KongRobbed {
    pub robber: Seat,
    pub from: Seat,
    pub tile: Tile,
}

/// A seat declared Mah-Jongg.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MahJonggDeclared {
    pub seat: Seat,
    pub winning_tile: Tile,
    pub self_drawn: bool,
}

/// A seat laid its hand down (Code §104). Stored in hand notation (`123m 55p [555s] {EEEE} 1f
/// =5p`) and checked by `referee::Hand` both ways, so an impossible hand is never recorded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HandExposed {
    pub seat: Seat,
    /// The hand as laid down, in the hand notation; checked on the way in and out.
    pub hand: Hand,
}

/// The hand was abandoned as a draw (wash-out): no one scores.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WashOut {
    pub reason: String,
}

/// The scorer struck the last entry of the play he had recorded: a slip of his own (the wrong
/// tile tapped, the wrong seat), not an act of the game. The entry stays in the record, shown
/// with the strike, who struck it and when; the play is folded without it, as if it had never
/// been recorded. Only the last entry standing may be struck, while the hand is in play; a
/// player's own change of mind is an act of the game (`ClaimRetracted`, `DiscardTakenBack`)
/// and the Code rules on it (§69–75).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EntryStruck {
    /// The entry struck, numbered as the replay numbers the play (the start is 0): checked
    /// against the last entry standing, so a strike decided on a stale page strikes nothing.
    pub entry: u32,
    /// What the slip was, in the scorer's words (may be empty).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reason: String,
}
