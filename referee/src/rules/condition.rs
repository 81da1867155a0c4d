//! The catalogue of conditions a scoring element can test.
//!
//! A ruleset file says *what* scores and *how much* ("a concealed pung of major tiles, 8
//! points, Code §114(b)"); this catalogue is the fixed vocabulary of *what*: each condition is
//! something the scorer knows how to find in a hand. Every book's score table is made of these
//! words, so adding a ruleset is writing data, and a condition no ruleset uses is never
//! evaluated. Names are kebab-case and stable: they appear in ruleset files.
//!
//! Each condition is one entry of [`catalogue!`] below: its doc, its name in ruleset files, the
//! group it is listed under, which hands can meet it, and which of an element's qualifying keys
//! (`tiles`, `exposure`, `shape`, `at_least`, `except`) it reads. The loader's checks, the
//! `rulesets` command and the README's list all read these facts from here.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::vocab::choice;

/// The heading a condition is listed under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Group {
    /// Counted once per matching set; `tiles` and `exposure` filter them.
    Sets,
    /// Flowers and seasons, on any hand.
    BonusTiles,
    /// Combinations of sets, on any hand unless marked.
    Combinations,
    /// What the Mah-Jongg hand is made of.
    Composition,
    /// How the Mah-Jongg hand's last tile came.
    LastTile,
}

impl Group {
    /// Every group, in catalogue order.
    pub const ALL: [Group; 5] = [
        Group::Sets,
        Group::BonusTiles,
        Group::Combinations,
        Group::Composition,
        Group::LastTile,
    ];

    /// How the README and `rulesets` head the group.
    pub const fn heading(self) -> &'static str {
        match self {
            Group::Sets => "sets (counted per set; `tiles` and `exposure` filter them)",
            Group::BonusTiles => "bonus tiles",
            Group::Combinations => "combinations of sets",
            Group::Composition => "the Mah-Jongg hand: what it is made of",
            Group::LastTile => "the Mah-Jongg hand: how the last tile came",
        }
    }
}

/// A key of an `[[element]]` that qualifies its condition; each condition reads only some.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Qualifier {
    /// `tiles`: which tiles count ([`TileFilter`]).
    Tiles,
    /// `exposure`: exposed or concealed ([`Exposure`]).
    Exposure,
    /// `shape`: which special shape.
    Shape,
    /// `at_least`: how many wins in succession.
    AtLeast,
    /// `except`: point elements that do not spoil the hand.
    Except,
}

impl Qualifier {
    pub const ALL: [Qualifier; 5] = [
        Qualifier::Tiles,
        Qualifier::Exposure,
        Qualifier::Shape,
        Qualifier::AtLeast,
        Qualifier::Except,
    ];

    /// The key in ruleset files.
    pub const fn key(self) -> &'static str {
        match self {
            Qualifier::Tiles => "tiles",
            Qualifier::Exposure => "exposure",
            Qualifier::Shape => "shape",
            Qualifier::AtLeast => "at_least",
            Qualifier::Except => "except",
        }
    }
}

/// What the catalogue knows of one condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConditionInfo {
    pub condition: Condition,
    /// The stable name used in ruleset files.
    pub name: &'static str,
    /// What it tests, as its doc comment says.
    pub doc: &'static str,
    pub group: Group,
    /// [`Applies::Winner`] when only a Mah-Jongg hand can meet it.
    pub met_by: Applies,
    /// Whether the way of counting the hand matters to it.
    pub scope: Scope,
    /// The element keys it reads besides `when`.
    pub qualifiers: &'static [Qualifier],
}

/// What a condition looks at: the scorer tests a [`Scope::Hand`] condition once per hand and a
/// [`Scope::Counting`] one in every way of counting it (Code §105's freedom of count).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scope {
    /// The hand's tiles as a whole, its bonus tiles, or how and when it was won: the same
    /// however the hand is grouped.
    Hand,
    /// The sets and pair of one way of counting the hand.
    Counting,
}

