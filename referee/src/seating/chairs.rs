//! Who sits in which chair: seats and winds balanced.
//!
//! Which players share a table is decided first; the order they sit in changes no meeting.
//! Each table's order is then chosen among all its orders (at most 5! = 120) to keep every
//! player's chair counts even: the objective is Σ over players and chairs of count², so a
//! player who has sat East twice is put elsewhere before one who has sat East once. Sessions
//! planned one at a time (Swiss, progressive) are seated greedily against the counts so far; a
//! whole plan (no-repeat) is then re-seated table by table, each in one of its cheapest orders
//! drawn by lot, keeping the best plan seen.

use super::rng::Draw;
use super::{Player, Session};

/// How often each player (index from 0) has sat in each chair.
pub(crate) struct ChairCounts(Vec<[u32; 5]>);

impl ChairCounts {
    pub(crate) fn new(players: usize) -> ChairCounts {
        ChairCounts(vec![[0; 5]; players])
    }

    fn add(&mut self, table: &[Player], by: i32) {
        for (chair, p) in table.iter().enumerate() {
            let count = &mut self.0[p.index()][chair];
            *count = count.wrapping_add_signed(by);
        }
    }

    /// Σ of the counts the table's players already have in the chairs they would take: the
    /// rise of Σ count² is twice this plus a constant.
    fn cost(&self, table: &[Player], order: &[u8]) -> u32 {
        order
            .iter()
            .enumerate()
            .map(|(chair, &i)| self.0[table[usize::from(i)].index()][chair])
            .sum()
    }
}

/// Every order of 0..k, the identity first.
fn orders(k: usize) -> Vec<Vec<u8>> {
    fn extend(prefix: &mut Vec<u8>, k: u8, out: &mut Vec<Vec<u8>>) {
        if prefix.len() == usize::from(k) {
            out.push(prefix.clone());
            return;
        }
        for i in 0..k {
            if !prefix.contains(&i) {
                prefix.push(i);
                extend(prefix, k, out);
                prefix.pop();
            }
        }
    }
    let mut out = Vec::new();
    extend(&mut Vec::new(), k as u8, &mut out);
    out
}

/// Orders of tables of 3, 4 and 5 players, computed once per plan.
pub(crate) struct Orders([Vec<Vec<u8>>; 3]);

impl Orders {
    pub(crate) fn new() -> Orders {
        Orders([orders(3), orders(4), orders(5)])
    }

    fn of(&self, k: usize) -> &[Vec<u8>] {
        &self.0[k - 3]
    }
}

/// The order of `table` that costs least against `counts` (which must not include the table):
/// the current order unless another is strictly better, or with `draw` any of the cheapest,
/// by lot (a sideways move, to leave a plateau).
fn best_order(
    table: &[Player],
    counts: &ChairCounts,
    orders: &Orders,
    draw: Option<&mut Draw>,
) -> Vec<Player> {
    let all = orders.of(table.len());
    let costs: Vec<u32> = all.iter().map(|order| counts.cost(table, order)).collect();
    let least = *costs.iter().min().expect("a table has orders");
    let cheapest: Vec<&Vec<u8>> = all
        .iter()
        .zip(&costs)
        .filter(|(_, &c)| c == least)
        .map(|(order, _)| order)
        .collect();
    let pick = match draw {
        Some(draw) => cheapest[draw.below(cheapest.len())],
        None => cheapest[0],
    };
    pick.iter().map(|&i| table[usize::from(i)]).collect()
}

/// Seats a new session against the chairs of the sessions before it, and counts it in.
pub(crate) fn seat_session(session: &mut Session, counts: &mut ChairCounts, orders: &Orders) {
    for table in &mut session.tables {
        *table = best_order(table, counts, orders, None);
        counts.add(table, 1);
    }
}

/// Σ over players and chairs of count².
fn objective(counts: &ChairCounts) -> u64 {
    counts
        .0
        .iter()
        .flatten()
        .map(|&c| u64::from(c) * u64::from(c))
        .sum()
}

/// Seats every session of a whole plan, then re-seats table by table, each time in one of its
/// cheapest orders by lot, keeping the best plan seen, until 20 passes bring nothing better
/// (at most 500 passes).
pub(crate) fn balance(sessions: &mut [Session], players: usize, draw: &mut Draw) {
    let orders = Orders::new();
    let mut counts = ChairCounts::new(players);
    for session in sessions.iter_mut() {
        seat_session(session, &mut counts, &orders);
    }
    let mut best = objective(&counts);
    let mut best_plan = sessions.to_vec();
    let mut idle = 0;
    for _ in 0..500 {
        for session in sessions.iter_mut() {
            for table in &mut session.tables {
                counts.add(table, -1);
                *table = best_order(table, &counts, &orders, Some(draw));
                counts.add(table, 1);
            }
        }
        let now = objective(&counts);
        if now < best {
            best = now;
            best_plan = sessions.to_vec();
            idle = 0;
        } else {
            idle += 1;
            if idle == 20 {
                break;
            }
        }
    }
    sessions.clone_from_slice(&best_plan);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn there_are_k_factorial_orders() {
        assert_eq!(orders(3).len(), 6);
        assert_eq!(orders(4).len(), 24);
        assert_eq!(orders(5).len(), 120);
        assert_eq!(orders(4)[0], vec![0, 1, 2, 3]);
    }

    #[test]
    fn four_sessions_of_one_table_give_each_player_each_wind_once() {
        let table: Vec<Player> = (1..=4).map(|n| Player::new(n).unwrap()).collect();
        let mut sessions = vec![
            Session {
                tables: vec![table],
                byes: vec![]
            };
            4
        ];
        balance(&mut sessions, 4, &mut Draw::new(0));
        let m = super::super::Meetings::of(&sessions, 4);
        assert_eq!(m.wind_spread(), 0);
        assert_eq!(m.east(), (1, 1));
    }
}
