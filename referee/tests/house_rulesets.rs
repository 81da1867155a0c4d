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

/// The problems of a house file on `code-of-laws` whose `[[element]]`s are `elements`; the
/// elements start on line 4.
fn problems(elements: &str) -> Vec<(usize, String)> {
    let text = format!("name = \"club\"\nbase = \"code-of-laws\"\n\n{elements}");
    match Ruleset::parse(&text) {
        Ok(_) => Vec::new(),
        Err(e) => e
            .problems
            .into_iter()
            .map(|p| (p.line, p.message))
            .collect(),
    }
}

fn assert_problem(problems: &[(usize, String)], line: usize, words: &[&str]) {
    assert!(
        problems
            .iter()
            .any(|(l, m)| *l == line && words.iter().all(|w| m.contains(w))),
        "expected a problem on line {line} with {words:?}; got {problems:#?}"
    );
}

#[test]
fn a_misspelt_id_gets_did_you_mean() {
    let p = problems("[[element]]\nid = \"only-plce\"\npoints = 4\n");
    assert_eq!(p.len(), 1, "{p:#?}");
    assert_problem(&p, 5, &["`only-plce`", "did you mean `only-place`?"]);
}

#[test]
fn a_misspelt_id_on_a_complete_element_is_refused_unless_marked_new() {
    let element = "[[element]]\nid = \"only-plce\"\nname = \"Only place (house)\"\nwhen = \"only-place\"\npoints = 4\ncite = \"Club rule 2\"\n";
    let p = problems(element);
    assert_problem(&p, 5, &["close to `only-place`", "new = true"]);

    // Marked new, it is added beside `only-place`.
    let text = format!("name = \"club\"\nbase = \"code-of-laws\"\n{element}new = true\n");
    let r = Ruleset::parse(&text).unwrap();
    let base = Ruleset::builtin("code-of-laws").unwrap();
    assert_eq!(r.elements.len(), base.elements.len() + 1);
    assert!(r.element("only-plce").is_some() && r.element("only-place").is_some());

    // `new = true` on a base id, and `new = false` on an id the base lacks, are refused.
    let p = problems("[[element]]\nid = \"only-place\"\nnew = true\npoints = 4\n");
    assert_problem(&p, 6, &["already in `code-of-laws`"]);
    let p = problems("[[element]]\nid = \"only-plce\"\nnew = false\npoints = 4\n");
    assert_problem(&p, 5, &["`new = false`", "did you mean `only-place`?"]);
    // A new element far from every base id needs no marker.
    assert!(problems("[[element]]\nid = \"pair-of-any-honour\"\nwhen = \"pair\"\ntiles = \"honours\"\npoints = 2\ncite = \"Club rule 3\"\n").is_empty());
}

#[test]
fn unknown_words_list_the_valid_ones_and_the_nearest() {
    let p = problems(
        r#"[[element]]
id = "house-thing"
when = "pung-or-kongg"
tiles = "dragns"
exposure = "hidden"
applies = "loser"
points = 2
cite = "Club rule 4"

[[element]]
id = "house-special"
when = "special"
shape = "nine-gate"
limit = "full"
cite = "Club rule 5"
option = "dreamer-paymnt"
"#,
    );
    assert_problem(
        &p,
        6,
        &[
            "not a condition; did you mean `pung-or-kong`?",
            "pung, kong,",
            "east-consecutive-wins",
        ],
    );
    assert_problem(
        &p,
        7,
        &["did you mean `dragons`?", "any, simples, terminals"],
    );
    assert_problem(&p, 8, &["not an exposure", "any, exposed, concealed"]);
    assert_problem(&p, 9, &["all-hands, winner"]);
    assert_problem(
        &p,
        16,
        &["did you mean `nine-gates`?", "thirteen-unique-wonders"],
    );
    assert_problem(&p, 19, &["did you mean `dreamer-payment`?"]);
    let p = problems("[options]\ndreamer-paymnt = true\n");
    assert_problem(
        &p,
        5,
        &[
            "did you mean `dreamer-payment`?",
            "its options: dreamer-payment",
        ],
    );
}

#[test]
fn every_problem_of_an_element_is_reported_at_once() {
    // An unknown `when` does not hide the three problems after it.
    let p = problems(
        r#"[[element]]
id = "house-thing"
when = "pung-of-dragons"
tiles = "purple"
points = "two"
cite = 3
"#,
    );
    assert_eq!(p.len(), 4, "{p:#?}");
    for line in [6, 7, 8, 9] {
        assert!(
            p.iter().any(|(l, _)| *l == line),
            "nothing on line {line}: {p:#?}"
        );
    }
}