/// Declares [`Condition`] and its catalogue, one entry per condition:
/// `/// doc` `Variant = "name", Group, met-by (AllHands | Winner), Scope, [qualifiers]`.
macro_rules! catalogue {
    ($(
        $(#[doc = $doc:literal])+
        $variant:ident = $name:literal, $group:ident, $met_by:ident, $scope:ident, [$($q:ident),*];
    )+) => {
        /// What an element looks for.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum Condition {
            $(
                $(#[doc = $doc])+
                #[serde(rename = $name)]
                $variant,
            )+
        }

        /// The catalogue, in the order of [`Condition`]'s variants.
        const CATALOGUE: &[ConditionInfo] = &[
            $(ConditionInfo {
                condition: Condition::$variant,
                name: $name,
                doc: concat!($($doc, "\n"),+),
                group: Group::$group,
                met_by: Applies::$met_by,
                scope: Scope::$scope,
                qualifiers: &[$(Qualifier::$q),*],
            },)+
        ];

        impl Condition {
            /// Every condition, in catalogue order.
            pub const ALL: [Condition; CATALOGUE.len()] = [$(Condition::$variant),+];
        }
    };
}

catalogue! {
    /// A pung (three alike, not a kong).
    Pung = "pung", Sets, AllHands, Counting, [Tiles, Exposure];
    /// A kong (four alike).
    Kong = "kong", Sets, AllHands, Counting, [Tiles, Exposure];
    /// A pung or a kong ("a set of Dragons", Code §116(d)).
    PungOrKong = "pung-or-kong", Sets, AllHands, Counting, [Tiles, Exposure];
    /// A pair (the hand's pair; a losing hand may hold several).
    Pair = "pair", Sets, AllHands, Counting, [Tiles, Exposure];
    /// A chow.
    Chow = "chow", Sets, AllHands, Counting, [Tiles, Exposure];

    /// Each bonus tile (flower or season).
    BonusTile = "bonus-tile", BonusTiles, AllHands, Hand, [];
    /// Each of the player's own flowers.
    OwnFlower = "own-flower", BonusTiles, AllHands, Hand, [];
    /// Each of the player's own seasons (two colours may give two).
    OwnSeason = "own-season", BonusTiles, AllHands, Hand, [];
    /// Own flower and own season both declared (Code §116(a)).
    OwnFlowerAndSeason = "own-flower-and-season", BonusTiles, AllHands, Hand, [];
    /// Both of the player's own seasons (two colours: Babcock's Shanghai variation, p. 90).
    OwnSeasonPair = "own-season-pair", BonusTiles, AllHands, Hand, [];
    /// All four flowers.
    AllFlowers = "all-flowers", BonusTiles, AllHands, Hand, [];
    /// All four seasons (counted per complete set of four).
    AllSeasons = "all-seasons", BonusTiles, AllHands, Hand, [];

    /// Two sets of dragons and a pair of the third.
    LittleThreeDragons = "little-three-dragons", Combinations, AllHands, Counting, [];
    /// Three sets of dragons.
    BigThreeDragons = "big-three-dragons", Combinations, AllHands, Counting, [];
    /// Three sets of winds and a pair of the fourth.
    LittleFourWinds = "little-four-winds", Combinations, AllHands, Counting, [];
    /// Four sets of winds.
    BigFourWinds = "big-four-winds", Combinations, AllHands, Counting, [];
    /// Three sets of winds including the player's own and a pair of the fourth (Babcock's
    /// "Four Wind Hand", an optional limit).
    FourWindHand = "four-wind-hand", Combinations, AllHands, Counting, [];
    /// Exactly three concealed pungs or kongs.
    ThreeConcealedPungs = "three-concealed-pungs", Combinations, AllHands, Counting, [];
    /// Four concealed pungs or kongs.
    FourConcealedPungs = "four-concealed-pungs", Combinations, AllHands, Counting, [];
    /// All of one suit plus honours, at least one honour (`applies` says whether losers too).
    OneSuitWithHonours = "one-suit-with-honours", Combinations, AllHands, Hand, [];
    /// All of one suit, no honours.
    ClearSuit = "clear-suit", Combinations, AllHands, Hand, [];
    /// Only honours.
    AllHonours = "all-honours", Combinations, AllHands, Hand, [];
    /// Only terminals and honours, at least one of each.
    TerminalsAndHonours = "terminals-and-honours", Combinations, AllHands, Hand, [];
    /// Only terminals and honours, any mixture (Code §117(f) "major tiles").
    AllMajors = "all-majors", Combinations, AllHands, Hand, [];
    /// Only ones and nines.
    AllTerminals = "all-terminals", Combinations, AllHands, Hand, [];
    /// Only all-green tiles (2, 3, 4, 6, 8 bamboo, green dragon).
    AllGreen = "all-green", Combinations, AllHands, Hand, [];
    /// Four kongs.
    FourKongs = "four-kongs", Combinations, Winner, Counting, [];
    /// Three dragon sets, another pung or kong and a pair (Code §122(i)).
    ThreeGreatScholars = "three-great-scholars", Combinations, Winner, Counting, [];

    /// Going Mah-Jongg.
    MahJongg = "mah-jongg", Composition, Winner, Hand, [];
    /// No chows.
    NoChows = "no-chows", Composition, Winner, Counting, [];
    /// Four chows and a pair that scores nothing under this ruleset (Code §117(a)).
    AllChowsNonScoringPair = "all-chows-non-scoring-pair", Composition, Winner, Counting, [];
    /// The hand scores no points but those listed in the element's `except` (Babcock's "No
    /// score other than Game", Harr's "no other score than Mah-Jong").
    NothingButGame = "nothing-but-game", Composition, Winner, Counting, [Except];
    /// No exposed set, including the winning tile (Code §117(c)).
    FullyConcealed = "fully-concealed", Composition, Winner, Counting, [];
    /// A clear-suit hand with no exposed set (Code §122(p)).
    ConcealedClearSuit = "concealed-clear-suit", Composition, Winner, Counting, [];
    /// Four concealed pungs or kongs, the last tile drawn (Code §122(h) "Buried Treasure").
    BuriedTreasure = "buried-treasure", Composition, Winner, Counting, [];
    /// One of the special shapes, named by `shape`.
    Special = "special", Composition, Winner, Counting, [Shape];

    /// The winning tile was drawn (wall, loose tile, last wall tile).
    DrawnWinningTile = "drawn-winning-tile", LastTile, Winner, Hand, [];
    /// The winning tile filled the only place (by the ruleset's `only_place` rule).
    OnlyPlace = "only-place", LastTile, Winner, Counting, [];
    /// The winning tile completed the pair, four sets being complete ("fishing the eyes").
    /// `exposure = "concealed"` means drawn, `"exposed"` claimed.
    FishingEyes = "fishing-eyes", LastTile, Winner, Counting, [Tiles, Exposure];
    /// The winning tile completed a chow (in the way of counting chosen). `exposure`:
    /// `concealed` = drawn, `exposed` = claimed (Harr p. 65).
    CompletesChow = "completes-chow", LastTile, Winner, Counting, [Exposure];
    /// …in the middle or at its only open end (1-2 waiting 3, 8-9 waiting 7; Harr p. 66).
    CompletesChowClosed = "completes-chow-closed", LastTile, Winner, Counting, [Exposure];
    /// The winning tile is the fourth of one of the winner's exposed pungs (Harr p. 62).
    FourthOfExposedPung = "fourth-of-exposed-pung", LastTile, Winner, Hand, [];
    /// Won with a loose tile after a kong.
    LooseTileWin = "loose-tile-win", LastTile, Winner, Hand, [];
    /// Won with the last tile of the live wall.
    LastWallTile = "last-wall-tile", LastTile, Winner, Hand, [];
    /// Won on the discard after the last tile of the wall.
    LastDiscard = "last-discard", LastTile, Winner, Hand, [];
    /// Won by robbing a kong.
    RobbedKong = "robbed-kong", LastTile, Winner, Hand, [];
    /// Won with the loose tile of a second kong made in the same turn (Code §122(f)).
    KongUponKong = "kong-upon-kong", LastTile, Winner, Hand, [];
    /// Won with a loose tile that is the 5 of circles (Code §122(c)).
    PlumBlossom = "plum-blossom", LastTile, Winner, Hand, [];
    /// Won with the last wall tile, the 1 of circles (Code §122(d)).
    MoonFromTheSea = "moon-from-the-sea", LastTile, Winner, Hand, [];
    /// Won by robbing a kong of 2 bamboo (Code §122(e)).
    CarryingPole = "carrying-pole", LastTile, Winner, Hand, [];
    /// Won on an original call (Code §117(l); Babcock's "Lucky Thirteen").
    OriginalCall = "original-call", LastTile, Winner, Hand, [];
    /// East's dealt hand complete (Code §122(a); Babcock "Hand from Heaven").
    HeavensBlessing = "heavens-blessing", LastTile, Winner, Hand, [];
    /// Won on East's first discard (Code §122(b); Babcock "Hand from Earth").
    EarthsBlessing = "earths-blessing", LastTile, Winner, Hand, [];
    /// East wins for the `at_least`-th time running (Code §122(r): 13; Babcock ch. VIII: 9).
    EastConsecutiveWins = "east-consecutive-wins", LastTile, Winner, Hand, [AtLeast];
}

impl Condition {
    /// What the catalogue knows of it.
    pub const fn info(self) -> &'static ConditionInfo {
        &CATALOGUE[self as usize]
    }

    /// The stable name used in ruleset files.
    pub const fn name(self) -> &'static str {
        self.info().name
    }

    /// The condition a ruleset file names.
    pub fn from_name(name: &str) -> Option<Condition> {
        CATALOGUE
            .iter()
            .find(|i| i.name == name)
            .map(|i| i.condition)
    }

    /// What it tests, in one line (its doc comment).
    pub fn doc(self) -> String {
        let lines: Vec<&str> = self.info().doc.lines().map(str::trim).collect();
        lines.join(" ")
    }

    /// Counted per set, so `tiles` and `exposure` filters apply.
    pub const fn is_per_set(self) -> bool {
        matches!(self.info().group, Group::Sets)
    }

    /// About how the last tile came or the moment of the win (the catalogue's last-tile
    /// group): a calling hand has no last tile yet, so it cannot be credited with these.
    pub const fn is_about_the_last_tile(self) -> bool {
        matches!(self.info().group, Group::LastTile)
    }

    /// Depends on the way of counting the hand, so is tested in each.
    pub const fn reads_groups(self) -> bool {
        matches!(self.info().scope, Scope::Counting)
    }

    /// Only a Mah-Jongg hand can meet it.
    pub const fn needs_mahjong(self) -> bool {
        matches!(self.info().met_by, Applies::Winner)
    }

    /// Whether an element with this condition reads `q`.
    pub fn reads(self, q: Qualifier) -> bool {
        self.info().qualifiers.contains(&q)
    }
}

