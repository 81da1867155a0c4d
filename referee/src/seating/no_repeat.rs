//! No-repeat seating: every session planned in advance so that as few pairs as possible meet
//! more than once (the "social golfer" problem), with byes taken in turn and chairs balanced.
//!
//! The optimiser, deterministic for a seed:
//!
//! 1. **Greedy construction.** Session by session, each table is started by the next player of
//!    a seeded shuffle and filled with whichever of the next 64 unseated players has met the
//!    table least so far.
//! 2. **Tabu search** (after Dotú and Van Hentenryck's local search for the social golfer
//!    problem). The cost of a pair that met m times is W·(m − 1) + C(m, 2) when it met (W =
//!    2^20): first the repeats the plan is judged by (Σ (m − 1) = the meetings minus the pairs
//!    that met, so fewer repeats means more pairs meeting), then, among plans with as many
//!    repeats, the one that spreads them (two pairs meeting twice rather than one three
//!    times). The cost is zero exactly when no pair meets twice. Each step takes a session with a conflict (two players at one table who
//!    meet again elsewhere), a player `a` in conflict there, and swaps `a` with the player of
//!    another table of that session whose swap lowers the cost most (ties drawn by lot), even
//!    when none lowers it. Both players then stay put in that session for 5–14 steps (tabu),
//!    unless a move would beat the best plan seen. After a long run without a new best, the
//!    search returns to the best plan and shakes it with a few random swaps.
//! 3. It stops when the cost reaches a lower bound (zero, or with tables all one size the
//!    bounds of [`super::meetings::repeat_bound`] and [`super::meetings::spread_bound`]: the
//!    plan is then optimal), or after its step budget,
//!    and keeps the best plan seen. The budget is a number of steps, not a time, so that a seed
//!    gives the same plan on every machine: 200,000,000 / (8 × seated players) steps, between
//!    10,000 and 1,000,000.
//!
//! 16 players over 5 sessions have a perfect plan (the affine plane of order 4: five parallel
//! classes of four lines of four points; every pair meets exactly once); the search finds one
//! for every seed tried (`finds_the_perfect_sixteen_over_five`).

use std::ops::Range;

use super::chairs;
use super::meetings::{repeat_bound, spread_bound, Tally};
use super::random::byes_in_turn;
use super::rng::Draw;
use super::{Layout, Player, Session};

/// Unseated players the greedy construction looks at for each chair.
const WINDOW: usize = 64;
/// No slot: the player sits out the session.
const NONE: u32 = u32::MAX;
/// The weight of one repeated meeting against the spread of meetings.
const W: u64 = 1 << 20;

/// What one more meeting costs a pair that has met `m` times.
fn rise(m: u8) -> u64 {
    if m == 0 {
        0
    } else {
        W + u64::from(m)
    }
}

/// A no-repeat plan of `layout`, from `seed`.
pub(crate) fn no_repeat(layout: &Layout, seed: u64) -> Vec<Session> {
    let mut draw = Draw::new(seed);
    let byes = byes_in_turn(layout, &mut draw);
    let mut search = Search::new(layout, &byes, &mut draw);
    search.run(&mut draw, steps(layout), bound(layout, &byes));
    let mut sessions = search.sessions(&byes);
    chairs::balance(&mut sessions, usize::from(layout.players()), &mut draw);
    sessions
}

/// The step budget: 200,000,000 / (8 × seated), between 10,000 and 1,000,000.
fn steps(layout: &Layout) -> u64 {
    (200_000_000 / (8 * u64::from(layout.seated()))).clamp(10_000, 1_000_000)
}

/// A cost no plan can go below: with tables all of one size each player's meetings are known,
/// and at best spread evenly; otherwise zero.
fn bound(layout: &Layout, byes: &[Vec<Player>]) -> u64 {
    let size = layout.tables()[0];
    if layout.tables().iter().any(|&s| s != size) {
        return 0;
    }
    let mut sat = vec![u64::from(layout.sessions()); usize::from(layout.players())];
    for p in byes.iter().flatten() {
        sat[p.index()] -= 1;
    }
    let met: Vec<u64> = sat.iter().map(|s| s * (u64::from(size) - 1)).collect();
    W * repeat_bound(&met) + spread_bound(&met)
}

