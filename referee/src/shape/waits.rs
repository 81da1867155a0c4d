//! Calling tiles ("waits") and completeness for the standard shape: sets and one pair.
//!
//! A hand one tile short of complete (`3n + 1` concealed tiles, the declared sets set aside) is
//! *calling* the tiles that would complete it (Babcock ch. II: "ready to go out"; the Code's
//! "calling hand", §115(c)). The answer is assembled from the per-suit [tables](crate::shape::table):
//!
//! Every suit (and the honours) holds some number of tiles `≡ 0, 1 or 2 (mod 3)`. With `3n + 1`
//! tiles in all there are exactly two ways to be one tile short:
//!
//! - one holding is `≡ 1` and all others `≡ 0`: the others must be sets only, and the waits are
//!   the tiles that turn the `≡ 1` holding into sets and a pair;
//! - two holdings are `≡ 2` and the rest `≡ 0`: the rest must be sets only; if one of the two is
//!   sets and a pair, the other's waits (tiles making it sets only) are waits of the hand.
//!
//! Any other pattern is more than one tile short. A tile whose four copies are all in the hand
//! is never a wait: the tables exclude it.

use crate::counts::{TileCounts, TileSet};
use crate::shape::table::{Table, COMPLETE, HONOURS, MASK, POW5, SUIT};

/// One suit's (or the honours') holding: its table entry and its size modulo 3.
#[derive(Clone, Copy)]
struct Group {
    entry: u16,
    rem: u8,
    size: u8,
    shift: u32,
}

impl Group {
    fn complete(self) -> bool {
        self.entry & COMPLETE != 0
    }

    fn waits(self) -> u64 {
        u64::from(self.entry & MASK) << self.shift
    }
}

#[inline]
fn groups(hand: &TileCounts) -> [Group; 4] {
    let c = hand.as_array();
    let mut out = [Group {
        entry: 0,
        rem: 0,
        size: 0,
        shift: 0,
    }; 4];
    for (g, slot) in out.iter_mut().enumerate() {
        let (start, ranks) = if g < 3 { (9 * g, 9) } else { (27, 7) };
        let mut key = 0u32;
        let mut size = 0u32;
        for r in 0..ranks {
            let n = u32::from(c[start + r]);
            key += n * POW5[r];
            size += n;
        }
        let table: &Table = if g < 3 { &SUIT } else { &HONOURS };
        *slot = Group {
            // Holdings past the table's reach (over 14 tiles) cannot be complete.
            entry: table.get(key as usize),
            rem: (size % 3) as u8,
            size: size as u8,
            shift: start as u32,
        };
    }
    out
}

/// A hand holds at most four sets and a pair (Code §122(c)).
fn total(gs: &[Group; 4]) -> u32 {
    gs.iter().map(|g| u32::from(g.size)).sum()
}

/// The tiles that would complete `hand` as sets and one pair.
///
/// `hand` is the concealed part only, `3n + 1` tiles; for any other size the answer is empty.
/// A tile the hand already holds four of is never a wait.
pub fn standard_waits(hand: &TileCounts) -> TileSet {
    let gs = groups(hand);
    if total(&gs) > 13 {
        return TileSet::EMPTY;
    }
    let mut ones = 0;
    let mut twos = 0;
    let (mut one, mut two_a, mut two_b) = (gs[0], gs[0], gs[0]);
    for g in gs {
        match g.rem {
            0 if !g.complete() => return TileSet::EMPTY,
            0 => {}
            1 => {
                ones += 1;
                one = g;
            }
            _ => {
                twos += 1;
                if twos == 1 {
                    two_a = g;
                } else {
                    two_b = g;
                }
            }
        }
    }
    let bits = match (ones, twos) {
        (1, 0) => one.waits(),
        (0, 2) => {
            let mut bits = 0;
            if two_a.complete() {
                bits |= two_b.waits();
            }
            if two_b.complete() {
                bits |= two_a.waits();
            }
            bits
        }
        _ => 0,
    };
    TileSet::from_bits(bits)
}

/// Is `hand` (concealed tiles, `3n + 2` of them) exactly sets and one pair?
pub fn is_complete(hand: &TileCounts) -> bool {
    let gs = groups(hand);
    if total(&gs) > 14 {
        return false;
    }
    let mut pairs = 0;
    for g in gs {
        match g.rem {
            0 | 2 if !g.complete() => return false,
            0 => {}
            2 => pairs += 1,
            _ => return false,
        }
    }
    pairs == 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::counts::parse_counts;

    fn waits(s: &str) -> String {
        standard_waits(&parse_counts(s, None).unwrap()).to_tokens()
    }

    #[test]
    fn textbook_waits() {
        // Code §115(c) note: holding 2 and 4 circles calls only the 3.
        assert_eq!(waits("123m 456m 789s EE 24p"), "3p");
        // ... holding 4 and 5 calls the 3 and the 6.
        assert_eq!(waits("123m 456m 789s EE 45p"), "3p 6p");
        // Code §115(d) note: three sets and 6-7-8-9 circles: 6 or 9 (fishing the eyes).
        assert_eq!(waits("123m 456m 789s 6789p"), "6p 9p");
        // Two pairs: either becomes the pung.
        assert_eq!(waits("123m 456m 789s EE 55p"), "5p E");
        // Nine Gates (Babcock Fig. 29): all nine characters.
        assert_eq!(waits("1112345678999m"), "1m 2m 3m 4m 5m 6m 7m 8m 9m");
        // Single honour: fishing the eyes.
        assert_eq!(waits("123m 456m 789s 111p R"), "R");
    }

    #[test]
    fn never_a_fifth_copy() {
        // Four ones in hand: 1111 + 234 waits only on 4 (111 123 44), never on a fifth 1.
        assert_eq!(waits("1111m 123p 456p 789p"), "-");
        assert_eq!(waits("1111234m 456p 789p"), "4m");
        // Four of R in hand: a pung plus a lone R could "wait" on R only as a fifth copy.
        assert_eq!(waits("RRRR 123m 456m 789m"), "-");
    }

    #[test]
    fn wrong_sizes_have_no_waits() {
        assert_eq!(waits("123m 456m 789s EE 456p"), "-");
        assert_eq!(waits(""), "-");
        assert_eq!(waits("E"), "E");
        assert_eq!(waits("1m"), "1m");
    }

    #[test]
    fn completeness() {
        let c = |s: &str| is_complete(&parse_counts(s, None).unwrap());
        assert!(c("123m 456m 789s EE 345p"));
        assert!(c("EE"));
        assert!(!c("123m 456m 789s EE 346p"));
        assert!(!c("123m 456m 789s E 3456p"));
        assert!(c("11223344556677m"));
        assert!(!c("13579m 13579p 1357s"));
        assert!(!c("123m"));
        assert!(c("11122233344455m"));
        // Five sets and a pair is not a hand.
        assert!(!c("123m 22456666p NNN PPP"));
        assert_eq!(waits("123m 2456666p NNN PPP"), "-");
    }
}
