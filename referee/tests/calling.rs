//! A losing hand calling for a special hand (the Chinese classical rules, Scoring: "or a player
//! was Calling on a special hand at Mah Jong, the scores in the Special Hand table apply"), and
//! the share a ruleset pays a caller.

use referee::score::{score, ScoreInput};
use referee::{Hand, Ruleset, ScoreSheet, Wind};

fn lose(rules: &Ruleset, hand: &str) -> ScoreSheet {
    let hand: Hand = hand.parse().unwrap();
    score(rules, &ScoreInput::losing(hand, Wind::South, Wind::East)).unwrap()
}

fn builtin(name: &str) -> Ruleset {
    Ruleset::builtin(name).unwrap()
}

fn house(base: &str, share: &str) -> Ruleset {
    Ruleset::parse(&format!(
        "name = \"club\"\nbase = \"{base}\"\n[readings]\ncalling_special = \"{share}\"\n"
    ))
    .unwrap()
}

fn calling_line(s: &ScoreSheet) -> Option<&str> {
    s.lines
        .iter()
        .map(|l| &*l.element)
        .find(|id| id.starts_with("calling-"))
}

#[test]
fn four_concealed_pungs_of_one_suit_and_a_wind_call_for_buried_treasure() {
    // Waiting on the East to pair: "Concealed Pungs in one suit with Winds/Dragons and a pair".
    for name in ["chinese-classical", "british"] {
        let s = lose(&builtin(name), "333444555888m E");
        assert_eq!(
            calling_line(&s),
            Some("calling-buried-treasure"),
            "{name}: {s}"
        );
        assert_eq!(s.total, 2000, "{name}: {s}");
    }
}

#[test]
fn the_code_babcock_and_harr_pay_no_caller() {
    for name in [
        "code-of-laws",
        "babcock-standard",
        "babcock-chinese",
        "harr-limit",
    ] {
        let s = lose(&builtin(name), "333444555888m E");
        assert_eq!(calling_line(&s), None, "{name}: {s}");
        assert!(s.total < 300, "{name}: {s}");
    }
}

#[test]
fn a_club_pays_a_share_of_the_award() {
    // Two-fifths of the limit for a limit hand, two-fifths of half the limit (a fifth) for a
    // half-limit hand.
    let s = lose(&house("british", "2/5"), "333444555888m E");
    assert_eq!(s.total, 800, "{s}");
    // Knitting (British, half limit): seven knitted pairs in two suits, calling on the 7s.
    let s = lose(&house("british", "0.4"), "1234567m 123456s");
    assert_eq!(calling_line(&s), Some("calling-knitting"), "{s}");
    assert_eq!(s.total, 400, "{s}");
}

#[test]
fn thirteen_unique_wonders_called_on_any_of_thirteen_tiles() {
    let s = lose(&builtin("chinese-classical"), "19m 19p 19s E S W N R G P");
    assert_eq!(
        calling_line(&s),
        Some("calling-thirteen-unique-wonders"),
        "{s}"
    );
    assert_eq!(s.total, 2000);
}

#[test]
fn a_hand_two_tiles_away_calls_for_nothing() {
    let s = lose(&builtin("chinese-classical"), "333444555m 8m E 1p 2s");
    assert_eq!(calling_line(&s), None, "{s}");
}

#[test]
fn a_hand_counting_more_than_the_callers_share_keeps_its_count() {
    // Three concealed honour kongs count far more than a fifth of the limit.
    let rules = house("chinese-classical", "1/5");
    let s = lose(&rules, "{EEEE} {RRRR} {GGGG} 1m 1m 1m 2p");
    assert_eq!(calling_line(&s), None, "{s}");
    assert!(s.total > 400, "{s}");
}
