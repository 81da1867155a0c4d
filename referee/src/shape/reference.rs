//! The slow, obviously-correct standard-shape decomposer that the fast one is checked against.
//!
//! It tries every multiset of groups (pungs, chows, pairs) drawn from a fixed candidate list in
//! non-decreasing order, keeps those that use exactly the hand's tiles and exactly one pair, and
//! derives waits by trying each of the 34 tiles. No tables, no cleverness: only used by tests and
//! by anyone who wants to double-check an answer.

use std::collections::BTreeSet;

use crate::counts::{TileCounts, TileSet};
use crate::shape::set::{Arrangement, Set};
use crate::tile::Tile;

#[derive(Clone, Copy)]
enum Group {
    Set(Set),
    Pair(Tile),
}

fn candidates() -> Vec<Group> {
    let mut v: Vec<Group> = Tile::ALL
        .iter()
        .map(|&t| Group::Set(Set::pung(t)))
        .collect();
    v.extend(
        Tile::ALL
            .iter()
            .filter_map(|&t| Set::chow(t).map(Group::Set)),
    );
    v.extend(Tile::ALL.iter().map(|&t| Group::Pair(t)));
    v
}

fn group_tiles(g: Group) -> Vec<Tile> {
    match g {
        Group::Set(s) => s.tiles().collect(),
        Group::Pair(t) => vec![t, t],
    }
}

/// All arrangements into sets and exactly one pair, as a sorted set (so duplicates vanish).
pub fn arrangements(hand: &TileCounts) -> BTreeSet<String> {
    let cands = candidates();
    let mut out = BTreeSet::new();
    let mut chosen = Vec::new();
    let mut left = *hand.as_array();
    search(&cands, 0, &mut left, &mut chosen, &mut out);
    out
}

fn search(
    cands: &[Group],
    from: usize,
    left: &mut [u8; 34],
    chosen: &mut Vec<Group>,
    out: &mut BTreeSet<String>,
) {
    if left.iter().all(|&n| n == 0) {
        let pairs: Vec<Tile> = chosen
            .iter()
            .filter_map(|g| match g {
                Group::Pair(t) => Some(*t),
                Group::Set(_) => None,
            })
            .collect();
        let sets: Vec<Set> = chosen
            .iter()
            .filter_map(|g| match g {
                Group::Set(s) => Some(*s),
                Group::Pair(_) => None,
            })
            .collect();
        if let [pair] = pairs.as_slice() {
            if let Some(a) = Arrangement::new(&sets, *pair) {
                out.insert(a.to_string());
            }
        }
        return;
    }
    for (i, &g) in cands.iter().enumerate().skip(from) {
        let tiles = group_tiles(g);
        let mut ok = true;
        for t in &tiles {
            if left[t.index()] == 0 {
                ok = false;
            }
            left[t.index()] = left[t.index()].wrapping_sub(1);
        }
        if ok {
            chosen.push(g);
            search(cands, i, left, chosen, out);
            chosen.pop();
        }
        for t in &tiles {
            left[t.index()] = left[t.index()].wrapping_add(1);
        }
    }
}

/// The waits of a `3n + 1` hand, by trying every tile.
pub fn standard_waits(hand: &TileCounts) -> TileSet {
    Tile::ALL
        .iter()
        .copied()
        .filter(|&t| hand.with(t).is_some_and(|h| !arrangements(&h).is_empty()))
        .collect()
}
