//! Settlement: properties on random scores, and the books' settlement fixtures that the Code of
//! Laws arithmetic governs (`fixtures/settlement/code-of-laws.toml`).

use quickcheck::{Arbitrary, Gen, QuickCheck};
use referee::settle::{settle, Outcome, SettlementRules};
use referee::{BySeat, Wind};

#[derive(Clone, Debug)]
struct Case {
    scores: BySeat<u64>,
    outcome: Outcome,
}

impl Arbitrary for Case {
    fn arbitrary(g: &mut Gen) -> Case {
        let scores = BySeat::from_fn(|_| u64::from(u16::arbitrary(g)) % 2_001);
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

#[test]
fn code_of_laws_fixtures() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../fixtures/settlement/code-of-laws.toml"
    );
    let doc: toml::Table = std::fs::read_to_string(path).unwrap().parse().unwrap();
    let seat = |v: &toml::Value| v.as_str().unwrap().parse::<Wind>().unwrap();
    let by_seat = |v: &toml::Value| BySeat::from_fn(|w| v[w.name()].as_integer().unwrap());
    let cases = doc["settlement"].as_array().unwrap();
    assert!(!cases.is_empty());
    for case in cases {
        let id = case["id"].as_str().unwrap();
        let scores = by_seat(&case["scores"]).map(|&n| u64::try_from(n).unwrap());
        let outcome = match case["winner"].as_str().unwrap() {
            "none" => Outcome::WashOut,
            _ => Outcome::MahJongg {
                winner: seat(&case["winner"]),
            },
        };
        let s = settle(&scores, outcome, SettlementRules::CODE_OF_LAWS).unwrap();
        assert_eq!(s.net, by_seat(&case["net"]), "{path}: {id}: nets");
        let mut expected: Vec<(Wind, Wind, i64)> = case["payments"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                let amount = p["amount"].as_integer().unwrap();
                (seat(&p["from"]), seat(&p["to"]), amount)
            })
            .collect();
        let mut got: Vec<(Wind, Wind, i64)> = s
            .payments
            .iter()
            .map(|p| (p.payer, p.payee, p.amount))
            .collect();
        expected.sort();
        got.sort();
        assert_eq!(got, expected, "{path}: {id}: payments");
    }
}
