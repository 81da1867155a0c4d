//! Fuzzing kept in the repository, at a scale CI can afford: structured random input — strings
//! of the notation's own alphabet, and valid lines mutated by inserting, deleting, replacing
//! and repeating characters — fed to every parser a user's text reaches: tiles and hands, the
//! position notation, house-ruleset files. None may panic; whatever parses prints back to what
//! parses the same.
//!
//! `FUZZ_ITERATIONS` sets the cases per target (5,000 by default, a fraction of a second; set it
//! to a million for a long run: `FUZZ_ITERATIONS=1000000 cargo test -p referee --test tests fuzz`).

use std::str::FromStr;

use quickcheck::{Gen, QuickCheck};
use referee::position::Position;
use referee::tile::{AnyTile, Tile};
use referee::{Hand, Ruleset};

fn iterations() -> u64 {
    std::env::var("FUZZ_ITERATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5_000)
}

fn run(prop: fn(Mutant) -> bool) {
    QuickCheck::new()
        .tests(iterations())
        .max_tests(iterations() * 10)
        .quickcheck(prop);
}

/// A text made by mutating one of a few seeds: what a typo, a truncated paste or a hostile
/// client sends.
#[derive(Clone, Debug)]
struct Mutant(String);

/// The seeds: valid inputs of every parser, and the notation's alphabet.
const HANDS: &[&str] = &[
    "123456789m 11p EE 1f =1p",
    "[555p] {RRRR} 123m 789s =EE",
    "19m 19p 19s ESWNRGW =1m",
    "12345m 668p 3889s EE 1f",
];
const POSITION: &str = "g1 h1 dealer:E prevailing:E | E: ?13 | S: 12345m 668p 3889s EE 1f | W: ?13 \
    | N: ?4 [222s] [444s] [777s] | E:9p S:1m W:R N:5m E:2p | live:69 box:16 | S:drew 3s \
    | S:discard 8s, N:claim mahjongg 8s, N:grant mahjongg, N:mahjongg 8s, N:show 1179s [222s] [444s] [777s] =8s";
const RULESET: &str = "name = \"dragons-club\"\nbase = \"code-of-laws\"\n[params]\nlimit = 500\n\
    [options]\ndreamer-payment = true\n[[element]]\nid = \"pair-any-honour\"\nname = \"Pair\"\n\
    when = \"pair\"\ntiles = \"honours\"\npoints = 2\n";
const ALPHABET: &[char] = &[
    '1',
    '2',
    '3',
    '4',
    '5',
    '6',
    '7',
    '8',
    '9',
    '0',
    'm',
    'p',
    's',
    'E',
    'S',
    'W',
    'N',
    'R',
    'G',
    'f',
    '[',
    ']',
    '{',
    '}',
    '=',
    '*',
    ' ',
    '|',
    ':',
    '?',
    ',',
    '"',
    '\n',
    '.',
    '-',
    'é',
    '\u{1F000}',
    '\0',
];

fn pick<T: Copy>(g: &mut Gen, items: &[T]) -> T {
    *g.choose(items).unwrap_or(&items[0])
}

fn mutate(g: &mut Gen, seed: &str) -> String {
    let mut chars: Vec<char> = seed.chars().collect();
    let ops = 1 + usize::from(u8::arbitrary_in(g) % 4);
    for _ in 0..ops {
        let at = if chars.is_empty() {
            0
        } else {
            usize::from(u16::arbitrary_in(g)) % (chars.len() + 1)
        };
        match u8::arbitrary_in(g) % 5 {
            0 => chars.insert(at, pick(g, ALPHABET)),
            1 if at < chars.len() => {
                chars.remove(at);
            }
            2 if at < chars.len() => chars[at] = pick(g, ALPHABET),
            3 => chars.truncate(at),
            _ => {
                let end = (at + usize::from(u8::arbitrary_in(g) % 8)).min(chars.len());
                let piece: Vec<char> = chars[at.min(end)..end].to_vec();
                chars.splice(at..at, piece);
            }
        }
    }
    chars.into_iter().collect()
}

trait ArbitraryIn {
    fn arbitrary_in(g: &mut Gen) -> Self;
}
impl<T: quickcheck::Arbitrary> ArbitraryIn for T {
    fn arbitrary_in(g: &mut Gen) -> T {
        T::arbitrary(g)
    }
}

impl quickcheck::Arbitrary for Mutant {
    fn arbitrary(g: &mut Gen) -> Mutant {
        let seed = match u8::arbitrary(g) % 8 {
            0 => {
                // Pure alphabet soup.
                let n = usize::from(u8::arbitrary(g) % 40);
                return Mutant((0..n).map(|_| pick(g, ALPHABET)).collect());
            }
            1 | 2 => POSITION,
            3 | 4 => RULESET,
            _ => pick(g, HANDS),
        };
        Mutant(mutate(g, seed))
    }
}

#[test]
fn tile_and_hand_notation_never_panics_and_round_trips() {
    fn prop(m: Mutant) -> bool {
        let s = &m.0;
        let _ = Tile::from_str(s);
        let _ = AnyTile::from_str(s);
        let _ = referee::hand::HandSetup::from_str(s);
        match s.parse::<Hand>() {
            Ok(h) => h.to_string().parse::<Hand>().as_ref() == Ok(&h),
            Err(_) => true,
        }
    }
    run(prop);
}

#[test]
fn the_position_notation_never_panics_and_prints_back_what_it_read() {
    fn prop(m: Mutant) -> bool {
        match m.0.parse::<Position>() {
            Ok(p) => p.to_string().parse::<Position>().as_ref() == Ok(&p),
            Err(e) => !e.to_string().is_empty(),
        }
    }
    run(prop);
}

#[test]
fn house_ruleset_files_never_panic() {
    fn prop(m: Mutant) -> bool {
        match Ruleset::parse(&m.0) {
            Ok(r) => !r.name.is_empty(),
            Err(e) => !e.to_string().is_empty(),
        }
    }
    run(prop);
}
