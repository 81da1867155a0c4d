//! The Nine Gates (Code and Babcock) and the Gates of Heaven (BMJA).
//!
//! Code §122(n), "The Nine Sacred Lamps of Lotus": the *calling* hand must be entirely of one
//! suit, 1-1-1-2-3-4-5-6-7-8-9-9-9, entirely concealed, so that any of nine tiles completes it;
//! the completing tile may be drawn or claimed. Babcock Fig. 29 ("The Nine Gates") is the same
//! hand "when it is Waiting or Set". So the shape depends on the winning tile: 1-1-1-1-2-…-9-9-9
//! won on a 1 qualifies, the same tiles won on a 5 do not.
//!
//! The BMJA's "Gates of Heaven" reads differently: "a concealed Pung of Ones, a concealed Pung of
//! Nines, a run from Two to Eight with one pair in the same suit" — the fourteen tiles alone
//! decide, and the extra tile must be a 2–8.

use crate::counts::TileCounts;
use crate::tile::Tile;

use super::{clear_suit, suit_counts};

const GATES: [u8; 9] = [3, 1, 1, 1, 1, 1, 1, 1, 3];

pub(super) fn nine_gates(hand: &TileCounts, winning: Tile) -> bool {
    let Some(before) = hand.without(winning) else {
        return false;
    };
    clear_suit(hand).is_some_and(|suit| suit_counts(&before, suit) == GATES)
}

/// The rank (1–9) of the one tile beyond 1-1-1-2-…-8-9-9-9 in a clear-suit hand, if the hand is
/// that pattern plus one tile.
pub(super) fn extra_over_gates(hand: &TileCounts) -> Option<u8> {
    let suit = clear_suit(hand)?;
    let counts = suit_counts(hand, suit);
    let mut extra = None;
    for (i, (&have, &base)) in counts.iter().zip(GATES.iter()).enumerate() {
        match have.checked_sub(base)? {
            0 => {}
            1 if extra.is_none() => extra = Some(i as u8 + 1),
            _ => return None,
        }
    }
    extra
}

pub(super) fn gates_of_heaven(hand: &TileCounts) -> bool {
    matches!(extra_over_gates(hand), Some(2..=8))
}

#[cfg(test)]
mod tests {
    use crate::{parse_counts, SpecialShape, Tile};

    #[test]
    fn nine_gates_needs_the_nine_way_call() {
        let shape = SpecialShape::NineGates;
        let call = parse_counts("1112345678999p", None).unwrap();
        assert_eq!(shape.waits(&call).len(), 9);
        let hand = parse_counts("11112345678999p", None).unwrap();
        assert!(shape.is_complete(&hand, "1p".parse::<Tile>().unwrap()));
        let hand = parse_counts("11123455678999p", None).unwrap();
        assert!(shape.is_complete(&hand, "5p".parse::<Tile>().unwrap()));
        // Same fourteen tiles, but the call before the 1 was 1123455678999: not the gates.
        assert!(!shape.is_complete(&hand, "1p".parse::<Tile>().unwrap()));
    }

    #[test]
    fn gates_of_heaven_extra_two_to_eight() {
        let shape = SpecialShape::GatesOfHeaven;
        let ones = parse_counts("11112345678999s", None).unwrap();
        assert!(!shape.is_complete(&ones, "1s".parse::<Tile>().unwrap()));
        let fives = parse_counts("11123455678999s", None).unwrap();
        assert!(shape.is_complete(&fives, "1s".parse::<Tile>().unwrap()));
        let call = parse_counts("1112345678999s", None).unwrap();
        assert_eq!(shape.waits(&call).to_tokens(), "2s 3s 4s 5s 6s 7s 8s");
    }
}
