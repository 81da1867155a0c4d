//! Precomputed tables for the standard shape, one entry per possible holding of one suit.
//!
//! Sets never cross suits and honours never form runs, so whether a hand is complete (or which
//! tiles complete it) is decided suit by suit. A suit holding is nine counts 0–4, read as a
//! base-5 number (`5^9 = 1,953,125` keys); the honours are seven counts (`5^7 = 78,125` keys).
//! Each entry is a `u16`:
//!
//! - bit 9 (`COMPLETE`): the holding splits into sets only (when its size is `≡ 0 mod 3`) or into
//!   sets and one pair (size `≡ 2 mod 3`);
//! - bits 0–8: for a holding of size `≡ 2 mod 3`, the tiles that make it sets only; for size
//!   `≡ 1 mod 3`, the tiles that make it sets and one pair. A tile the holding already has four
//!   of is never included.
//!
//! The size modulo 3 says which meaning the mask has, so one mask suffices. Holdings of more than
//! 14 tiles cannot occur in a hand and are left zero.
//!
//! The tables (about 4 MB) are computed at build time by `build.rs`, which includes
//! [`generate`] (the one definition), and embedded in the binary: a command that scores one
//! hand would otherwise spend almost all its time (tens of milliseconds) building them. The
//! bytes are read as little-endian `u16`s, so nothing depends on their alignment, and the
//! operating system pages in only the parts a run touches. A test compares the embedded tables
//! with freshly computed ones, entry by entry.

pub mod generate;

pub use generate::{COMPLETE, MASK, POW5};

/// One embedded table: its entries as little-endian `u16`s, in key order.
pub struct Table {
    bytes: &'static [u8],
}

impl Table {
    /// The entry for `key`; zero (not complete, no waits) past the end of the table.
    #[inline]
    pub fn get(&self, key: usize) -> u16 {
        match self.bytes.get(2 * key..2 * key + 2) {
            Some(&[lo, hi]) => u16::from_le_bytes([lo, hi]),
            _ => 0,
        }
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.bytes.len() / 2
    }

    /// Never true for the embedded tables.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }
}

/// Indexed by the base-5 key of a suit holding (nine counts).
pub static SUIT: Table = Table {
    bytes: include_bytes!(concat!(env!("OUT_DIR"), "/suit-table.bin")),
};

/// Indexed by the base-5 key of the seven honour counts.
pub static HONOURS: Table = Table {
    bytes: include_bytes!(concat!(env!("OUT_DIR"), "/honours-table.bin")),
};

#[cfg(test)]
mod tests {
    use super::*;

    fn key(counts: &[u8]) -> usize {
        counts
            .iter()
            .enumerate()
            .map(|(i, &n)| usize::from(n) * POW5[i] as usize)
            .sum()
    }

    /// The embedded tables are exactly what [`generate`] computes now.
    #[test]
    fn embedded_tables_equal_fresh_ones() {
        for (name, embedded, fresh) in [
            ("suit", &SUIT, generate::suit_table()),
            ("honours", &HONOURS, generate::honours_table()),
        ] {
            assert_eq!(embedded.len(), fresh.len(), "{name} table size");
            let differ = (0..fresh.len()).find(|&k| embedded.get(k) != fresh[k]);
            assert_eq!(differ, None, "{name} table differs at key {differ:?}");
        }
        // Past the end reads as zero, never panics.
        assert_eq!(SUIT.get(SUIT.len()), 0);
    }

    #[test]
    fn suit_entries() {
        let t = &SUIT;
        // 123 is complete; 12 waits on 3; 1 waits on 1 (pair).
        assert_ne!(t.get(key(&[1, 1, 1])) & COMPLETE, 0);
        assert_eq!(t.get(key(&[1, 1])) & MASK, 0b100);
        assert_eq!(t.get(key(&[1])) & MASK, 0b1);
        // 1112345678999 waits on all nine.
        assert_eq!(t.get(key(&[3, 1, 1, 1, 1, 1, 1, 1, 3])) & MASK, 0x1ff);
        // 1111: four alike in hand, so never waits on a fifth (1111 + 2 → 111 12? no: size 5).
        assert_eq!(t.get(key(&[4])) & MASK, 0);
        assert_eq!(t.get(key(&[4, 1, 1])) & MASK, 0);
        assert_ne!(t.get(key(&[4, 1, 1])) & COMPLETE, 0);
    }

    #[test]
    fn honour_entries_never_run() {
        let t = &HONOURS;
        assert_eq!(t.get(key(&[1, 1, 1])) & COMPLETE, 0);
        assert_ne!(t.get(key(&[3])) & COMPLETE, 0);
        // Two pairs wait on either (one becomes the pung, the other stays the pair).
        assert_eq!(t.get(key(&[2, 2])) & MASK, 0b11);
    }
}
