//! The `mahjong-referee` binary as a user runs it.

// The other commands, one file each beside this one (one test binary for the command line).
#[path = "cli/adjudicate.rs"]
mod adjudicate;
#[path = "cli/ledger.rs"]
mod ledger_commands;
#[path = "cli/mj_server_games.rs"]
mod mj_server_games;
#[path = "cli/operations.rs"]
mod operations;
#[path = "cli/replay.rs"]
mod replay;
#[path = "cli/scoring.rs"]
mod scoring;
#[path = "cli/trust.rs"]
mod trust;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

fn binary() -> Command {
    Command::new(env!("CARGO_BIN_EXE_mahjong-referee"))
}

/// The binary run with `args`, its standard input to write, and its output lines as they come.
fn streaming(args: &[&str]) -> (Child, ChildStdin, mpsc::Receiver<String>) {
    let mut child = binary()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if tx.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    (child, stdin, rx)
}

/// `score -` answers each line before the next is written: a script can hold a conversation.
#[test]
fn score_dash_streams_line_by_line() {
    let (mut child, mut stdin, rx) = streaming(&["score", "-"]);
    let timeout = Duration::from_secs(20);
    let next =
        || serde_json::from_str::<serde_json::Value>(&rx.recv_timeout(timeout).unwrap()).unwrap();
    writeln!(
        stdin,
        r#"{{"hand": "[RRR] [234p] 567s 99m 11s =1s", "seat": "south", "win_from": "discard"}}"#
    )
    .unwrap();
    stdin.flush().unwrap();
    assert_eq!(next()["total"], 36);
    writeln!(stdin, r#"{{"hand": "EEEEE"}}"#).unwrap();
    stdin.flush().unwrap();
    assert_eq!(next()["line"], 2);
    drop(stdin);
    assert_eq!(child.wait().unwrap().code(), Some(2));
}

/// `waits` answers each line before the next is written: it streams.
#[test]
fn waits_streams_line_by_line() {
    let (mut child, mut stdin, rx) = streaming(&["waits"]);
    let timeout = Duration::from_secs(20);
    writeln!(stdin, "123m 456m 789s EE 45p").unwrap();
    stdin.flush().unwrap();
    assert_eq!(rx.recv_timeout(timeout).unwrap(), "3p 6p");
    writeln!(stdin, "1112345678999m").unwrap();
    stdin.flush().unwrap();
    assert_eq!(
        rx.recv_timeout(timeout).unwrap(),
        "1m 2m 3m 4m 5m 6m 7m 8m 9m"
    );
    writeln!(stdin, "123m 456m 789s EE 4p").unwrap();
    drop(stdin);
    assert_eq!(
        rx.recv_timeout(timeout).unwrap(),
        "error: expected 13 tiles, found 12"
    );
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(2));
}

#[test]
fn waits_exits_zero_when_every_line_is_valid() {
    let out = binary()
        .args(["waits", "--shape", "all"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            c.stdin
                .take()
                .unwrap()
                .write_all(b"1188m 55p 33s NN 11p 9s\n")?;
            c.wait_with_output()
        })
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "-; seven-twins: 9s\n"
    );
}

