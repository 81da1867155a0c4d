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

/// How the winning tile came (Code §114–116 score some of these).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WinFrom {
    /// Drawn from the live wall.
    Wall,
    /// Drawn as a loose tile after a kong or a bonus tile.
    LooseTile,
    /// Claimed from a discard.
    Discard,
    /// Robbed from a kong being completed.
    RobbedKong,
    /// The last tile of the live wall.
    LastWallTile,
    /// The discard of the last tile of the live wall.
    LastDiscard,
    /// A loose tile drawn after a second kong declared in succession.
    KongUponKong,
}

impl WinFrom {
    /// Every way, in the order forms list them.
    pub const ALL: [WinFrom; 7] = [
        WinFrom::Wall,
        WinFrom::LooseTile,
        WinFrom::Discard,
        WinFrom::RobbedKong,
        WinFrom::LastWallTile,
        WinFrom::LastDiscard,
        WinFrom::KongUponKong,
    ];

    /// The wire name (`loose-tile`).
    pub const fn name(self) -> &'static str {
        match self {
            WinFrom::Wall => "wall",
            WinFrom::LooseTile => "loose-tile",
            WinFrom::Discard => "discard",
            WinFrom::RobbedKong => "robbed-kong",
            WinFrom::LastWallTile => "last-wall-tile",
            WinFrom::LastDiscard => "last-discard",
            WinFrom::KongUponKong => "kong-upon-kong",
        }
    }

    /// Was the winning tile the winner's own draw (rather than another player's tile)?
    pub const fn self_drawn(self) -> bool {
        matches!(
            self,
            WinFrom::Wall | WinFrom::LooseTile | WinFrom::LastWallTile | WinFrom::KongUponKong
        )
    }

    /// Did the tile come from another player (a discard or a robbed kong)?
    pub const fn needs_discarder(self) -> bool {
        !self.self_drawn()
    }
}

impl std::fmt::Display for WinFrom {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for WinFrom {
    type Err = String;
    fn from_str(s: &str) -> Result<WinFrom, String> {
        WinFrom::ALL
            .into_iter()
            .find(|w| w.name() == s)
            .ok_or_else(|| format!("`{s}` is not a way of winning (wall, loose-tile, discard, robbed-kong, last-wall-tile, last-discard, kong-upon-kong)"))
    }
}

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
