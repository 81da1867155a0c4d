//! Events that carry how a hand was scored and how a tournament is configured: the itemized
//! score sheets under the table's ruleset, how the winning tile came, penalties, the seed of a
//! random seat draw, and the tournament's ruleset, limit and starting chips.
//!
//! These were added after the first vocabulary (schema version 1 of each type); they are new
//! event types rather than new fields, so every event recorded before them still reads and
//! re-encodes to the same bytes.

use referee::{Tile, Wind};
use serde::{Deserialize, Serialize};

use crate::event::RulesetRef;
use crate::{BySeat, TableId};

/// How the winning tile came: the rules engine's own type (its wire names are `wall`,
/// `loose-tile`, `discard`, …), so the scorer and the ledger cannot disagree.
pub use referee::WinFrom;

/// How the hand was won: the winner, the tile, where it came from and who gave it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WinContext {
    pub winner: Wind,
    pub tile: Tile,
    pub from: WinFrom,
    /// The seat whose discard (or kong) gave the winning tile.
    pub discarder: Option<Wind>,
}

/// A penalty paid outside the hand's score (e.g. a false Mah-Jongg, Code §§ 91–96).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Penalty {
    pub payer: Wind,
    /// The seat paid; `None` when the amount is paid to each of the other three.
    pub payee: Option<Wind>,
    pub amount: i64,
    pub reason: String,
}

/// One line of an itemized score sheet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScoreLine {
    /// What scored: "pung of red dragons, exposed".
    pub text: String,
    /// The rule it rests on: "Code §114(c)".
    pub citation: String,
    /// What it is worth: "4 points", "1 double", "limit".
    pub value: String,
}

/// A seat's itemized score sheet under a ruleset.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScoreSheet {
    pub lines: Vec<ScoreLine>,
    /// Basic points before doubling.
    pub basic: u64,
    /// Doubles applied.
    pub doubles: u32,
    /// `basic × 2^doubles`, before any limit.
    pub raw: u64,
    /// True when the limit cut the raw score.
    pub limited: bool,
    /// The score that is settled.
    pub total: u64,
}

/// The hand was scored under a ruleset: each seat's itemized sheet, how it was won, and any
/// penalties. Recorded in the same append as the settlement it leads to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HandScored {
    pub ruleset: RulesetRef,
    /// `None` for a wash-out.
    pub win: Option<WinContext>,
    pub penalties: Vec<Penalty>,
    pub sheets: BySeat<ScoreSheet>,
}

/// A tournament's playing conditions: the ruleset (a built-in or a house ruleset whose text is
/// recorded here, so the tournament can always be re-scored), the limit and the starting chips.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentConfigured {
    pub ruleset: RulesetRef,
    pub title: String,
    /// The text of an uploaded house ruleset; `None` for a built-in.
    pub house_ruleset: Option<String>,
    /// The limit on one hand's score; `None` for no limit.
    pub limit: Option<u64>,
    pub starting_chips: i64,
}

/// The seats at a table were drawn at random by the program with this seed (recorded just
/// before the `SeatsDrawn` it produced, so the draw can be reproduced and checked).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatDrawSeeded {
    pub table: TableId,
    pub seed: u64,
    /// How the seed became seats, e.g. "rand 0.9 StdRng shuffle of players in registration order".
    pub method: String,
}
