//! The Wriggling Snake, in its two readings.
//!
//! Code §122(o): a clear-suit hand of "a set of ones, a set of nines, a pair of twos, fives or
//! eights, and two sequences made up of the missing numbers" (eyes 2: runs 3-4-5, 6-7-8; eyes 5:
//! 2-3-4, 6-7-8; eyes 8: 2-3-4, 5-6-7); it "may be partly or completely exposed". Counting a kong
//! as three, its tiles are exactly 1-1-1-2-…-8-9-9-9 plus a 2, 5 or 8 — and any such fourteen
//! tiles can be laid out as the snake.
//!
//! The Chinese/BMJA table: "A pair of Ones and a run from Two to Nine in the same suit, with each
//! of the winds" — 1-1-2-3-4-5-6-7-8-9 and E S W N, which is not four sets and a pair at all.

use crate::counts::TileCounts;
use crate::tile::{Suit, Tile, Wind};

use super::gates::extra_over_gates;
use super::suit_counts;

pub(super) fn code(hand: &TileCounts) -> bool {
    matches!(extra_over_gates(hand), Some(2 | 5 | 8))
}

pub(super) fn british(hand: &TileCounts) -> bool {
    const BODY: [u8; 9] = [2, 1, 1, 1, 1, 1, 1, 1, 1];
    let winds_once = Wind::ALL.iter().all(|&w| hand.get(Tile::wind(w)) == 1);
    let no_dragons = hand.as_array()[31..].iter().all(|&n| n == 0);
    winds_once
        && no_dragons
        && Suit::ALL.iter().any(|&s| {
            suit_counts(hand, s) == BODY
                && Suit::ALL
                    .iter()
                    .all(|&o| o == s || suit_counts(hand, o) == [0; 9])
        })
}

#[cfg(test)]
mod tests {
    use crate::{parse_counts, SpecialShape};

    fn complete(shape: SpecialShape, hand: &str) -> bool {
        let c = parse_counts(hand, None).unwrap();
        let first = c.tiles().next().unwrap();
        shape.is_complete(&c, first)
    }

    #[test]
    fn code_snake_eyes_two_five_or_eight() {
        assert!(complete(SpecialShape::WrigglingSnake, "11122345678999m"));
        assert!(complete(SpecialShape::WrigglingSnake, "11123455678999m"));
        assert!(complete(SpecialShape::WrigglingSnake, "11123456788999m"));
        assert!(!complete(SpecialShape::WrigglingSnake, "11123445678999m"));
        assert!(!complete(SpecialShape::WrigglingSnake, "11112345678999m"));
    }

    #[test]
    fn british_snake_has_the_four_winds() {
        assert!(complete(
            SpecialShape::WrigglingSnakeBritish,
            "1123456789p ESWN"
        ));
        assert!(!complete(
            SpecialShape::WrigglingSnakeBritish,
            "1123456789p ESWW"
        ));
        assert!(!complete(
            SpecialShape::WrigglingSnakeBritish,
            "1223456789p ESWN"
        ));
        let call = parse_counts("123456789p ESWN", None).unwrap();
        assert_eq!(
            SpecialShape::WrigglingSnakeBritish.waits(&call).to_tokens(),
            "1p"
        );
    }
}
