//! Events that carry how a hand was scored: the itemized score sheets under the table's
//! ruleset, how the winning tile came, and penalties.
//!
//! These were added after the first vocabulary (schema version 1 of each type); they are new
//! event types rather than new fields, so every event recorded before them still reads and
//! re-encodes to the same bytes.

use crate::{Seat, Tile};
use serde::{Deserialize, Serialize};

use crate::event::RulesetRef;
use crate::score::{Circumstances, ScoreSheet};
use crate::BySeat;

/// How the winning tile came: the rules engine's own type (its wire names are `wall`,
/// `loose-tile`, `discard`, …), so the scorer and the ledger cannot disagree.
pub use crate::WinFrom;

/// How the hand was won: the winner, the tile, where it came from and who gave it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WinContext {
    pub winner: Seat,
    pub tile: Tile,
    pub from: WinFrom,
    /// The seat whose discard (or kong) gave the winning tile.
    pub discarder: Option<Seat>,
    /// The last tile, Kong upon Kong, an original call, a blessing (absent when none).
    #[serde(default, skip_serializing_if = "Circumstances::is_none")]
    pub circumstances: Circumstances,
}

/// Penalties are the settlement's own type, keyed by the seats as drawn.
pub use crate::settle::Penalty;

/// The hand was scored under a ruleset: each seat's itemized sheet, how it was won, and any
/// penalties. Recorded in the same append as the settlement it leads to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HandScored {
    pub ruleset: RulesetRef,
    /// `None` for a wash-out.
    pub win: Option<WinContext>,
    pub penalties: Vec<Penalty<Seat>>,
    /// Each seat's itemized sheet, as the referee's scorer produced it (schema version 2; version
    /// 1 stored each line's value as text and is upcast on reading).
    /// Boxed: four sheets inline made every event of a hand (a draw is three bytes) the size
    /// of this one, 568 bytes, and a hand of play hundreds of those copied at each step.
    pub sheets: Box<BySeat<ScoreSheet>>,
}