impl fmt::Display for Condition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

choice! {
    /// Which tiles a per-set condition (or fishing the eyes) counts.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
    pub enum TileFilter: "tile filter" {
        /// Any tile.
        #[default]
        Any = "any",
        /// 2–8 of a suit.
        Simples = "simples",
        /// 1 and 9 of a suit.
        Terminals = "terminals",
        /// Winds and dragons.
        Honours = "honours",
        /// Terminals and honours.
        Majors = "majors",
        /// Any wind.
        Winds = "winds",
        /// Any dragon.
        Dragons = "dragons",
        /// The player's own wind.
        OwnWind = "own-wind",
        /// The wind of the round.
        PrevailingWind = "prevailing-wind",
        /// A wind that is both the player's own and the prevailing one.
        OwnAndPrevailingWind = "own-and-prevailing-wind",
        /// A wind that is neither the player's own nor the prevailing one.
        OtherWind = "other-wind",
        /// Terminals and winds other than the player's own (Babcock and Harr score these alike).
        TerminalsAndOtherWinds = "terminals-and-other-winds",
        /// Dragons and the player's own wind (Babcock: "Dragons and a player's own Wind count
        /// alike in all respects").
        DragonsAndOwnWind = "dragons-and-own-wind",
    }
}

choice! {
    /// Whether a per-set condition counts exposed sets, concealed ones, or both.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
    pub enum Exposure: "exposure" {
        #[default]
        Any = "any",
        Exposed = "exposed",
        Concealed = "concealed",
    }
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

choice! {
    /// Which hands an element applies to.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
    pub enum Applies: "`applies` value" {
        /// Winning and losing hands alike.
        #[default]
        AllHands = "all-hands",
        /// The Mah-Jongg hand only.
        Winner = "winner",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Element, Ruleset, RulesetError};
    use crate::vocab::Choice;

    #[test]
    fn the_catalogue_is_in_variant_order() {
        for (i, c) in Condition::ALL.into_iter().enumerate() {
            assert_eq!(c as usize, i);
            assert_eq!(c.info().condition, c);
        }
    }

    #[test]
    fn names_are_kebab_case_unique_and_round_trip() {
        let mut seen = std::collections::BTreeSet::new();
        for c in Condition::ALL {
            let n = c.name();
            assert!(
                n.chars().all(|ch| ch.is_ascii_lowercase() || ch == '-'),
                "{n}"
            );
            assert!(seen.insert(n), "{n} twice");
            assert_eq!(Condition::from_name(n), Some(c));
            // The serde name (ruleset JSON) is the catalogue's.
            assert_eq!(serde_json::to_value(c).unwrap(), n);
            assert!(!c.doc().is_empty(), "{n} has no doc");
        }
        for f in TileFilter::ALL {
            assert_eq!(TileFilter::from_name(f.name()), Some(f));
            assert_eq!(serde_json::to_value(f).unwrap(), f.name());
        }
        for a in Applies::ALL {
            assert_eq!(serde_json::to_value(a).unwrap(), a.name());
        }
    }

    #[test]
    fn per_set_conditions_read_tiles_and_exposure() {
        for c in Condition::ALL {
            if c.is_per_set() {
                assert!(
                    c.reads(Qualifier::Tiles) && c.reads(Qualifier::Exposure),
                    "{c}"
                );
                assert!(!c.needs_mahjong(), "{c}");
                assert!(c.reads_groups(), "{c}");
            }
        }
        assert!(Condition::Special.reads(Qualifier::Shape));
        assert!(Condition::EastConsecutiveWins.reads(Qualifier::AtLeast));
        assert!(Condition::NothingButGame.reads(Qualifier::Except));
        assert!(!Condition::ClearSuit.reads(Qualifier::Tiles));
    }

    #[test]
    fn the_last_tile_and_composition_need_mahjong() {
        for c in Condition::ALL {
            if matches!(c.info().group, Group::Composition | Group::LastTile) {
                assert!(c.needs_mahjong(), "{c}");
            }
        }
    }

    /// A house ruleset on the Code adding one element whose `key` is `word`.
    fn with_element(when: &str, key: &str, word: &str) -> Result<Ruleset, RulesetError> {
        let value = if when == "special" {
            "limit = \"full\""
        } else {
            "points = 2"
        };
        Ruleset::parse(&format!(
            "name = \"club\"\nbase = \"code-of-laws\"\n[[element]]\nid = \"house-thing\"\n\
             when = \"{when}\"\n{key} = \"{word}\"\n{value}\ncite = \"Club rule 1\"\n"
        ))
    }

    /// The loader reads every name of `T` as an element's `key` (`read` finds it in the
    /// element), and refuses any other word, saying what it expected.
    fn loads_every_name<T: Choice>(when: &str, key: &str, read: fn(&Element) -> T) {
        for &v in T::ALL {
            let r = with_element(when, key, v.name())
                .unwrap_or_else(|e| panic!("{key} = {:?}: {e}", v.name()));
            assert_eq!(read(r.element("house-thing").unwrap()), v);
        }
        let e = with_element(when, key, "no-such-word").unwrap_err();
        let [p] = &e.problems[..] else {
            panic!("{key}: {e}");
        };
        let names: Vec<&str> = T::ALL.iter().map(|v| v.name()).collect();
        let what = T::WHAT;
        let a = crate::vocab::article(what);
        assert_eq!(
            p.message,
            format!(
                "`{key}` = \"no-such-word\" is not {a} {what} (the {what}s: {})",
                names.join(", ")
            )
        );
    }

    #[test]
    fn the_element_vocabularies_are_tables_the_loader_reads() {
        use crate::vocab::tests::check_table;
        check_table::<TileFilter>();
        check_table::<Exposure>();
        check_table::<Applies>();
        loads_every_name("pung", "tiles", |e| e.tiles);
        loads_every_name("pung", "exposure", |e| e.exposure);
        loads_every_name("pung", "applies", |e| e.applies);
        // Special shapes are checked as a table beside their declaration (`shape::special`).
        loads_every_name("special", "shape", |e| e.shape.unwrap());
    }
}
