//! Computing the shape tables: the one definition of what an entry holds.
//!
//! `referee`'s build script includes this very file (`#[path]` in `build.rs`) to write the
//! tables into `OUT_DIR`, and the crate includes it to name the entry's bits and, in tests, to
//! compute the tables afresh and compare them with the embedded ones. So it uses nothing but
//! `std`: no `crate::` paths.
//!
//! The layout of an entry is described in the [parent module](super).

/// Set when the holding is complete (see the module docs).
pub const COMPLETE: u16 = 1 << 9;
/// The wait bits of an entry.
pub const MASK: u16 = (1 << 9) - 1;

/// Powers of five, the weight of each rank in a key.
pub const POW5: [u32; 10] = [1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125];

/// Ranks in a suit (the suit table's key has nine base-5 digits).
pub const SUIT_RANKS: usize = 9;
/// Kinds of honour (the honours table's key has seven base-5 digits).
pub const HONOUR_RANKS: usize = 7;

/// The suit table: runs allowed.
pub fn suit_table() -> Vec<u16> {
    build(SUIT_RANKS, true)
}

/// The honours table: honours never form runs.
pub fn honours_table() -> Vec<u16> {
    build(HONOUR_RANKS, false)
}

/// The table's bytes as embedded: each entry little-endian, in key order.
pub fn to_le_bytes(table: &[u16]) -> Vec<u8> {
    table.iter().flat_map(|e| e.to_le_bytes()).collect()
}

fn build(ranks: usize, runs: bool) -> Vec<u16> {
    let size = POW5[ranks] as usize;
    let mut table = vec![0u16; size];
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
