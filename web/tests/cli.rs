//! The `mahjong-referee` binary as a user runs it.

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
