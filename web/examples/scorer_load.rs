//! Load on the scorer's page and on the hands followed live: many tables recording a hand one
//! tap at a time through `/tables/<table>/play` (a form post, then the page it lands on, as a
//! browser does), while spectators follow each hand (`GET /hands/<hand>/live`).
//! `scripts/load-test-play` runs it after `play_load setup` has made the tournament.
//!
//! `scorer_load URL PASSWORD TABLES THINK_MS SPECTATORS_PER_TABLE js|forms`: every table (one
//! thread) starts mj-server's seed-7 first hand from its wall and taps each act in, pausing
//! THINK_MS (±50%) between taps. A tap's round trip is, with `js`, the one request `scorer.js`
//! makes (the post, answered with the page as it now stands); with `forms`, a browser without
//! JavaScript's two (the post, then the page it is sent to). Each
//! spectator (one thread) reads its table's live stream and notes when each announcement
//! arrives; the delay is from the start of the scorer's post to the spectator's event. Prints
//! the round trips' and the delays' percentiles, and the scorer's page weight on a first visit
//! (the page, its stylesheet and script, and every tile image it shows).

use std::collections::HashMap;
use std::io::BufRead;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use referee::event::{Deal, DealOrder, HandEvent};
use referee::import::mjs;
use referee::position::Act;

/// The robot hand: its wall, deal order, acts, and the hands laid down (form fields).
struct Hand {
    wall: String,
    order: &'static str,
    acts: Vec<(String, bool)>,
    laid: Vec<(&'static str, String)>,
}

fn robot_hand() -> Hand {
    let file =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/mj-server/seed-7/hand-01.mjs");
    let text = std::fs::read_to_string(file).expect("fixture");
    let hand = mjs::read(&text, "play".parse().unwrap(), 1, 1).expect("fixture");
    let Deal::Wall { tiles, order } = hand.started.deal else {
        panic!("the robot hand's wall is known");
    };
    let (mut acts, mut laid) = (Vec::new(), Vec::new());
    for (_, e) in hand.events {
        match e {
            HandEvent::HandExposed(x) => laid.push((
                ["laid_east", "laid_south", "laid_west", "laid_north"][x.seat.index()],
                x.hand.to_string(),
            )),
            e => acts.push((Act::of(&e).expect("an act").to_string(), e.ends_play())),
        }
    }
    Hand {
        wall: tiles
            .iter()
            .map(|t| t.to_string())
            .collect::<Vec<_>>()
            .join(" "),
        order: if order == DealOrder::FourFourFourOne {
            "four-four-four-one"
        } else {
            ""
        },
        acts,
        laid,
    }
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .max_redirects(0)
        .build()
        .into()
}

/// The value of `name="csrf"` in a page.
fn csrf_of(page: &str) -> Option<String> {
    page.split("name=\"csrf\" value=\"")
        .nth(1)?
        .split('"')
        .next()
        .map(str::to_owned)
}

/// Logs the administrator in: the session cookie and the pages' CSRF value.
fn log_in(url: &str, password: &str) -> Result<(String, String), String> {
    let agent = agent();
    let mut page = agent
        .get(&format!("{url}/login"))
        .call()
        .map_err(|e| e.to_string())?;
    let cookie = page
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|c| c.starts_with("mjr_login_csrf="))
        .and_then(|c| c.split(';').next())
        .ok_or("no login cookie")?
        .to_owned();
    let body = page
        .body_mut()
        .read_to_string()
        .map_err(|e| e.to_string())?;
    let csrf = csrf_of(&body).ok_or("no login form")?;
    let resp = agent
        .post(&format!("{url}/login"))
        .header("cookie", &cookie)
        .send_form([
            ("csrf", csrf.as_str()),
            ("official", "admin"),
            ("password", password),
        ])
        .map_err(|e| e.to_string())?;
    let session = resp
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|c| c.starts_with("mjr_session="))
        .and_then(|c| c.split(';').next())
        .ok_or_else(|| format!("not logged in ({})", resp.status()))?
        .to_owned();
    let mut account = agent
        .get(&format!("{url}/account"))
        .header("cookie", &session)
        .call()
        .map_err(|e| e.to_string())?;
    let body = account
        .body_mut()
        .read_to_string()
        .map_err(|e| e.to_string())?;
    Ok((
        session,
        csrf_of(&body).ok_or("no CSRF value on the account page")?,
    ))
}

/// One scorer's session on the server.
struct Scorer {
    url: String,
    session: String,
    csrf: String,
    agent: ureq::Agent,
    /// Taps as `scorer.js` makes them: answered in place.
    js: bool,
}

