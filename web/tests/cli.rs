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
