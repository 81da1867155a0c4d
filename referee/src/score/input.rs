//! What the scorer is told about a hand besides its tiles.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::counts::TileCounts;
use crate::hand::Hand;
use crate::tile::Wind;

/// How the winning tile came.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WinFrom {
    /// Drawn from the live wall.
    Wall,
    /// Drawn as the loose tile after a kong (or a bonus tile).
    LooseTile,
    /// Claimed from a discard.
    Discard,
    /// Robbed from a kong being made by adding a tile to an exposed pung.
    RobbedKong,
    /// The last tile of the live wall, drawn.
    LastWallTile,
    /// The discard made after the last tile of the wall was drawn.
    LastDiscard,
    /// The loose tile of a second kong made in the same turn (Code §122(f)).
    KongUponKong,
}

impl WinFrom {
    /// Every way, in order.
    pub const ALL: [WinFrom; 7] = [
        WinFrom::Wall,
        WinFrom::LooseTile,
        WinFrom::Discard,
        WinFrom::RobbedKong,
        WinFrom::LastWallTile,
        WinFrom::LastDiscard,
        WinFrom::KongUponKong,
    ];

    /// The stable name (`wall`, `loose-tile`, …).
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

    /// Drawn by the winner (so the set it completes is concealed).
    pub const fn is_drawn(self) -> bool {
        matches!(
            self,
            WinFrom::Wall | WinFrom::LooseTile | WinFrom::LastWallTile | WinFrom::KongUponKong
        )
    }

    /// Came from another player (a discard or a robbed kong), who must be named.
    pub const fn needs_discarder(self) -> bool {
        !self.is_drawn()
    }

    /// A loose tile (after a kong).
    pub const fn is_loose(self) -> bool {
        matches!(self, WinFrom::LooseTile | WinFrom::KongUponKong)
    }
}

impl fmt::Display for WinFrom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown way of winning.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a way of winning (expected one of: wall, loose-tile, discard, robbed-kong, last-wall-tile, last-discard, kong-upon-kong)")]
pub struct ParseWinFromError(pub String);

impl FromStr for WinFrom {
    type Err = ParseWinFromError;
    fn from_str(s: &str) -> Result<WinFrom, ParseWinFromError> {
        WinFrom::ALL
            .into_iter()
            .find(|w| w.name() == s)
            .ok_or_else(|| ParseWinFromError(s.to_owned()))
    }
}

/// The circumstances of a Mah-Jongg.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Win {
    pub from: WinFrom,
    /// The winner had announced an original call (Code §117(l); Babcock "Lucky Thirteen").
    #[serde(default)]
    pub original_call: bool,
    /// East's dealt hand was complete (Code §122(a)).
    #[serde(default)]
    pub heavens_blessing: bool,
    /// Won on East's first discard with a dealt calling hand (Code §122(b)).
    #[serde(default)]
    pub earths_blessing: bool,
    /// For East: how many hands running he has now won, this one included (Code §122(r)).
    #[serde(default)]
    pub east_wins: u32,
}

impl Win {
    /// A plain win.
    pub const fn from(from: WinFrom) -> Win {
        Win {
            from,
            original_call: false,
            heavens_blessing: false,
            earths_blessing: false,
            east_wins: 0,
        }
    }
}

/// Everything the scorer needs about one player's hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoreInput {
    pub hand: Hand,
    /// The player's seat wind.
    pub seat: Wind,
    /// The wind of the round.
    pub prevailing: Wind,
    /// `Some` for the Mah-Jongg hand, which must carry its winning tile.
    pub win: Option<Win>,
    /// Tiles visible on the table (discards and every exposed set, not the winning tile), for
    /// the Code's "only possible tile" (§115(c)).
    pub visible: TileCounts,
}

impl ScoreInput {
    /// A losing hand.
    pub fn losing(hand: Hand, seat: Wind, prevailing: Wind) -> ScoreInput {
        ScoreInput {
            hand,
            seat,
            prevailing,
            win: None,
            visible: TileCounts::EMPTY,
        }
    }

    /// A winning hand.
    pub fn winning(hand: Hand, seat: Wind, prevailing: Wind, win: Win) -> ScoreInput {
        ScoreInput {
            hand,
            seat,
            prevailing,
            win: Some(win),
            visible: TileCounts::EMPTY,
        }
    }
}
