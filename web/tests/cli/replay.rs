//! `mahjong-referee replay`: a hand recorded play by play, replayed to any moment.

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mahjong-referee"))
        .args(args)
        .output()
        .unwrap()
}

fn fixture(name: &str) -> String {
    format!(
        "{}/../fixtures/mj-server/seed-7/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn an_mj_server_hand_replays_to_the_end_and_agrees_with_the_server() {
    let o = run(&["replay", &fixture("hand-05.mjs")]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let out = stdout(&o);
    assert!(out.contains("after event 275 of 275"), "{out}");
    assert!(
        out.contains("west went Mah-Jongg with 6m (discard of east)"),
        "{out}"
    );
    assert!(out.contains("score 104 (server 104), net 268"), "{out}");
    assert!(out.contains("[268, -226, 128, -170] (the same)"), "{out}");
}

#[test]
fn the_state_at_any_event_and_as_json() {
    let o = run(&["replay", &fixture("hand-05.mjs"), "--at", "60"]);
    let out = stdout(&o);
    assert!(
        out.starts_with("after event 60 of 275: south to draw"),
        "{out}"
    );
    assert!(out.contains("live discard: 3p from east"), "{out}");
    assert!(!out.contains("settlement"), "{out}");
    let o = run(&["replay", &fixture("hand-05.mjs"), "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["settlement"]["nets"]["east"], 268);
    assert_eq!(v["seats"]["west"]["score"], 32);
    assert_eq!(v["seats"]["east"]["sheet"]["total"], 104);
    assert_eq!(v["irregular"].as_array().unwrap().len(), 0);
}

/// A hand stream as `export` writes it (hashes and envelope fields are not needed to replay).
fn line(event_type: &str, payload: serde_json::Value) -> String {
    serde_json::json!({"event_type": event_type, "schema_version": 1, "payload": payload})
        .to_string()
}

#[test]
fn an_exported_stream_replays_and_an_impossible_event_stops_it_with_status_2() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("hand.jsonl");
    let started = serde_json::json!({
        "table": "t1", "game": 1, "hand": 1, "east": "east", "prevailing_wind": "east",
        "dice": [3, 4],
        "deal": {"known": "hands", "hands": {
            "east": ["1m","2m","3m","4m","5m","6m","7m","8m","9m","E","E","E","S","W"],
            "south": ["2p","3p","4p","5p","6p","7p","8p","9p","1s","1s","2s","3s","4s"],
            "west": ["9m","9m","5s","6s","7s","8s","9s","R","R","G","G","N","N"],
            "north": ["W","W","1p","1p","5m","5m","2s","2s","3s","3s","6m","6m","8m"]
        }}
    });
    let lines = [
        line("hand_started", started),
        line(
            "tile_discarded",
            serde_json::json!({"seat": "east", "placed": "W", "named": "W"}),
        ),
        line(
            "tile_drawn",
            serde_json::json!({"seat": "west", "tile": null}),
        ),
        line(
            "tile_discarded",
            serde_json::json!({"seat": "south", "placed": "R", "named": "R"}),
        ),
    ];
    std::fs::write(&path, lines.join("\n")).unwrap();
    let o = run(&["replay", path.to_str().unwrap()]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(2), "{out}");
    assert!(
        out.contains("irregular, event 2 (line 3): west drew out of turn"),
        "{out}"
    );
    assert!(out.contains("(Code §73)"), "{out}");
    assert!(out.contains("inconsistent: line 4:"), "{out}");
    assert!(out.contains("south does not hold `R`"), "{out}");
}

#[test]
fn a_damaged_file_is_refused_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(fixture("hand-01.mjs")).unwrap();
    let damaged = text.replacen("PlayerDiscards 1 ", "PlayerDiscards 9 ", 1);
    let path = dir.path().join("hand.mjs");
    std::fs::write(&path, damaged).unwrap();
    let o = run(&["replay", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("`9` is not a player id 1–4"), "{err}");
    assert!(err.contains("line "), "{err}");
    let o = run(&["replay", "/nonexistent/hand.mjs"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot read /nonexistent/hand.mjs"));
}

/// A whole mj-server game imported as a table recorded play by play: the ledger audits clean,
/// and a hand exported from it replays to the server's result.
#[test]
fn a_game_is_imported_play_by_play_and_its_hands_replay_from_the_ledger() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("game.db");
    let mut files: Vec<String> = std::fs::read_dir(fixture(""))
        .unwrap()
        .map(|e| e.unwrap().path().to_string_lossy().into_owned())
        .filter(|p| p.ends_with(".mjs"))
        .collect();
    files.sort();
    let mut args = vec!["import-game", "--db", db.to_str().unwrap()];
    args.extend(files.iter().map(String::as_str));
    let o = run(&args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        stdout(&o).contains("imported 1 game (19 hands) into tournament mj-server: mj-server-t1"),
        "{}",
        stdout(&o)
    );
    let o = run(&["audit", db.to_str().unwrap()]);
    assert!(stdout(&o).contains("result: OK"), "{}", stdout(&o));
    let exported = dir.path().join("h5.jsonl");
    let o = run(&[
        "export",
        "--db",
        db.to_str().unwrap(),
        "hand:mj-server-t1-g1-h5",
        "-o",
        exported.to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let o = run(&["replay", exported.to_str().unwrap()]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    // hand-05.mjs: West won on East's 6m; the server settled East +268 (East doubles).
    assert!(out.contains("west went Mah-Jongg with 6m"), "{out}");
    assert!(out.contains("score 104, net 268"), "{out}");
}

#[test]
fn hands_out_of_order_are_refused_with_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("game.db");
    let (a, b) = (fixture("hand-02.mjs"), fixture("hand-01.mjs"));
    let o = run(&["import-game", "--db", db.to_str().unwrap(), &a, &b]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("hand-02.mjs") && err.contains("the record has the south seat dealing"),
        "{err}"
    );
    assert!(!err.contains("events.0"), "{err}");
}

/// A game's whole `server.log` (here its first four hands, the third a wash-out) and a folder
/// of hand histories imported together: two games, two tables of one tournament, each closed
/// when its game is imported; a refused game names the file and the line.
#[test]
fn a_server_log_imports_with_its_wash_outs_and_folders_import_as_games() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    let log = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../fixtures/mj-server/seed-1-log/server.log"
    );
    let folder = fixture("");
    let o = run(&[
        "import-game",
        "--db",
        db.to_str().unwrap(),
        log,
        folder.trim_end_matches('/'),
    ]);
    let out = stdout(&o);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        out.contains(
            "imported 2 games (23 hands) into tournament mj-server: mj-server-t1, mj-server-t2"
        ),
        "{out}"
    );
    let o = run(&["audit", db.to_str().unwrap()]);
    assert!(stdout(&o).contains("result: OK"), "{}", stdout(&o));
    // The wash-out is hand 3 of the first game, and the deal stayed with East.
    let exported = dir.path().join("h3.jsonl");
    let o = run(&[
        "export",
        "--db",
        db.to_str().unwrap(),
        "hand:mj-server-t1-g1-h3",
        "-o",
        exported.to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let o = run(&["replay", exported.to_str().unwrap()]);
    assert!(stdout(&o).contains("over: a wash-out"), "{}", stdout(&o));

    // A log cut off in the middle of a deal: refused with the file, and nothing recorded.
    let broken = dir.path().join("broken.log");
    let text = std::fs::read_to_string(log).unwrap();
    let cut: String = text.split_inclusive("\r\n").take(260).collect();
    std::fs::write(&broken, cut).unwrap();
    let db2 = dir.path().join("broken.db");
    let o = run(&[
        "import-game",
        "--db",
        db2.to_str().unwrap(),
        broken.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("broken.log") && err.contains("deal"), "{err}");

    // A log whose line 398 discards a tile the player does not hold: the refusal names that
    // line, not the first of its hand; with a tile it does hold, the hands laid down no longer
    // add up, and the refusal names the laying down (line 805), not the hand's first.
    for (tile, line) in [("2D", 398), ("9C", 805)] {
        let damaged = dir.path().join(format!("damaged-{tile}.log"));
        let text: String = text
            .split_inclusive("\r\n")
            .enumerate()
            .map(|(i, l)| {
                if i + 1 == 398 {
                    l.replace("PlayerDiscards 1 1D", &format!("PlayerDiscards 1 {tile}"))
                } else {
                    l.to_string()
                }
            })
            .collect();
        std::fs::write(&damaged, text).unwrap();
        let db3 = dir.path().join(format!("damaged-{tile}.db"));
        let o = run(&[
            "import-game",
            "--db",
            db3.to_str().unwrap(),
            damaged.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(1));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(&format!("line {line}:")), "{err}");
        assert!(!err.contains("line 232"), "{err}");
    }

    // A ruleset that is neither built in nor a file: refused before anything is recorded.
    let db4 = dir.path().join("ruleset.db");
    let o = run(&[
        "import-game",
        "--db",
        db4.to_str().unwrap(),
        "--ruleset",
        "nonesuch",
        log,
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("`nonesuch` is neither a built-in ruleset"),
        "{err}"
    );
}
