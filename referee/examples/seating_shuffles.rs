//! The README's comparison: for each size, the repeated meetings of the no-repeat plan (seed
//! 1) against the best of 1,000 random shuffles (seeds 0–999), and how long the plan took.
//!
//! `cargo run --release -p referee --example seating_shuffles`

use std::time::Instant;

use referee::seating::{plan, Method, PlanRequest};

fn main() {
    println!("| players × sessions | no-repeat: repeats (pairs, most) | time | best of 1,000 shuffles: repeats (pairs, most) | lower bound |");
    println!("|---|---|---|---|---|");
    for (players, sessions) in [
        (16, 5),
        (12, 4),
        (20, 6),
        (32, 8),
        (40, 10),
        (64, 10),
        (172, 15),
    ] {
        let started = Instant::now();
        let best = plan(&PlanRequest::new(players, sessions, Method::NoRepeat, 1)).unwrap();
        let took = started.elapsed();
        let m = best.meetings();
        let shuffled = (0..1_000)
            .map(|seed| {
                plan(&PlanRequest::new(players, sessions, Method::Random, seed))
                    .unwrap()
                    .meetings()
            })
            .min_by_key(|m| (m.repeats, m.most))
            .unwrap();
        // Each player meets 3 others a session; beyond the players - 1 others, meetings repeat.
        let met = 3 * sessions;
        let floor = (players * met.saturating_sub(players - 1)).div_ceil(2);
        println!(
            "| {players} × {sessions} | {} ({}, {}) | {:.3} s | {} ({}, {}) | {floor} |",
            m.repeats,
            m.pairs_repeated,
            m.most,
            took.as_secs_f64(),
            shuffled.repeats,
            shuffled.pairs_repeated,
            shuffled.most
        );
    }
}
