//! Letting off a cannon (Code §90–96), found in hands that mj-server's robots played
//! (`fixtures/mj-server/cannons/`): given the hand's events, when it is replayed, then the
//! finding names the discard, the signal, the claim, the plea, and the settlement follows it —
//! equal to the server's where the server follows the Code, and the departure named where not.

use std::path::Path;

use referee::adjudicate::{findings, Finding, NoChoice, Signal};
use referee::adjudicate::{report_as_played, settle, Replay};
use referee::import::mjs;
use referee::play::PlayRules;
use referee::rules::Cannons;
use referee::{Ruleset, Seat, Suit};

fn hand(name: &str) -> mjs::MjsHand {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures/mj-server/cannons")
        .join(name);
    let text = std::fs::read_to_string(path).unwrap();
    mjs::read(&text, "t1".parse().unwrap(), 1, 1).unwrap()
}

fn server_rules() -> Ruleset {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/mj-server/mj-server-readings.toml");
    Ruleset::parse(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn replayed(h: &mjs::MjsHand) -> referee::adjudicate::Replayed {
    let rules = PlayRules::of(&Ruleset::builtin("code-of-laws").unwrap());
    let r = Replay::replay(rules, &h.started, h.events.iter().map(|(_, e)| e)).unwrap();
    assert!(r.refused.is_none(), "{:?}", r.refused);
    r
}

#[test]
fn a_declared_concealed_kong_counts_among_the_sets_that_signal_a_clear_suit() {
    // North displays 333s, a declared {1111s} and 888s; East discards 9s and North goes
    // Mah-Jongg with it, all bamboo. East held 3m: he had a choice.
    let h = hand("clear-suit.mjs");
    let r = replayed(&h);
    let c = r.replay.cannon().expect("a cannon");
    assert_eq!((c.discarder, c.winner), (Seat::East, Seat::North));
    assert_eq!(c.danger.signal, Signal::OneSuit(Suit::Bamboo));
    assert_eq!(c.no_choice, NoChoice::HeldSafe("3m".parse().unwrap()));
    assert!(!c.pleaded && !c.excused());
    assert_eq!(c.kind(), "cannon");
    assert!(c.citations().contains(&"Code §90(a)"));
    assert!(c.to_string().contains("three sets of bamboo and no others"));
    // East pays for all (§96): the other two losers pay nothing and are paid nothing.
    let (_, settled) = settle(&r.replay, &server_rules(), 0).unwrap().unwrap();
    assert_eq!(settled.nets[Seat::South], 0);
    assert_eq!(settled.nets[Seat::West], 0);
    assert_eq!(settled.nets[Seat::East], -settled.nets[Seat::North]);
    // The server counts exposed sets only, and so charged nothing: the departure is named.
    let check = mjs::cross_check(&h, &server_rules(), 0).unwrap();
    assert!(check.differences.is_empty(), "{:?}", check.differences);
    assert!(
        check.departures.iter().any(|d| d.contains("(Code §90)")),
        "{:?}",
        check.departures
    );
}

#[test]
fn a_discarder_who_pleads_no_choice_holding_only_dangerous_tiles_is_excused() {
    // Four tiles or fewer in the live wall (§90(g)); South drew and held nothing safe, and
    // pleaded (the reader records the server's excuse as the plea, §95(b)).
    let h = hand("no-choice.mjs");
    let r = replayed(&h);
    let c = r.replay.cannon().expect("a cannon");
    assert_eq!(c.danger.signal, Signal::EndOfWall);
    assert_eq!(c.no_choice, NoChoice::Open);
    assert!(c.pleaded && c.excused());
    let found = findings(&r, &Ruleset::builtin("code-of-laws").unwrap());
    assert!(found
        .iter()
        .any(|f| matches!(f, Finding::Cannon(_)) && f.kind() == "no-choice-excused"));
    // Settled as any hand: the server's settlement.
    let check = mjs::cross_check(&h, &server_rules(), 0).unwrap();
    assert!(check.differences.is_empty(), "{:?}", check.differences);
    assert!(check.departures.is_empty(), "{:?}", check.departures);
}

#[test]
fn an_end_of_wall_cannon_is_settled_as_the_server_settled_it() {
    let h = hand("paying-for-all.mjs");
    let r = replayed(&h);
    let c = r.replay.cannon().expect("a cannon");
    assert_eq!(c.danger.signal, Signal::EndOfWall);
    assert!(!c.excused());
    let check = mjs::cross_check(&h, &server_rules(), 0).unwrap();
    assert!(check.cannon);
    assert!(check.differences.is_empty(), "{:?}", check.differences);
    assert!(check.departures.is_empty(), "{:?}", check.departures);
    // Without the penalty the settlement would differ from the server's.
    let (_, plain) = r
        .replay
        .state()
        .settle(&server_rules(), 0)
        .unwrap()
        .unwrap();
    let (_, charged) = settle(&r.replay, &server_rules(), 0).unwrap().unwrap();
    assert_ne!(plain.nets, charged.nets);
    assert_eq!(charged.nets.iter().map(|(_, n)| *n).sum::<i64>(), 0);
}

#[test]
fn a_second_dangerous_discard_that_completes_the_hand_frees_the_first() {
    // §93: East claimed a dangerous discard for pung (event 374), then went Mah-Jongg on a
    // second (event 390): the second alone is liable.
    let h = hand("second-frees-first.mjs");
    let r = replayed(&h);
    let c = r.replay.cannon().expect("a cannon");
    assert_eq!(c.event, 390);
    assert_eq!(c.freed, vec![374]);
    assert!(c.citations().contains(&"Code §93"));
    assert!(c.to_string().contains("freed by this one"));
}

#[test]
fn under_a_ruleset_without_the_codes_cannons_the_finding_moves_no_money() {
    // The Code's play with no penalty for a dangerous discard, as Babcock's standard game,
    // the Chinese classical and the British rules have it.
    let h = hand("clear-suit.mjs");
    let rules = PlayRules {
        cannons: Cannons::None,
        ..PlayRules::of(&Ruleset::builtin("code-of-laws").unwrap())
    };
    let r = Replay::replay(rules, &h.started, h.events.iter().map(|(_, e)| e)).unwrap();
    // The finding is there to read, whatever the ruleset …
    assert!(r.replay.cannon().is_some());
    // … but the report carries no penalty.
    assert!(report_as_played(&r.replay).is_some_and(|rep| rep.penalties.is_empty()));
}
