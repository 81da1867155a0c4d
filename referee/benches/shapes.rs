//! Benchmarks of the shape module: waits of 13-tile hands (random and one-suit) and all
//! arrangements of a 14-tile hand. Run with `cargo bench -p referee`.
//!
//! Hands are generated up front from a fixed seed (a small xorshift generator, so the bench
//! needs no extra crate), then answered in a batch; criterion reports hands per second.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use referee::shape::{arrangements, standard_waits};
use referee::{parse_counts, Tile, TileCounts};

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// `n` hands of `len` tiles drawn without replacement from four copies of each tile in `pool`.
fn hands(rng: &mut XorShift, pool: &[Tile], len: usize, n: usize) -> Vec<TileCounts> {
    (0..n)
        .map(|_| {
            let mut wall: Vec<Tile> = pool.iter().flat_map(|&t| [t; 4]).collect();
            let mut c = TileCounts::EMPTY;
            for _ in 0..len {
                let i = (rng.next() % wall.len() as u64) as usize;
                c.try_add(wall.swap_remove(i)).expect("four copies");
            }
            c
        })
        .collect()
}

fn waits(c: &mut Criterion) {
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    let random = hands(&mut rng, &Tile::ALL, 13, 10_000);
    let one_suit: Vec<TileCounts> = (0..3)
        .flat_map(|s| hands(&mut rng, &Tile::ALL[9 * s..9 * s + 9], 13, 3_334))
        .collect();
    // Build the tables before measuring.
    black_box(standard_waits(&random[0]));
    let mut group = c.benchmark_group("waits");
    for (name, set) in [("random", &random), ("one-suit", &one_suit)] {
        group.throughput(Throughput::Elements(set.len() as u64));
        group.bench_with_input(BenchmarkId::new("13-tile hands", name), set, |b, set| {
            b.iter(|| {
                let mut acc = 0u64;
                for h in set {
                    acc ^= standard_waits(black_box(h)).bits();
                }
                acc
            })
        });
    }
    group.finish();
}

fn arrange(c: &mut Criterion) {
    let mut group = c.benchmark_group("arrangements");
    group.throughput(Throughput::Elements(1));
    for hand in [
        "123m 456p 789s 234s EE",
        "11122233344455m",
        "11123455678999p",
    ] {
        let counts = parse_counts(hand, Some(14)).expect("valid hand");
        group.bench_with_input(BenchmarkId::new("14-tile hand", hand), &counts, |b, h| {
            b.iter(|| arrangements(black_box(h)))
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(std::time::Duration::from_secs(1))
        .measurement_time(std::time::Duration::from_secs(3));
    targets = waits, arrange
}
criterion_main!(benches);
