//! Limit hands and special hands are Mah-Jongg hands: a losing hand holding as much of one as
//! thirteen tiles allow does not score it.
//!
//! Every built-in source gives its limit and special hands to the complete hand only: Code §121
//! ("certain Mah-Jongg hands known as Special Limit hands"); Babcock p. 36 (Special Scores:
//! "These apply to winning hands only") and p. 53 (Optional Scores: "do not count unless the
//! hands have been completed for MAH-JONGG"); Babcock p. 74 (the Chinese game's limit hands are
//! "complete hands"); Harr p. 62 ("A player holding a winning hand of any one of the following
//! combinations"); the Chinese and British rules (seed 003), Special Hands: "alternative target
//! sets of tiles that a player can go Mah Jong with". So every case below expects the element
//! *absent* from the losing hand's sheet.
//!
//! No hand here is calling (one tile from any complete hand of its ruleset): a losing hand
//! calling for a special hand is a separate reading (`calling_special`), and these tests pin
//! `applies`, not that. [`not_calling`] checks it for each case. Where thirteen tiles can meet the
//! element's condition without calling, the case says so (`holds`), and the test checks that the
//! element *would* score if it applied to all hands, so the case can fail. Four sets and a single
//! are always calling on the pair, so four-set patterns (Buried Treasure, Four Blessings, Fourfold
//! Plenty) are given with three sets and two tiles short; `every_limit_element_is_winner_only`
//! pins their `applies` directly.

use referee::rules::{Applies, Condition, Value};
use referee::score::{score, ScoreInput, Win, WinFrom};
use referee::{Hand, Ruleset, ScoreSheet, Tile, Wind};

/// One losing hand for one element.
struct Case {
    ruleset: &'static str,
    element: &'static str,
    /// Thirteen tiles, no winning tile, not calling.
    hand: &'static str,
    /// The thirteen tiles meet the element's condition (only for conditions a losing hand can
    /// meet), so the element would score if it applied to all hands.
    holds: bool,
    /// The element is on the losing hand's sheet. No built-in source pays a losing hand a limit
    /// or special hand, so always `false`; a source that did would be cited here.
    scores: bool,
}

const fn case(
    ruleset: &'static str,
    element: &'static str,
    hand: &'static str,
    holds: bool,
) -> Case {
    Case {
        ruleset,
        element,
        hand,
        holds,
        scores: false,
    }
}

// Hands shared by several rulesets (all scored as East in the East round).
/// Three pungs, a pair and two odd tiles: two tiles from anything. It holds the Plum Blossom
/// (5 circles) and the Moon (1 circle) for the hands won with them.
const PLAIN: &str = "222m 555p 888s EE 1p 9s";
/// All honours: three sets and four different singles.
const HONOURS: &str = "EEE SSS RRR G N W P";
/// Three Dragon sets and four odd tiles.
const DRAGONS: &str = "RRR GGG PPP 1m 5p 9s E";
/// Three Wind sets (East's own among them) and a pair of the fourth: Little Four Winds, and
/// Babcock's Four Wind Hand for East; two tiles short of four Wind sets.
const WINDS: &str = "EEE SSS WWW NN 1m 5p";
/// Ones, nines and honours only.
const MAJORS: &str = "111m 999p EEE RR 9s N";
/// Ones and nines only.
const TERMINALS: &str = "111m 999m 111p 99p 1s 9s";
/// Three concealed pungs, a pair and two odd tiles.
const CONCEALED_PUNGS: &str = "222m 444p 666s 88m 1p 9s";
/// Three concealed pungs of one suit, an honour pair, a single of the suit and an odd tile:
/// two draws from Buried Treasure (8m, then 8m or E), where `333444555888m E` is one.
const BURIED: &str = "333444555m 8m EE 1p";
/// All-green tiles only, not calling (no pair of pungs and a pair to wait on).
const GREEN: &str = "222s 333s 444s 66s 8s G";
/// Three kongs and four different Winds.
const KONGS: &str = "{1111m} {2222p} {3333s} E S W N";
/// Twelve of the thirteen orphans and a 5.
const ORPHANS: &str = "1m 9m 1p 9p 1s 9s E S W N R G 5m";
/// Five pairs and three odd tiles.
const TWINS: &str = "11m 33m 55p 77p 99s E S W";
/// 1112345678 99 of one suit and a Wind: two tiles from the Nine Gates.
const GATES: &str = "111m 2345678m 99m E";