struct Search {
    /// Slots of each table, the same every session.
    tables: Vec<Range<usize>>,
    /// The table of each slot.
    table_of: Vec<usize>,
    /// `slots[s][i]`: the player (index) in slot `i` of session `s`.
    slots: Vec<Vec<u16>>,
    /// `slot_of[s][p]`: the slot of player `p` in session `s`, or [`NONE`].
    slot_of: Vec<Vec<u32>>,
    meet: Tally,
    /// Σ over pairs of C(m, 2).
    cost: u64,
    /// `tabu[s][p]`: the step until which `p` stays put in session `s`.
    tabu: Vec<Vec<u64>>,
}

impl Search {
    /// The greedy construction.
    fn new(layout: &Layout, byes: &[Vec<Player>], draw: &mut Draw) -> Search {
        let n = usize::from(layout.players());
        let mut tables = Vec::new();
        let mut table_of = Vec::new();
        for &size in layout.tables() {
            let start = table_of.len();
            table_of.extend(std::iter::repeat_n(tables.len(), usize::from(size)));
            tables.push(start..table_of.len());
        }
        let mut search = Search {
            tables,
            table_of,
            slots: Vec::new(),
            slot_of: Vec::new(),
            meet: Tally::new(n),
            cost: 0,
            tabu: vec![vec![0; n]; byes.len()],
        };
        for sitting_out in byes {
            let mut out = vec![false; n];
            for p in sitting_out {
                out[p.index()] = true;
            }
            let mut unseated: Vec<u16> = (0..n as u16).filter(|&p| !out[usize::from(p)]).collect();
            draw.shuffle(&mut unseated);
            let mut row: Vec<u16> = Vec::with_capacity(unseated.len());
            for table in &search.tables {
                row.push(unseated.remove(0));
                while row.len() < table.end {
                    let window = unseated.len().min(WINDOW);
                    let pick = (0..window)
                        .min_by_key(|&i| {
                            row[table.start..]
                                .iter()
                                .map(|&m| search.meet.get(usize::from(unseated[i]), usize::from(m)))
                                .map(rise)
                                .sum::<u64>()
                        })
                        .expect("a table is never larger than the players left");
                    row.push(unseated.remove(pick));
                }
                let seated = &row[table.clone()];
                for (i, &a) in seated.iter().enumerate() {
                    for &b in &seated[i + 1..] {
                        search.cost += rise(search.meet.get(usize::from(a), usize::from(b)));
                        search.meet.add(usize::from(a), usize::from(b));
                    }
                }
            }
            let mut slot_of = vec![NONE; n];
            for (slot, &p) in row.iter().enumerate() {
                slot_of[usize::from(p)] = slot as u32;
            }
            search.slots.push(row);
            search.slot_of.push(slot_of);
        }
        search
    }

    fn m(&self, a: u16, b: u16) -> u8 {
        self.meet.get(usize::from(a), usize::from(b))
    }

    fn table(&self, s: usize, p: u16) -> usize {
        self.table_of[self.slot_of[s][usize::from(p)] as usize]
    }

    /// The change of cost if `a` and `b` (at different tables of session `s`) changed places.
    fn delta(&self, s: usize, a: u16, b: u16) -> i64 {
        let row = &self.slots[s];
        let mut d = 0;
        for &x in &row[self.tables[self.table(s, a)].clone()] {
            if x != a {
                d += rise(self.m(b, x)) as i64 - rise(self.m(a, x) - 1) as i64;
            }
        }
        for &y in &row[self.tables[self.table(s, b)].clone()] {
            if y != b {
                d += rise(self.m(a, y)) as i64 - rise(self.m(b, y) - 1) as i64;
            }
        }
        d
    }

