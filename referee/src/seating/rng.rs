//! The seeded draw every method takes its chances from.
//!
//! A plan is recorded with its method and seed, so the seed must give the same plan in every
//! version: `ChaCha20Rng::seed_from_u64` (rand_chacha 0.9) is a named, specified generator whose
//! output is value-stable, and the uniform index and the shuffle are written out here rather
//! than taken from rand's `SliceRandom`, whose sampling may change between versions. (The
//! service's seat draws, `web/src/server/draw.rs`, use the same generator and index rule.)

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;

/// A seeded source of uniform choices.
pub(crate) struct Draw(ChaCha20Rng);

impl Draw {
    pub(crate) fn new(seed: u64) -> Draw {
        Draw(ChaCha20Rng::seed_from_u64(seed))
    }

    /// A uniform index in `0..bound` (`bound` ≥ 1): a draw at or above the largest multiple of
    /// `bound` not above 2^64 is rejected, so that no index is favoured.
    pub(crate) fn below(&mut self, bound: usize) -> usize {
        debug_assert!(bound >= 1);
        const SPAN: u128 = 1 << 64;
        let bound = bound as u128;
        let accept_below = SPAN - SPAN % bound;
        loop {
            let x = u128::from(self.0.next_u64());
            if x < accept_below {
                return (x % bound) as usize;
            }
        }
    }

    /// Fisher–Yates: for i from the last position down to 1, swap position i with a uniform
    /// position in `0..=i`.
    pub(crate) fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_gives_the_same_draws() {
        let (mut a, mut b) = (Draw::new(7), Draw::new(7));
        let xs: Vec<usize> = (0..50).map(|_| a.below(13)).collect();
        let ys: Vec<usize> = (0..50).map(|_| b.below(13)).collect();
        assert_eq!(xs, ys);
        assert!(xs.iter().all(|&x| x < 13));
        let mut c = Draw::new(8);
        assert_ne!(xs, (0..50).map(|_| c.below(13)).collect::<Vec<_>>());
    }

    #[test]
    fn a_shuffle_is_a_permutation() {
        let mut items: Vec<u32> = (0..100).collect();
        Draw::new(1).shuffle(&mut items);
        assert_ne!(items, (0..100).collect::<Vec<_>>());
        items.sort_unstable();
        assert_eq!(items, (0..100).collect::<Vec<_>>());
    }
}