impl Scorer {
    /// Posts a form and reads the page it is sent to: the page, and how long it all took.
    fn tap(&self, path: &str, fields: &[(&str, &str)]) -> Result<(String, Duration), String> {
        let start = Instant::now();
        let mut form = vec![("csrf", self.csrf.as_str())];
        form.extend_from_slice(fields);
        let mut post = self
            .agent
            .post(&format!("{}{path}", self.url))
            .header("cookie", &self.session);
        if self.js {
            post = post.header("x-scorer-page", "1");
        }
        let resp = post.send_form(form).map_err(|e| format!("{path}: {e}"))?;
        if resp.status() == 200 && self.js {
            let page = resp
                .into_body()
                .read_to_string()
                .map_err(|e| e.to_string())?;
            return Ok((page, start.elapsed()));
        }
        if resp.status() != 303 {
            let status = resp.status();
            let body = resp.into_body().read_to_string().unwrap_or_default();
            return Err(format!(
                "{path}: {status}: {}",
                &body[..body.len().min(600)]
            ));
        }
        let to = resp
            .headers()
            .get("location")
            .and_then(|l| l.to_str().ok())
            .ok_or("no location")?
            .to_owned();
        let page = self.get(&to)?;
        Ok((page, start.elapsed()))
    }

    fn get(&self, path: &str) -> Result<String, String> {
        let mut resp = self
            .agent
            .get(&format!("{}{path}", self.url))
            .header("cookie", &self.session)
            .call()
            .map_err(|e| format!("{path}: {e}"))?;
        resp.body_mut().read_to_string().map_err(|e| e.to_string())
    }
}

/// The version the scorer's page shows.
fn version_of(page: &str) -> Option<u64> {
    page.split("data-version=\"")
        .nth(1)?
        .split('"')
        .next()?
        .parse()
        .ok()
}

/// A page's weight: its HTML's bytes, the files beside it, and all of it in bytes.
type Weight = (usize, usize, usize);

/// Announcements' arrival, and posts' start, by (table, version).
type Clock = Arc<Mutex<HashMap<(usize, u64), Instant>>>;

/// Taps the robot hand in at table `t`; returns each tap's round trip.
fn score_table(
    scorer: &Scorer,
    t: usize,
    hand: &Hand,
    think: Duration,
    posted: &Clock,
    started: &AtomicU64,
    last: &Mutex<HashMap<usize, u64>>,
) -> Result<(Vec<Duration>, Option<Weight>), String> {
    let table = format!("play-t{t}");
    let mut weighed = None;
    let id = format!("{table}-g1-h1");
    let play = format!("/tables/{table}/play");
    let (page, _) = scorer.tap(
        &format!("{play}/start"),
        &[
            ("hand", id.as_str()),
            ("dice", "3 4"),
            ("deal", "wall"),
            ("wall", hand.wall.as_str()),
            ("order", hand.order),
        ],
    )?;
    started.fetch_add(1, Ordering::SeqCst);
    let mut version = version_of(&page).ok_or_else(|| format!("{table}: no version"))?;
    let mut rng = t as u64;
    let mut times = Vec::new();
    for (act, ends) in &hand.acts {
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        std::thread::sleep(think.mul_f64(0.5 + (rng >> 33) as f64 / (1u64 << 31) as f64));
        let v = version.to_string();
        let mut fields = vec![
            ("version", v.as_str()),
            ("hand", id.as_str()),
            ("act", act.as_str()),
        ];
        if *ends {
            fields.push(("laying", "1"));
            fields.extend(hand.laid.iter().map(|(k, h)| (*k, h.as_str())));
        }
        let start = Instant::now();
        let (page, took) = scorer.tap(&play, &fields)?;
        times.push(took);
        if *ends {
            let now = version_of_hand(scorer, &id)?;
            posted.lock().unwrap().insert((t, now), start);
            last.lock().unwrap().insert(t, now);
            break;
        }
        version = version_of(&page).ok_or_else(|| format!("{table}: {act}: no version"))?;
        posted.lock().unwrap().insert((t, version), start);
        if t == 1 && times.len() == 20 {
            weighed = Some(weight(scorer, &table)?);
        }
    }
    Ok((times, weighed))
}

/// The hand's version once it is over (the replay viewer's heading carries it).
fn version_of_hand(scorer: &Scorer, hand: &str) -> Result<u64, String> {
    let page = scorer.get(&format!("/hands/{hand}/at/now"))?;
    version_of(&page).ok_or_else(|| format!("{hand}: no version on the replay"))
}

