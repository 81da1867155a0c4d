//! The catalogue of conditions a scoring element can test.
//!
//! A ruleset file says *what* scores and *how much* ("a concealed pung of major tiles, 8
//! points, Code §114(b)"); this catalogue is the fixed vocabulary of *what*: each condition is
//! something the scorer knows how to find in a hand. Every book's score table is made of these
//! words, so adding a ruleset is writing data, and a condition no ruleset uses is never
//! evaluated. Names are kebab-case and stable: they appear in ruleset files.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::shape::SpecialShape;

/// What an element looks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Condition {
    // ---- Sets: counted once per matching set; `tiles` and `exposure` filter them. ----
    /// A pung (three alike, not a kong).
    Pung,
    /// A kong (four alike).
    Kong,
    /// A pung or a kong ("a set of Dragons", Code §116(d)).
    PungOrKong,
    /// A pair (the hand's pair; a losing hand may hold several).
    Pair,
    /// A chow.
    Chow,

    // ---- Bonus tiles (all hands). ----
    /// Each bonus tile (flower or season).
    BonusTile,
    /// Each of the player's own flowers.
    OwnFlower,
    /// Each of the player's own seasons (two colours may give two).
    OwnSeason,
    /// Own flower and own season both declared (Code §116(a)).
    OwnFlowerAndSeason,
    /// Both of the player's own seasons (two colours: Babcock's Shanghai variation, p. 90).
    OwnSeasonPair,
    /// All four flowers.
    AllFlowers,
    /// All four seasons (counted per complete set of four).
    AllSeasons,

    // ---- Combinations of sets (all hands). ----
    /// Two sets of dragons and a pair of the third.
    LittleThreeDragons,
    /// Three sets of dragons.
    BigThreeDragons,
    /// Three sets of winds and a pair of the fourth.
    LittleFourWinds,
    /// Four sets of winds.
    BigFourWinds,
    /// Three sets of winds including the player's own and a pair of the fourth (Babcock's
    /// "Four Wind Hand", an optional limit).
    FourWindHand,
    /// Exactly three concealed pungs or kongs.
    ThreeConcealedPungs,
    /// Four concealed pungs or kongs.
    FourConcealedPungs,
    /// All of one suit plus honours, at least one honour (`applies` says whether losers too).
    OneSuitWithHonours,
    /// All of one suit, no honours.
    ClearSuit,
    /// Only honours.
    AllHonours,
    /// Only terminals and honours, at least one of each.
    TerminalsAndHonours,
    /// Only terminals and honours, any mixture (Code §117(f) "major tiles").
    AllMajors,
    /// Only ones and nines.
    AllTerminals,
    /// Only all-green tiles (2, 3, 4, 6, 8 bamboo, green dragon).
    AllGreen,
    /// Four kongs.
    FourKongs,
    /// Three dragon sets, another pung or kong and a pair (Code §122(i)).
    ThreeGreatScholars,

    // ---- The Mah-Jongg hand: composition. ----
    /// Going Mah-Jongg.
    MahJongg,
    /// No chows.
    NoChows,
    /// Four chows and a pair that scores nothing under this ruleset (Code §117(a)).
    AllChowsNonScoringPair,
    /// The hand scores no points but those listed in the element's `except` (Babcock's "No
    /// score other than Game", Harr's "no other score than Mah-Jong").
    NothingButGame,
    /// No exposed set, including the winning tile (Code §117(c)).
    FullyConcealed,
    /// A clear-suit hand with no exposed set (Code §122(p)).
    ConcealedClearSuit,
    /// Four concealed pungs or kongs, the last tile drawn (Code §122(h) "Buried Treasure").
    BuriedTreasure,
    /// One of the special shapes, named by `shape`.
    Special,

    // ---- The Mah-Jongg hand: how the last tile came. ----
    /// The winning tile was drawn (wall, loose tile, last wall tile).
    DrawnWinningTile,
    /// The winning tile filled the only place (by the ruleset's `only_place` rule).
    OnlyPlace,
    /// The winning tile completed the pair, four sets being complete ("fishing the eyes").
    /// `exposure = "concealed"` means drawn, `"exposed"` claimed.
    FishingEyes,
    /// The winning tile completed a chow (in the way of counting chosen). `exposure`:
    /// `concealed` = drawn, `exposed` = claimed (Harr p. 65).
    CompletesChow,
    /// …in the middle or at its only open end (1-2 waiting 3, 8-9 waiting 7; Harr p. 66).
    CompletesChowClosed,
    /// The winning tile is the fourth of one of the winner's exposed pungs (Harr p. 62).
    FourthOfExposedPung,
    /// Won with a loose tile after a kong.
    LooseTileWin,
    /// Won with the last tile of the live wall.
    LastWallTile,
    /// Won on the discard after the last tile of the wall.
    LastDiscard,
    /// Won by robbing a kong.
    RobbedKong,
    /// Won with the loose tile of a second kong made in the same turn (Code §122(f)).
    KongUponKong,
    /// Won with a loose tile that is the 5 of circles (Code §122(c)).
    PlumBlossom,
    /// Won with the last wall tile, the 1 of circles (Code §122(d)).
    MoonFromTheSea,
    /// Won by robbing a kong of 2 bamboo (Code §122(e)).
    CarryingPole,
    /// Won on an original call (Code §117(l); Babcock's "Lucky Thirteen").
    OriginalCall,
    /// East's dealt hand complete (Code §122(a); Babcock "Hand from Heaven").
    HeavensBlessing,
    /// Won on East's first discard (Code §122(b); Babcock "Hand from Earth").
    EarthsBlessing,
    /// East wins for the `at_least`-th time running (Code §122(r): 13; Babcock ch. VIII: 9).
    EastConsecutiveWins,
}