#[test]
fn unknown_shape_option_is_refused() {
    let out = binary()
        .args(["waits", "--shape", "everything"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("everything"));
}

/// Runs the binary with `lines` and then an endless line on its standard input; returns its
/// exit status, output and error output once it stops (failing after 60 s: it buffered).
fn with_an_endless_line(args: &[&str], lines: &str) -> (std::process::ExitStatus, String, String) {
    use std::io::Read;
    let mut child = binary()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let lines = lines.to_owned();
    // Writes until the command stops reading (the pipe breaks).
    std::thread::spawn(move || {
        let chunk = vec![b'x'; 1 << 16];
        let _ = stdin.write_all(lines.as_bytes());
        while stdin.write_all(&chunk).is_ok() {}
    });
    let (mut out, mut err) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    let reader = std::thread::spawn(move || {
        let (mut o, mut e) = (String::new(), String::new());
        let _ = out.read_to_string(&mut o);
        let _ = err.read_to_string(&mut e);
        (o, e)
    });
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("{args:?} kept reading an endless line");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let (o, e) = reader.join().unwrap();
    (status, o, e)
}

#[test]
fn waits_refuses_a_line_past_1_mib_naming_it() {
    let (status, out, err) = with_an_endless_line(&["waits"], "123m 456m 789s EE 45p\n");
    assert!(!status.success());
    assert_eq!(out, "3p 6p\n");
    assert!(
        err.contains("line 2") && err.contains("longer than"),
        "{err}"
    );
}

#[test]
fn score_dash_refuses_a_line_past_1_mib_naming_it() {
    let (status, out, err) = with_an_endless_line(
        &["score", "-"],
        "{\"hand\": \"[RRR] [234p] 567s 99m 11s =1s\"}\n",
    );
    assert!(!status.success());
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(
        err.contains("line 2") && err.contains("longer than"),
        "{err}"
    );
}

/// `seating` with `args`: exit status, output, error output.
fn seating(args: &[&str]) -> (Option<i32>, String, String) {
    let out = binary().arg("seating").args(args).output().unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Issue 14: 16 players over 5 sessions have a perfect plan, printed in the issue's JSON shape.
#[test]
fn seating_sixteen_over_five_is_perfect_and_in_the_issues_shape() {
    let args = [
        "--players",
        "16",
        "--sessions",
        "5",
        "--method",
        "no-repeat",
        "--seed",
        "42",
        "--json",
    ];
    let (status, out, err) = seating(&args);
    assert_eq!(status, Some(0), "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let sessions = json["sessions"].as_array().unwrap();
    assert_eq!(sessions.len(), 5);
    for session in sessions {
        let mut seen: Vec<u64> = Vec::new();
        for table in session.as_array().unwrap() {
            assert_eq!(table.as_array().unwrap().len(), 4);
            seen.extend(
                table
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|p| p.as_u64().unwrap()),
            );
        }
        seen.sort_unstable();
        assert_eq!(seen, (1..=16).collect::<Vec<_>>());
    }
    assert_eq!(json["repeats"]["repeats"], 0);
    assert_eq!(json["repeats"]["pairs"], serde_json::json!([]));
    assert_eq!(json["method"], "no-repeat");
    assert_eq!(json["seed"], 42);
    // The same seed gives the same plan; another seed another.
    assert_eq!(seating(&args).1, out);
    let mut other = args;
    other[7] = "43";
    assert_ne!(seating(&other).1, out);
}

#[test]
fn seating_in_words_reports_repeats_and_byes() {
    let (status, out, err) = seating(&[
        "--players",
        "9",
        "--sessions",
        "4",
        "--method",
        "no-repeat",
        "--seed",
        "1",
        "--remainder",
        "byes",
    ]);
    assert_eq!(status, Some(0), "{err}");
    assert!(out.contains("session 4\n"), "{out}");
    assert!(out.contains("sitting out: "), "{out}");
    assert!(out.contains("repeated meetings: "), "{out}");
    assert!(
        out.contains("sitting out: each player 0 to 1 times"),
        "{out}"
    );
}

/// Swiss and progressive seat session 1 by lot and each later session from the results.
#[test]
fn seating_follows_results_for_swiss_and_progressive() {
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("results.json");
    std::fs::write(&results, "[[30, -10, -10, -10, 5, 5, -5, -5]]").unwrap();
    for method in ["swiss", "progressive"] {
        let base = [
            "--players",
            "8",
            "--sessions",
            "3",
            "--method",
            method,
            "--seed",
            "3",
            "--json",
        ];
        let (status, out, err) = seating(&base);
        assert_eq!(status, Some(0), "{err}");
        let json: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(json["sessions"].as_array().unwrap().len(), 1, "{method}");
        assert_eq!(json["pending_sessions"], 2);
        let mut with = base.to_vec();
        with.extend(["--results", results.to_str().unwrap()]);
        let (status, out, err) = seating(&with);
        assert_eq!(status, Some(0), "{err}");
        let json2: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(json2["sessions"].as_array().unwrap().len(), 2, "{method}");
        assert_eq!(json2["sessions"][0], json["sessions"][0], "{method}");
    }
}

#[test]
fn seating_refuses_bad_requests_with_every_problem_and_no_panic() {
    let cases: &[(&[&str], &[&str])] = &[
        (
            &["--players", "0", "--sessions", "0"],
            &["0 players", "0 sessions"],
        ),
        (&["--players", "2", "--sessions", "3"], &["2 players"]),
        (
            &["--players", "99999999999", "--sessions", "5"],
            &["99999999999 players", "at most 2000"],
        ),
        (
            &["--players", "16", "--sessions", "100000"],
            &["100000 sessions"],
        ),
        (
            &["--players", "6", "--sessions", "2", "--remainder", "fives"],
            &["tables of five"],
        ),
        (
            &["--players", "8", "--sessions", "2", "--method", "everyone"],
            &["no seating method `everyone`"],
        ),
        (
            &["--players", "8", "--sessions", "2", "--remainder", "pairs"],
            &["no remainder policy `pairs`"],
        ),
        (&["--players", "-4", "--sessions", "2"], &["-4"]),
    ];
    for (args, expected) in cases {
        let mut all = args.to_vec();
        if !all.contains(&"--method") {
            all.extend(["--method", "no-repeat"]);
        }
        all.extend(["--seed", "1"]);
        let (status, out, err) = seating(&all);
        assert_eq!(status, Some(2), "{args:?}: {out} {err}");
        assert!(!err.contains("panicked"), "{err}");
        for text in *expected {
            assert!(err.contains(text), "{args:?}: `{text}` not in {err}");
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("results.json");
    std::fs::write(&results, "[[1, 2, 3]]").unwrap();
    let (status, _, err) = seating(&[
        "--players",
        "8",
        "--sessions",
        "2",
        "--method",
        "progressive",
        "--remainder",
        "byes",
        "--seed",
        "1",
        "--results",
        results.to_str().unwrap(),
    ]);
    assert_eq!(status, Some(2));
    assert!(
        err.contains("byes do not fit") && err.contains("3 nets for 8 players"),
        "{err}"
    );
    std::fs::write(&results, "not json").unwrap();
    let (status, _, err) = seating(&[
        "--players",
        "8",
        "--sessions",
        "2",
        "--method",
        "swiss",
        "--seed",
        "1",
        "--results",
        results.to_str().unwrap(),
    ]);
    assert_eq!(status, Some(2));
    assert!(err.contains("expected a list of sessions"), "{err}");
}

#[test]
fn settle_up_finds_the_fewest_transfers_and_warns_of_empty_trays() {
    let run = |input: &str, args: &[&str]| {
        let mut child = binary()
            .arg("settle-up")
            .arg("-")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        (
            out.status.code(),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    // Two zero-sum groups: {1, 4, 3} and {2, 5, 6}: four transfers, not five.
    let (status, out, err) = run(
        "[10, 60, -90, 80, 70, -130]",
        &["--json", "--starting", "100"],
    );
    assert_eq!(status, Some(0), "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["transfers"].as_array().unwrap().len(), 4);
    assert_eq!(json["fewest"], true);
    assert_eq!(
        json["chips"],
        serde_json::json!([110, 160, 10, 180, 170, -30])
    );
    assert_eq!(json["out_of_chips"], serde_json::json!([6]));
    let (status, out, _) = run("[10, 60, -90, 80, 70, -130]", &["--starting", "100"]);
    assert_eq!(status, Some(0));
    assert!(
        out.contains("warning: player 6 has run out of chips (-30)"),
        "{out}"
    );
    let (status, _, err) = run("[10, -5]", &[]);
    assert_eq!(status, Some(2));
    assert!(err.contains("add up to 5"), "{err}");
    let (status, _, err) = run("[ten]", &[]);
    assert_eq!(status, Some(2));
    assert!(err.contains("expected a list of nets"), "{err}");
}

/// Issue 15: log lines written to a file (or a pipe) carry no colour escape codes.
#[test]
fn serve_logs_to_a_file_without_colour() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("server.log");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut child = binary()
        .args(["serve", "--bind", &format!("127.0.0.1:{port}")])
        .arg("--db")
        .arg(dir.path().join("log.db"))
        .args(["--admin-password", "log-test-password"])
        .env("RUST_LOG", "info")
        .env_remove("NO_COLOR")
        .stdout(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    let text = loop {
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        if text.contains("serving") || std::time::Instant::now() > deadline {
            break text;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let _ = child.kill();
    let _ = child.wait();
    assert!(text.contains("serving"), "the server logged: {text:?}");
    assert!(
        !text.contains('\u{1b}'),
        "colour escapes in a log file: {text:?}"
    );
}

/// A reader that goes away (`mahjong-referee … | head`) ends a command quietly: no panic, no
/// error message; the exit is a closed pipe's (141) when a write met it, as any Unix tool's.
#[test]
fn a_closed_pipe_ends_a_command_quietly() {
    // More output than a pipe holds, so the write meets the closed pipe whatever the timing.
    let lines = "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 1p 5s 6s\n".repeat(20_000);
    for args in [&["waits"][..], &["rulesets", "code-of-laws"][..]] {
        let mut child = binary()
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let mut stdin = child.stdin.take().unwrap();
        let _ = stdin.write_all(lines.as_bytes());
        drop(stdin);
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            matches!(out.status.code(), Some(0 | 141)),
            "{args:?}: {:?} {stderr}",
            out.status
        );
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
    }
}
