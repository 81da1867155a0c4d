//! Properties of the shape module on random legal hands, and the fast paths checked against the
//! slow reference decomposer (STYLE habit 11).

use quickcheck::{Arbitrary, Gen, QuickCheck, TestResult};
use referee::shape::{arrangements, is_complete, reference, standard_waits, SpecialShape};
use referee::{format_tiles, parse_counts, Style, Tile, TileCounts, TileSet};

/// A random hand of a given size drawn from a full set of 136 tiles (so never a fifth copy).
/// Kinds: drawn from the whole set; drawn from one suit; or built from random sets and a pair
/// and then (for 13-tile hands) stripped of one tile, so that calling hands are common.
#[derive(Clone, Debug)]
struct Hand {
    counts: TileCounts,
}

fn draw_from(g: &mut Gen, pool: &[Tile], len: usize) -> TileCounts {
    let mut wall: Vec<Tile> = pool.iter().flat_map(|&t| [t; 4]).collect();
    let mut c = TileCounts::EMPTY;
    for _ in 0..len {
        let i = usize::arbitrary(g) % wall.len();
        let t = wall.swap_remove(i);
        c.try_add(t).expect("drawn from a four-copy wall");
    }
    c
}

fn built(g: &mut Gen, pool: &[Tile], sets: usize) -> Option<TileCounts> {
    let mut c = TileCounts::EMPTY;
    for _ in 0..sets {
        let t = *g.choose(pool)?;
        let chow = bool::arbitrary(g) && t.rank().is_some_and(|r| r <= 7);
        let tiles: Vec<Tile> = if chow {
            let b = t.succ()?;
            vec![t, b, b.succ()?]
        } else {
            vec![t; 3]
        };
        for t in tiles {
            c.try_add(t).ok()?;
        }
    }
    let p = *g.choose(pool)?;
    c.try_add(p).ok()?;
    c.try_add(p).ok()?;
    Some(c)
}

fn one_suit(g: &mut Gen) -> Vec<Tile> {
    let s = usize::arbitrary(g) % 3;
    Tile::ALL[9 * s..9 * s + 9].to_vec()
}

impl Hand {
    fn generate(g: &mut Gen, len: usize) -> Hand {
        let pool = match u8::arbitrary(g) % 3 {
            0 => one_suit(g),
            _ => Tile::ALL.to_vec(),
        };
        let counts = if bool::arbitrary(g) {
            draw_from(g, &pool, len)
        } else {
            let sets = len / 3;
            let full = (0..50)
                .find_map(|_| built(g, &pool, sets))
                .unwrap_or_else(|| draw_from(g, &pool, sets * 3 + 2));
            if len % 3 == 1 {
                let tiles: Vec<Tile> = full.tiles().collect();
                full.without(*g.choose(&tiles).unwrap()).unwrap()
            } else {
                full
            }
        };
        Hand { counts }
    }
}

#[derive(Clone, Debug)]
struct Calling(Hand);
impl Arbitrary for Calling {
    fn arbitrary(g: &mut Gen) -> Calling {
        let len = [13, 13, 13, 10, 7, 4, 1][usize::arbitrary(g) % 7];
        Calling(Hand::generate(g, len))
    }
}

#[derive(Clone, Debug)]
struct Finished(Hand);
impl Arbitrary for Finished {
    fn arbitrary(g: &mut Gen) -> Finished {
        let len = [14, 14, 14, 11, 8, 5, 2][usize::arbitrary(g) % 7];
        Finished(Hand::generate(g, len))
    }
}

fn qc() -> QuickCheck {
    QuickCheck::new().tests(400)
}

#[test]
fn each_arrangement_reassembles_exactly_the_hand_and_none_is_repeated() {
    fn prop(h: Finished) -> bool {
        let arrs = arrangements(&h.0.counts);
        let distinct: std::collections::HashSet<_> = arrs.iter().collect();
        distinct.len() == arrs.len() && arrs.iter().all(|a| a.counts() == h.0.counts)
    }
    qc().quickcheck(prop as fn(Finished) -> bool);
}

