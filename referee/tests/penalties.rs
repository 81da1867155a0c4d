//! Settlement variants and penalties, worked by hand from the sections cited, plus the
//! zero-sum property over random hands and penalties.

use quickcheck::{Arbitrary, Gen, QuickCheck};
use referee::settle::{
    settle_hand, HandOutcome, HandSettlement, Liability, NamingClaim, Outcome, Penalty,
};
use referee::{ByWind, Ruleset, Wind};
use Wind::*;

fn code() -> Ruleset {
    Ruleset::builtin("code-of-laws").unwrap()
}

/// The §109 example: North wins with 48; East 20, South 256, West 4.
fn example() -> HandOutcome {
    HandOutcome::new(
        ByWind::new(20, 256, 4, 48),
        Outcome::MahJongg { winner: North },
    )
}

fn paid(s: &HandSettlement, from: Wind, to: Wind) -> i64 {
    s.payments
        .iter()
        .filter(|p| p.payer == from && p.payee == to)
        .map(|p| p.amount)
        .sum()
}

fn nets(s: &HandSettlement) -> [i64; 4] {
    [s.net.east, s.net.south, s.net.west, s.net.north]
}

#[test]
fn false_mahjong_one_two_three_offenders() {
    let mut h = example();
    // §82: the false caller pays each opponent 300; no other score counts.
    h.penalties = vec![Penalty::FalseMahJongg {
        offenders: vec![South],
    }];
    let s = settle_hand(&code(), &h).unwrap();
    assert!(s.abandoned);
    assert_eq!(nets(&s), [300, -900, 300, 300]);
    // §83: two offenders each pay 150 to each of the other two.
    h.penalties = vec![Penalty::FalseMahJongg {
        offenders: vec![South, West],
    }];
    assert_eq!(
        nets(&settle_hand(&code(), &h).unwrap()),
        [300, -300, -300, 300]
    );
    // §83: three offenders each pay 100 to the fourth.
    h.penalties = vec![Penalty::FalseMahJongg {
        offenders: vec![South, West, North],
    }];
    assert_eq!(
        nets(&settle_hand(&code(), &h).unwrap()),
        [300, -100, -100, -100]
    );
    h.penalties = vec![Penalty::FalseMahJongg { offenders: vec![] }];
    assert!(settle_hand(&code(), &h).is_err());
}

#[test]
fn false_naming_side_payments_and_abandonment() {
    let plain = settle_hand(&code(), &example()).unwrap();
    let mut h = example();
    // §85 and §88: West chowed and North punged South's falsely named tile: 50 and 100, and
    // the hand is settled as usual.
    h.penalties = vec![Penalty::FalseNaming {
        discarder: South,
        claims: vec![(West, NamingClaim::Chow), (North, NamingClaim::Pung)],
    }];
    let s = settle_hand(&code(), &h).unwrap();
    assert_eq!(paid(&s, South, West), 50 + paid(&plain, South, West));
    assert_eq!(s.net.south, plain.net.south - 150);
    // §87(a), §88: claimed for Mah-Jongg: 300 to each other player, hand abandoned, the
    // chow claimant limited to 300 too.
    h.penalties = vec![Penalty::FalseNaming {
        discarder: South,
        claims: vec![(West, NamingClaim::Chow), (North, NamingClaim::MahJongg)],
    }];
    let s = settle_hand(&code(), &h).unwrap();
    assert!(s.abandoned);
    assert_eq!(nets(&s), [300, -900, 300, 300]);
    // §87(b): a false Mah-Jongg on the named tile: discarder and claimant each pay 150 to
    // each of the two others.
    h.penalties = vec![Penalty::FalseNaming {
        discarder: South,
        claims: vec![(North, NamingClaim::FalseMahJongg)],
    }];
    assert_eq!(
        nets(&settle_hand(&code(), &h).unwrap()),
        [300, -300, 300, -300]
    );
}

