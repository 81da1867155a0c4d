//! Replaying hands play by play with every legality and consistency check: the play's own fold
//! (`play::Play`, issue 25: at least 40,000,000 events per second on one core), the same with the
//! adjudication's watchers (`adjudicate::Replay`: the cannon watch, the book's, the notes); the
//! state at any event of a hand (issue 11: 20 µs or less); and adjudicating a hand (issue 25:
//! all findings in 30 µs or less). The hands are mj-server's robot game in
//! `fixtures/mj-server/seed-7` (19 hands) and the hands with a cannon in
//! `fixtures/mj-server/cannons`.

use std::hint::black_box;
use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use referee::adjudicate::Replay;
use referee::event::{HandEvent, HandStarted};
use referee::import::mjs;
use referee::play::{Play, PlayRules};
use referee::Ruleset;

fn hands() -> Vec<(HandStarted, Vec<HandEvent>)> {
    hands_in("seed-7")
}

fn hands_in(folder: &str) -> Vec<(HandStarted, Vec<HandEvent>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures/mj-server")
        .join(folder);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("fixtures")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "mjs"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f).expect("readable");
            let hand = mjs::read(&text, "t1".parse().expect("id"), 1, 1).expect("a hand");
            (
                hand.started,
                hand.events.into_iter().map(|(_, e)| e).collect(),
            )
        })
        .collect()
}

fn replay(rules: &PlayRules, started: &HandStarted, events: &[HandEvent]) -> Play {
    let mut play = Play::start(rules.clone(), started).expect("starts");
    for e in events {
        play.apply(e).expect("consistent");
    }
    play
}

fn replay_watched(rules: &PlayRules, started: &HandStarted, events: &[HandEvent]) -> Replay {
    let mut replay = Replay::start(rules.clone(), started).expect("starts");
    for e in events {
        replay.apply(e).expect("consistent");
    }
    replay
}

fn bench(c: &mut Criterion) {
    let ruleset = Ruleset::builtin("code-of-laws").expect("built-in");
    let rules = PlayRules::of(&ruleset);
    let hands = hands();
    let events: usize = hands.iter().map(|(_, e)| e.len() + 1).sum();
    let mut group = c.benchmark_group("replay");
    group.throughput(Throughput::Elements(events as u64));
    group.bench_function("all-19-hands", |b| {
        b.iter(|| {
            for (started, evs) in &hands {
                black_box(replay(&rules, black_box(started), black_box(evs)));
            }
        })
    });
    group.bench_function("all-19-hands-with-the-watchers", |b| {
        b.iter(|| {
            for (started, evs) in &hands {
                black_box(replay_watched(&rules, black_box(started), black_box(evs)));
            }
        })
    });
    group.finish();
    // The state at the last event of the longest hand: the slowest "state at any event".
    let (started, longest) = hands.iter().max_by_key(|(_, e)| e.len()).expect("hands");
    eprintln!("longest hand: {} events", longest.len());
    c.bench_function("replay/state-at-the-last-event-of-the-longest-hand", |b| {
        b.iter(|| black_box(replay(&rules, black_box(started), black_box(longest))))
    });
    // Every finding of a hand, from its deal: the replay with its flags, and the cannon
    // ruling, on the hand with the most events of those that let off a cannon.
    let cannons = hands_in("cannons");
    let (started, longest) = cannons.iter().max_by_key(|(_, e)| e.len()).expect("hands");
    c.bench_function("adjudicate/all-findings-of-a-hand-with-a-cannon", |b| {
        b.iter(|| {
            let r = Replay::replay(rules.clone(), black_box(started), black_box(longest))
                .expect("starts");
            black_box(referee::adjudicate::findings(&r, &ruleset))
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
