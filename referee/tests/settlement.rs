//! Settlement: properties on random scores, and the books' settlement fixtures that the Code of
//! Laws arithmetic governs (`fixtures/settlement/code-of-laws.toml`).

use quickcheck::{Arbitrary, Gen, QuickCheck};
use referee::settle::{settle, settle_hand, HandOutcome, Outcome, SettlementRules};
use referee::{ByWind, Ruleset, Wind};

#[derive(Clone, Debug)]
struct Case {
    scores: ByWind<u64>,
    outcome: Outcome,
}

impl Arbitrary for Case {
    fn arbitrary(g: &mut Gen) -> Case {
        let scores = ByWind::from_fn(|_| u64::from(u16::arbitrary(g)) % 2_001);
        let outcome = match u8::arbitrary(g) % 5 {
            4 => Outcome::WashOut,
            i => Outcome::MahJongg {
                winner: Wind::from_index(usize::from(i)),
            },
        };
        Case { scores, outcome }
    }
}

#[test]
fn every_settlement_sums_to_zero_and_east_pays_double() {
    fn prop(c: Case) -> bool {
        let s = settle(&c.scores, c.outcome, SettlementRules::CODE_OF_LAWS).unwrap();
        let sum: i64 = s.net.iter().map(|(_, &n)| n).sum();
        let doubles = s.payments.iter().all(|p| {
            let (a, b) = (*c.scores.get(p.payer), *c.scores.get(p.payee));
            let single = match c.outcome {
                Outcome::MahJongg { winner } if p.payee == winner => b,
                _ => a.abs_diff(b),
            };
            let factor = if p.payer == Wind::East || p.payee == Wind::East {
                2
            } else {
                1
            };
            p.amount == i64::try_from(single * factor).unwrap()
        });
        let winner_pays_no_one = match c.outcome {
            Outcome::MahJongg { winner } => s.payments.iter().all(|p| p.payer != winner),
            Outcome::WashOut => s.payments.is_empty(),
        };
        sum == 0 && doubles && winner_pays_no_one
    }
    QuickCheck::new()
        .tests(1_000)
        .quickcheck(prop as fn(Case) -> bool);
}

/// Every settlement fixture (`fixtures/settlement/*.toml`) under its ruleset's settlement.
#[test]
fn book_settlement_fixtures() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/settlement");
    let mut failures = Vec::new();
    let mut checked = 0;
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for path in files {
        let doc: toml::Table = std::fs::read_to_string(&path).unwrap().parse().unwrap();
        let seat = |v: &toml::Value| v.as_str().unwrap().parse::<Wind>().unwrap();
        let by_seat = |v: &toml::Value| ByWind::from_fn(|w| v[w.name()].as_integer().unwrap());
        for case in doc["settlement"].as_array().unwrap() {
            checked += 1;
            let id = case["id"].as_str().unwrap();
            let Some(rules) = Ruleset::builtin(case["ruleset"].as_str().unwrap()) else {
                failures.push(format!("{id}: no built-in ruleset {}", case["ruleset"]));
                continue;
            };
            let scores = by_seat(&case["scores"]).map(|n| u64::try_from(n).unwrap());
            let outcome = match case["winner"].as_str().unwrap() {
                "none" => Outcome::WashOut,
                _ => Outcome::MahJongg {
                    winner: seat(&case["winner"]),
                },
            };
            let s = match settle_hand(&rules, &HandOutcome::new(scores, outcome)) {
                Ok(s) => s,
                Err(e) => {
                    failures.push(format!("{id}: {e}"));
                    continue;
                }
            };
            let mut expected: Vec<(Wind, Wind, i64)> = case["payments"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| {
                    (
                        seat(&p["from"]),
                        seat(&p["to"]),
                        p["amount"].as_integer().unwrap(),
                    )
                })
                .collect();
            let mut got: Vec<(Wind, Wind, i64)> = s
                .payments
                .iter()
                .map(|p| (p.payer, p.payee, p.amount))
                .collect();
            expected.sort();
            got.sort();
            if s.net != by_seat(&case["net"]) || got != expected {
                failures.push(format!(
                    "{id}: expected nets {:?} payments {expected:?}; got nets {:?} payments {got:?}",
                    by_seat(&case["net"]),
                    s.net
                ));
            }
        }
    }
    assert!(checked >= 10, "only {checked} settlement fixtures");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