const CASES: &[Case] = &[
    // ---- code-of-laws (Code §122; §121: "certain Mah-Jongg hands") ----
    case("code-of-laws", "heavens-blessing", PLAIN, false),
    case("code-of-laws", "earths-blessing", PLAIN, false),
    case("code-of-laws", "plum-blossom", PLAIN, false),
    case("code-of-laws", "moon-from-the-sea", PLAIN, false),
    case(
        "code-of-laws",
        "carrying-pole",
        "222m 555p 222s EE 1p 9s",
        false,
    ),
    case("code-of-laws", "kong-upon-kong", KONGS, false),
    case("code-of-laws", "fourfold-plenty", KONGS, false),
    case("code-of-laws", "buried-treasure", CONCEALED_PUNGS, false),
    case("code-of-laws", "three-great-scholars", DRAGONS, false),
    case("code-of-laws", "four-blessings", WINDS, false),
    case("code-of-laws", "all-symbols", HONOURS, true),
    case("code-of-laws", "heads-and-tails", TERMINALS, true),
    case("code-of-laws", "imperial-jade", GREEN, true),
    case("code-of-laws", "nine-lamps", GATES, false),
    case(
        "code-of-laws",
        "wriggling-snake",
        "111m 999m 22m 345m 6m E",
        false,
    ),
    case(
        "code-of-laws",
        "concealed-clear-suit",
        "111m 444m 777m 99m 2m 6m",
        false,
    ),
    case("code-of-laws", "thirteen-unique-wonders", ORPHANS, false),
    case("code-of-laws", "thirteen-east-wins", PLAIN, false),
    // ---- babcock-standard (p. 36 "winning hands only"; p. 53 "completed for MAH-JONGG") ----
    case("babcock-standard", "hand-from-heaven", PLAIN, false),
    case("babcock-standard", "hand-from-earth", PLAIN, false),
    case("babcock-standard", "lucky-thirteen", PLAIN, false),
    case("babcock-standard", "four-wind-hand", WINDS, true),
    case("babcock-standard", "four-wind-hand-four-sets", WINDS, false),
    case("babcock-standard", "terminals-and-honours", MAJORS, true),
    case("babcock-standard", "nine-gates", GATES, false),
    case("babcock-standard", "four-kongs", KONGS, false),
    case(
        "babcock-standard",
        "four-concealed-pungs",
        CONCEALED_PUNGS,
        false,
    ),
    case(
        "babcock-standard",
        "four-concealed-pungs-drawn",
        CONCEALED_PUNGS,
        false,
    ),
    case("babcock-standard", "thirteen-orphans", ORPHANS, false),
    case("babcock-standard", "seven-twins", TWINS, false),
    // ---- babcock-chinese (pp. 73-74: "complete hands") ----
    case("babcock-chinese", "all-honours", HONOURS, true),
    case("babcock-chinese", "three-dragon-sets", DRAGONS, true),
    case("babcock-chinese", "four-wind-hand", WINDS, true),
    case("babcock-chinese", "four-wind-hand-four-sets", WINDS, false),
    case("babcock-chinese", "terminals-and-honours", MAJORS, true),
    case(
        "babcock-chinese",
        "four-concealed-pungs",
        CONCEALED_PUNGS,
        false,
    ),
    case("babcock-chinese", "hand-from-heaven", PLAIN, false),
    case("babcock-chinese", "hand-from-earth", PLAIN, false),
    case("babcock-chinese", "lucky-thirteen", PLAIN, false),
    case("babcock-chinese", "nine-east-wins", PLAIN, false),
    case("babcock-chinese", "nine-gates", GATES, false),
    case("babcock-chinese", "four-kongs", KONGS, false),
    case("babcock-chinese", "thirteen-orphans", ORPHANS, false),
    case("babcock-chinese", "seven-twins", TWINS, false),
    // ---- harr-limit (p. 62: "a winning hand of any one of the following") ----
    case("harr-limit", "first-card-played", PLAIN, false),
    case("harr-limit", "single-heads", ORPHANS, false),
    case("harr-limit", "sets-of-heads", MAJORS, true),
    case("harr-limit", "four-happinesses", WINDS, false),
    case("harr-limit", "three-winds-and-pair", WINDS, true),
    case("harr-limit", "four-kongs", KONGS, false),
    case("harr-limit", "east-original-draw", PLAIN, false),
    case("harr-limit", "three-doctors", DRAGONS, true),
    // ---- chinese-classical (seed 003, Special Hands: "target sets ... to go Mah Jong with") ----
    case("chinese-classical", "buried-treasure", BURIED, false),
    case("chinese-classical", "heads-and-tails", TERMINALS, true),
    case(
        "chinese-classical",
        "wriggling-snake",
        "11m 2345678m E S W 5p",
        false,
    ),
    case("chinese-classical", "three-great-scholars", DRAGONS, false),
    case("chinese-classical", "four-blessings", WINDS, false),
    case(
        "chinese-classical",
        "thirteen-unique-wonders",
        ORPHANS,
        false,
    ),
    case("chinese-classical", "heavens-blessing", PLAIN, false),
    case("chinese-classical", "earths-blessing", PLAIN, false),
    case("chinese-classical", "plum-blossom", PLAIN, false),
    case("chinese-classical", "moon-from-the-sea", PLAIN, false),
    // ---- british (the Chinese Special Hands and the British ones) ----
    case("british", "buried-treasure", BURIED, false),
    case("british", "heads-and-tails", TERMINALS, true),
    case("british", "wriggling-snake", "11m 2345678m E S W 5p", false),
    case("british", "three-great-scholars", DRAGONS, false),
    case("british", "four-blessings", WINDS, false),
    case("british", "thirteen-unique-wonders", ORPHANS, false),
    case("british", "heavens-blessing", PLAIN, false),
    case("british", "earths-blessing", PLAIN, false),
    case("british", "plum-blossom", PLAIN, false),
    case("british", "moon-from-the-sea", PLAIN, false),
    case(
        "british",
        "all-pair-honours",
        "11m 99m 11p EE RR 5m 5p 9s",
        false,
    ),
    case("british", "fourfold-plenty", KONGS, false),
    case(
        "british",
        "knitting",
        "1m 1p 3m 3p 5m 5p 7m 7p 9m 9p E S W",
        false,
    ),
    case(
        "british",
        "triple-knitting",
        "1m 1p 1s 4m 4p 4s 7m 7p 7s 9m 9p E S",
        false,
    ),
    case(
        "british",
        "triple-knitting-knitted-pair",
        "1m 1p 1s 4m 4p 4s 7m 7p 7s 9m 9p E S",
        false,
    ),
    case("british", "gates-of-heaven", GATES, false),
    case("british", "imperial-jade", GREEN, false),
    case("british", "twofold-fortune", KONGS, false),
    case("british", "all-winds-and-dragons", HONOURS, true),
];