#[test]
fn a_limit_share_of_the_wrong_type_gets_the_allowed_forms() {
    for bad in ["true", "2", "\"quarter\"", "1.5", "\"3/2\""] {
        let p = problems(&format!(
            "[[element]]\nid = \"heavens-blessing\"\nlimit = {bad}\n"
        ));
        assert_problem(&p, 6, &["\"full\", \"half\", \"third\"", "\"2/5\"", "0.4"]);
    }
    let text = "name = \"club\"\nbase = \"code-of-laws\"\n[[element]]\nid = \"heavens-blessing\"\nlimit = 0.4\n";
    let r = Ruleset::parse(text).unwrap();
    assert_eq!(
        r.element("heavens-blessing").unwrap().value,
        referee::rules::Value::Limit("2/5".parse().unwrap())
    );
}

#[test]
fn changing_what_an_inherited_element_tests_needs_a_new_name() {
    // "Pair of Dragons" would be printed for an all-bamboo hand.
    let p =
        problems("[[element]]\nid = \"pair-dragons\"\nwhen = \"clear-suit\"\ntiles = \"any\"\n");
    assert_eq!(p.len(), 1, "{p:#?}");
    assert_problem(&p, 6, &["\"Pair of Dragons\"", "give it a `name`"]);
    // The same with a name, is a new line of the score sheet under the old id.
    let text = "name = \"club\"\nbase = \"code-of-laws\"\n[[element]]\nid = \"pair-dragons\"\nname = \"Clear suit (club)\"\nwhen = \"clear-suit\"\ntiles = \"any\"\n";
    let r = Ruleset::parse(text).unwrap();
    assert_eq!(r.element("pair-dragons").unwrap().name, "Clear suit (club)");
    // Keeping the base's `tiles = "dragons"` on a condition that does not read it is refused.
    let p = problems(
        "[[element]]\nid = \"pair-dragons\"\nname = \"Clear suit\"\nwhen = \"clear-suit\"\n",
    );
    assert_problem(&p, 7, &["keeps `tiles = \"dragons\"`", "tiles = \"any\""]);
    // Changing only the value keeps the name.
    assert!(problems("[[element]]\nid = \"pair-dragons\"\npoints = 4\n").is_empty());
}

#[test]
fn a_number_too_large_says_so_with_the_largest() {
    let p = problems("[params]\nlimit = 99999999999999999999\n");
    assert_eq!(p.len(), 1, "{p:#?}");
    assert_problem(&p, 5, &["too large; at most 1000000000"]);
    let p = problems(
        "[params]\nlimit = 999999999999999999999999999999999999999999999\n[[element]]\nid = \"mahjong\"\npoints = 99999999999999999999\n",
    );
    assert_problem(&p, 5, &["too large; at most 1000000000"]);
    assert_problem(&p, 8, &["too large; at most 100000"]);
    // No "a integer" in any message, whatever the type given.
    for v in [
        "1",
        "1.5",
        "true",
        "\"x\"",
        "[1]",
        "{ a = 1 }",
        "1979-05-27",
    ] {
        for key in ["limit", "only_place", "bonus_tiles"] {
            for (_, m) in problems(&format!("[params]\n{key} = {v}\n")) {
                assert!(!m.contains("a integer") && !m.contains("a float"), "{m}");
            }
        }
    }
}

/// A number that does not fit says it is out of range and what fits, whatever the key: never
/// that it "must be a whole number" when it is one.
#[test]
fn a_number_that_does_not_fit_is_out_of_range() {
    for key in [
        "limit",
        "notional_limit",
        "bonus_copies",
        "max_chows",
        "dead_wall",
    ] {
        for (value, words) in [
            ("-5", ["out of range", "cannot be negative"]),
            ("99999999999999999999", ["out of range", "too large"]),
            (
                "-99999999999999999999",
                ["out of range", "cannot be negative"],
            ),
        ] {
            let p = problems(&format!("[params]\n{key} = {value}\n"));
            assert_eq!(p.len(), 1, "{key} = {value}: {p:#?}");
            assert_problem(&p, 5, &[&format!("`{key}` = "), words[0], words[1]]);
            assert!(!p[0].1.contains("must be a whole number"), "{p:#?}");
        }
    }
    let p = problems("[[element]]\nid = \"mahjong\"\npoints = -5\n");
    assert_problem(
        &p,
        6,
        &["`points` = -5 is out of range", "cannot be negative"],
    );
}

