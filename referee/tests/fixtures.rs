//! Every hand in the book fixtures (`fixtures/scoring/*.toml`) is legal notation, a legal hand,
//! and — for a Mah-Jongg hand — complete, in the standard shape or a special one; and every one
//! scores as the book says under its built-in ruleset. Failures name the case; the scoring test
//! collects all of them, so a ruleset author sees the whole picture at once.

use std::path::PathBuf;

use referee::score::{score, ScoreInput, Win, WinFrom};
use referee::shape::{arrangements, SpecialShape};
use referee::{parse_counts, Hand, Ruleset, ScoreSheet, TileCounts, Wind};
use serde::Deserialize;

fn fixture_files() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fixtures/scoring");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    files
}

/// The fourteen tiles of a finished hand, each kong counted as a set of three.
fn shape_counts(hand: &Hand) -> TileCounts {
    let mut c = *hand.concealed();
    for meld in hand.melds() {
        for t in meld.set.tiles().take(3) {
            c.try_add(t).expect("checked hand");
        }
    }
    if let Some(w) = hand.winning() {
        c.try_add(w).expect("checked hand");
    }
    c
}

#[test]
fn every_fixture_hand_is_legal_and_every_winner_complete() {
    let mut checked = 0;
    for file in fixture_files() {
        let text = std::fs::read_to_string(&file).unwrap();
        let doc: toml::Table = text
            .parse()
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let cases = doc["case"].as_array().expect("[[case]] tables");
        for case in cases {
            let id = case["id"].as_str().unwrap();
            let written = case["hand"].as_str().unwrap();
            let hand: Hand = written
                .parse()
                .unwrap_or_else(|e| panic!("{} {id}: `{written}`: {e}", file.display()));
            let mahjong = case["mahjong"].as_bool().unwrap();
            assert_eq!(
                hand.winning().is_some(),
                mahjong,
                "{} {id}: a winning tile exactly when the hand went Mah-Jongg",
                file.display()
            );
            if let Some(w) = hand.winning() {
                let mut after = *hand.concealed();
                after.try_add(w).unwrap();
                let standard = !arrangements(&after).is_empty();
                let special = SpecialShape::ALL
                    .iter()
                    .any(|s| s.is_complete(&shape_counts(&hand), w));
                assert!(
                    standard || special,
                    "{} {id}: `{written}` is not a complete hand",
                    file.display()
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 100, "only {checked} fixture hands");
}

#[derive(Deserialize)]
struct File {
    case: Vec<Case>,
}

#[derive(Deserialize)]
#[allow(dead_code)]
struct Case {
    id: String,
    source: String,
    ruleset: String,
    #[serde(default)]
    options: Vec<String>,
    hand: String,
    seat: Wind,
    prevailing: Wind,
    mahjong: bool,
    win_from: Option<String>,
    visible: Option<String>,
    expect: Expect,
}

#[derive(Deserialize)]
struct Expect {
    basic: u64,
    doubles: u32,
    total: u64,
    limited: bool,
}

/// Options that describe the situation rather than the ruleset.
fn input_for(case: &Case) -> Result<(Ruleset, ScoreInput), String> {
    let mut rules =
        Ruleset::builtin(&case.ruleset).ok_or(format!("no built-in ruleset `{}`", case.ruleset))?;
    let hand: Hand = case.hand.parse().map_err(|e| format!("{e}"))?;
    let mut heaven = false;
    for o in &case.options {
        match o.as_str() {
            "no-limit" => rules.params.limit = None,
            "hand-from-heaven" => heaven = true,
            other => rules.set_option(other, true)?,
        }
    }
    let visible = match &case.visible {
        Some(v) => parse_counts(v, None).map_err(|e| e.to_string())?,
        None => TileCounts::EMPTY,
    };
    let win = if case.mahjong {
        let from: WinFrom = case
            .win_from
            .as_deref()
            .ok_or("a Mah-Jongg case without win_from")?
            .parse()
            .map_err(|e| format!("{e}"))?;
        let mut w = Win::from(from);
        w.heavens_blessing = heaven;
        Some(w)
    } else {
        None
    };
    Ok((
        rules,
        ScoreInput {
            hand,
            seat: case.seat,
            prevailing: case.prevailing,
            win,
            visible,
        },
    ))
}

fn describe(s: &ScoreSheet) -> String {
    let lines: Vec<String> = s
        .lines
        .iter()
        .map(|l| {
            format!(
                "{}{} {}",
                l.element,
                l.tiles
                    .as_ref()
                    .map(|t| format!("({t})"))
                    .unwrap_or_default(),
                l.value
            )
        })
        .collect();
    format!(
        "basic {} doubles {} total {} limited {} [{}] as {}",
        s.basic,
        s.doubles,
        s.total,
        s.limited,
        lines.join(", "),
        s.arrangement
    )
}

#[test]
fn every_book_example_scores_as_the_book_says() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for file in fixture_files() {
        let text = std::fs::read_to_string(&file).unwrap();
        let doc: File = toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        for case in &doc.case {
            checked += 1;
            let (rules, input) = match input_for(case) {
                Ok(x) => x,
                Err(e) => {
                    failures.push(format!("{}: cannot set up: {e}", case.id));
                    continue;
                }
            };
            match score(&rules, &input) {
                Ok(s) => {
                    let e = &case.expect;
                    // A limit hand for which the book gives no ordinary count is written with
                    // basic 0 and doubles 0 (fixtures/README.md): only its value is checked.
                    let no_count = e.limited && e.basic == 0 && e.doubles == 0;
                    let got = if no_count {
                        (0, 0, s.total, s.limited)
                    } else {
                        (s.basic, s.doubles, s.total, s.limited)
                    };
                    if got != (e.basic, e.doubles, e.total, e.limited) {
                        failures.push(format!(
                            "{}: expected basic {} doubles {} total {} limited {}; got {}",
                            case.id,
                            e.basic,
                            e.doubles,
                            e.total,
                            e.limited,
                            describe(&s)
                        ));
                    }
                }
                Err(e) => failures.push(format!("{}: error: {e}", case.id)),
            }
        }
    }
    assert!(checked >= 100, "only {checked} cases");
    assert!(
        failures.is_empty(),
        "{} of {checked} book examples fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
