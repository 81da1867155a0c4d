//! Load on the play-by-play API: many tables recording their hands one action per request,
//! as table tablets would. `scripts/load-test-play` runs it against the release server.
//!
//! - `play_load setup DB TABLES`: a tournament with TABLES tables (four players each, seats
//!   drawn) and an API token, printed on stdout.
//! - `play_load run URL TOKEN TABLES HANDS THINK_MS [GUESSERS]`: every table (one thread each)
//!   plays mj-server's seed-7 robot game from its first hand, HANDS hands, each action a
//!   `POST /api/hands/<id>/events` with the version it was decided on, pausing THINK_MS
//!   (±50%) between actions as a recorder at a table would. Prints each request's latency
//!   percentiles and the throughput. With GUESSERS, that many more threads post wrong
//!   passwords for `admin` to the login form as fast as they are answered, all the while, and
//!   the answers they got are counted (a login flood must not slow the tables).
//!
//! The robots' hands are the fixtures (`fixtures/mj-server/seed-7`): at every table the same
//! game, so every request is one a real recorder could send, and every answer must be 200 or
//! 201 (a refused action fails the run).

use std::path::Path;
use std::time::{Duration, Instant};

use ledger::event::{HandEvent, OfficialRole};
use ledger::OfficialId;
use referee::import::mjs;
use serde_json::{json, Value};
use web::app::commands::tournament::{self, NewPlayer, NewTable, NewTournament};
use web::server::auth::{self, Official};
use web::server::AppState;

fn setup(db: &Path, tables: usize) -> Result<String, Box<dyn std::error::Error>> {
    let state = AppState::open(db)?;
    let token = state.write_now(|l| {
        auth::ensure_admin(l, Some("load-test-only"))?;
        auth::create_api_token(l, &OfficialId::new("admin").unwrap(), "play load")
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
            id: Some("play".into()),
            name: "Play-by-play load".into(),
            ruleset: Some("code-of-laws".into()),
            limit: Some(1000),
            starting_chips: 2000,
            ..Default::default()
        },
    )
    .map_err(fail)?;
    for t in 0..tables {
        let mut players = Vec::new();
        for s in 0..4 {
            let p = NewPlayer {
                id: None,
                name: format!("Player {}", t * 4 + s + 1),
                substitute: false,
                different_person: false,
            };
            players.push(
                tournament::register_player(&mut ledger, "play", &by, &p)
                    .map_err(fail)?
                    .to_string(),
            );
        }
        tournament::form_table(
            &mut ledger,
            "play",
            &by,
            &NewTable {
                players,
                ..Default::default()
            },
        )
        .map_err(fail)?;
    }
    Ok(token)
}

/// The robot game's hands: each deal, its actions (the last one carrying the hands laid
/// down).
fn game() -> Vec<(Value, Vec<Value>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/mj-server/seed-7");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("fixtures")
        .map(|e| e.expect("fixture").path())
        .filter(|p| p.extension().is_some_and(|e| e == "mjs"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f).expect("fixture");
            let hand = mjs::read(&text, "play".parse().unwrap(), 1, 1).expect("fixture");
            let (mut actions, mut laid) = (Vec::new(), Vec::new());
            for (_, e) in hand.events {
                match e {
                    HandEvent::HandExposed(x) => laid.push(x),
                    e => actions.push(json!({ "event": ledger::Event::from(e) })),
                }
            }
            if let Some(last) = actions.last_mut() {
                last["laid_down"] = json!(laid);
            }
            (json!(hand.started.deal), actions)
        })
        .collect()
}

/// Plays `hands` hands at `table`; returns each request's latency.
fn play_table(
    url: &str,
    token: &str,
    table: &str,
    hands: usize,
    think: Duration,
    game: &[(Value, Vec<Value>)],
    seed: u64,
) -> Result<Vec<Duration>, String> {
    let agent = ureq::Agent::new_with_defaults();
    let auth = format!("Bearer {token}");
    let mut rng = seed;
    let mut pause = || {
        // A small LCG: ±50% around the think time, different at each table.
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let f = 0.5 + (rng >> 33) as f64 / (1u64 << 31) as f64;
        std::thread::sleep(think.mul_f64(f));
    };
    let mut latencies = Vec::new();
    let mut post = |path: &str, body: &Value| -> Result<Value, String> {
        let start = Instant::now();
        let mut resp = agent
            .post(&format!("{url}{path}"))
            .header("authorization", &auth)
            .send_json(body)
            .map_err(|e| format!("{path}: {e}"))?;
        let v: Value = resp
            .body_mut()
            .read_json()
            .map_err(|e| format!("{path}: {e}"))?;
        latencies.push(start.elapsed());
        Ok(v)
    };
    for (n, (deal, actions)) in game.iter().take(hands).enumerate() {
        let hand = format!("{table}-g1-h{}", n + 1);
        let started = post(
            &format!("/api/tables/{table}/play"),
            &json!({ "hand": hand, "deal": deal }),
        )?;
        let mut version = started["version"].as_u64().ok_or("no version")?;
        for action in actions {
            pause();
            let mut body = action.clone();
            body["version"] = json!(version);
            let answer = post(&format!("/api/hands/{hand}/events"), &body)?;
            version = answer["version"]
                .as_u64()
                .ok_or_else(|| format!("{hand}: {answer}"))?;
        }
    }
    Ok(latencies)
}

