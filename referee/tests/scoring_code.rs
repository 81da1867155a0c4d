//! Scoring under the Code of Laws, hand-checked against §114–122.
//!
//! The Code prints no worked scoring example, so each case here is worked by hand from the
//! sections cited, and the comment shows the arithmetic.

use referee::score::{score, ScoreError, ScoreInput, Win, WinFrom};
use referee::{parse_counts, Hand, Ruleset, ScoreSheet, Wind};

fn code() -> Ruleset {
    Ruleset::builtin("code-of-laws").unwrap()
}

fn win(hand: &str, seat: Wind, prevailing: Wind, from: WinFrom) -> ScoreSheet {
    let hand: Hand = hand.parse().unwrap();
    score(
        &code(),
        &ScoreInput::winning(hand, seat, prevailing, Win::from(from)),
    )
    .unwrap()
}

fn lose(hand: &str, seat: Wind, prevailing: Wind) -> ScoreSheet {
    let hand: Hand = hand.parse().unwrap();
    score(&code(), &ScoreInput::losing(hand, seat, prevailing)).unwrap()
}

fn ids(s: &ScoreSheet) -> Vec<&str> {
    s.lines.iter().map(|l| &*l.element).collect()
}

#[test]
fn claimed_terminal_pung_with_a_dragon_set() {
    // §115(a) 10 + §114(b) exposed Red pung 4 + exposed pung of 1s (claimed for Mah-Jongg) 4
    // = 18; §116(d) one double: 36. Waits were 9m and 1s, so no only-place score.
    let s = win(
        "[RRR] [234p] 567s 99m 11s =1s",
        Wind::South,
        Wind::East,
        WinFrom::Discard,
    );
    assert_eq!((s.basic, s.doubles, s.total), (18, 1, 36), "{s}");
}

#[test]
fn the_same_hand_drawn() {
    // Drawn: the pung of 1s is concealed, 8; §115(b) 2: 10 + 4 + 8 + 2 = 24, doubled 48.
    let s = win(
        "[RRR] [234p] 567s 99m 11s =1s",
        Wind::South,
        Wind::East,
        WinFrom::Wall,
    );
    assert_eq!((s.basic, s.doubles, s.total), (24, 1, 48), "{s}");
}

#[test]
fn own_and_prevailing_wind_pair_scores_four_and_fishing_the_eyes() {
    // East in the East round, four chows complete, waiting on the single East: §115(a) 10,
    // §114(e) pair of own Wind 2 + Prevailing Wind 2, §115(b) drawn 2, §115(c) only place 2,
    // §115(d) fishing the eyes with a major pair 4 = 22; all chows but the pair scores, so no
    // §117(a); §117(c) entirely concealed: one double, 44.
    let s = win(
        "123m 456m 789p 234s E =E",
        Wind::East,
        Wind::East,
        WinFrom::Wall,
    );
    assert_eq!((s.basic, s.doubles, s.total), (22, 1, 44), "{s}");
    assert!(ids(&s).contains(&"fishing-eyes-major"));
}

#[test]
fn no_score_hand_doubles() {
    // Four chows and a pair of 5 circles, claimed 3 bamboo into 4-5: §115(a) 10; §117(a) one
    // double: 20. Not concealed (claimed). Waits 3s and 6s: no only place.
    let s = win(
        "[123m] 456m 789p 55p 45s =3s",
        Wind::South,
        Wind::East,
        WinFrom::Discard,
    );
    assert_eq!((s.basic, s.doubles, s.total), (10, 1, 20), "{s}");
}

#[test]
fn clear_suit_is_three_doubles_not_one_suit() {
    // Bamboo only, exposed pung of 2s (2), concealed pung of 9s (8), chows; claimed 5s fills
    // the middle of 4-6, the only place: 10 + 2 + 8 + 2 = 22; §117(e) three doubles: 176.
    let s = win(
        "[222s] 999s 123s 46s 77s =5s",
        Wind::West,
        Wind::East,
        WinFrom::Discard,
    );
    assert_eq!((s.basic, s.doubles, s.total), (22, 3, 176), "{s}");
}

