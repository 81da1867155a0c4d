//! `mahjong-referee rulesets` and `mahjong-referee score` as a user runs them.

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mahjong-referee"))
        .args(args)
        .output()
        .unwrap()
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