/// Posts wrong passwords for `admin` until `stop`; returns how many of each status came back.
fn guess(url: &str, stop: &std::sync::atomic::AtomicBool) -> Vec<(u16, usize)> {
    use std::sync::atomic::Ordering;
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let mut seen = std::collections::BTreeMap::<u16, usize>::new();
    let mut n = 0u64;
    while !stop.load(Ordering::Relaxed) {
        let Ok(mut page) = agent.get(&format!("{url}/login")).call() else {
            continue;
        };
        // The pre-login cookie, `mjr_login_csrf=<64 hex>; …`, and the form's value for it.
        let Some(cookie) = page
            .headers()
            .get_all("set-cookie")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .find_map(|c| c.strip_prefix(&format!("{}=", auth::LOGIN_CSRF_COOKIE)))
            .and_then(|c| c.split(';').next())
            .map(str::to_owned)
        else {
            continue;
        };
        let Ok(body) = page.body_mut().read_to_string() else {
            continue;
        };
        let Some(csrf) = body
            .split("name=\"csrf\" value=\"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .map(str::to_owned)
        else {
            continue;
        };
        n += 1;
        let answer = agent
            .post(&format!("{url}/login"))
            .header("cookie", &format!("{}={cookie}", auth::LOGIN_CSRF_COOKIE))
            .send_form([
                ("csrf", csrf.as_str()),
                ("official", "admin"),
                ("password", &format!("guess-{n}")),
            ]);
        if let Ok(r) = answer {
            *seen.entry(r.status().as_u16()).or_default() += 1;
        }
    }
    seen.into_iter().collect()
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted.get(i).copied().unwrap_or_default()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: play_load setup DB TABLES | run URL TOKEN TABLES HANDS THINK_MS [GUESSERS]";
    match args.first().map(String::as_str) {
        Some("setup") if args.len() == 3 => {
            println!("{}", setup(Path::new(&args[1]), args[2].parse()?)?);
        }
        Some("run") if args.len() == 6 || args.len() == 7 => {
            let (url, token) = (args[1].clone(), args[2].clone());
            let tables: usize = args[3].parse()?;
            let hands: usize = args[4].parse()?;
            let think = Duration::from_millis(args[5].parse()?);
            let guessers: usize = args.get(6).map_or(Ok(0), |g| g.parse())?;
            let game = std::sync::Arc::new(game());
            let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
            let guessing: Vec<_> = (0..guessers)
                .map(|_| {
                    let (url, stop) = (url.clone(), stop.clone());
                    std::thread::spawn(move || guess(&url, &stop))
                })
                .collect();
            let start = Instant::now();
            let threads: Vec<_> = (1..=tables)
                .map(|t| {
                    let (url, token, game) = (url.clone(), token.clone(), game.clone());
                    std::thread::spawn(move || {
                        play_table(
                            &url,
                            &token,
                            &format!("play-t{t}"),
                            hands,
                            think,
                            &game,
                            t as u64,
                        )
                    })
                })
                .collect();
            let mut all = Vec::new();
            for t in threads {
                all.extend(t.join().map_err(|_| "a table's thread panicked")??);
            }
            let elapsed = start.elapsed();
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
            let mut answers = std::collections::BTreeMap::<u16, usize>::new();
            for g in guessing {
                for (status, n) in g.join().map_err(|_| "a guesser's thread panicked")? {
                    *answers.entry(status).or_default() += n;
                }
            }
            if guessers > 0 {
                println!("{guessers} guessers got, by status: {answers:?}");
            }
            all.sort();
            println!(
                "{} requests from {tables} tables in {:.1} s ({:.0} requests/s); latency p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
                all.len(),
                elapsed.as_secs_f64(),
                all.len() as f64 / elapsed.as_secs_f64(),
                percentile(&all, 0.5).as_secs_f64() * 1e3,
                percentile(&all, 0.9).as_secs_f64() * 1e3,
                percentile(&all, 0.99).as_secs_f64() * 1e3,
                all.last().copied().unwrap_or_default().as_secs_f64() * 1e3,
            );
        }
        _ => return Err(usage.into()),
    }
    Ok(())
}
