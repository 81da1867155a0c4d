//! The director's room under a big evening: `scripts/bench-dashboard` runs it.
//!
//! - `dashboard_load setup DB TABLES HANDS`: a tournament `room` of TABLES × 4 players, its
//!   session 1 open and seated (TABLES tables), HANDS hands recorded at every table (East wins
//!   each from the wall: East keeps the deal, so each table is well into its round), and an API
//!   token, printed on stdout.
//! - `dashboard_load measure URL TOKEN TABLES`: the dashboard read 200 times as an official
//!   (`GET /t/room/sessions/1/live`: the time to its last byte, loopback: the server's time and
//!   little else); then a watcher follows its events (`/live/events`) while a hand is recorded
//!   at each table in turn, and for each the time from the start of the recording's post to
//!   the watcher holding the page read again (the event, then the page), as `dashboard.js`
//!   does. Prints both as percentiles.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use ledger::event::OfficialRole;
use ledger::OfficialId;
use serde_json::json;
use web::app::commands::hand::{self, RecordHand};
use web::app::commands::session::{self, OpenSession};
use web::app::commands::tournament::{self, NewPlayer, NewTournament};
use web::server::auth::{self, Official};
use web::server::AppState;

/// East goes out from the wall; the others hold losing hands.
fn east_wins(hand: &str) -> RecordHand {
    serde_json::from_value(json!({
        "hand": hand,
        "hands": {
            "east": "123m 456m 789m EE 11p 1f =1p",
            "south": "59m 22p 123s 456s 789p",
            "west": "345p 678p 13m 24s 68s 9s",
            "north": "678m 99p 23s 77p W 456s"
        },
        "winner": "east",
        "win_from": "wall"
    }))
    .expect("a report")
}

fn setup(db: &Path, tables: usize, hands: u32) -> Result<String, Box<dyn std::error::Error>> {
    let state = AppState::open(db)?;
    let token = state.write_now(|l| {
        auth::ensure_admin(l, Some("load-test-only"))?;
        auth::create_api_token(l, &OfficialId::new("admin").unwrap(), "dashboard load")
    })?;
    let by = Official {
        id: OfficialId::new("admin")?,
        name: "admin".into(),
        role: OfficialRole::Organiser,
        is_admin: true,
        csrf: None,
    };
    let mut ledger = readmodel::open(db)?;
    let fail = |e: web::server::error::AppError| e.to_string();
    tournament::create(
        &mut ledger,
        &[],
        &by,
        &NewTournament {
            id: Some("room".into()),
            name: "A big evening".into(),
            ruleset: Some("code-of-laws".into()),
            limit: Some(1000),
            starting_chips: 2000,
            ..Default::default()
        },
    )
    .map_err(fail)?;
    let players: Vec<NewPlayer> = (0..tables * 4)
        .map(|i| NewPlayer {
            id: None,
            name: format!("Player {:03}", i + 1),
            substitute: false,
            different_person: false,
        })
        .collect();
    tournament::register_players(&mut ledger, "room", &by, &players, &[]).map_err(fail)?;
    session::open(
        &mut ledger,
        "room",
        &by,
        &OpenSession {
            method: "random".into(),
            seed: Some(7),
            sessions: Some(1),
            minutes: Some(180),
        },
    )
    .map_err(fail)?;
    for t in 1..=tables {
        let table = format!("room-t{t}");
        for h in 1..=hands {
            hand::record(
                &mut ledger,
                &table,
                &by,
                &east_wins(&format!("{table}-g1-h{h}")),
            )
            .map_err(fail)?;
        }
    }
    Ok(token)
}

/// One HTTP/1.1 request on a fresh connection; the status and the body.
fn request(addr: &str, method: &str, path: &str, token: &str, body: &str) -> (u16, String) {
    let mut s = TcpStream::connect(addr).expect("the server");
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {token}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    s.write_all(body.as_bytes()).unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).unwrap();
    let status = answer
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = answer
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_owned())
        .unwrap_or_default();
    (status, body)
}

