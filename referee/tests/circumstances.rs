//! How the winning tile came, and the readings a ruleset takes where the Code can be read two
//! ways: circumstances combine (Code §117(h)–(k)), contradictions are refused with their rule,
//! and each reading switches what its section says.

use referee::score::{score, ScoreError, ScoreInput, Win, WinFrom};
use referee::{parse_counts, Hand, Ruleset, ScoreSheet, Wind};

fn code() -> Ruleset {
    Ruleset::builtin("code-of-laws").unwrap()
}

fn house(readings: &str) -> Ruleset {
    Ruleset::parse(&format!(
        "name = \"house\"\nbase = \"code-of-laws\"\n[readings]\n{readings}\n"
    ))
    .unwrap()
}

fn try_win(rules: &Ruleset, hand: &str, seat: Wind, win: Win) -> Result<ScoreSheet, ScoreError> {
    let hand: Hand = hand.parse().unwrap();
    score(rules, &ScoreInput::winning(hand, seat, Wind::East, win))
}

fn win(rules: &Ruleset, hand: &str, win: Win) -> ScoreSheet {
    try_win(rules, hand, Wind::South, win).unwrap_or_else(|e| panic!("{hand}: {e}"))
}

fn ids(s: &ScoreSheet) -> Vec<&str> {
    s.lines.iter().map(|l| &*l.element).collect()
}

const WITH_A_KONG: &str = "{5555p} 123m 456s 789s E =E";
const TWO_KONGS: &str = "{5555p} {7777m} 456s 789s E =E";
const NO_KONG: &str = "123m 456m 456s 789s E =E";

#[test]
fn a_loose_tile_that_is_the_last_available_tile_earns_both_doubles() {
    // §117(i): "If he should complete his hand with such a tile, he receives two doubles, one
    // for 'opening a flower', and one for 'winning from the bottom of the sea'."
    let s = win(
        &code(),
        WITH_A_KONG,
        Win {
            last_tile: true,
            ..Win::from(WinFrom::LooseTile)
        },
    );
    let lines = ids(&s);
    assert!(lines.contains(&"loose-tile-win"), "{s}");
    assert!(lines.contains(&"last-wall-tile"), "{s}");
    // Without the flag, only the loose tile's double.
    let plain = win(&code(), WITH_A_KONG, Win::from(WinFrom::LooseTile));
    assert!(!ids(&plain).contains(&"last-wall-tile"), "{plain}");
    assert_eq!(s.doubles, plain.doubles + 1);
}

#[test]
fn the_older_fused_names_read_as_source_and_flag() {
    let fused = win(&code(), NO_KONG, Win::from(WinFrom::LastWallTile));
    let flagged = win(
        &code(),
        NO_KONG,
        Win {
            last_tile: true,
            ..Win::from(WinFrom::Wall)
        },
    );
    assert_eq!(fused.lines, flagged.lines);
    assert!(ids(&flagged).contains(&"last-wall-tile"));
    let fused = win(&code(), NO_KONG, Win::from(WinFrom::LastDiscard));
    let flagged = win(
        &code(),
        NO_KONG,
        Win {
            last_tile: true,
            ..Win::from(WinFrom::Discard)
        },
    );
    assert_eq!(fused.lines, flagged.lines);
    assert!(ids(&flagged).contains(&"last-discard"));
}

#[test]
fn robbing_a_kong_after_the_wall_is_exhausted_is_a_robbed_kong_not_a_last_discard() {
    // §117(j) is a discard made after the last wall tile; a robbed kong tile is no discard,
    // so it earns §117(k) alone.
    let s = win(
        &code(),
        NO_KONG,
        Win {
            last_tile: true,
            ..Win::from(WinFrom::RobbedKong)
        },
    );
    let lines = ids(&s);
    assert!(lines.contains(&"robbed-kong"), "{s}");
    assert!(!lines.contains(&"last-discard"), "{s}");
}

#[test]
fn kong_upon_kong_needs_two_kongs_and_a_loose_tile() {
    let kuk = Win {
        kong_upon_kong: true,
        ..Win::from(WinFrom::LooseTile)
    };
    let s = win(&code(), TWO_KONGS, kuk);
    assert!(ids(&s).contains(&"kong-upon-kong"), "{s}");
    assert_eq!(s.total, 1000);
    // §122(f) on a hand with one kong, or none: refused, not scored at the limit.
    assert_eq!(
        try_win(&code(), WITH_A_KONG, Wind::South, kuk),
        Err(ScoreError::KongUponKongWithoutKongs { kongs: 1 })
    );
    assert!(matches!(
        try_win(
            &code(),
            NO_KONG,
            Wind::South,
            Win::from(WinFrom::KongUponKong)
        ),
        Err(ScoreError::KongUponKongWithoutKongs { kongs: 0 } | ScoreError::LooseTileWithoutKong)
    ));
    assert_eq!(
        try_win(
            &code(),
            TWO_KONGS,
            Wind::South,
            Win {
                kong_upon_kong: true,
                ..Win::from(WinFrom::Wall)
            }
        ),
        Err(ScoreError::KongUponKongNotLoose(WinFrom::Wall))
    );
}

