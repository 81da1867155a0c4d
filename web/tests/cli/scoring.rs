//! `mahjong-referee rulesets`, `score`, `score -` and `settle` as a user runs them.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mahjong-referee"))
        .args(args)
        .output()
        .unwrap()
}

/// Runs the binary with `input` on its standard input.
fn run_with_input(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mahjong-referee"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_owned();
    // Written from a thread, so a large input cannot deadlock against a full stdout pipe.
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    out
}

fn json_lines(o: &Output) -> Vec<serde_json::Value> {
    stdout(o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn lists_all_seven_built_in_rulesets() {
    let o = run(&["rulesets"]);
    assert!(o.status.success());
    for name in [
        "code-of-laws",
        "babcock-standard",
        "babcock-chinese",
        "harr-unlimited",
        "harr-limit",
        "chinese-classical",
        "british",
    ] {
        assert!(stdout(&o).contains(name), "{name} missing:\n{}", stdout(&o));
    }
    let o = run(&["rulesets", "code-of-laws"]);
    assert!(stdout(&o).contains("Code §114(b)"), "{}", stdout(&o));
}

#[test]
fn a_ruleset_shows_its_penalties_readings_and_what_each_element_tests() {
    let o = run(&["rulesets", "code-of-laws"]);
    let out = stdout(&o);
    for words in [
        "penalties (Code §82-88, §96)",
        "300 to each opponent; two offenders 150 each, three 100 each",
        "for chow 50, for pung or kong 100",
        "only_place_counts_own_tiles = true  (Code §115(c)",
        "calling_special = \"none\"",
        "rotation: the deal passes to East's right",
        "when = \"pung\", tiles = \"simples\", exposure = \"exposed\", applies = \"all-hands\"",
        "when = \"loose-tile-win\", applies = \"winner\"",
    ] {
        assert!(out.contains(words), "{words:?} missing:\n{out}");
    }
    // A house file shows the same, its changes included.
    let dir = std::env::temp_dir().join(format!("mj-house-show-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("club.toml");
    std::fs::write(
        &file,
        "name = \"club\"\nbase = \"code-of-laws\"\n[readings]\nonly_place_counts_own_tiles = false\n[[element]]\nid = \"loose-tile-win\"\nexcludes = [\"drawn-winning-tile\"]\n",
    )
    .unwrap();
    let o = run(&["rulesets", file.to_str().unwrap()]);
    let out = stdout(&o);
    for words in [
        "house ruleset based on code-of-laws",
        "only_place_counts_own_tiles = false  (house ruleset)",
        "when = \"loose-tile-win\", applies = \"winner\", excludes = [\"drawn-winning-tile\"]",
        "when = \"pair\", tiles = \"dragons\", applies = \"all-hands\"",
    ] {
        assert!(
            out.contains(words),
            "{words:?} missing:\n{out}{}",
            stderr(&o)
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn scores_a_hand_readably_and_as_json() {
    let hand = "[RRR] [234p] 567s 99m 11s =1s";
    let o = run(&["score", hand, "--seat", "south", "--win-from", "discard"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("Set of Dragons") && out.contains("Code §116(d)"),
        "{out}"
    );
    assert!(out.contains("score 36"), "{out}");
    let o = run(&[
        "score",
        hand,
        "--seat",
        "south",
        "--win-from",
        "discard",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["total"], 36);
    assert_eq!(v["doubles"], 1);
    assert!(v["lines"]
        .as_array()
        .unwrap()
        .iter()
        .any(|l| l["cite"] == "Code §115(a)"));
}

#[test]
fn scores_under_a_house_ruleset_file_and_reports_its_problems_by_line() {
    let dir = std::env::temp_dir().join(format!("mj-house-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("club.toml");
    std::fs::write(
        &good,
        "name = \"club\"\nbase = \"code-of-laws\"\n[[element]]\nid = \"mahjong\"\npoints = 20\n",
    )
    .unwrap();
    let o = run(&[
        "score",
        "[RRR] [234p] 567s 99m 11s =1s",
        "--seat",
        "south",
        "--win-from",
        "discard",
        "--ruleset",
        good.to_str().unwrap(),
    ]);
    assert!(
        stdout(&o).contains("score 56"),
        "{}{}",
        stdout(&o),
        stderr(&o)
    );
    let bad = dir.join("bad.toml");
    std::fs::write(
        &bad,
        "name = \"club\"\nbase = \"code-of-laws\"\n[params]\nlimit = -5\n",
    )
    .unwrap();
    let o = run(&["rulesets", bad.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("line 4"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn impossible_hands_are_refused_with_a_reason() {
    for (args, words) in [
        (
            vec!["score", "123m 456m 789p 234s E =S", "--win-from", "wall"],
            "not complete",
        ),
        (vec!["score", "123m 456m 789p 234s E =E"], "--win-from"),
        (vec!["score", "123m 456m 789p 234s EEEEE"], "E"),
        (
            vec!["score", "123m 456m 789p 234s E =E", "--win-from", "sky"],
            "not where a winning tile comes from",
        ),
        (
            vec!["score", "123m", "--ruleset", "no-such-rules"],
            "neither a built-in",
        ),
    ] {
        let o = run(&args);
        assert!(!o.status.success(), "{args:?} succeeded");
        assert!(stderr(&o).contains(words), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{args:?}");
    }
}

#[test]
fn score_dash_answers_each_json_line_with_its_sheet_in_order() {
    let input = concat!(
        r#"{"hand": "[RRR] [234p] 567s 99m 11s =1s", "seat": "south", "win_from": "discard"}"#,
        "\n",
        r#"{"hand": "[RRR] [555p] 567s 99m 11s =1s", "seat": "south", "win_from": "discard", "ruleset": "british"}"#,
        "\n",
        r#"{"hand": "777m 89m GG WWW 1p 5s 9s", "seat": "west", "no_limit": true, "east_wins": 0}"#,
        "\n",
    );
    let o = run_with_input(&["score", "-"], input);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let lines = json_lines(&o);
    assert_eq!(lines.len(), 3, "{}", stdout(&o));
    // The same sheet as `score --json` prints for the first hand (36: see above).
    assert_eq!(lines[0]["total"], 36);
    assert_eq!(lines[0]["ruleset"], "code-of-laws");
    assert_eq!(lines[1]["ruleset"], "british");
    assert_eq!(lines[2]["mahjong"], false);
}

#[test]
fn score_dash_answers_a_bad_line_with_its_error_and_exits_2() {
    let input = concat!(
        "{\"hand\": \"123m 456m 789p 234s E =E\", \"win_from\": \"wall\"}\n",
        "{\"hand\": \"123m 456m 789p 234s E =E\", \"win_frm\": \"wall\"}\n",
        "\n",
        "{\"hand\": \"123m 456m 789p 234s E =E\", \"win_from\": \"wall\", \"ruleset\": \"/no/such/file.toml\"}\n",
        "{\"hand\": \"123m 456m 789p 234s E =S\", \"win_from\": \"wall\"}\n",
        "{\"hand\": \"123m 456m 789p 234s E =E\", \"win_from\": \"sky\"}\n",
        "{\"hand\": \"123m 456m 789p 234s E =E\", \"win_from\": \"wall\"",
    );
    let o = run_with_input(&["score", "-"], input);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    let lines = json_lines(&o);
    assert_eq!(lines.len(), 7, "{}", stdout(&o));
    assert!(lines[0]["total"].is_u64());
    let error = |i: usize| lines[i]["error"].as_str().unwrap_or_default().to_owned();
    for (i, words) in [
        (1, "line 2: unknown field `win_frm`"),
        (2, "line 3: blank line"),
        (3, "neither a built-in ruleset"),
        (4, "not complete"),
        (5, "unknown variant `sky`"),
        (6, "line 7: EOF while parsing"),
    ] {
        assert!(error(i).contains(words), "line {}: {}", i + 1, error(i));
        assert_eq!(lines[i]["line"], i + 1);
    }
}

#[test]
fn score_dash_refuses_flags_that_belong_in_the_lines() {
    let o = run_with_input(&["score", "-", "--ruleset", "british"], "");
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("give the flags as keys"),
        "{}",
        stderr(&o)
    );
}

/// Code of Laws §109, NOTE: "if North Mah-Jonggs with a hand scoring 48 points, East has a
/// score of 20 points, South 256 points, and West 4 points: North receives … 192 points …
/// [East] incurs an overall loss on the hand of 536 points … [South] makes an overall profit
/// on the hand of 676 points … [West's] loss on the hand is thus 332 points."
///
/// The book gives only the scores; these hands are ours, built to score exactly them under
/// the Code (East seat deals, East's round):
/// - North `[NNN] [777m] 999s 22m 45s =6s` from a discard: Mah-Jongg 10 (§115(a)), exposed
///   pung of a major 4 and of a minor 2 (§114(b)), concealed pung of a major 8; one double
///   for a set of his own wind (§116(e)): 24 × 2 = 48.
/// - East `[5555m] [111s] 999p 24m 68s`: exposed kong of a minor 8 (§114(c)), exposed pung
///   of a major 4, concealed pung of a major 8: 20, no doubles.
/// - South `RRR GGG 999m [111p] 5s 3f`: three concealed pungs of majors 24, exposed pung of a
///   major 4, a bonus tile 4 (§114(a)): 32; doubles for each set of dragons (§116(d), two)
///   and three concealed pongs (§116(k)): 32 × 2³ = 256.
/// - West `[666m] [333p] 45s 78s 89m 1p`: two exposed pungs of minors, 4.
const CODE_109: &str = r#"{
  "ruleset": "code-of-laws",
  "east": "east",
  "prevailing": "east",
  "hands": {
    "east": "[5555m] [111s] 999p 24m 68s",
    "south": "RRR GGG 999m [111p] 5s 3f",
    "west": "[666m] [333p] 45s 78s 89m 1p",
    "north": "[NNN] [777m] 999s 22m 45s =6s"
  },
  "winner": "north",
  "win_from": "discard",
  "discarder": "west"
}"#;

#[test]
fn settle_pays_the_code_109_example_as_the_book_does() {
    let o = run_with_input(&["settle", "-", "--json"], CODE_109);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let totals = &v["totals"];
    assert_eq!(
        [
            &totals["north"],
            &totals["east"],
            &totals["south"],
            &totals["west"]
        ],
        [48, 20, 256, 4],
        "{v:#}"
    );
    let nets = &v["nets"];
    assert_eq!(
        [&nets["north"], &nets["east"], &nets["south"], &nets["west"]],
        [192, -536, 676, -332]
    );
    let paid = |payer: &str, payee: &str| -> i64 {
        v["payments"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["payer"] == payer && p["payee"] == payee)
            .map(|p| p["amount"].as_i64().unwrap())
            .sum()
    };
    // §108: "North receives 2×48, that is, 96 points, from East, 48 points from South, and
    // 48 points from West". §109: East pays South 2 × (256 − 20) = 472, receives from West
    // 2 × (20 − 4) = 32; West pays South 256 − 4 = 252.
    assert_eq!(paid("east", "north"), 96);
    assert_eq!(paid("south", "north"), 48);
    assert_eq!(paid("west", "north"), 48);
    assert_eq!(paid("east", "south"), 472);
    assert_eq!(paid("west", "east"), 32);
    assert_eq!(paid("west", "south"), 252);
    assert_eq!(
        paid("north", "east") + paid("north", "south") + paid("north", "west"),
        0
    );

    let o = run_with_input(&["settle", "-"], CODE_109);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("east pays south 472"), "{text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("north") && l.contains("48") && l.contains("+192")),
        "{text}"
    );
}

#[test]
fn settle_lists_every_violation_with_its_field_and_rule_and_exits_2() {
    let dir = std::env::temp_dir().join(format!("mj-settle-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("hand.json");
    // A fifth 9 bamboo between the hands (Code §3–5), and a discard win with no discarder.
    std::fs::write(
        &file,
        CODE_109
            .replace(
                "\"west\": \"[666m] [333p] 45s 78s 89m 1p\"",
                "\"west\": \"[666m] [333p] 99s 78s 89m 1p\"",
            )
            .replace("\"discarder\": \"west\"", "\"discarder\": null"),
    )
    .unwrap();
    let o = run(&["settle", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("hands: ") && err.contains("(Code §3–5)"),
        "{err}"
    );
    assert!(err.contains("discarder: "), "{err}");
    let o = run(&["settle", file.to_str().unwrap(), "--json"]);
    assert_eq!(o.status.code(), Some(2));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let fields: Vec<&str> = v["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["field"].as_str().unwrap())
        .collect();
    assert_eq!(fields, ["hands", "discarder"], "{v}");
    assert_eq!(v["violations"][0]["rule"], "Code §3–5");
    // Input that is not the object: still a listed problem with where it is, status 2.
    let o = run_with_input(&["settle", "-"], "{\"winner\": \"nobody\"}");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("line 1 column"), "{}", stderr(&o));
    assert!(!stderr(&o).contains("panicked"));
    // A file that cannot be read is not the hand's fault: status 1.
    let o = run(&["settle", dir.join("missing.json").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    std::fs::remove_dir_all(&dir).ok();
}
