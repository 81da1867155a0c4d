//! Scoring a 14-tile winning hand, arrangement search included (issue 10 target: any winning
//! hand ≤ 2 µs), under a ruleset prepared once ([`Scorer`]), as `score -` and the server score;
//! `score/unprepared` is one hand through [`score`], preparing the ruleset too.
//!
//! `score/worst-one-suit` is found, not chosen: every complete one-suit hand of fourteen tiles,
//! won on each tile it holds from the wall and on a discard, is scored a few times at
//! start-up, and the slowest is benchmarked (one-suit hands have the most arrangements). Its
//! notation is printed.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use referee::score::{score, ScoreInput, Scorer, Win, WinFrom};
use referee::shape::is_complete;
use referee::{Hand, Ruleset, TileCounts, Wind};

/// Every complete one-suit (characters) hand of 14 tiles, once per distinct winning tile, as
/// notation: `1112223334445m =5m`.
fn one_suit_winning_hands() -> Vec<String> {
    let mut out = Vec::new();
    let mut counts = [0u8; 9];
    loop {
        // Next vector of nine counts 0–4 (an odometer in base 5).
        let mut i = 0;
        while i < 9 && counts[i] == 4 {
            counts[i] = 0;
            i += 1;
        }
        if i == 9 {
            return out;
        }
        counts[i] += 1;
        if counts.iter().map(|&n| u32::from(n)).sum::<u32>() != 14 {
            continue;
        }
        let mut all = [0u8; 34];
        all[..9].copy_from_slice(&counts);
        let Ok(tiles) = TileCounts::from_array(all) else {
            continue;
        };
        if !is_complete(&tiles) {
            continue;
        }
        for w in (0..9).filter(|&r| counts[r] > 0) {
            let concealed: String = (0..9)
                .flat_map(|r| {
                    let n = counts[r] - u8::from(r == w);
                    std::iter::repeat_n(char::from(b'1' + r as u8), usize::from(n))
                })
                .collect();
            out.push(format!("{concealed}m ={}m", w + 1));
        }
    }
}

/// The one-suit winning hand, won from the wall or on a discard, that takes longest to score
/// (best of a few runs each).
fn worst_one_suit(scorer: &Scorer) -> (String, WinFrom, Duration) {
    let mut worst = (String::new(), WinFrom::Wall, Duration::ZERO);
    for text in one_suit_winning_hands() {
        let hand: Hand = text.parse().expect("valid hand");
        for from in [WinFrom::Wall, WinFrom::Discard] {
            let input = ScoreInput::winning(hand.clone(), Wind::South, Wind::East, Win::from(from));
            // The fastest of five runs of four, so one interruption does not crown a hand.
            let took = (0..5)
                .map(|_| {
                    let start = Instant::now();
                    for _ in 0..4 {
                        let _ = black_box(scorer.score(black_box(&input)));
                    }
                    start.elapsed() / 4
                })
                .min()
                .unwrap_or_default();
            if took > worst.2 {
                worst = (text.clone(), from, took);
            }
        }
    }
    worst
}

fn bench(c: &mut Criterion) {
    let rules = Ruleset::builtin("code-of-laws").expect("built-in");
    let scorer = Scorer::new(rules.clone());
    let hands = [
        // Many arrangements: a pure-suit hand with overlapping runs and pungs.
        (
            "one-suit-many-arrangements",
            "1112223334445s =5s",
            WinFrom::Wall,
        ),
        ("nine-gates", "1112345678999p =5p", WinFrom::Discard),
        (
            "mixed-with-melds",
            "[RRR] [234p] 567s 99m 11s =1s",
            WinFrom::Discard,
        ),
        ("all-chows", "123m 456m 789p 234s E =E", WinFrom::Wall),
    ];
    for (name, text, from) in hands {
        let hand: Hand = text.parse().expect("valid hand");
        let input = ScoreInput::winning(hand, Wind::South, Wind::East, Win::from(from));
        c.bench_function(&format!("score/{name}"), |b| {
            b.iter(|| scorer.score(black_box(&input)).expect("scores"))
        });
    }
    let (worst, from, took) = worst_one_suit(&scorer);
    eprintln!("worst one-suit hand: {worst}, won from {from} ({took:?} in the search)");
    let input = ScoreInput::winning(
        worst.parse().expect("valid hand"),
        Wind::South,
        Wind::East,
        Win::from(from),
    );
    c.bench_function("score/worst-one-suit", |b| {
        b.iter(|| scorer.score(black_box(&input)).expect("scores"))
    });
    c.bench_function("score/unprepared", |b| {
        b.iter(|| score(black_box(&rules), black_box(&input)).expect("scores"))
    });
    let losing: Hand = "777m 89m GG WWW 1p 5s 9s".parse().expect("valid hand");
    let input = ScoreInput::losing(losing, Wind::West, Wind::East);
    c.bench_function("score/losing-hand", |b| {
        b.iter(|| scorer.score(black_box(&input)).expect("scores"))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
