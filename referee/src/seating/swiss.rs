//! Swiss seating: each session seats players of similar standing together.
//!
//! A Swiss plan is made session by session, since each session follows from the standings of
//! the sessions before it. Session 1 is a seeded shuffle (there are no standings yet). For
//! each later session:
//!
//! 1. **Standings**: players in order of their total net over the sessions played, ties
//!    broken by a seeded lot drawn once for the event (so a seed and the results give the
//!    same plan).
//! 2. **Byes** (remainder policy `byes`): the lowest-placed of the players who have sat out
//!    least, as in chess Swiss events, where the bye goes down the standings.
//! 3. **Tables**, from the top of the standings down: each table opens with the highest
//!    unseated player and takes, chair by chair, the highest of the next eight unseated players
//!    who has met nobody already at the table; when all eight have, the one of them who has
//!    met the table least. A player is thus passed over by at most seven others to avoid a
//!    repeated meeting; the last tables may have to accept one.

use std::cmp::Reverse;

use super::chairs::{seat_session, ChairCounts, Orders};
use super::meetings::Tally;
use super::random::{self, everyone};
use super::rng::Draw;
use super::{Layout, Player, Session};

/// How far down the standings a table looks to avoid a repeat.
const WINDOW: usize = 8;

/// The sessions of a Swiss plan that `results` (nets by session, by player index) allow:
/// one more than the sessions played, at most the layout's.
pub(crate) fn swiss(layout: &Layout, seed: u64, results: &[Vec<i64>]) -> Vec<Session> {
    let n = usize::from(layout.players());
    let planned = (results.len() + 1).min(usize::from(layout.sessions()));
    let mut draw = Draw::new(seed);
    let first = random::session(layout, &mut draw);
    let lot = lot(layout, &mut draw);
    let orders = Orders::new();
    let mut chairs = ChairCounts::new(n);
    let mut tally = Tally::new(n);
    let mut byes_had = vec![0u32; n];
    let mut totals = vec![0i128; n];
    let mut sessions = Vec::with_capacity(planned);
    let mut next = first;
    loop {
        seat_session(&mut next, &mut chairs, &orders);
        for table in &next.tables {
            tally.add_table(table);
        }
        for p in &next.byes {
            byes_had[p.index()] += 1;
        }
        sessions.push(next);
        let played = sessions.len();
        if played == planned {
            break;
        }
        for (total, net) in totals.iter_mut().zip(&results[played - 1]) {
            *total += i128::from(*net);
        }
        let mut standings = everyone(layout);
        standings.sort_by_key(|p| (Reverse(totals[p.index()]), lot[p.index()]));
        next = session(layout, &standings, &tally, &byes_had);
    }
    sessions
}

/// Each player's place in a seeded lot, the tie-break of equal standings.
pub(crate) fn lot(layout: &Layout, draw: &mut Draw) -> Vec<usize> {
    let mut order = everyone(layout);
    draw.shuffle(&mut order);
    let mut place = vec![0; order.len()];
    for (i, p) in order.iter().enumerate() {
        place[p.index()] = i;
    }
    place
}

/// One session from the standings (best first).
fn session(layout: &Layout, standings: &[Player], tally: &Tally, byes_had: &[u32]) -> Session {
    let mut byes: Vec<Player> = Vec::new();
    for _ in 0..layout.byes() {
        let waiting = |p: &&Player| !byes.contains(p);
        let least = standings
            .iter()
            .filter(waiting)
            .map(|p| byes_had[p.index()])
            .min()
            .unwrap_or(0);
        if let Some(&p) = standings
            .iter()
            .rev()
            .filter(waiting)
            .find(|p| byes_had[p.index()] == least)
        {
            byes.push(p);
        }
    }
    let mut unseated: Vec<Player> = standings
        .iter()
        .copied()
        .filter(|p| !byes.contains(p))
        .collect();
    let mut tables = Vec::with_capacity(layout.tables().len());
    for &size in layout.tables() {
        let mut table = vec![unseated.remove(0)];
        while table.len() < usize::from(size) {
            let window = unseated.len().min(WINDOW);
            let met = |i: usize| tally.with_table(unseated[i].index(), &table);
            let pick = (0..window)
                .find(|&i| met(i) == 0)
                .or_else(|| (0..window).min_by_key(|&i| met(i)))
                .expect("a table is never larger than the players left");
            table.push(unseated.remove(pick));
        }
        tables.push(table);
    }
    Session { tables, byes }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seating::{Meetings, Remainder};

    #[test]
    fn the_second_session_seats_the_standings_in_fours_when_no_one_has_met() {
        // 16 players; the results make player 16 first, 15 second, ... 1 last.
        let layout = Layout::new(16, 3, Remainder::Fewest).unwrap();
        let nets: Vec<i64> = (1..=16).map(|p| p * 10 - 85).collect();
        let plan = swiss(&layout, 11, &[nets]);
        assert_eq!(plan.len(), 2);
        let first = &plan[0];
        let second = &plan[1];
        // Table 1 opens with the leader and holds no pair that met in session 1.
        assert!(second.tables[0].contains(&Player::new(16).unwrap()));
        let m = Meetings::of(&plan, 16);
        assert_eq!(m.repeats, 0, "{first:?} {second:?}");
        // Each table's players are close in the standings: at most 8 + 3 places apart.
        for table in &second.tables {
            let places: Vec<u16> = table.iter().map(|p| 16 - p.number()).collect();
            let spread = places.iter().max().unwrap() - places.iter().min().unwrap();
            assert!(spread <= 11, "{table:?}");
        }
    }

    #[test]
    fn byes_go_to_the_lowest_placed_who_sat_out_least() {
        let layout = Layout::new(9, 4, Remainder::Byes).unwrap();
        let nets: Vec<i64> = (1..=9).map(|p| 50 - p * 10).collect(); // 1 first, 9 last
        let plan = swiss(&layout, 2, &[nets.clone(), nets.clone(), nets]);
        let had_bye_first = plan[0].byes[0];
        let expected_second = if had_bye_first.number() == 9 { 8 } else { 9 };
        assert_eq!(plan[1].byes, vec![Player::new(expected_second).unwrap()]);
        assert_eq!(Meetings::of(&plan, 9).byes_range().1, 1);
    }
}