    /// Swaps `a` and `b` in session `s`; `delta` is [`Self::delta`] of the swap.
    fn swap(&mut self, s: usize, a: u16, b: u16, delta: i64) {
        let (ta, tb) = (self.table(s, a), self.table(s, b));
        let (a_, b_) = (usize::from(a), usize::from(b));
        for i in self.tables[ta].clone() {
            let x = usize::from(self.slots[s][i]);
            if x != a_ {
                self.meet.sub(a_, x);
                self.meet.add(b_, x);
            }
        }
        for i in self.tables[tb].clone() {
            let y = usize::from(self.slots[s][i]);
            if y != b_ {
                self.meet.sub(b_, y);
                self.meet.add(a_, y);
            }
        }
        self.cost = self.cost.checked_add_signed(delta).expect("cost stays ≥ 0");
        let (sa, sb) = (self.slot_of[s][a_], self.slot_of[s][b_]);
        self.slots[s][sa as usize] = b;
        self.slots[s][sb as usize] = a;
        self.slot_of[s][a_] = sb;
        self.slot_of[s][b_] = sa;
    }

    /// The players of session `s` who sit with someone they meet again elsewhere.
    fn conflicted(&self, s: usize, out: &mut Vec<u16>) {
        out.clear();
        let row = &self.slots[s];
        for table in &self.tables {
            let seated = &row[table.clone()];
            for &x in seated {
                if seated.iter().any(|&y| y != x && self.m(x, y) >= 2) {
                    out.push(x);
                }
            }
        }
    }

    /// Puts back `slots` and recounts everything from them.
    fn restore(&mut self, slots: &[Vec<u16>]) {
        self.slots = slots.to_vec();
        let n = self.slot_of.first().map_or(0, Vec::len);
        self.meet = Tally::new(n);
        self.cost = 0;
        for (s, row) in self.slots.iter().enumerate() {
            self.slot_of[s].fill(NONE);
            for (slot, &p) in row.iter().enumerate() {
                self.slot_of[s][usize::from(p)] = slot as u32;
            }
            for table in &self.tables {
                let seated = &row[table.clone()];
                for (i, &a) in seated.iter().enumerate() {
                    for &b in &seated[i + 1..] {
                        self.cost += rise(self.meet.get(usize::from(a), usize::from(b)));
                        self.meet.add(usize::from(a), usize::from(b));
                    }
                }
            }
        }
    }

    /// A random swap in a random session.
    fn shake(&mut self, draw: &mut Draw) {
        let s = draw.below(self.slots.len());
        let seated = self.table_of.len();
        let i = draw.below(seated);
        let j = draw.below(seated);
        if self.table_of[i] != self.table_of[j] {
            let (a, b) = (self.slots[s][i], self.slots[s][j]);
            let d = self.delta(s, a, b);
            self.swap(s, a, b, d);
        }
    }

    /// The tabu search, until the cost reaches `bound` or `steps` are spent; ends on the best
    /// plan seen.
    fn run(&mut self, draw: &mut Draw, steps: u64, bound: u64) {
        if self.tables.len() < 2 {
            return; // one table a session: nothing to swap
        }
        let sessions = self.slots.len();
        let seated = self.table_of.len();
        let patience = 1_000 + 20 * seated as u64;
        let mut best_cost = self.cost;
        let mut best = self.slots.clone();
        let mut since_best = 0;
        let mut conflicted = Vec::new();
        for step in 1..=steps {
            if self.cost <= bound {
                break;
            }
            let start = draw.below(sessions);
            let Some(s) = (0..sessions).map(|k| (start + k) % sessions).find(|&s| {
                self.conflicted(s, &mut conflicted);
                !conflicted.is_empty()
            }) else {
                break; // a positive cost always has a conflict; this is only a guard
            };
            let a = conflicted[draw.below(conflicted.len())];
            let ta = self.table(s, a);
            let (mut choice, mut best_delta, mut ties) = (None, i64::MAX, 0);
            for slot in 0..seated {
                if self.table_of[slot] == ta {
                    continue;
                }
                let b = self.slots[s][slot];
                let d = self.delta(s, a, b);
                let free =
                    self.tabu[s][usize::from(a)] <= step && self.tabu[s][usize::from(b)] <= step;
                let aspires = (self.cost as i64 + d) < best_cost as i64;
                if !free && !aspires {
                    continue;
                }
                if d < best_delta {
                    (choice, best_delta, ties) = (Some(b), d, 1);
                } else if d == best_delta {
                    ties += 1;
                    if draw.below(ties) == 0 {
                        choice = Some(b);
                    }
                }
            }
            let Some(b) = choice else { continue };
            self.swap(s, a, b, best_delta);
            let until = step + 5 + draw.below(10) as u64;
            self.tabu[s][usize::from(a)] = until;
            self.tabu[s][usize::from(b)] = until;
            if self.cost < best_cost {
                best_cost = self.cost;
                best.clone_from(&self.slots);
                since_best = 0;
            } else {
                since_best += 1;
                if since_best > patience {
                    self.restore(&best);
                    for _ in 0..2 + draw.below(sessions) {
                        self.shake(draw);
                    }
                    since_best = 0;
                }
            }
        }
        if best_cost < self.cost {
            self.restore(&best);
        }
    }

