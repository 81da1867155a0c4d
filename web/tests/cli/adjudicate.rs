//! `mahjong-referee adjudicate`: a hand's findings, citing the rules, and the settlement that
//! follows them.

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mahjong-referee"))
        .args(args)
        .output()
        .unwrap()
}

fn cannon(name: &str) -> String {
    format!(
        "{}/../fixtures/mj-server/cannons/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn json(o: &Output) -> serde_json::Value {
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn a_cannon_is_found_cited_and_paid_for_all() {
    let v = json(&run(&["adjudicate", &cannon("clear-suit.mjs"), "--json"]));
    let findings = v["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 1, "{v}");
    let f = &findings[0];
    assert_eq!(f["kind"], "cannon");
    // The discarder sits in the East seat and holds the South wind this hand: JSON keys seats
    // by their wind.
    assert_eq!(f["offender"], "south");
    assert_eq!(f["events"], serde_json::json!([305]));
    let cites: Vec<&str> = f["citations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    assert!(
        cites.contains(&"Code §90(a)") && cites.contains(&"Code §96"),
        "{cites:?}"
    );
    assert!(f["text"].as_str().unwrap().contains("Clear Suit"));
    // The discarder pays for all: the other two losers are square.
    let nets = &v["settlement"]["nets"];
    assert_eq!(nets["south"], -5184);
    assert_eq!(nets["east"], 5184);
    assert_eq!(
        (nets["west"].as_i64(), nets["north"].as_i64()),
        (Some(0), Some(0))
    );
    // The winner held the East wind: he keeps the title (Code §11), and the hand is over.
    assert_eq!(v["goes_on"], false);
    assert_eq!(v["next"]["east"], "east");
    assert_eq!(v["next"]["title_passes"], false);
    // `replay --json` keys its settlement the same way: nets and payments by wind.
    let o = run(&["replay", &cannon("clear-suit.mjs"), "--json"]);
    let r: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(r["settlement"]["nets"], *nets);
    let payments = r["settlement"]["payments"].as_array().unwrap();
    assert!(
        payments
            .iter()
            .all(|p| p["from"] == "south" && p["to"] == "east"),
        "{payments:?}"
    );
}

#[test]
fn a_plea_of_no_choice_that_stands_excuses_the_discarder() {
    let v = json(&run(&["adjudicate", &cannon("no-choice.mjs"), "--json"]));
    let f = &v["findings"][0];
    assert_eq!(f["kind"], "no-choice-excused", "{v}");
    assert!(f["text"].as_str().unwrap().contains("not liable"));
    let text = run(&["adjudicate", &cannon("no-choice.mjs")]);
    let out = String::from_utf8_lossy(&text.stdout);
    assert!(out.starts_with("no-choice-excused (Code §90(g)"), "{out}");
    assert!(out.contains("settlement:"), "{out}");
}

#[test]
fn a_hand_without_findings_says_so_and_a_missing_file_is_an_error() {
    let quiet = format!(
        "{}/../fixtures/mj-server/seed-7/hand-05.mjs",
        env!("CARGO_MANIFEST_DIR")
    );
    let o = run(&["adjudicate", &quiet]);
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stdout).contains("no findings"));
    let o = run(&["adjudicate", "no/such/hand.mjs"]);
    assert_ne!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no/such/hand.mjs"));
}

/// North shows three bamboo pungs (§90(a)); South drew, discards 8 bamboo holding safe tiles,
/// and North goes out on it with a Clear Suit hand: a cannon, from a position nobody recorded.
const CANNON_POSITION: &str = "g1 h1 dealer:E prevailing:E | E: ?13 | S: 12345m 668p 3889s EE 1f | W: ?13 \
    | N: ?4 [222s] [444s] [777s] | E:9p S:1m W:R N:5m E:2p | live:69 box:16 | S:drew 3s \
    | S:discard 8s, N:claim mahjongg 8s, N:grant mahjongg, N:mahjongg 8s, N:show 1179s [222s] [444s] [777s] =8s";

#[test]
fn a_position_is_ruled_on_as_a_recorded_hand() {
    let v = json(&run(&[
        "adjudicate",
        "--position",
        CANNON_POSITION,
        "--json",
    ]));
    let findings = v["findings"].as_array().unwrap();
    let cannon = findings
        .iter()
        .find(|f| f["kind"] == "cannon")
        .unwrap_or_else(|| panic!("{v}"));
    assert_eq!(cannon["offender"], "south");
    assert!(cannon["citations"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c == "Code §90(a)"));
    // The other seats' tiles are not known: no settlement can be derived.
    assert_eq!(v["over"], false, "{v}");
}

#[test]
fn a_position_that_does_not_parse_says_where() {
    let o = run(&["adjudicate", "--position", "g1 h1 dealer:E | E: 7z"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.starts_with("--position: "), "{err}");
    assert!(err.contains("7z") || err.contains("column"), "{err}");
    // Well formed, but the tiles do not add up to the set: said, not a crash.
    let short = CANNON_POSITION.replace(" 1f", "");
    let o = run(&["adjudicate", "--position", &short]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("143 tiles"), "{err}");
    // Neither a file nor a position: a usage error.
    let o = run(&["adjudicate"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn several_hands_are_adjudicated_each_in_its_own_report() {
    let files = [cannon("clear-suit.mjs"), cannon("no-choice.mjs")];
    let v = json(&run(&["adjudicate", &files[0], &files[1], "--json"]));
    let reports = v.as_array().unwrap_or_else(|| panic!("{v}"));
    assert_eq!(reports.len(), 2);
    assert_eq!(reports[0]["file"], files[0].as_str());
    assert_eq!(reports[1]["file"], files[1].as_str());
    assert_eq!(reports[0]["findings"][0]["kind"], "cannon");
    assert!(reports[1]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .any(|f| f["kind"] == "no-choice-excused"));
    let o = run(&["adjudicate", &files[0], &files[1]]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains(&format!("== {} ==", files[1])), "{text}");
}