#[test]
fn letting_off_a_cannon_pays_for_all() {
    // §96: West let off the cannon: he pays North 96 + 48 + 48 = 192, and the losers do not
    // settle among themselves.
    let mut h = example();
    h.penalties = vec![Penalty::PaysForAll {
        liable: West,
        liability: Liability::Full,
        second: None,
    }];
    let s = settle_hand(&code(), &h).unwrap();
    assert_eq!(s.payments.len(), 1);
    assert_eq!(paid(&s, West, North), 192);
    assert_eq!(nets(&s), [0, 0, -192, 192]);
}

#[test]
fn insurance_in_half() {
    // Babcock p. 75: the liable player pays his own 48 and half of the others' 96 + 48; East
    // and South bear the other half, each half his own debt.
    let mut h = example();
    h.penalties = vec![Penalty::PaysForAll {
        liable: West,
        liability: Liability::Half,
        second: None,
    }];
    let s = settle_hand(&code(), &h).unwrap();
    assert_eq!(paid(&s, West, North), 48 + 72);
    assert_eq!(paid(&s, East, North), 48);
    assert_eq!(paid(&s, South, North), 24);
    // …completed on a second dangerous discard by South: West and South pay half each of the
    // whole 192, East nothing.
    h.penalties = vec![Penalty::PaysForAll {
        liable: West,
        liability: Liability::Half,
        second: Some(South),
    }];
    let s = settle_hand(&code(), &h).unwrap();
    assert_eq!(
        (
            paid(&s, West, North),
            paid(&s, South, North),
            paid(&s, East, North)
        ),
        (96, 96, 0)
    );
}

#[test]
fn new_method_and_limit_hand_cancelling_losers() {
    let mut rules = code();
    rules.settlement.method = referee::rules::SettlementMethod::NewMethod;
    let mut h = example();
    // Babcock p. 79: West discarded the winning tile: he pays 96, East and South 48 each (no
    // East double); losers settle single: South gets 236 from East and 252 from West; West
    // pays East 16.
    h.discarder = Some(West);
    let s = settle_hand(&rules, &h).unwrap();
    assert_eq!(
        (
            paid(&s, West, North),
            paid(&s, East, North),
            paid(&s, South, North)
        ),
        (96, 48, 48)
    );
    assert_eq!(
        (
            paid(&s, East, South),
            paid(&s, West, South),
            paid(&s, West, East)
        ),
        (236, 252, 16)
    );
    // A drawn win is paid double by all.
    h.discarder = None;
    let s = settle_hand(&rules, &h).unwrap();
    assert_eq!(s.net.north, 288);
    // A limit hand cancels the losers' settlement where the ruleset says so.
    rules.settlement.limit_hand_cancels_losers = true;
    h.limit_hand = Some(referee::rules::LimitShare::FULL);
    let s = settle_hand(&rules, &h).unwrap();
    assert!(s.payments.iter().all(|p| p.payee == North));
}

#[test]
fn nearest_ten_and_the_dreamer() {
    let mut rules = code();
    rules.settlement.rounding = referee::rules::Rounding::NearestTen;
    let mut h = HandOutcome::new(
        ByWind::new(0, 14, 0, 0),
        Outcome::MahJongg { winner: South },
    );
    // Babcock p. 81: 14 counts as 10; East's 28 as 30.
    let s = settle_hand(&rules, &h).unwrap();
    assert_eq!((paid(&s, West, South), paid(&s, East, South)), (10, 30));
    // Code §128 note 2: losers pay the Dreamer 2 doubled as often as the winner's doubles (3
    // here: 16), East double.
    let mut rules = code();
    rules.settlement.dreamer_payment = true;
    h.dreamer = true;
    h.winner_doubles = 3;
    let s = settle_hand(&rules, &h).unwrap();
    assert_eq!(
        (s.to_dreamer.east, s.to_dreamer.west, s.to_dreamer.south),
        (32, 16, 0)
    );
    assert_eq!(s.dreamer_net, 64);
    let sum: i64 = s.net.iter().map(|(_, &n)| n).sum();
    assert_eq!(sum + s.dreamer_net, 0);
}

#[derive(Clone, Debug)]
struct Random(HandOutcome, Ruleset);