/// The ruleset with the element's option (if any) switched on, so the element is in force.
fn rules_for(c: &Case) -> Ruleset {
    let mut rules = Ruleset::builtin(c.ruleset)
        .unwrap_or_else(|| panic!("no built-in ruleset `{}`", c.ruleset));
    let element = rules
        .element(c.element)
        .unwrap_or_else(|| panic!("{}: no element `{}`", c.ruleset, c.element));
    if let Some(option) = element.option.clone() {
        rules.set_option(&option, true).unwrap();
    }
    rules
}

fn losing(rules: &Ruleset, c: &Case) -> ScoreSheet {
    let hand: Hand = c
        .hand
        .parse()
        .unwrap_or_else(|e| panic!("{} {}: `{}`: {e}", c.ruleset, c.element, c.hand));
    score(rules, &ScoreInput::losing(hand, Wind::East, Wind::East))
        .unwrap_or_else(|e| panic!("{} {}: `{}`: {e}", c.ruleset, c.element, c.hand))
}

fn on_sheet(sheet: &ScoreSheet, id: &str) -> bool {
    sheet.lines.iter().any(|l| &*l.element == id)
}

/// The tiles that would complete `hand` under `ruleset` with every option on (any complete
/// hand, standard or special); empty when the hand is not calling.
fn completing_tiles(ruleset: &str, hand: &str) -> Vec<Tile> {
    let mut rules = Ruleset::builtin(ruleset).unwrap();
    for option in rules.options.keys().cloned().collect::<Vec<_>>() {
        rules.set_option(&option, true).unwrap();
    }
    Tile::ALL
        .into_iter()
        .filter(|t| {
            // A fifth copy does not parse as a hand: that tile cannot come.
            let Ok(h) = format!("{hand} ={t}").parse::<Hand>() else {
                return false;
            };
            let input = ScoreInput::winning(h, Wind::East, Wind::East, Win::from(WinFrom::Wall));
            score(&rules, &input).is_ok()
        })
        .collect()
}

