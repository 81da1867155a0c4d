//! House rulesets: a club starts from a built-in, overrides values, switches elements and
//! options, and names itself; every problem in the file is reported with its line.

use referee::score::{score, ScoreInput, Win, WinFrom};
use referee::{Hand, Ruleset, Wind};

const CLUB: &str = r#"
name = "dragons-club"
title = "The Dragons Club rules"
base = "code-of-laws"

[params]
limit = 500

[options]
dreamer-payment = true

[[element]]
id = "mahjong"
points = 20

[[element]]
id = "fishing-eyes-major"
enabled = false

[[element]]
id = "pair-any-honour"
name = "Pair of any honour"
when = "pair"
tiles = "honours"
points = 2
cite = "Dragons Club house rule 3"
"#;

#[test]
fn a_house_ruleset_overrides_its_base() {
    let r = Ruleset::parse(CLUB).unwrap();
    assert_eq!(r.name, "dragons-club");
    assert_eq!(r.base.as_deref(), Some("code-of-laws"));
    assert_eq!(r.params.limit, Some(500));
    assert!(r.option_on("dreamer-payment"));
    assert!(!r.element("fishing-eyes-major").unwrap().enabled);
    // Everything else is the base's.
    let base = Ruleset::builtin("code-of-laws").unwrap();
    assert_eq!(r.settlement, base.settlement);
    assert_eq!(r.elements.len(), base.elements.len() + 1);

    // The Code hand of `scoring_code.rs` (22 × 2 = 44) now: Mah-Jongg 20 (+10), no fishing the
    // eyes (−4), the East pair also a pair of an honour (+2): 30 × 2 = 60.
    let hand: Hand = "123m 456m 789p 234s E =E".parse().unwrap();
    let input = ScoreInput::winning(hand, Wind::East, Wind::East, Win::from(WinFrom::Wall));
    let s = score(&r, &input).unwrap();
    assert_eq!((s.basic, s.doubles, s.total), (30, 1, 60), "{s}");
}

#[test]
fn every_problem_is_reported_with_its_line() {
    let bad = r#"name = "Bad Name"
base = "code-of-laws"

[params]
limit = "lots"
max_chows = 9
colour = "red"

[options]
no-such-option = true

[[element]]
id = "mahjong"
points = 10
doubles = 1

[[element]]
id = "new-thing"
points = 2

[[element]]
id = "pair-dragons"
when = "pair"
tiles = "purple"
"#;
    let err = Ruleset::parse(bad).unwrap_err();
    let lines: Vec<usize> = err.problems.iter().map(|p| p.line).collect();
    let text = err.to_string();
    for (line, words) in [
        (1, "kebab-case"),
        (5, "limit"),
        (6, "out of range"),
        (7, "unknown key `colour`"),
        (10, "no-such-option"),
        (15, "more than one value"),
        (18, "needs `when`"),
        (24, "purple"),
    ] {
        assert!(
            err.problems
                .iter()
                .any(|p| p.line == line && p.message.contains(words)),
            "expected a problem on line {line} mentioning {words:?}; got {lines:?}:\n{text}"
        );
    }
}

#[test]
fn syntax_errors_and_unknown_bases_are_located() {
    let err = Ruleset::parse("name = \"x\"\nbase = \"code-of-laws\"\n[params\n").unwrap_err();
    assert_eq!(err.problems[0].line, 3, "{err}");
    let err = Ruleset::parse("name = \"x\"\n\nbase = \"mahjong-1924\"\n").unwrap_err();
    assert_eq!(err.problems[0].line, 3, "{err}");
    assert!(err.to_string().contains("not a built-in"), "{err}");
    let err = Ruleset::parse("name = \"code-of-laws\"\nbase = \"code-of-laws\"\n").unwrap_err();
    assert!(
        err.to_string().contains("may not take the built-in name"),
        "{err}"
    );
}

#[test]
fn built_ins_round_trip_as_json_and_cite_every_element() {
    for name in Ruleset::builtin_names() {
        let r = Ruleset::builtin(name).unwrap();
        assert!(serde_json::to_string(&r).is_ok());
        assert!(r.elements.iter().all(|e| !e.cite.is_empty()));
        // Every option a built-in declares is used by some element or documented as a switch.
        for o in r.options.keys() {
            assert!(!o.is_empty());
        }
    }
}