#[test]
fn a_loose_tile_without_a_kong_is_refused_where_bonus_tiles_are_replaced_from_the_live_wall() {
    // Code §31: a bonus tile's replacement comes "from the open end of the live wall", so only a
    // kong gives a loose tile — no §117(h) double, and no Plum Blossom with a 5 circle.
    assert_eq!(
        try_win(&code(), NO_KONG, Wind::South, Win::from(WinFrom::LooseTile)),
        Err(ScoreError::LooseTileWithoutKong)
    );
    assert_eq!(
        try_win(
            &code(),
            "123m 456m 456s 789s 5p =5p",
            Wind::South,
            Win::from(WinFrom::LooseTile)
        ),
        Err(ScoreError::LooseTileWithoutKong)
    );
    // Where the kong box replaces bonus tiles (Babcock p. 88), a hand with a bonus tile may win
    // on a loose tile; one with neither kong nor bonus tile may not.
    let loose_bonus = house("bonus_replacement = \"loose-tile\"");
    let s = win(
        &loose_bonus,
        "123m 456m 456s 789s E 1f =E",
        Win::from(WinFrom::LooseTile),
    );
    assert!(ids(&s).contains(&"loose-tile-win"), "{s}");
    assert_eq!(
        try_win(
            &loose_bonus,
            NO_KONG,
            Wind::South,
            Win::from(WinFrom::LooseTile)
        ),
        Err(ScoreError::LooseTileWithoutKongOrBonus)
    );
}

#[test]
fn heavens_blessing_is_never_won_on_a_discard() {
    let heaven = |from| Win {
        heavens_blessing: true,
        ..Win::from(from)
    };
    assert_eq!(
        try_win(&code(), NO_KONG, Wind::East, heaven(WinFrom::Discard)),
        Err(ScoreError::HeavenNotDrawn(WinFrom::Discard))
    );
    let s = try_win(&code(), NO_KONG, Wind::East, heaven(WinFrom::Wall)).unwrap();
    assert!(ids(&s).contains(&"heavens-blessing"), "{s}");
}

#[test]
fn east_has_no_fourteenth_consecutive_win() {
    // §122(r): East gives up the title after the thirteenth win, which scores the limit.
    let east = |n| Win {
        east_wins: n,
        ..Win::from(WinFrom::Discard)
    };
    let s = try_win(&code(), NO_KONG, Wind::East, east(13)).unwrap();
    assert_eq!(s.total, 1000, "{s}");
    assert!(matches!(
        try_win(&code(), NO_KONG, Wind::East, east(14)),
        Err(ScoreError::EastWinsBeyondLimit {
            wins: 14,
            max: 13,
            ..
        })
    ));
}

#[test]
fn only_place_counts_own_tiles_switches_the_reading_of_115c() {
    // 1234m waits on 1m and 4m. Three 4m are on the table and the fourth is the caller's own:
    // by the main sentence no 4m "could have completed the hand", so the 1m filled the only
    // place; by the note's words only tiles "exposed on the table" count, and one 4m is not.
    let hand: Hand = "1234m 555p 678s EEE =1m".parse().unwrap();
    let input = ScoreInput {
        visible: parse_counts("4m 4m 4m", None).unwrap(),
        ..ScoreInput::winning(hand, Wind::South, Wind::East, Win::from(WinFrom::Discard))
    };
    let main_sentence = score(&code(), &input).unwrap();
    assert!(
        ids(&main_sentence).contains(&"only-place"),
        "{main_sentence}"
    );
    let table_only = score(&house("only_place_counts_own_tiles = false"), &input).unwrap();
    assert!(!ids(&table_only).contains(&"only-place"), "{table_only}");
    assert_eq!(main_sentence.basic, table_only.basic + 2);
}

#[test]
fn roof_off_limit_hand_is_the_higher_or_the_notional_value() {
    // Fourfold Plenty of honour kongs counts far above the notional 1000 with the roof off.
    let hand = "{EEEE} {SSSS} {RRRR} {GGGG} W =W";
    let drawn = Win::from(WinFrom::LooseTile);
    let mut higher = code();
    higher.params.limit = None;
    let s = win(&higher, hand, drawn);
    assert!(s.raw > 1000, "{s}");
    assert_eq!(s.total, s.raw, "Code §121: the full intrinsic value");
    let mut notional = house("roof_off_limit_hand = \"notional\"");
    notional.params.limit = None;
    let s = win(&notional, hand, drawn);
    assert_eq!(s.total, 1000, "{s}");
}
