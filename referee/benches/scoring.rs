//! Scoring a 14-tile winning hand, arrangement search included (issue target: median < 5 µs).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use referee::score::{score, ScoreInput, Win, WinFrom};
use referee::{Hand, Ruleset, Wind};

fn bench(c: &mut Criterion) {
    let rules = Ruleset::builtin("code-of-laws").expect("built-in");
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
            b.iter(|| score(black_box(&rules), black_box(&input)).expect("scores"))
        });
    }
    let losing: Hand = "777m 89m GG WWW 1p 5s 9s".parse().expect("valid hand");
    let input = ScoreInput::losing(losing, Wind::West, Wind::East);
    c.bench_function("score/losing-hand", |b| {
        b.iter(|| score(black_box(&rules), black_box(&input)).expect("scores"))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
