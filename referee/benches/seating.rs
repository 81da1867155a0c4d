//! Seating (issue 14 target: a no-repeat plan for 172 players over 15 sessions in 2 s or less,
//! release build), with 16 × 5 (the perfect plan) beside it.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use referee::seating::{plan, Method, PlanRequest};

fn no_repeat(c: &mut Criterion) {
    let mut group = c.benchmark_group("seating");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    for (players, sessions) in [(172, 15), (16, 5)] {
        group.bench_function(format!("no-repeat {players}x{sessions}"), |b| {
            b.iter(|| {
                let plan = plan(&PlanRequest::new(players, sessions, Method::NoRepeat, 1)).unwrap();
                black_box(plan.meetings().repeats)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, no_repeat);
criterion_main!(benches);
