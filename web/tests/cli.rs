//! The `mahjong-referee` binary as a user runs it.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

fn binary() -> Command {
    Command::new(env!("CARGO_BIN_EXE_mahjong-referee"))
}

/// `waits` answers each line before the next is written: it streams.
#[test]
fn waits_streams_line_by_line() {
    let mut child = binary()
        .arg("waits")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if tx.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
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
