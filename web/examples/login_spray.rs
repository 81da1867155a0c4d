//! A password spray against the login form from many addresses, while an official writes
//! through the API: the load `scripts/load-test-login` runs against the release server.
//!
//! - `login_spray setup DB OFFICIALS`: the administrator (password `load-test-only`), OFFICIALS
//!   scorers `scorer-0`, `scorer-1`, …, a tournament to register players in, and an API token;
//!   the token is printed on stdout.
//! - `login_spray run HOST:PORT TOKEN SECONDS SPRAYERS OFFICIALS`: SPRAYERS threads, each from
//!   its own loopback address (`127.0.1.1`, `127.0.1.2`, …; Linux answers the whole of 127/8),
//!   load the login form and post wrong passwords as fast as they are answered — each for one
//!   of the OFFICIALS scorers in turn (each official's own allowance spent in parallel, so the
//!   password checks themselves are the load), or for `admin` when OFFICIALS is 0 — a new
//!   connection for each; meanwhile one official registers a player through the API every
//!   50 ms (a write of the ledger, as a table's recorder makes). Prints the official's write
//!   latencies (p50, p90, p99, max) and what the sprayers were answered.

use std::io::{Read, Write};
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpStream};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use ledger::event::OfficialRole;
use ledger::OfficialId;
use serde_json::json;
use web::app::commands::tournament::{self, NewTournament};
use web::server::auth::{self, Official};
use web::server::AppState;

fn setup(db: &Path, officials: usize) -> Result<String, Box<dyn std::error::Error>> {
    let state = AppState::open(db)?;
    let token = state.write_now(|l| {
        auth::ensure_admin(l, Some("load-test-only"))?;
        let admin = OfficialId::new("admin").unwrap();
        for n in 0..officials {
            let id = OfficialId::new(&format!("scorer-{n}")).unwrap();
            let name = format!("Scorer {n}");
            auth::create_official(
                l,
                &admin,
                &id,
                &name,
                OfficialRole::Scorer,
                false,
                "load-test-only",
            )?;
        }
        auth::create_api_token(l, &admin, "login spray")
    })?;
    let by = Official {
        id: OfficialId::new("admin")?,
        name: "admin".into(),
        role: OfficialRole::Organiser,
        is_admin: true,
        csrf: None,
    };
    let mut ledger = readmodel::open(db)?;
    tournament::create(
        &mut ledger,
        &[],
        &by,
        &NewTournament {
            id: Some("spray".into()),
            name: "Login spray".into(),
            ruleset: Some("code-of-laws".into()),
            starting_chips: 2000,
            ..Default::default()
        },
    )
    .map_err(|e| e.to_string())?;
    Ok(token)
}

/// One HTTP/1.1 exchange on a new connection from `from`: the status, the `Set-Cookie` value
/// and the body.
fn exchange(
    server: SocketAddr,
    from: IpAddr,
    request: &str,
) -> std::io::Result<(u16, String, String)> {
    let socket = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None)?;
    socket.bind(&SocketAddr::new(from, 0).into())?;
    socket.connect_timeout(&server.into(), Duration::from_secs(5))?;
    let mut stream: TcpStream = socket.into();
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    stream.write_all(request.as_bytes())?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw)?;
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let cookie = head
        .lines()
        .find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case("set-cookie")
                .then(|| value.trim().split(';').next().unwrap_or("").to_owned())
        })
        .unwrap_or_default();
    Ok((status, cookie, body.to_owned()))
}

