//! Who meets whom how often, and who sits in which chair: the figures a plan is judged by.
//!
//! Two players **meet** when they sit at one table in one session. A pair that meets `m` times
//! repeats `m − 1` meetings; a plan's **repeats** are the sum over all pairs. The no-repeat
//! optimiser minimises the repeats first and then Σ C(m, 2) over pairs (Σ m² up to a constant:
//! repeats spread as evenly as possible); both are zero exactly when no pair meets twice.

use super::{Chair, Player, Session};

/// How often each pair has met: a symmetric count matrix, cheap to update by one table.
#[derive(Clone, Debug)]
pub(crate) struct Tally {
    n: usize,
    counts: Vec<u8>,
}

impl Tally {
    pub(crate) fn new(players: usize) -> Tally {
        Tally {
            n: players,
            counts: vec![0; players * players],
        }
    }

    pub(crate) fn get(&self, a: usize, b: usize) -> u8 {
        self.counts[a * self.n + b]
    }

    pub(crate) fn add(&mut self, a: usize, b: usize) {
        self.counts[a * self.n + b] += 1;
        self.counts[b * self.n + a] += 1;
    }

    pub(crate) fn sub(&mut self, a: usize, b: usize) {
        self.counts[a * self.n + b] -= 1;
        self.counts[b * self.n + a] -= 1;
    }

    pub(crate) fn add_table(&mut self, table: &[Player]) {
        for (i, a) in table.iter().enumerate() {
            for b in &table[i + 1..] {
                self.add(a.index(), b.index());
            }
        }
    }

    /// Meetings of `player` with the players of `table`.
    pub(crate) fn with_table(&self, player: usize, table: &[Player]) -> u32 {
        table
            .iter()
            .map(|q| u32::from(self.get(player, q.index())))
            .sum()
    }
}

/// The meeting and chair figures of a plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Meetings {
    /// Pairs that met at least once.
    pub pairs_met: u32,
    /// Pairs that met more than once.
    pub pairs_repeated: u32,
    /// Σ over pairs of (meetings − 1) for pairs that met: the meetings a perfect plan avoids.
    pub repeats: u32,
    /// The most times one pair met.
    pub most: u8,
    /// Each pair that met more than once, with its meetings, in order of the players' numbers.
    pub repeated: Vec<(Player, Player, u8)>,
    /// For each player (index from 0), how often they sat in each chair (East, South, West,
    /// North, Dreamer).
    pub chairs: Vec<[u16; 5]>,
    /// For each player, how many sessions they sat out.
    pub byes: Vec<u16>,
}

impl Meetings {
    pub fn of(sessions: &[Session], players: u16) -> Meetings {
        let n = usize::from(players);
        let mut tally = Tally::new(n);
        let mut chairs = vec![[0u16; 5]; n];
        let mut byes = vec![0u16; n];
        for session in sessions {
            for table in &session.tables {
                tally.add_table(table);
                for (position, p) in table.iter().enumerate() {
                    chairs[p.index()][position] += 1;
                }
            }
            for p in &session.byes {
                byes[p.index()] += 1;
            }
        }
        let (mut pairs_met, mut pairs_repeated, mut repeats, mut most) = (0, 0, 0, 0);
        let mut repeated = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                let m = tally.get(a, b);
                most = most.max(m);
                if m >= 1 {
                    pairs_met += 1;
                    repeats += u32::from(m - 1);
                }
                if m >= 2 {
                    pairs_repeated += 1;
                    repeated.push((Player::from_index(a), Player::from_index(b), m));
                }
            }
        }
        Meetings {
            pairs_met,
            pairs_repeated,
            repeats,
            most,
            repeated,
            chairs,
            byes,
        }
    }

    /// The fewest and the most times a player sat East.
    pub fn east(&self) -> (u16, u16) {
        range(self.chairs.iter().map(|c| c[Chair::East.index()]))
    }

    /// The fewest and the most sessions a player sat out.
    pub fn byes_range(&self) -> (u16, u16) {
        range(self.byes.iter().copied())
    }

    /// The worst imbalance of one player's winds: the most, over players, of (their most used
    /// wind − their least used wind) among East, South, West and North. With `s` sessions at
    /// tables of four, 0 is perfect when 4 divides `s`, and 1 otherwise.
    pub fn wind_spread(&self) -> u16 {
        self.chairs
            .iter()
            .map(|c| {
                let (lo, hi) = range(c[..4].iter().copied());
                hi - lo
            })
            .max()
            .unwrap_or(0)
    }
}

