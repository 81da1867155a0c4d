//! Knitting and Triple Knitting (BMJA special hands).
//!
//! The seed text reads: Knitting, "seven pairs of tiles in any two out of the three suits. No
//! Winds or Dragons"; Triple Knitting, "four sets of the three tiles in the different suits and a
//! pair. No Winds or Dragons". A *knitted* pair is the same number in two suits (3 circles with 3
//! bamboo), a knitted triplet the same number in all three.
//!
//! Interpretation: Knitting is seven knitted pairs, all in the same two suits (so each number
//! appears as often in one suit as in the other, and the third suit is absent). For Triple
//! Knitting the seed says only "a pair": [`PairReading::Alike`] takes it as two identical tiles,
//! [`PairReading::Knitted`] as a knitted pair (as later BMJA texts describe it); both are offered
//! as separate shapes so a ruleset can choose.

use crate::counts::TileCounts;
use crate::tile::Suit;

use super::suit_counts;

/// How Triple Knitting's pair is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum PairReading {
    /// Two identical suit tiles.
    Alike,
    /// The same number in two suits.
    Knitted,
}

fn no_honours(hand: &TileCounts) -> bool {
    hand.as_array()[27..].iter().all(|&n| n == 0)
}

pub(super) fn knitting(hand: &TileCounts) -> bool {
    if hand.len() != 14 || !no_honours(hand) {
        return false;
    }
    let [m, p, s] = Suit::ALL.map(|suit| suit_counts(hand, suit));
    let empty = |c: &[u8; 9]| c.iter().all(|&n| n == 0);
    (empty(&s) && m == p) || (empty(&p) && m == s) || (empty(&m) && p == s)
}

pub(super) fn triple(hand: &TileCounts, reading: PairReading) -> bool {
    if hand.len() != 14 || !no_honours(hand) {
        return false;
    }
    let suits = Suit::ALL.map(|suit| suit_counts(hand, suit));
    let knitted_triplets = |c: &[[u8; 9]; 3]| c[0] == c[1] && c[1] == c[2];
    for rank in 0..9 {
        match reading {
            PairReading::Alike => {
                for a in 0..3 {
                    if suits[a][rank] >= 2 {
                        let mut rest = suits;
                        rest[a][rank] -= 2;
                        if knitted_triplets(&rest) {
                            return true;
                        }
                    }
                }
            }
            PairReading::Knitted => {
                for (a, b) in [(0, 1), (0, 2), (1, 2)] {
                    if suits[a][rank] >= 1 && suits[b][rank] >= 1 {
                        let mut rest = suits;
                        rest[a][rank] -= 1;
                        rest[b][rank] -= 1;
                        if knitted_triplets(&rest) {
                            return true;
                        }
                    }
                }
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use crate::{parse_counts, SpecialShape, Tile};

    fn complete(shape: SpecialShape, hand: &str, win: &str) -> bool {
        shape.is_complete(
            &parse_counts(hand, None).unwrap(),
            win.parse::<Tile>().unwrap(),
        )
    }

    #[test]
    fn knitting_pairs_match_number_for_number() {
        assert!(complete(SpecialShape::Knitting, "1234579m 1234579p", "9p"));
        assert!(complete(SpecialShape::Knitting, "1123457m 1123457p", "1p"));
        // Three suits, or unequal numbers, are not knitting.
        assert!(!complete(
            SpecialShape::Knitting,
            "1234579m 123457p 9s",
            "9s"
        ));
        assert!(!complete(SpecialShape::Knitting, "1234578m 1234579p", "9p"));
        // Ordinary seven pairs in two suits are not knitted.
        assert!(!complete(SpecialShape::Knitting, "11223344m 556677p", "7p"));
        let calling = parse_counts("1234579m 123457p", None).unwrap();
        assert_eq!(SpecialShape::Knitting.waits(&calling).to_tokens(), "9p");
    }

    #[test]
    fn triple_knitting_both_readings() {
        // 1 2 5 8 in all three suits plus a pair of 9 circles.
        let alike = "1258m 125899p 1258s";
        assert!(complete(SpecialShape::TripleKnitting, alike, "9p"));
        assert!(!complete(
            SpecialShape::TripleKnittingKnittedPair,
            alike,
            "9p"
        ));
        // ... plus a knitted pair 9 characters / 9 circles.
        let knitted = "12589m 12589p 1258s";
        assert!(complete(
            SpecialShape::TripleKnittingKnittedPair,
            knitted,
            "9m"
        ));
        assert!(!complete(SpecialShape::TripleKnitting, knitted, "9m"));
        assert!(!complete(
            SpecialShape::TripleKnitting,
            "1258m 1258p 1258s EE",
            "E"
        ));
    }
}