    fn sessions(&self, byes: &[Vec<Player>]) -> Vec<Session> {
        self.slots
            .iter()
            .zip(byes)
            .map(|(row, out)| Session {
                tables: self
                    .tables
                    .iter()
                    .map(|t| {
                        row[t.clone()]
                            .iter()
                            .map(|&p| Player::from_index(usize::from(p)))
                            .collect()
                    })
                    .collect(),
                byes: out.clone(),
            })
            .collect()
    }

    #[cfg(test)]
    fn recount(&self) -> u64 {
        let mut fresh = Tally::new(self.slot_of[0].len());
        let mut cost = 0;
        for row in &self.slots {
            for t in &self.tables {
                let seated = &row[t.clone()];
                for (i, &a) in seated.iter().enumerate() {
                    for &b in &seated[i + 1..] {
                        cost += rise(fresh.get(usize::from(a), usize::from(b)));
                        fresh.add(usize::from(a), usize::from(b));
                    }
                }
            }
        }
        cost
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seating::{Meetings, Remainder};

    fn plan(
        players: u64,
        sessions: u64,
        remainder: Remainder,
        seed: u64,
    ) -> (Layout, Vec<Session>) {
        let layout = Layout::new(players, sessions, remainder).unwrap();
        let plan = no_repeat(&layout, seed);
        (layout, plan)
    }

    #[test]
    fn finds_the_perfect_sixteen_over_five() {
        for seed in 0..5 {
            let (_, sessions) = plan(16, 5, Remainder::Fewest, seed);
            let m = Meetings::of(&sessions, 16);
            assert_eq!(m.repeats, 0, "seed {seed}");
            // Every one of the 120 pairs meets exactly once.
            assert_eq!(m.pairs_met, 120, "seed {seed}");
            // Five sessions over four winds: each player's winds 2, 1, 1, 1.
            assert_eq!(m.wind_spread(), 1, "seed {seed}");
        }
    }

    #[test]
    fn incremental_cost_matches_a_recount_after_search() {
        let layout = Layout::new(13, 6, Remainder::Fewest).unwrap();
        let mut draw = Draw::new(3);
        let byes = byes_in_turn(&layout, &mut draw);
        let mut search = Search::new(&layout, &byes, &mut draw);
        assert_eq!(search.cost, search.recount());
        search.run(&mut draw, 3_000, 0);
        assert_eq!(search.cost, search.recount());
        for _ in 0..50 {
            search.shake(&mut draw);
            assert_eq!(search.cost, search.recount());
        }
    }

    #[test]
    fn the_bound_is_never_beaten_and_stops_the_search_when_reached() {
        for (players, sessions) in [(8, 5), (12, 4), (16, 5), (16, 7), (20, 6)] {
            let layout = Layout::new(players, sessions, Remainder::Fewest).unwrap();
            let mut draw = Draw::new(1);
            let byes = byes_in_turn(&layout, &mut draw);
            let mut search = Search::new(&layout, &byes, &mut draw);
            let floor = bound(&layout, &byes);
            search.run(&mut draw, 20_000, floor);
            assert!(search.cost >= floor, "{players}×{sessions}");
            if search.cost == floor {
                // Reached: no more steps are taken.
                let before = search.slots.clone();
                search.run(&mut draw, 1_000, floor);
                assert_eq!(search.slots, before);
            }
        }
    }
}
