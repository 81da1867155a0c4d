//! Fuzzing the ledger's inputs at a scale CI can afford: the event decoder with every wire name
//! and mutated payloads, and `import` with mutated export files. Neither may panic; a refused
//! import writes nothing. `FUZZ_ITERATIONS` sets the cases per target (2,000 by default).

use ledger::{Event, Ledger, CATALOGUE};
use quickcheck::{Arbitrary, Gen, QuickCheck};

use crate::util::*;

fn iterations() -> u64 {
    std::env::var("FUZZ_ITERATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2_000)
}

/// Bytes mutated from a seed: insertions, deletions, replacements, truncation, repetition.
fn mutate(g: &mut Gen, seed: &[u8]) -> Vec<u8> {
    const BYTES: &[u8] = b"{}[]\":,0123456789abcdefnulltrue-.\\ \n\x00\xff";
    let mut out = seed.to_vec();
    for _ in 0..1 + u8::arbitrary(g) % 4 {
        let at = if out.is_empty() {
            0
        } else {
            usize::from(u16::arbitrary(g)) % (out.len() + 1)
        };
        let b = *g.choose(BYTES).unwrap_or(&b'x');
        match u8::arbitrary(g) % 5 {
            0 => out.insert(at, b),
            1 if at < out.len() => {
                out.remove(at);
            }
            2 if at < out.len() => out[at] = b,
            3 => out.truncate(at),
            _ => {
                let end = (at + usize::from(u8::arbitrary(g) % 16)).min(out.len());
                let piece = out[at.min(end)..end].to_vec();
                out.splice(at..at, piece);
            }
        }
    }
    out
}

/// An event's wire name and a payload mutated from a real one.
#[derive(Clone, Debug)]
struct Payload(&'static str, u32, Vec<u8>);

fn seeds() -> Vec<(String, u32, Vec<u8>)> {
    let dir = TempDir::new("fuzz-seeds");
    let mut ledger = Ledger::open(dir.db()).unwrap();
    set_up_tournament(&mut ledger);
    let mut out = Vec::new();
    ledger
        .replay(|e| {
            out.push((
                e.event.event_type().to_owned(),
                e.schema_version,
                e.event.to_payload().unwrap(),
            ))
        })
        .unwrap();
    out
}

impl Arbitrary for Payload {
    fn arbitrary(g: &mut Gen) -> Payload {
        thread_local!(static SEEDS: Vec<(String, u32, Vec<u8>)> = seeds());
        let t = g.choose(CATALOGUE).unwrap();
        let seed = SEEDS.with(|s| g.choose(s).map(|x| x.2.clone()).unwrap_or_default());
        let version = if bool::arbitrary(g) {
            t.schema_version
        } else {
            u32::from(u8::arbitrary(g) % 4)
        };
        Payload(t.name, version, mutate(g, &seed))
    }
}

#[test]
fn the_event_decoder_never_panics() {
    fn prop(p: Payload) -> bool {
        match Event::decode(p.0, p.1, &p.2) {
            Ok(e) => e.event_type() == p.0 || p.1 < 2,
            Err(e) => !e.to_string().is_empty(),
        }
    }
    QuickCheck::new()
        .tests(iterations())
        .max_tests(iterations() * 10)
        .quickcheck(prop as fn(Payload) -> bool);
}

/// An export file mutated.
#[derive(Clone, Debug)]
struct Export(Vec<u8>);

impl Arbitrary for Export {
    fn arbitrary(g: &mut Gen) -> Export {
        thread_local!(static EXPORT: Vec<u8> = {
            let dir = TempDir::new("fuzz-export");
            let mut ledger = Ledger::open(dir.db()).unwrap();
            set_up_tournament(&mut ledger);
            let mut out = Vec::new();
            ledger.export_stream(&tournament(), &mut out).unwrap();
            out
        });
        Export(EXPORT.with(|e| mutate(g, e)))
    }
}

#[test]
fn import_never_panics_and_a_refused_import_writes_nothing() {
    let dir = TempDir::new("fuzz-import");
    let mut ledger = Ledger::open(dir.db()).unwrap();
    let n = iterations() / 10;
    let mut g = Gen::new(64);
    let mut imported = 0;
    for _ in 0..n.max(20) {
        let Export(bytes) = Export::arbitrary(&mut g);
        let before = ledger.head().unwrap();
        match ledger.import(&bytes[..]) {
            Ok(_) => imported += 1,
            Err(e) => {
                assert!(!e.to_string().is_empty());
                assert_eq!(ledger.head().unwrap(), before, "a refused import wrote");
            }
        }
    }
    // Most mutations break a hash; the audit still passes whatever was taken.
    assert!(ledger.audit().unwrap().is_clean());
    let _ = imported;
}