/// One sprayer: the login form, then a wrong password for `official`, again and again.
fn spray(
    server: SocketAddr,
    from: IpAddr,
    official: &str,
    stop: &AtomicBool,
    answers: &[AtomicU64; 4],
) {
    let host = server.to_string();
    while !stop.load(Ordering::Relaxed) {
        let form = format!("GET /login HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n");
        let Ok((_, cookie, body)) = exchange(server, from, &form) else {
            answers[3].fetch_add(1, Ordering::Relaxed);
            continue;
        };
        let csrf = body
            .split("name=\"csrf\" value=\"")
            .nth(1)
            .and_then(|r| r.split('"').next())
            .unwrap_or("");
        let form = format!("csrf={csrf}&official={official}&password=wrong-guess");
        let post = format!(
            "POST /login HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nCookie: {cookie}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n{form}",
            form.len()
        );
        let slot = match exchange(server, from, &post) {
            Ok((401, ..)) => 0,
            Ok((429, ..)) => 1,
            Ok(_) => 2,
            Err(_) => 3,
        };
        answers[slot].fetch_add(1, Ordering::Relaxed);
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn run(
    server: &str,
    token: &str,
    seconds: u64,
    sprayers: u32,
    officials: u32,
) -> Result<(), String> {
    let server: SocketAddr = server.parse().map_err(|e| format!("{server}: {e}"))?;
    let stop = Arc::new(AtomicBool::new(false));
    let answers = Arc::new([0, 0, 0, 0].map(AtomicU64::new));
    let threads: Vec<_> = (0..sprayers)
        .map(|n| {
            let from = IpAddr::V4(Ipv4Addr::new(
                127,
                0,
                1 + (n / 250) as u8,
                1 + (n % 250) as u8,
            ));
            let (stop, answers) = (stop.clone(), answers.clone());
            let official = match officials {
                0 => "admin".to_owned(),
                k => format!("scorer-{}", n % k),
            };
            std::thread::spawn(move || spray(server, from, &official, &stop, &answers))
        })
        .collect();
    // The official's writes, paced, while the spray goes on.
    let agent = ureq::Agent::new_with_defaults();
    let url = format!("http://{server}/api/tournaments/spray/players");
    let auth = format!("Bearer {token}");
    let mut latencies = Vec::new();
    let mut failed = 0;
    let end = Instant::now() + Duration::from_secs(seconds);
    let mut n = 0u64;
    while Instant::now() < end {
        n += 1;
        let start = Instant::now();
        let answer = agent
            .post(&url)
            .header("authorization", &auth)
            .send_json(json!({ "name": format!("Player {n} of run {}", std::process::id()) }));
        match answer {
            Ok(r) if r.status().as_u16() == 201 => latencies.push(start.elapsed()),
            _ => failed += 1,
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    stop.store(true, Ordering::Relaxed);
    for t in threads {
        let _ = t.join();
    }
    latencies.sort();
    let ms = |d: Duration| format!("{:.2} ms", d.as_secs_f64() * 1000.0);
    println!(
        "official's writes: {} (failed {failed}): p50 {}, p90 {}, p99 {}, max {}",
        latencies.len(),
        ms(percentile(&latencies, 0.50)),
        ms(percentile(&latencies, 0.90)),
        ms(percentile(&latencies, 0.99)),
        ms(latencies.last().copied().unwrap_or_default()),
    );
    let [wrong, throttled, other, errors] = answers
        .as_ref()
        .each_ref()
        .map(|a| a.load(Ordering::Relaxed));
    println!(
        "spray from {sprayers} addresses over {seconds} s: {wrong} wrong-password answers (401, {:.1}/s), {throttled} throttled (429), {other} other, {errors} connection errors",
        wrong as f64 / seconds as f64
    );
    Ok(())
}

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let outcome = match args.get(1).map(String::as_str) {
        Some("setup") if args.len() == 4 => {
            let officials = args[3].parse().unwrap_or(0);
            setup(Path::new(&args[2]), officials)
                .map(|token| println!("{token}"))
                .map_err(|e| e.to_string())
        }
        Some("run") if args.len() == 7 => {
            let seconds = args[4].parse().unwrap_or(20);
            let sprayers = args[5].parse().unwrap_or(200);
            let officials = args[6].parse().unwrap_or(0);
            run(&args[2], &args[3], seconds, sprayers, officials)
        }
        _ => Err("usage: login_spray setup DB OFFICIALS | login_spray run HOST:PORT TOKEN SECONDS SPRAYERS OFFICIALS".into()),
    };
    match outcome {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("login_spray: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
