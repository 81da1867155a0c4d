//! What the scorer is told about a hand besides its tiles.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::counts::TileCounts;
use crate::hand::Hand;
use crate::tile::Wind;

/// Where the winning tile came from.
///
/// The four sources are `wall`, `loose-tile`, `discard` and `robbed-kong`; the circumstances
/// that may come with any of them — the last tile of the live wall (Code §117(i), (j)), Kong
/// upon Kong (§122(f)) — are flags of [`Win`], so that they combine (a loose tile that is also
/// the last available tile earns both §117(h) and §117(i)). The three older names that fused a
/// source with a circumstance are still read, from records and from the command line:
/// `last-wall-tile` is `wall` with `last_tile`, `last-discard` is `discard` with `last_tile`,
/// `kong-upon-kong` is `loose-tile` with `kong_upon_kong`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WinFrom {
    /// Drawn from the live wall.
    Wall,
    /// Drawn as the loose tile after a kong (or a bonus tile, where the ruleset replaces bonus
    /// tiles from the kong box).
    LooseTile,
    /// Claimed from a discard.
    Discard,
    /// Robbed from a kong being made by adding a tile to an exposed pung.
    RobbedKong,
    /// Older name: `wall` with the last-tile flag.
    LastWallTile,
    /// Older name: `discard` with the last-tile flag.
    LastDiscard,
    /// Older name: `loose-tile` with the Kong-upon-Kong flag.
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

    /// The source alone: an older fused name as the source it names.
    pub const fn source(self) -> WinFrom {
        match self {
            WinFrom::LastWallTile => WinFrom::Wall,
            WinFrom::LastDiscard => WinFrom::Discard,
            WinFrom::KongUponKong => WinFrom::LooseTile,
            w => w,
        }
    }

    /// An older fused name that says the tile was the last one (of the wall, or discarded
    /// after it).
    pub const fn implies_last_tile(self) -> bool {
        matches!(self, WinFrom::LastWallTile | WinFrom::LastDiscard)
    }
}

impl fmt::Display for WinFrom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown way of winning.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not where a winning tile comes from (expected one of: wall, loose-tile, discard, robbed-kong; the circumstances are flags: last tile, Kong upon Kong)")]
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
    /// The winning tile was the last available tile of the live wall (Code §117(i): drawn,
    /// or the loose tile of a kong completed after it), or came after it was drawn (§117(j):
    /// the last discard; a kong robbed then).
    #[serde(default)]
    pub last_tile: bool,
    /// The loose tile of a second kong completed in the same turn as the first (Code §122(f)).
    #[serde(default)]
    pub kong_upon_kong: bool,
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
    /// Where the tile came from (an older fused name read as its source).
    pub const fn source(&self) -> WinFrom {
        self.from.source()
    }

    /// The last tile of the live wall, or after it (flag or older name).
    pub const fn is_last_tile(&self) -> bool {
        self.last_tile || self.from.implies_last_tile()
    }

    /// Kong upon Kong (flag or older name).
    pub const fn is_kong_upon_kong(&self) -> bool {
        self.kong_upon_kong || matches!(self.from, WinFrom::KongUponKong)
    }

    /// A plain win.
    pub const fn from(from: WinFrom) -> Win {
        Win {
            from,
            last_tile: false,
            kong_upon_kong: false,
            original_call: false,
            heavens_blessing: false,
            earths_blessing: false,
            east_wins: 0,
        }
    }
}

/// The circumstances of a win that are not its source, as a report or a record states them:
/// each is a flag, so any may combine with any source (Code §117(h)–(l), §122(a), (b), (f)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Circumstances {
    /// See [`Win::last_tile`].
    #[serde(default, skip_serializing_if = "is_false")]
    pub last_tile: bool,
    /// See [`Win::kong_upon_kong`].
    #[serde(default, skip_serializing_if = "is_false")]
    pub kong_upon_kong: bool,
    /// See [`Win::original_call`].
    #[serde(default, skip_serializing_if = "is_false")]
    pub original_call: bool,
    /// See [`Win::heavens_blessing`].
    #[serde(default, skip_serializing_if = "is_false")]
    pub heavens_blessing: bool,
    /// See [`Win::earths_blessing`].
    #[serde(default, skip_serializing_if = "is_false")]
    pub earths_blessing: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl Circumstances {
    /// None of them: a plain win.
    pub fn is_none(&self) -> bool {
        *self == Circumstances::default()
    }

    /// A win from `from` in these circumstances (East's run of wins is the table's to count).
    pub const fn win(self, from: WinFrom) -> Win {
        Win {
            from,
            last_tile: self.last_tile,
            kong_upon_kong: self.kong_upon_kong,
            original_call: self.original_call,
            heavens_blessing: self.heavens_blessing,
            earths_blessing: self.earths_blessing,
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