fn seat(g: &mut Gen) -> Wind {
    Wind::from_index(usize::from(u8::arbitrary(g) % 4))
}

impl Arbitrary for Random {
    fn arbitrary(g: &mut Gen) -> Random {
        let scores = ByWind::from_fn(|_| u64::from(u16::arbitrary(g)) % 1_001 * 2);
        let winner = seat(g);
        let mut h = HandOutcome::new(scores, Outcome::MahJongg { winner });
        let others: Vec<Wind> = Wind::ALL.into_iter().filter(|&s| s != winner).collect();
        let pick = |g: &mut Gen| others[usize::from(u8::arbitrary(g)) % 3];
        h.discarder = bool::arbitrary(g).then(|| pick(g));
        h.dreamer = bool::arbitrary(g);
        h.winner_doubles = u32::from(u8::arbitrary(g) % 8);
        h.limit_hand = bool::arbitrary(g).then_some(referee::rules::LimitShare::FULL);
        match u8::arbitrary(g) % 6 {
            4 => h.penalties.push(Penalty::LongHand { seat: pick(g) }),
            0 => h.penalties.push(Penalty::FalseMahJongg {
                offenders: vec![pick(g)],
            }),
            1 => h.penalties.push(Penalty::PaysForAll {
                liable: pick(g),
                liability: Liability::Full,
                second: None,
            }),
            2 => h.penalties.push(Penalty::PaysForAll {
                liable: pick(g),
                liability: Liability::Half,
                second: None,
            }),
            3 => {
                let d = pick(g);
                let c = Wind::ALL.into_iter().find(|&s| s != d).unwrap();
                h.penalties.push(Penalty::FalseNaming {
                    discarder: d,
                    claims: vec![(c, NamingClaim::Pung)],
                });
            }
            _ => {}
        }
        let mut rules = code();
        if bool::arbitrary(g) {
            rules.settlement.method = referee::rules::SettlementMethod::NewMethod;
        }
        rules.settlement.dreamer_payment = bool::arbitrary(g);
        rules.settlement.limit_hand_cancels_losers = bool::arbitrary(g);
        if bool::arbitrary(g) {
            rules.settlement.rounding = referee::rules::Rounding::NearestTen;
        }
        Random(h, rules)
    }
}

#[test]
fn every_settlement_with_penalties_sums_to_zero() {
    fn prop(r: Random) -> bool {
        let Ok(s) = settle_hand(&r.1, &r.0) else {
            return false;
        };
        let sum: i64 = s.net.iter().map(|(_, &n)| n).sum();
        let winner_never_pays_under_a_cannon = match r.0.outcome {
            Outcome::MahJongg { winner } if !s.abandoned => s
                .payments
                .iter()
                .all(|p| p.payer != winner || !r.0.penalties.is_empty()),
            _ => true,
        };
        sum + s.dreamer_net == 0
            && s.payments.iter().all(|p| p.amount > 0)
            && winner_never_pays_under_a_cannon
    }
    QuickCheck::new()
        .tests(2_000)
        .quickcheck(prop as fn(Random) -> bool);
}

#[test]
fn a_long_hand_scores_nothing_and_pays_the_other_losers_in_full() {
    // §89(c) on the §109 example, South's 256 a long hand: North wins 48 (East pays him 96);
    // South scores nothing, so he pays East 2 × 20 and West 4; East and West settle as usual
    // (West pays East 2 × 16).
    let mut h = example();
    h.penalties = vec![Penalty::LongHand { seat: South }];
    let s = settle_hand(&code(), &h).unwrap();
    assert_eq!(paid(&s, South, East), 40);
    assert_eq!(paid(&s, South, West), 4);
    assert_eq!(paid(&s, West, East), 32);
    assert_eq!(paid(&s, West, South), 0);
    assert_eq!(nets(&s), [-24, -92, -76, 192]);
    // §89(b): a long hand cannot win.
    h.penalties = vec![Penalty::LongHand { seat: North }];
    assert!(settle_hand(&code(), &h)
        .unwrap_err()
        .to_string()
        .contains("§89(b)"));
}