fn percentiles(label: &str, mut ms: Vec<f64>) {
    ms.sort_by(f64::total_cmp);
    let at = |q: f64| ms[((ms.len() as f64 - 1.0) * q).round() as usize];
    println!(
        "{label}: n={} p50 {:.2} ms · p90 {:.2} ms · p99 {:.2} ms · max {:.2} ms",
        ms.len(),
        at(0.5),
        at(0.9),
        at(0.99),
        at(1.0)
    );
}

fn measure(url: &str, token: &str, tables: usize) {
    let addr = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_owned();
    let page = "/t/room/sessions/1/live";
    let mut reads = Vec::new();
    for _ in 0..200 {
        let start = Instant::now();
        let (status, body) = request(&addr, "GET", page, token, "");
        assert_eq!(status, 200, "{body}");
        reads.push(start.elapsed().as_secs_f64() * 1000.0);
    }
    percentiles(&format!("dashboard of {tables} tables, read"), reads);

    // The watcher: its event stream on one connection, and a page read after each event.
    let (tx, rx) = mpsc::channel::<Instant>();
    let watcher_addr = addr.clone();
    let watcher_token = token.to_owned();
    std::thread::spawn(move || {
        let mut s = TcpStream::connect(&watcher_addr).expect("the server");
        let head = format!(
            "GET {page}/events HTTP/1.1\r\nHost: {watcher_addr}\r\nAuthorization: Bearer {watcher_token}\r\n\r\n"
        );
        s.write_all(head.as_bytes()).unwrap();
        let mut lines = BufReader::new(s);
        let mut line = String::new();
        loop {
            line.clear();
            if lines.read_line(&mut line).unwrap_or(0) == 0 {
                return;
            }
            if line.starts_with("event: written") {
                let (status, _) = request(&watcher_addr, "GET", page, &watcher_token, "");
                assert_eq!(status, 200);
                if tx.send(Instant::now()).is_err() {
                    return;
                }
            }
        }
    });
    std::thread::sleep(Duration::from_millis(300));
    let mut delays = Vec::new();
    for t in 1..=tables {
        let (_, table) = request(&addr, "GET", &format!("/api/tables/room-t{t}"), token, "");
        let next: serde_json::Value = serde_json::from_str(&table).expect("the table");
        let hand = next["next"]["hand"]
            .as_str()
            .expect("a next hand")
            .to_owned();
        let body = serde_json::to_string(&json!({
            "hand": hand,
            "hands": {
                "east": "123m 456m 789m EE 11p 1f =1p",
                "south": "59m 22p 123s 456s 789p",
                "west": "345p 678p 13m 24s 68s 9s",
                "north": "678m 99p 23s 77p W 456s"
            },
            "winner": "east",
            "win_from": "wall"
        }))
        .unwrap();
        // Drain what earlier writes announced, then time this one.
        while rx.try_recv().is_ok() {}
        let start = Instant::now();
        let (status, answer) = request(
            &addr,
            "POST",
            &format!("/api/tables/room-t{t}/hands"),
            token,
            &body,
        );
        assert_eq!(status, 201, "{answer}");
        let seen = rx
            .recv_timeout(Duration::from_secs(10))
            .expect("the watcher heard of the hand");
        delays.push((seen - start).as_secs_f64() * 1000.0);
        std::thread::sleep(Duration::from_millis(50));
    }
    percentiles(
        "a hand recorded → the watcher holds the page read again",
        delays,
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("setup") => {
            let db = Path::new(&args[2]);
            let tables: usize = args[3].parse().expect("TABLES");
            let hands: u32 = args[4].parse().expect("HANDS");
            match setup(db, tables, hands) {
                Ok(token) => println!("{token}"),
                Err(e) => {
                    eprintln!("setup: {e}");
                    std::process::exit(1);
                }
            }
        }
        Some("measure") => measure(&args[2], &args[3], args[4].parse().expect("TABLES")),
        _ => {
            eprintln!("usage: dashboard_load setup DB TABLES HANDS | measure URL TOKEN TABLES");
            std::process::exit(2);
        }
    }
}