fn range(values: impl Iterator<Item = u16>) -> (u16, u16) {
    values
        .fold(None, |acc: Option<(u16, u16)>, v| match acc {
            None => Some((v, v)),
            Some((lo, hi)) => Some((lo.min(v), hi.max(v))),
        })
        .unwrap_or((0, 0))
}

/// A lower bound on the repeats (Σ over pairs of m − 1, for pairs that met) when player `p`
/// meets `met[p]` others-with-multiplicity among `players − 1`: each player meets at most
/// every other once without repeating.
pub(crate) fn repeat_bound(met: &[u64]) -> u64 {
    let others = met.len() as u64 - 1;
    let twice: u64 = met.iter().map(|&m| m.saturating_sub(others)).sum();
    twice.div_ceil(2)
}

/// A lower bound on Σ over pairs of C(m, 2) when player `p` meets `met[p]` others-with-
/// multiplicity among `players − 1`: each player's meetings are at best spread evenly.
pub(crate) fn spread_bound(met: &[u64]) -> u64 {
    let others = met.len() as u64 - 1;
    if others == 0 {
        return 0;
    }
    let c2 = |m: u64| m * m.saturating_sub(1) / 2;
    let twice: u64 = met
        .iter()
        .map(|&m| {
            let (q, r) = (m / others, m % others);
            r * c2(q + 1) + (others - r) * c2(q)
        })
        .sum();
    twice.div_ceil(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(n: u16) -> Player {
        Player::new(n).unwrap()
    }

    fn session(tables: &[&[u16]]) -> Session {
        Session {
            tables: tables
                .iter()
                .map(|t| t.iter().map(|&n| p(n)).collect())
                .collect(),
            byes: vec![],
        }
    }

    #[test]
    fn counts_repeats_and_chairs() {
        let plan = [
            session(&[&[1, 2, 3, 4], &[5, 6, 7, 8]]),
            session(&[&[1, 2, 5, 6], &[3, 4, 7, 8]]),
            session(&[&[2, 1, 3, 4], &[5, 6, 7, 8]]),
        ];
        let m = Meetings::of(&plan, 8);
        // 1-2 three times; 3-4, 5-6, 7-8 three times; 1-3, 1-4, 2-3, 2-4, 5-7, 5-8, 6-7,
        // 6-8 twice.
        assert_eq!(m.pairs_repeated, 12);
        assert_eq!(m.repeats, 4 * 2 + 8);
        assert_eq!(m.most, 3);
        assert_eq!(m.repeated.len(), 12);
        assert_eq!(m.repeated[0], (p(1), p(2), 3));
        assert_eq!(m.chairs[0], [2, 1, 0, 0, 0]);
        assert_eq!(m.east(), (0, 2));
        // Player 8 sat North all three times.
        assert_eq!(m.wind_spread(), 3);
    }

    #[test]
    fn the_spread_bound_is_met_by_a_perfect_plan_and_positive_when_repeats_are_forced() {
        // 16 players, 5 sessions at tables of four: 15 meetings each among 15 others.
        assert_eq!(spread_bound(&[15; 16]), 0);
        // 8 players, 5 sessions: 15 meetings among 7 others, at least one pair three times.
        assert_eq!(spread_bound(&[15; 8]), (8 * (3 + 6)) / 2);
        assert_eq!(repeat_bound(&[15; 16]), 0);
        assert_eq!(repeat_bound(&[15; 8]), 8 * 8 / 2);
        assert_eq!(repeat_bound(&[12; 12]), 6);
    }
}