impl Condition {
    /// Every condition, in catalogue order.
    pub const ALL: [Condition; 54] = {
        use Condition::*;
        [
            Pung,
            Kong,
            PungOrKong,
            Pair,
            Chow,
            BonusTile,
            OwnFlower,
            OwnSeason,
            OwnFlowerAndSeason,
            OwnSeasonPair,
            AllFlowers,
            AllSeasons,
            LittleThreeDragons,
            BigThreeDragons,
            LittleFourWinds,
            BigFourWinds,
            FourWindHand,
            ThreeConcealedPungs,
            FourConcealedPungs,
            OneSuitWithHonours,
            ClearSuit,
            AllHonours,
            TerminalsAndHonours,
            AllMajors,
            AllTerminals,
            AllGreen,
            FourKongs,
            ThreeGreatScholars,
            MahJongg,
            NoChows,
            AllChowsNonScoringPair,
            NothingButGame,
            FullyConcealed,
            ConcealedClearSuit,
            BuriedTreasure,
            Special,
            DrawnWinningTile,
            OnlyPlace,
            FishingEyes,
            CompletesChow,
            CompletesChowClosed,
            FourthOfExposedPung,
            LooseTileWin,
            LastWallTile,
            LastDiscard,
            RobbedKong,
            KongUponKong,
            PlumBlossom,
            MoonFromTheSea,
            CarryingPole,
            OriginalCall,
            HeavensBlessing,
            EarthsBlessing,
            EastConsecutiveWins,
        ]
    };

    /// Counted per set, so `tiles` and `exposure` filters apply.
    pub const fn is_per_set(self) -> bool {
        use Condition::*;
        matches!(self, Pung | Kong | PungOrKong | Pair | Chow)
    }

    /// Only a Mah-Jongg hand can meet it.
    pub const fn needs_mahjong(self) -> bool {
        use Condition::*;
        matches!(
            self,
            MahJongg
                | NoChows
                | AllChowsNonScoringPair
                | NothingButGame
                | FullyConcealed
                | ConcealedClearSuit
                | BuriedTreasure
                | Special
                | DrawnWinningTile
                | OnlyPlace
                | FishingEyes
                | CompletesChow
                | CompletesChowClosed
                | FourthOfExposedPung
                | LooseTileWin
                | LastWallTile
                | LastDiscard
                | RobbedKong
                | KongUponKong
                | PlumBlossom
                | MoonFromTheSea
                | CarryingPole
                | OriginalCall
                | HeavensBlessing
                | EarthsBlessing
                | EastConsecutiveWins
                | FourKongs
                | ThreeGreatScholars
        )
    }

    /// The stable name used in ruleset files.
    pub fn name(self) -> String {
        serde_json::to_value(self)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default()
    }
}

impl fmt::Display for Condition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// Which tiles a per-set condition (or fishing the eyes) counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TileFilter {
    /// Any tile.
    #[default]
    Any,
    /// 2–8 of a suit.
    Simples,
    /// 1 and 9 of a suit.
    Terminals,
    /// Winds and dragons.
    Honours,
    /// Terminals and honours.
    Majors,
    /// Any wind.
    Winds,
    /// Any dragon.
    Dragons,
    /// The player's own wind.
    OwnWind,
    /// The wind of the round.
    PrevailingWind,
    /// A wind that is both the player's own and the prevailing one.
    OwnAndPrevailingWind,
    /// A wind that is neither the player's own nor the prevailing one.
    OtherWind,
    /// Terminals and winds other than the player's own (Babcock and Harr score these alike).
    TerminalsAndOtherWinds,
    /// Dragons and the player's own wind (Babcock: "Dragons and a player's own Wind count
    /// alike in all respects").
    DragonsAndOwnWind,
}

/// Whether a per-set condition counts exposed sets, concealed ones, or both.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Exposure {
    #[default]
    Any,
    Exposed,
    Concealed,
}

impl Exposure {
    /// Does the filter admit something concealed (`true`) or exposed (`false`)?
    pub const fn admits(self, concealed: bool) -> bool {
        match self {
            Exposure::Any => true,
            Exposure::Concealed => concealed,
            Exposure::Exposed => !concealed,
        }
    }
}

/// Which hands an element applies to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Applies {
    /// Winning and losing hands alike.
    #[default]
    AllHands,
    /// The Mah-Jongg hand only.
    Winner,
}

/// A special shape named in a ruleset file.
pub fn special_shape(name: &str) -> Option<SpecialShape> {
    SpecialShape::ALL.into_iter().find(|s| s.name() == name)
}
