//! Every distinct arrangement of concealed tiles into sets and one pair.
//!
//! Freedom of count (Code §105; Babcock Figs. 20 and 24): a hand is scored on whichever grouping
//! of its concealed tiles suits its owner, so the scorer needs all of them, each exactly once.
//!
//! The walk visits tile kinds in canonical order. At kind `i` with `n` copies left, every copy
//! must belong to a group whose lowest tile is `i`: some number of pungs `p` (0 or 1), of pairs `q`
//! (0 or 1, and only if the pair is still free) and of chows `k = n − 3p − 2q` starting at `i`.
//! An arrangement is exactly a choice of `(p, q, k)` for every kind, so each is produced once and
//! none is missed; concealed tiles never form a kong by themselves (kongs are declared, Code §39).

use crate::counts::TileCounts;
use crate::shape::set::{Arrangement, Set};
use crate::tile::Tile;

/// All arrangements of `hand` into sets and exactly one pair, each once, in no particular order.
///
/// Empty unless the hand holds `3n + 2` tiles for `n ≤ 4`.
pub fn arrangements(hand: &TileCounts) -> Vec<Arrangement> {
    let mut out = Vec::new();
    each_arrangement(hand, &mut |a| out.push(a));
    out
}

/// Calls `f` with each arrangement [`arrangements`] would list, without collecting them.
pub fn each_arrangement(hand: &TileCounts, f: &mut dyn FnMut(Arrangement)) {
    let len = hand.len();
    if len % 3 != 2 || len > 14 {
        return;
    }
    let mut walk = Walk {
        counts: *hand.as_array(),
        sets: [Set::pung(Tile::ALL[0]); 4],
        nsets: 0,
        pair: None,
    };
    walk.visit(0, f);
}

struct Walk {
    counts: [u8; 34],
    sets: [Set; 4],
    nsets: usize,
    pair: Option<Tile>,
}

impl Walk {
    fn visit(&mut self, from: usize, emit: &mut dyn FnMut(Arrangement)) {
        let Some(i) = (from..34).find(|&i| self.counts[i] > 0) else {
            if let Some(pair) = self.pair {
                if let Some(a) = Arrangement::new(&self.sets[..self.nsets], pair) {
                    emit(a);
                }
            }
            return;
        };
        let tile = Tile::ALL[i];
        let n = self.counts[i];
        for pungs in 0..=u8::from(n >= 3) {
            let free_pair = self.pair.is_none();
            for pairs in 0..=u8::from(free_pair && n - 3 * pungs >= 2) {
                let chows = n - 3 * pungs - 2 * pairs;
                if self.nsets + usize::from(pungs + chows) > 4 {
                    continue;
                }
                if chows > 0 && !self.can_take_chows(tile, chows) {
                    continue;
                }
                self.take(tile, pungs, pairs, chows);
                self.visit(i + 1, emit);
                self.untake(tile, pungs, pairs, chows);
            }
        }
    }

    fn can_take_chows(&self, tile: Tile, k: u8) -> bool {
        Set::chow(tile).is_some() && {
            let i = tile.index();
            self.counts[i + 1] >= k && self.counts[i + 2] >= k
        }
    }

    fn take(&mut self, tile: Tile, pungs: u8, pairs: u8, chows: u8) {
        let i = tile.index();
        self.counts[i] = 0;
        if chows > 0 {
            self.counts[i + 1] -= chows;
            self.counts[i + 2] -= chows;
        }
        for _ in 0..pungs {
            self.sets[self.nsets] = Set::pung(tile);
            self.nsets += 1;
        }
        if let Some(chow) = Set::chow(tile) {
            for _ in 0..chows {
                self.sets[self.nsets] = chow;
                self.nsets += 1;
            }
        }
        if pairs > 0 {
            self.pair = Some(tile);
        }
    }

    fn untake(&mut self, tile: Tile, pungs: u8, pairs: u8, chows: u8) {
        let i = tile.index();
        self.counts[i] = 3 * pungs + 2 * pairs + chows;
        if chows > 0 {
            self.counts[i + 1] += chows;
            self.counts[i + 2] += chows;
        }
        self.nsets -= usize::from(pungs + chows);
        if pairs > 0 {
            self.pair = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::counts::parse_counts;

    fn shown(hand: &str) -> Vec<String> {
        let mut v: Vec<String> = arrangements(&parse_counts(hand, None).unwrap())
            .iter()
            .map(|a| a.to_string())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn pure_triplets_or_runs_both_found() {
        // 111222333m + 99p: three pungs, or three chows of 123m.
        assert_eq!(
            shown("111222333m 456s 99p"),
            ["111m 222m 333m 456s 9p9p", "123m 123m 123m 456s 9p9p"]
        );
    }

    #[test]
    fn pair_may_sit_inside_a_run() {
        // 1112345678999 + 5: the Nine Gates completed by a 5.
        assert_eq!(shown("11123455678999m"), ["111m 234m 678m 999m 5m5m"]);
        // Four arrangements, one with the pair of twos below two runs of 3-4-5.
        assert_eq!(
            shown("11122233344455m"),
            [
                "111m 222m 333m 444m 5m5m",
                "111m 234m 234m 234m 5m5m",
                "111m 234m 345m 345m 2m2m",
                "123m 123m 123m 444m 5m5m",
            ]
        );
    }

    #[test]
    fn no_arrangement_for_incomplete_or_wrong_length() {
        assert!(shown("123m 456p 789s EE 13p").is_empty());
        assert!(shown("123m").is_empty());
        assert!(shown("").is_empty());
        assert_eq!(shown("EE"), ["EE"]);
    }

    #[test]
    fn four_alike_never_becomes_a_kong() {
        // 1111 2 3m + 55p: only 111m 123m 55p... (the fourth 1 must sit in a run).
        assert_eq!(shown("111123m 55p"), ["111m 123m 5p5p"]);
    }
}
