//! Seven pairs: Babcock's Seven Twins and the BMJA's All Pair Honours.
//!
//! Babcock Fig. 34: "any seven pairs, fourteen tiles in all". Interpretation: four alike count
//! as two pairs — the books ask for seven pairs and forbid nothing else; the test
//! `four_alike_are_two_pairs` pins this reading.

use crate::counts::TileCounts;
use crate::tile::Tile;

pub(super) fn seven_twins(hand: &TileCounts) -> bool {
    hand.len() == 14 && hand.as_array().iter().all(|&n| n % 2 == 0)
}

/// BMJA: "Seven pairs of Ones/Nines/Winds/Dragons".
pub(super) fn all_pair_honours(hand: &TileCounts) -> bool {
    seven_twins(hand) && Tile::ALL.iter().all(|&t| t.is_major() || hand.get(t) == 0)
}

#[cfg(test)]
mod tests {
    use crate::{parse_counts, SpecialShape};

    #[test]
    fn seven_twins_wait_on_the_odd_tile() {
        let hand = parse_counts("1188m 55p 33s NN 11p 9s", None).unwrap();
        assert_eq!(SpecialShape::SevenTwins.waits(&hand).to_tokens(), "9s");
        assert_eq!(SpecialShape::AllPairHonours.waits(&hand).to_tokens(), "-");
    }

    #[test]
    fn four_alike_are_two_pairs() {
        let hand = parse_counts("111m 88m 55p 33s NN 99s", None).unwrap();
        assert_eq!(SpecialShape::SevenTwins.waits(&hand).to_tokens(), "1m");
    }

    #[test]
    fn all_pair_honours_only_majors() {
        let hand = parse_counts("11m 99p 11s EE RR PP N", None).unwrap();
        assert_eq!(SpecialShape::AllPairHonours.waits(&hand).to_tokens(), "N");
        let minor = parse_counts("11m 99p 22s EE RR PP N", None).unwrap();
        assert_eq!(SpecialShape::AllPairHonours.waits(&minor).to_tokens(), "-");
        assert_eq!(SpecialShape::SevenTwins.waits(&minor).to_tokens(), "N");
    }
}