#[test]
fn fast_arrangements_equal_the_reference_ones() {
    fn prop(h: Finished) -> bool {
        let fast: std::collections::BTreeSet<String> = arrangements(&h.0.counts)
            .iter()
            .map(|a| a.to_string())
            .collect();
        fast == reference::arrangements(&h.0.counts) && is_complete(&h.0.counts) != fast.is_empty()
    }
    qc().quickcheck(prop as fn(Finished) -> bool);
}

#[test]
fn fast_waits_equal_the_reference_waits() {
    fn prop(h: Calling) -> bool {
        standard_waits(&h.0.counts) == reference::standard_waits(&h.0.counts)
    }
    qc().quickcheck(prop as fn(Calling) -> bool);
}

#[test]
fn a_wait_completes_the_hand_and_no_other_tile_does() {
    fn prop(h: Calling) -> bool {
        let waits = standard_waits(&h.0.counts);
        Tile::ALL.iter().all(|&t| match h.0.counts.with(t) {
            // A fifth copy is never a wait.
            None => !waits.contains(t),
            Some(h14) => waits.contains(t) == is_complete(&h14),
        })
    }
    qc().quickcheck(prop as fn(Calling) -> bool);
}

#[test]
fn special_shape_waits_are_exactly_the_completing_tiles() {
    fn prop(h: Calling) -> TestResult {
        if h.0.counts.len() != 13 {
            return TestResult::discard();
        }
        TestResult::from_bool(SpecialShape::ALL.iter().all(|shape| {
            let waits = shape.waits(&h.0.counts);
            Tile::ALL.iter().all(|&t| match h.0.counts.with(t) {
                None => !waits.contains(t),
                Some(h14) => waits.contains(t) == shape.is_complete(&h14, t),
            })
        }))
    }
    qc().quickcheck(prop as fn(Calling) -> TestResult);
}

#[test]
fn notation_round_trips_in_both_styles() {
    fn prop(h: Finished, shuffle: Vec<usize>) -> bool {
        let mut tiles: Vec<Tile> = h.0.counts.tiles().collect();
        // Write the tiles in a scrambled order: parsing must not care.
        for (i, k) in shuffle.iter().enumerate() {
            let n = tiles.len();
            if n > 0 {
                tiles.swap(i % n, k % n);
            }
        }
        [Style::PerTile, Style::Compressed].iter().all(|&style| {
            let written = format_tiles(tiles.iter().copied(), style);
            parse_counts(&written, None).ok() == Some(h.0.counts)
                && format_tiles(parse_counts(&written, None).unwrap().tiles(), style) == written
        })
    }
    qc().quickcheck(prop as fn(Finished, Vec<usize>) -> bool);
}

/// Every one-suit hand of 13 tiles (all 9-rank holdings with at most four of each), checked
/// against the independent arrangement enumerator: the table-driven waits must be exactly the
/// tiles that make the enumerator find an arrangement.
#[test]
fn every_one_suit_calling_hand_agrees_with_the_enumerator() {
    let mut counts = [0u8; 9];
    let mut checked = 0;
    let mut with_waits = 0;
    loop {
        if counts.iter().map(|&n| usize::from(n)).sum::<usize>() == 13 {
            let mut all = [0u8; 34];
            all[18..27].copy_from_slice(&counts);
            let hand = TileCounts::from_array(all).unwrap();
            let expected: TileSet = Tile::ALL
                .iter()
                .copied()
                .filter(|&t| hand.with(t).is_some_and(|h| !arrangements(&h).is_empty()))
                .collect();
            assert_eq!(standard_waits(&hand), expected, "hand {hand}");
            checked += 1;
            with_waits += usize::from(!expected.is_empty());
        }
        // Next holding in base 5.
        let mut i = 0;
        while i < 9 && counts[i] == 4 {
            counts[i] = 0;
            i += 1;
        }
        if i == 9 {
            break;
        }
        counts[i] += 1;
    }
    assert!(checked > 10_000, "only {checked} hands");
    assert!(with_waits > 1_000, "only {with_waits} calling hands");
}