fn not_calling(c: &Case) -> Result<(), String> {
    let waits = completing_tiles(c.ruleset, c.hand);
    if waits.is_empty() {
        Ok(())
    } else {
        let waits: Vec<String> = waits.iter().map(Tile::to_string).collect();
        Err(format!(
            "{} {}: `{}` is calling (on {}); choose a hand two tiles from complete",
            c.ruleset,
            c.element,
            c.hand,
            waits.join(" ")
        ))
    }
}

#[test]
fn no_losing_hand_scores_a_limit_or_special_hand() {
    let mut failures = Vec::new();
    for c in CASES {
        let rules = rules_for(c);
        let sheet = losing(&rules, c);
        if on_sheet(&sheet, c.element) != c.scores {
            failures.push(format!(
                "{} `{}`: losing hand `{}` {} the element:\n{sheet}",
                c.ruleset,
                c.element,
                c.hand,
                if c.scores { "does not score" } else { "scores" }
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn no_case_is_calling() {
    let failures: Vec<String> = CASES.iter().filter_map(|c| not_calling(c).err()).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Each case that says its tiles meet the condition does: with `applies = "all-hands"` the
/// element would be on the sheet, so the case fails if the ruleset loses its `winner`.
#[test]
fn each_holding_case_would_score_if_the_element_applied_to_all_hands() {
    let mut failures = Vec::new();
    for c in CASES {
        let mut rules = rules_for(c);
        let element = rules.element(c.element).unwrap();
        let mahjong_only = std::iter::once(element.condition)
            .chain(element.also.iter().copied())
            .any(Condition::needs_mahjong);
        if mahjong_only {
            // The loader refuses `all-hands` for these; nothing to flip.
            if c.holds {
                failures.push(format!(
                    "{} `{}`: a Mah-Jongg-only condition cannot hold in a losing hand",
                    c.ruleset, c.element
                ));
            }
            continue;
        }
        for e in rules.elements.iter_mut().filter(|e| e.id == c.element) {
            e.applies = Applies::AllHands;
        }
        let scored = on_sheet(&losing(&rules, c), c.element);
        if scored != c.holds {
            failures.push(format!(
                "{} `{}`: `{}` {} the condition, but with `applies = \"all-hands\"` it {}",
                c.ruleset,
                c.element,
                c.hand,
                if c.holds {
                    "is said to meet"
                } else {
                    "is said not to meet"
                },
                if scored { "scores" } else { "does not score" }
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn is_limit_or_special(value: &Value, condition: Condition) -> bool {
    matches!(value, Value::Limit(_)) || condition == Condition::Special
}

/// A new limit or special element in a built-in ruleset needs a losing-hand case above.
#[test]
fn every_limit_and_special_element_has_a_case() {
    let mut missing = Vec::new();
    for name in Ruleset::builtin_names() {
        let rules = Ruleset::builtin(name).unwrap();
        for e in &rules.elements {
            if is_limit_or_special(&e.value, e.condition)
                && !CASES.iter().any(|c| c.ruleset == name && c.element == e.id)
            {
                missing.push(format!("{name} `{}`", e.id));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "limit or special elements with no losing-hand case in CASES: {}",
        missing.join(", ")
    );
}

/// `applies` agrees with the table: an element the table says no losing hand scores is
/// `winner`. Four-set patterns (Buried Treasure) cannot be met by a losing hand that is not
/// calling, so this is where their `applies` is pinned.
#[test]
fn every_limit_element_is_winner_only() {
    let mut wrong = Vec::new();
    for c in CASES {
        let rules = Ruleset::builtin(c.ruleset).unwrap();
        let e = rules.element(c.element).unwrap();
        let expected = if c.scores {
            Applies::AllHands
        } else {
            Applies::Winner
        };
        if e.applies != expected {
            wrong.push(format!(
                "{} `{}` applies to {:?}, expected {expected:?}",
                c.ruleset, c.element, e.applies
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
