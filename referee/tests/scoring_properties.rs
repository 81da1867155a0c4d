//! Properties of scoring over random complete hands under every built-in ruleset: the limit
//! holds, the order tiles are written in does not matter, and nothing panics.

use quickcheck::{Arbitrary, Gen, QuickCheck};
use referee::score::{score, ScoreInput, Win, WinFrom};
use referee::{Hand, Ruleset, Tile, Wind};

#[derive(Clone, Debug)]
struct RandomHand {
    ruleset: String,
    /// Exposed sets as written (`[555p]`).
    melds: Vec<String>,
    /// Concealed tiles, one token each, the winning tile excluded.
    concealed: Vec<Tile>,
    winning: Tile,
    from: WinFrom,
    seat: Wind,
    prevailing: Wind,
    /// A permutation seed for the second writing.
    shuffle: Vec<usize>,
}

fn pick<T: Copy>(g: &mut Gen, xs: &[T]) -> T {
    xs[usize::from(u16::arbitrary(g)) % xs.len()]
}

impl Arbitrary for RandomHand {
    fn arbitrary(g: &mut Gen) -> RandomHand {
        let names: Vec<&str> = Ruleset::builtin_names().collect();
        loop {
            let mut counts = [0u8; 34];
            let mut groups: Vec<(Vec<Tile>, bool)> = Vec::new();
            let mut ok = true;
            for _ in 0..4 {
                let t = pick(g, &Tile::ALL);
                let chow = bool::arbitrary(g) && t.rank().is_some_and(|r| r <= 7);
                let tiles: Vec<Tile> = if chow {
                    vec![t, t.succ().unwrap(), t.succ().unwrap().succ().unwrap()]
                } else {
                    vec![t; 3]
                };
                for &x in &tiles {
                    counts[x.index()] += 1;
                    ok &= counts[x.index()] <= 4;
                }
                groups.push((tiles, u8::arbitrary(g) % 3 == 0));
            }
            let p = pick(g, &Tile::ALL);
            counts[p.index()] += 2;
            ok &= counts[p.index()] <= 4;
            if !ok {
                continue;
            }
            let mut melds = Vec::new();
            let mut concealed: Vec<Tile> = vec![p, p];
            for (tiles, exposed) in groups {
                if exposed {
                    let written: String = tiles
                        .iter()
                        .map(|t| t.to_string())
                        .collect::<Vec<_>>()
                        .join(" ");
                    melds.push(format!("[{}]", compress(&written)));
                } else {
                    concealed.extend(tiles);
                }
            }
            let w = usize::from(u8::arbitrary(g)) % concealed.len();
            let winning = concealed.remove(w);
            let shuffle = (0..concealed.len())
                .map(|_| usize::from(u16::arbitrary(g)))
                .collect();
            return RandomHand {
                ruleset: pick(g, &names).to_owned(),
                melds,
                concealed,
                winning,
                from: pick(
                    g,
                    &[
                        WinFrom::Wall,
                        WinFrom::Discard,
                        // Not a loose tile: a hand without a kong cannot win on one, and is
                        // refused (see `circumstances` tests in scoring_code.rs).
                        WinFrom::RobbedKong,
                        WinFrom::LastDiscard,
                    ],
                ),
                seat: pick(g, &Wind::ALL),
                prevailing: pick(g, &Wind::ALL),
                shuffle,
            };
        }
    }
}

/// "5p 6p 7p" → "567p", as the notation writes a set.
fn compress(tokens: &str) -> String {
    let tiles: Vec<Tile> = tokens.split(' ').map(|t| t.parse().unwrap()).collect();
    referee::format_tiles(tiles, referee::Style::Compressed)
}

impl RandomHand {
    fn written(&self, order: &[Tile]) -> String {
        let mut parts = self.melds.clone();
        parts.extend(order.iter().map(|t| t.to_string()));
        parts.push(format!("={}", self.winning));
        parts.join(" ")
    }

    fn score(&self, order: &[Tile]) -> Option<referee::ScoreSheet> {
        let rules = Ruleset::builtin(&self.ruleset).unwrap();
        let hand: Hand = self.written(order).parse().ok()?;
        score(
            &rules,
            &ScoreInput::winning(hand, self.seat, self.prevailing, Win::from(self.from)),
        )
        .ok()
    }
}

#[test]
fn no_score_exceeds_the_limit_in_a_limited_game() {
    fn prop(h: RandomHand) -> bool {
        let rules = Ruleset::builtin(&h.ruleset).unwrap();
        match (h.score(&h.concealed), rules.params.limit) {
            (Some(s), Some(limit)) => s.total <= limit,
            // A complete hand always scores (the one-chow rule may refuse it: then it's `None`).
            (None, _) => rules.params.max_chows < 4,
            (Some(_), None) => true,
        }
    }
    QuickCheck::new()
        .tests(1_000)
        .quickcheck(prop as fn(RandomHand) -> bool);
}

#[test]
fn scores_do_not_depend_on_the_order_tiles_are_written_in() {
    fn prop(h: RandomHand) -> bool {
        let mut keyed: Vec<(usize, Tile)> = h
            .shuffle
            .iter()
            .copied()
            .zip(h.concealed.iter().copied())
            .collect();
        keyed.sort();
        let shuffled: Vec<Tile> = keyed.into_iter().map(|(_, t)| t).collect();
        let (a, b) = (h.score(&h.concealed), h.score(&shuffled));
        match (a, b) {
            (Some(a), Some(b)) => {
                (a.basic, a.doubles, a.total, a.limited) == (b.basic, b.doubles, b.total, b.limited)
            }
            (None, None) => true,
            _ => false,
        }
    }
    QuickCheck::new()
        .tests(1_000)
        .quickcheck(prop as fn(RandomHand) -> bool);
}
