//! Babcock's progressive game (Babcock, *Rules for Mah-Jongg*, 2nd ed., ch. IX "Variations of
//! Mah-Jongg", "Progressive Mah-Jongg", pp. 85–86):
//!
//! > Four hands are played at each table. East passes each hand, each player having a turn as
//! > East. [...] At the end of four hands the players figure up their counters [...]. The two
//! > players having the highest scores then progress to the next table where four more hands
//! > are played in the same way. The two players with the lowest scores remain at the same
//! > table for another four hands, but are privileged to change their seats.
//!
//! A session here is one such round of four hands. Session 1 is a seeded shuffle; after each
//! session, at every table the two players with the highest net of that session move to the
//! next table, and the others stay. What the book leaves open, settled here and stated:
//!
//! - **The last table's two best go to table 1**: the book names no end, and only a ring keeps
//!   every table full (each table sends two players and receives two).
//! - **Equal scores** are separated by a seeded lot drawn once for the event.
//! - **Seats**: the players who stay "are privileged to change their seats"; the plan proposes
//!   the chair order that keeps chairs balanced ([`super::chairs`]), which they may change.
//! - **Tables of five or three** (remainder policies `fives`, `threes`, `fewest`) also send
//!   their two best on; byes do not fit the game and are refused.
//! - Babcock redistributes 2,000 points to each player at each new table; only the plus and
//!   minus scores are carried on the cards, which is what the results give.

use std::cmp::Reverse;

use super::chairs::{seat_session, ChairCounts, Orders};
use super::random;
use super::rng::Draw;
use super::swiss::lot;
use super::{Layout, Player, Session};

/// How many players move on from each table (Babcock p. 86: "the two players having the
/// highest scores").
pub const MOVING: usize = 2;

/// The sessions of a progressive plan that `results` (nets by session, by player index)
/// allow: one more than the sessions played, at most the layout's.
pub(crate) fn progressive(layout: &Layout, seed: u64, results: &[Vec<i64>]) -> Vec<Session> {
    let n = usize::from(layout.players());
    let planned = (results.len() + 1).min(usize::from(layout.sessions()));
    let mut draw = Draw::new(seed);
    let mut next = random::session(layout, &mut draw);
    let lot = lot(layout, &mut draw);
    let orders = Orders::new();
    let mut chairs = ChairCounts::new(n);
    let mut sessions: Vec<Session> = Vec::with_capacity(planned);
    loop {
        seat_session(&mut next, &mut chairs, &orders);
        sessions.push(next);
        let played = sessions.len();
        if played == planned {
            break;
        }
        next = progress(&sessions[played - 1], &results[played - 1], &lot);
    }
    sessions
}

/// The next session: at each table the two best of `nets` go to the next table (the last
/// table's to the first), the rest stay.
fn progress(session: &Session, nets: &[i64], lot: &[usize]) -> Session {
    let count = session.tables.len();
    let mut tables: Vec<Vec<Player>> = vec![Vec::new(); count];
    for (i, table) in session.tables.iter().enumerate() {
        let mut by_score = table.clone();
        by_score.sort_by_key(|p| (Reverse(nets[p.index()]), lot[p.index()]));
        let (moving, staying) = by_score.split_at(MOVING);
        tables[i].extend_from_slice(staying);
        tables[(i + 1) % count].extend_from_slice(moving);
    }
    Session {
        tables,
        byes: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seating::Remainder;

    fn numbers(table: &[Player]) -> Vec<u16> {
        let mut n: Vec<u16> = table.iter().map(|p| p.number()).collect();
        n.sort_unstable();
        n
    }

    #[test]
    fn the_two_best_move_to_the_next_table_and_the_two_worst_stay() {
        let layout = Layout::new(12, 2, Remainder::Fewest).unwrap();
        // Nets: player p scores p × 10 − 65 (zero-sum), so the higher numbers win at each table.
        let nets: Vec<i64> = (1..=12).map(|p| p * 10 - 65).collect();
        let plan = progressive(&layout, 5, std::slice::from_ref(&nets));
        assert_eq!(plan.len(), 2);
        let (first, second) = (&plan[0], &plan[1]);
        for (i, table) in first.tables.iter().enumerate() {
            let mut order = numbers(table);
            let moving = order.split_off(2); // the two highest numbers
            let staying = order;
            let here = numbers(&second.tables[i]);
            let there = numbers(&second.tables[(i + 1) % 3]);
            assert!(
                staying.iter().all(|p| here.contains(p)),
                "{first:?} {second:?}"
            );
            assert!(
                moving.iter().all(|p| there.contains(p)),
                "{first:?} {second:?}"
            );
        }
    }

    #[test]
    fn a_table_of_five_keeps_its_size() {
        let layout = Layout::new(9, 3, Remainder::Fives).unwrap();
        let nets: Vec<i64> = (1..=9).map(|p| p * 2 - 10).collect();
        let plan = progressive(&layout, 1, &[nets.clone(), nets]);
        assert_eq!(plan.len(), 3);
        for session in &plan {
            let sizes: Vec<usize> = session.tables.iter().map(Vec::len).collect();
            assert_eq!(sizes, vec![4, 5]);
        }
    }
}
