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
//! 14 tiles cannot occur in a hand and are left zero. The tables (about 4 MB) are built once, on
//! first use, in a few tens of milliseconds.

use std::sync::OnceLock;

/// Set when the holding is complete (see the module docs).
pub const COMPLETE: u16 = 1 << 9;
/// The wait bits of an entry.
pub const MASK: u16 = (1 << 9) - 1;

/// Powers of five, the weight of each rank in a key.
pub const POW5: [u32; 10] = [1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125];

/// The two tables.
pub struct Tables {
    /// Indexed by the base-5 key of a suit holding.
    pub suit: Box<[u16]>,
    /// Indexed by the base-5 key of the seven honour counts.
    pub honours: Box<[u16]>,
}

/// The tables, built on first use.
pub fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| Tables {
        suit: build(9, true),
        honours: build(7, false),
    })
}

fn build(ranks: usize, runs: bool) -> Box<[u16]> {
    let size = POW5[ranks] as usize;
    let mut table = vec![0u16; size].into_boxed_slice();
    let mut counts = vec![0u8; ranks];
    // Pass 1: completeness. Removing a set or a pair lowers the key, so smaller keys are known.
    for key in 0..size {
        decode(key, &mut counts);
        let total: usize = counts.iter().map(|&n| usize::from(n)).sum();
        if total > 14 {
            continue;
        }
        let complete = match total % 3 {
            0 => sets_only(&table, key, &counts, runs),
            2 => (0..ranks).any(|i| {
                counts[i] >= 2 && {
                    let rest = key - 2 * POW5[i] as usize;
                    rest == 0 || table[rest] & COMPLETE != 0
                }
            }),
            _ => false,
        };
        if complete {
            table[key] = COMPLETE;
        }
    }
    // Pass 2: waits, from the completeness of the holding with one more tile.
    for key in 0..size {
        decode(key, &mut counts);
        let total: usize = counts.iter().map(|&n| usize::from(n)).sum();
        if total > 13 || total.is_multiple_of(3) {
            continue;
        }
        let mut mask = 0u16;
        for (i, &n) in counts.iter().enumerate() {
            if n < 4 && table[key + POW5[i] as usize] & COMPLETE != 0 {
                mask |= 1 << i;
            }
        }
        table[key] |= mask;
    }
    table
}

/// Is the holding (size `≡ 0 mod 3`) made of sets only? The lowest tile present must open a
/// pung or a run; either removal leads to a smaller key whose answer is already in the table.
fn sets_only(table: &[u16], key: usize, counts: &[u8], runs: bool) -> bool {
    let Some(i) = counts.iter().position(|&n| n > 0) else {
        return true;
    };
    let known = |rest: usize| rest == 0 || table[rest] & COMPLETE != 0;
    if counts[i] >= 3 && known(key - 3 * POW5[i] as usize) {
        return true;
    }
    runs && i + 2 < counts.len()
        && counts[i + 1] > 0
        && counts[i + 2] > 0
        && known(key - (POW5[i] + POW5[i + 1] + POW5[i + 2]) as usize)
}

fn decode(mut key: usize, counts: &mut [u8]) {
    for c in counts.iter_mut() {
        *c = (key % 5) as u8;
        key /= 5;
    }
}

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

    #[test]
    fn suit_entries() {
        let t = tables();
        // 123 is complete; 12 waits on 3; 1 waits on 1 (pair).
        assert_ne!(t.suit[key(&[1, 1, 1])] & COMPLETE, 0);
        assert_eq!(t.suit[key(&[1, 1])] & MASK, 0b100);
        assert_eq!(t.suit[key(&[1])] & MASK, 0b1);
        // 1112345678999 waits on all nine.
        assert_eq!(t.suit[key(&[3, 1, 1, 1, 1, 1, 1, 1, 3])] & MASK, 0x1ff);
        // 1111: four alike in hand, so never waits on a fifth (1111 + 2 → 111 12? no: size 5).
        assert_eq!(t.suit[key(&[4])] & MASK, 0);
        assert_eq!(t.suit[key(&[4, 1, 1])] & MASK, 0);
        assert_ne!(t.suit[key(&[4, 1, 1])] & COMPLETE, 0);
    }

    #[test]
    fn honour_entries_never_run() {
        let t = tables();
        assert_eq!(t.honours[key(&[1, 1, 1])] & COMPLETE, 0);
        assert_ne!(t.honours[key(&[3])] & COMPLETE, 0);
        // Two pairs wait on either (one becomes the pung, the other stays the pair).
        assert_eq!(t.honours[key(&[2, 2])] & MASK, 0b11);
    }
}