/// Follows table `t`'s hand until its last version has arrived.
fn spectate(
    url: &str,
    t: usize,
    arrived: &Clock,
    last: &Mutex<HashMap<usize, u64>>,
) -> Result<usize, String> {
    let hand = format!("play-t{t}-g1-h1");
    let agent = agent();
    let resp = loop {
        let resp = agent
            .get(&format!("{url}/hands/{hand}/live"))
            .call()
            .map_err(|e| e.to_string())?;
        if resp.status() == 200 {
            break resp;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut heard = 0;
    let mut newest = 0;
    for line in std::io::BufReader::new(resp.into_body().into_reader()).lines() {
        let line = line.map_err(|e| e.to_string())?;
        if let Some(v) = line
            .strip_prefix("id: ")
            .and_then(|v| v.parse::<u64>().ok())
        {
            let now = Instant::now();
            arrived.lock().unwrap().entry((t, v)).or_insert(now);
            heard += 1;
            newest = v;
        }
        if last.lock().unwrap().get(&t).is_some_and(|&l| newest >= l) {
            break;
        }
    }
    Ok(heard)
}

/// The scorer's page weight on a first visit (a hand in play, twenty acts in): the page, its
/// stylesheet and scripts, and each tile image it shows once.
fn weight(scorer: &Scorer, table: &str) -> Result<Weight, String> {
    let page = scorer.get(&format!("/tables/{table}/play"))?;
    let mut assets: Vec<String> = page
        .split("src=\"")
        .skip(1)
        .chain(page.split("href=\"/static/").skip(1))
        .filter_map(|s| s.split('"').next())
        .map(|s| {
            if s.starts_with('/') {
                s.to_owned()
            } else {
                format!("/static/{s}")
            }
        })
        .filter(|s| s.starts_with("/static/"))
        .collect();
    assets.sort();
    assets.dedup();
    let mut total = page.len();
    for a in &assets {
        total += scorer.get(a)?.len();
    }
    Ok((page.len(), assets.len(), total))
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted.get(i).copied().unwrap_or_default()
}

fn summary(all: &mut [Duration]) -> String {
    all.sort();
    format!(
        "p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        percentile(all, 0.5).as_secs_f64() * 1e3,
        percentile(all, 0.9).as_secs_f64() * 1e3,
        percentile(all, 0.99).as_secs_f64() * 1e3,
        all.last().copied().unwrap_or_default().as_secs_f64() * 1e3,
    )
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [url, password, tables, think, spectators, mode] = args.as_slice() else {
        return Err(
            "usage: scorer_load URL PASSWORD TABLES THINK_MS SPECTATORS_PER_TABLE js|forms".into(),
        );
    };
    let js = match mode.as_str() {
        "js" => true,
        "forms" => false,
        other => return Err(format!("`{other}` is neither `js` nor `forms`").into()),
    };
    let tables: usize = tables.parse()?;
    let think = Duration::from_millis(think.parse()?);
    let spectators: usize = spectators.parse()?;
    let (session, csrf) = log_in(url, password)?;
    let hand = Arc::new(robot_hand());
    let posted: Clock = Arc::default();
    let arrived: Clock = Arc::default();
    let last: Arc<Mutex<HashMap<usize, u64>>> = Arc::default();
    let started = Arc::new(AtomicU64::new(0));
    let watchers: Vec<_> = (1..=tables)
        .flat_map(|t| (0..spectators).map(move |_| t))
        .map(|t| {
            let (url, arrived, last) = (url.clone(), arrived.clone(), last.clone());
            std::thread::spawn(move || spectate(&url, t, &arrived, &last))
        })
        .collect();
    let begin = Instant::now();
    let scorers: Vec<_> = (1..=tables)
        .map(|t| {
            let scorer = Scorer {
                url: url.clone(),
                session: session.clone(),
                csrf: csrf.clone(),
                agent: agent(),
                js,
            };
            let (hand, posted, started, last) =
                (hand.clone(), posted.clone(), started.clone(), last.clone());
            std::thread::spawn(move || {
                score_table(&scorer, t, &hand, think, &posted, &started, &last)
            })
        })
        .collect();
    let mut taps = Vec::new();
    let mut weighed = None;
    for s in scorers {
        let (times, w) = s.join().map_err(|_| "a scorer's thread panicked")??;
        taps.extend(times);
        weighed = weighed.or(w);
    }
    let elapsed = begin.elapsed();
    let mut heard = 0;
    for w in watchers {
        heard += w.join().map_err(|_| "a spectator's thread panicked")??;
    }
    let posted = posted.lock().unwrap();
    let mut delays: Vec<Duration> = arrived
        .lock()
        .unwrap()
        .iter()
        .filter_map(|(k, at)| posted.get(k).map(|p| at.saturating_duration_since(*p)))
        .collect();
    println!(
        "{} taps at {tables} tables in {:.1} s ({:.0} taps/s); round trip ({}) {}",
        taps.len(),
        elapsed.as_secs_f64(),
        taps.len() as f64 / elapsed.as_secs_f64(),
        if js {
            "one request, answered with the page"
        } else {
            "the post and the page it sends to"
        },
        summary(&mut taps)
    );
    if spectators > 0 {
        println!(
            "{} spectators heard {heard} announcements; delay from the scorer's post to the spectator's event {}",
            tables * spectators,
            summary(&mut delays)
        );
    }
    let (page, assets, total) = weighed.ok_or("the first table was not weighed")?;
    println!(
        "the scorer's page on a first visit: {page} bytes of HTML, {assets} files beside it, {:.1} KB in all",
        total as f64 / 1024.0
    );
    Ok(())
}