/// README, "Readings": a win on a loose tile earns §115(b)'s 2 points for a tile drawn from
/// the wall (the Code's reading); this snippet takes the other reading.
#[test]
fn the_readme_snippet_takes_the_loose_tile_out_of_drawn_from_the_wall() {
    let readme = include_str!("../rulesets/README.md");
    let snippet = "[[element]]\nid = \"loose-tile-win\"\nexcludes = [\"drawn-winning-tile\"]\n";
    assert!(
        readme.contains(snippet),
        "the README no longer shows the snippet"
    );
    let house = Ruleset::parse(&format!(
        "name = \"club\"\nbase = \"code-of-laws\"\n\n{snippet}"
    ))
    .unwrap();
    let code = Ruleset::builtin("code-of-laws").unwrap();
    let hand: Hand = "{5555p} 123m 789s 456s 9m =9m".parse().unwrap();
    let lines = |r: &Ruleset, from: WinFrom| -> Vec<String> {
        let input = ScoreInput::winning(hand.clone(), Wind::South, Wind::East, Win::from(from));
        let s = score(r, &input).unwrap();
        s.lines.iter().map(|l| l.element.to_string()).collect()
    };
    let loose = lines(&code, WinFrom::LooseTile);
    assert!(
        loose.contains(&"drawn-winning-tile".into()) && loose.contains(&"loose-tile-win".into()),
        "{loose:?}"
    );
    let loose = lines(&house, WinFrom::LooseTile);
    assert!(
        !loose.contains(&"drawn-winning-tile".into()) && loose.contains(&"loose-tile-win".into()),
        "{loose:?}"
    );
    // A tile drawn from the wall still earns the 2 points.
    assert!(lines(&house, WinFrom::Wall).contains(&"drawn-winning-tile".into()));
}

#[test]
fn the_readme_example_of_a_new_element_loads_and_needs_its_marker() {
    let readme = include_str!("../rulesets/README.md");
    let start = readme
        .find("```toml\n[[element]]\nid = \"only-place\"")
        .unwrap()
        + 8;
    let example = &readme[start..start + readme[start..].find("```").unwrap()];
    let text = format!("name = \"club\"\nbase = \"code-of-laws\"\n{example}");
    let r = Ruleset::parse(&text).unwrap();
    assert_eq!(r.element("pair-any-wind").unwrap().name, "Pair of any wind");
    let err = Ruleset::parse(&text.replace("new = true", "")).unwrap_err();
    assert!(
        err.to_string().contains("close to `pair-own-wind`"),
        "{err}"
    );
}

#[test]
fn the_readme_lists_every_condition_tile_filter_and_shape() {
    let readme = include_str!("../rulesets/README.md");
    let names = referee::rules::Condition::ALL
        .iter()
        .map(|c| c.name())
        .chain(referee::rules::TileFilter::ALL.iter().map(|f| f.name()))
        .chain(referee::shape::SpecialShape::ALL.iter().map(|s| s.name()));
    for name in names {
        assert!(
            readme.contains(&format!("`{name}`")),
            "README lacks `{name}`"
        );
    }
}

/// Bad input never panics: every built-in with any one line removed, and any text at all,
/// either loads or is refused with problems on lines of the file.
#[test]
fn a_damaged_file_is_refused_not_a_panic() {
    for name in Ruleset::builtin_names() {
        let text = Ruleset::builtin_text(name).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for skip in 0..lines.len() {
            let damaged: Vec<&str> = lines
                .iter()
                .enumerate()
                .filter_map(|(i, l)| (i != skip).then_some(*l))
                .collect();
            if let Err(e) = Ruleset::parse(&damaged.join("\n")) {
                assert!(!e.problems.is_empty());
                assert!(e
                    .problems
                    .iter()
                    .all(|p| p.line >= 1 && p.line <= lines.len()));
            }
        }
    }
    fn any_text(s: String) -> bool {
        let _ = Ruleset::parse(&s);
        let _ = Ruleset::parse(&format!("name = \"x\"\nbase = \"code-of-laws\"\n{s}"));
        true
    }
    quickcheck::quickcheck(any_text as fn(String) -> bool);
}
