//! The special shapes the rule books name: hands that are complete without being four sets and
//! a pair, or whose particular arrangement the books single out.
//!
//! Each shape is a predicate on the fourteen tiles of a finished hand (a declared kong counts as
//! three of its tile, as it stands for a set) plus the winning tile, which one reading of the
//! Nine Gates needs. Which shapes a ruleset admits and what they score is the scoring module's
//! business; whether the hand had to be concealed is checked there too, from how its sets were
//! formed. Each module cites its sources and records the reading chosen where the books differ.

mod gates;
mod knitting;
mod pairs;
mod snake;
mod thirteen;

use crate::counts::{TileCounts, TileSet};
use crate::tile::{Suit, Tile};
use crate::vocab::choice;

choice! {
    /// A named special shape; its name is the one ruleset files and the CLI use.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub enum SpecialShape: "special shape" {
        /// One of each of the thirteen major tiles plus a fourteenth pairing any of them: Code
        /// §122(q) "Thirteen Unique Wonders"; Babcock Fig. 33 "Thirteen Orphans"; BMJA.
        ThirteenUniqueWonders = "thirteen-unique-wonders",
        /// Any seven pairs: Babcock Fig. 34 "The Seven Twins".
        SevenTwins = "seven-twins",
        /// Seven pairs of ones, nines, winds and dragons: BMJA "All Pair Honours".
        AllPairHonours = "all-pair-honours",
        /// Seven knitted pairs in two suits: BMJA "Knitting".
        Knitting = "knitting",
        /// Four knitted triplets and a pair: BMJA "Triple Knitting", pair read as two alike.
        TripleKnitting = "triple-knitting",
        /// Four knitted triplets and a knitted pair: BMJA "Triple Knitting", the other reading.
        TripleKnittingKnittedPair = "triple-knitting-knitted-pair",
        /// Calling on 1-1-1-2-3-4-5-6-7-8-9-9-9 of one suit, completed by any tile of it: Code
        /// §122(n) "Nine Sacred Lamps of Lotus"; Babcock Fig. 29 "The Nine Gates".
        NineGates = "nine-gates",
        /// Pung of ones, pung of nines, 2–8 with one of them paired, one suit: BMJA "The Gates of
        /// Heaven".
        GatesOfHeaven = "gates-of-heaven",
        /// Clear suit: set of ones, set of nines, pair of 2s, 5s or 8s, two runs of the rest:
        /// Code §122(o) "The Wriggling Snake".
        WrigglingSnake = "wriggling-snake",
        /// A pair of ones, a run 2–9 of the same suit and one of each wind: BMJA "The Wriggling
        /// Snake".
        WrigglingSnakeBritish = "wriggling-snake-british",
    }
}

impl SpecialShape {
    /// Where the books define it.
    pub const fn source(self) -> &'static str {
        match self {
            SpecialShape::ThirteenUniqueWonders => {
                "Code §122(q); Babcock p. 60, Fig. 33 (Thirteen Orphans); BMJA special hands"
            }
            SpecialShape::SevenTwins => "Babcock p. 61, Fig. 34",
            SpecialShape::AllPairHonours => "BMJA special hands (All Pair Honours)",
            SpecialShape::Knitting => "BMJA special hands (Knitting)",
            SpecialShape::TripleKnitting | SpecialShape::TripleKnittingKnittedPair => {
                "BMJA special hands (Triple Knitting)"
            }
            SpecialShape::NineGates => "Code §122(n) (Nine Sacred Lamps); Babcock p. 56, Fig. 29",
            SpecialShape::GatesOfHeaven => "BMJA special hands (The Gates of Heaven)",
            SpecialShape::WrigglingSnake => "Code §122(o)",
            SpecialShape::WrigglingSnakeBritish => {
                "Chinese/BMJA special hands (The Wriggling Snake)"
            }
        }
    }

    /// Is `hand` (fourteen tiles, kongs counted as three) this shape, won on `winning`?
    ///
    /// Only [`SpecialShape::NineGates`] depends on the winning tile: the Code and Babcock require
    /// the hand *before* it to have been the nine-way call.
    pub fn is_complete(self, hand: &TileCounts, winning: Tile) -> bool {
        if hand.len() != 14 || hand.get(winning) == 0 {
            return false;
        }
        match self {
            SpecialShape::ThirteenUniqueWonders => thirteen::is_complete(hand),
            SpecialShape::SevenTwins => pairs::seven_twins(hand),
            SpecialShape::AllPairHonours => pairs::all_pair_honours(hand),
            SpecialShape::Knitting => knitting::knitting(hand),
            SpecialShape::TripleKnitting => knitting::triple(hand, knitting::PairReading::Alike),
            SpecialShape::TripleKnittingKnittedPair => {
                knitting::triple(hand, knitting::PairReading::Knitted)
            }
            SpecialShape::NineGates => gates::nine_gates(hand, winning),
            SpecialShape::GatesOfHeaven => gates::gates_of_heaven(hand),
            SpecialShape::WrigglingSnake => snake::code(hand),
            SpecialShape::WrigglingSnakeBritish => snake::british(hand),
        }
    }

    /// The tiles that would make the thirteen-tile `hand` this shape. Never a fifth copy.
    pub fn waits(self, hand: &TileCounts) -> TileSet {
        if hand.len() != 13 {
            return TileSet::EMPTY;
        }
        Tile::ALL
            .iter()
            .copied()
            .filter(|&t| hand.with(t).is_some_and(|h| self.is_complete(&h, t)))
            .collect()
    }
}

/// The nine counts of one suit.
fn suit_counts(hand: &TileCounts, suit: Suit) -> [u8; 9] {
    let c = hand.as_array();
    let start = suit.index() * 9;
    let mut out = [0; 9];
    out.copy_from_slice(&c[start..start + 9]);
    out
}

/// The only suit the hand holds, if it holds exactly one and no honours ("clear suit").
fn clear_suit(hand: &TileCounts) -> Option<Suit> {
    let mut found = None;
    for t in hand.kinds().iter() {
        let s = t.suit()?;
        if found.is_some_and(|f| f != s) {
            return None;
        }
        found = Some(s);
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_are_unique() {
        for shape in SpecialShape::ALL {
            assert_eq!(shape.name().parse::<SpecialShape>(), Ok(shape));
            assert!(!shape.source().is_empty());
        }
        assert!("seven-pairs".parse::<SpecialShape>().is_err());
    }

    #[test]
    fn the_table_of_names() {
        crate::vocab::tests::check_table::<SpecialShape>();
        assert_eq!(
            "seven-pairs"
                .parse::<SpecialShape>()
                .unwrap_err()
                .to_string(),
            "`seven-pairs` is not a special shape (known: thirteen-unique-wonders, seven-twins, \
             all-pair-honours, knitting, triple-knitting, triple-knitting-knitted-pair, \
             nine-gates, gates-of-heaven, wriggling-snake, wriggling-snake-british)"
        );
    }

    #[test]
    fn wrong_sizes_never_match() {
        let hand = crate::parse_counts("19m 19p 19s ESWN RGP", None).unwrap();
        assert!(SpecialShape::ThirteenUniqueWonders
            .waits(&hand)
            .contains("R".parse().unwrap()));
        for shape in SpecialShape::ALL {
            assert!(!shape.is_complete(&hand, "R".parse().unwrap()));
        }
    }
}