#[test]
fn a_loser_regroups_concealed_tiles_for_the_best_score() {
    // Losing hand: concealed 777m could be a pung (4) or part of chows (nothing); a pair of
    // Green dragons 2; a concealed pung of West (own wind of West) 8 and §116(e) one double:
    // (4 + 2 + 8) × 2 = 28.
    let s = lose("777m 89m GG WWW 1p 5s 9s", Wind::West, Wind::East);
    assert_eq!((s.basic, s.doubles, s.total), (14, 1, 28), "{s}");
}

#[test]
fn limit_hands_score_the_limit() {
    // §122(k) All Symbols: the limit, 1000.
    let s = win(
        "[EEE] [RRR] SSS NNN G =G",
        Wind::South,
        Wind::East,
        WinFrom::Discard,
    );
    assert_eq!(s.total, 1000);
    assert!(s.limited && s.is_limit_hand(), "{s}");
    // §122(q) Thirteen Unique Wonders.
    let s = win(
        "19m 19p 19s ESWN RGP =1m",
        Wind::North,
        Wind::East,
        WinFrom::Wall,
    );
    assert_eq!((s.basic, s.total), (0, 1000), "{s}");
}

#[test]
fn roof_off_uses_the_notional_value_or_the_intrinsic_if_higher() {
    let mut rules = code();
    rules.params.limit = None;
    rules.params.notional_limit = 500;
    let hand: Hand = "[EEE] [RRR] SSS NNN G =G".parse().unwrap();
    let s = score(
        &rules,
        &ScoreInput::winning(hand, Wind::South, Wind::East, Win::from(WinFrom::Discard)),
    )
    .unwrap();
    // Intrinsic: 10 + 4 + 4 + 8 + 8 + pair of G 2 = 36, doubles: R set, E prevailing, S own,
    // big four? no (3 winds + no wind pair): little four joys needs a wind pair — G is a dragon;
    // no chows 1, all honours 2, all majors 1: 1+1+1+1+2+1 = 7 doubles: 36 × 128 = 4608 > 500.
    assert_eq!(s.total, s.raw, "{s}");
    assert!(s.raw > 500);
}

#[test]
fn thirteen_unique_wonders_with_the_roof_off_scores_its_count_when_higher_section_121() {
    // The Thirteen Unique Wonders with every bonus tile, drawn: 32 for the bonus tiles, 10 for
    // Mah-Jongg, 2 for the tile drawn; own flower and season, all four flowers, all four
    // seasons, entirely concealed, all major tiles: 5 doubles. 44 × 32 = 1408 > 1000.
    let hand: Hand = "19m 19p 19s ESWN RGP 1f 2f 3f 4f 1y 2y 3y 4y =P"
        .parse()
        .unwrap();
    let input = ScoreInput::winning(hand, Wind::East, Wind::East, Win::from(WinFrom::Wall));
    let mut rules = code();
    rules.params.limit = None;
    let s = score(&rules, &input).unwrap();
    assert_eq!((s.basic, s.doubles, s.total), (44, 5, 1408), "{s}");
    // Below the notional value, the notional value.
    rules.params.notional_limit = 2000;
    assert_eq!(score(&rules, &input).unwrap().total, 2000);
    // With the limit, the limit.
    assert_eq!(score(&code(), &input).unwrap().total, 1000);
}

#[test]
fn impossible_input_is_an_error() {
    let hand: Hand = "123m 456m 789p 234s E =S".parse().unwrap();
    let err = score(
        &code(),
        &ScoreInput::winning(hand, Wind::East, Wind::East, Win::from(WinFrom::Wall)),
    )
    .unwrap_err();
    assert!(matches!(err, ScoreError::NotComplete { .. }), "{err}");
    let hand: Hand = "123m 456m 789p 234s E =E".parse().unwrap();
    let err = score(&code(), &ScoreInput::losing(hand, Wind::East, Wind::East)).unwrap_err();
    assert!(
        matches!(err, ScoreError::WinningTileInLosingHand(_)),
        "{err}"
    );
    let hand: Hand = "123m 456m 789p 234s E =E".parse().unwrap();
    let mut input = ScoreInput::winning(hand, Wind::East, Wind::East, Win::from(WinFrom::Wall));
    input.visible = parse_counts("EEE", None).unwrap();
    let err = score(&code(), &input).unwrap_err();
    assert!(matches!(err, ScoreError::VisibleFifthCopy { .. }), "{err}");
}
