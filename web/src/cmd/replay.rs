//! `mahjong-referee replay FILE [--ruleset NAME|FILE] [--at N] [--json]`: one hand replayed
//! event by event, and its state at event N (the end by default).
//!
//! FILE is an mj-server hand history (`hand-NN.mjs`) or a hand's stream as `export` writes it
//! (JSON Lines, one event per line). The replay is `referee::play`'s: every event is applied
//! as legal, irregular (listed with its rule) or inconsistent (the replay stops there, with
//! the event and why, exit status 2). At the end of a finished hand the hands are scored and
//! settled by the same code as a hand recorded at its end; for an `.mjs`, each score and the
//! settlement are set beside the server's.
//!
//! An `.mjs` is replayed under the Code of Laws unless `--ruleset` names another; its options
//! are read for the rules of play, and one this replay cannot honour is named in a warning.

use std::fmt::Write as _;
use std::process::ExitCode;

use anyhow::Context;
use referee::adjudicate::{settle, Replay};
use referee::event::HandEvent;
use referee::import::mjs;
use referee::play::{Concealed, PlayRules, PlayState};
use referee::table::Settled;
use referee::{Ruleset, Seat};
use serde_json::json;

#[derive(clap::Args)]
pub struct Args {
    /// An mj-server `.mjs` hand history, or a hand stream exported as JSON Lines.
    pub file: String,
    /// A built-in ruleset name or a house-ruleset file (default: code-of-laws).
    #[arg(long)]
    pub ruleset: Option<String>,
    /// Show the state after this many events (the start is event 0).
    #[arg(long)]
    pub at: Option<usize>,
    /// Print as JSON.
    #[arg(long)]
    pub json: bool,
}

/// A hand read from a file: how it starts, its events with where each came from, and (for an
/// `.mjs`) the server's own results.
pub(super) struct Source {
    pub started: referee::event::HandStarted,
    pub events: Vec<(String, HandEvent)>,
    pub server: Option<mjs::MjsHand>,
}

/// Reads an `.mjs` hand history or an exported hand stream.
pub(super) fn read_source(path: &str) -> anyhow::Result<Source> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {path}"))?;
    if path.ends_with(".mjs") || text.starts_with("Player ") {
        let hand = mjs::read(&text, "imported".parse()?, 1, 1)
            .map_err(|e| anyhow::anyhow!("{path}: {e}"))?;
        return Ok(Source {
            started: hand.started.clone(),
            events: hand
                .events
                .iter()
                .map(|(line, e)| (format!("line {line}"), e.clone()))
                .collect(),
            server: Some(hand),
        });
    }
    let mut started = None;
    let mut play = referee::event::PlayPicker::default();
    for (i, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let at = format!("line {}", i + 1);
        let v: serde_json::Value =
            serde_json::from_str(line).with_context(|| format!("{path} {at}: not JSON"))?;
        // An export's closing signature: `import` checks it; the replay reads the events.
        if v.get("signed").is_some() {
            continue;
        }
        let kind = v["event_type"]
            .as_str()
            .with_context(|| format!("{path} {at}: no `event_type`"))?;
        let version = v["schema_version"].as_u64().unwrap_or(1) as u32;
        let payload = serde_json::to_vec(&v["payload"])?;
        let event = ledger::Event::decode(kind, version, &payload)
            .map_err(|e| anyhow::anyhow!("{path} {at}: {e}"))?;
        let event = HandEvent::try_from(event)
            .map_err(|_| anyhow::anyhow!("{path} {at}: `{kind}` is not an event of a hand"))?;
        match event {
            HandEvent::HandStarted(s) if started.is_none() => started = Some(s),
            HandEvent::HandStarted(_) => anyhow::bail!("{path} {at}: the hand starts twice"),
            _ if started.is_none() => {
                anyhow::bail!("{path} {at}: a hand stream begins with `hand_started`")
            }
            // What follows the play (the score and settlement, rulings) is not replayed: the
            // replay derives its own; a scorer's strike takes his last entry back out.
            e => {
                play.push(at, e);
            }
        }
    }
    Ok(Source {
        started: started.with_context(|| format!("{path}: no `hand_started` event"))?,
        events: play.finish(),
        server: None,
    })
}

/// The ruleset named (the Code of Laws by default), and for an `.mjs` replayed under the Code
/// a warning for each game option it cannot honour.
pub(super) fn ruleset(
    named: Option<&str>,
    server: Option<&mjs::MjsHand>,
) -> anyhow::Result<(Ruleset, Vec<String>)> {
    let name = named.unwrap_or("code-of-laws");
    let rules = super::rulesets::load_playing(name, &[], false)?;
    Ok((rules, server_warnings(named, server)))
}

/// Where a server game's options depart from the Code the replay follows (none when a ruleset
/// was named: it is then the user's choice).
pub(super) fn server_warnings(named: Option<&str>, server: Option<&mjs::MjsHand>) -> Vec<String> {
    let mut warnings = Vec::new();
    if let (Some(hand), None) = (server, named) {
        for (option, code_value) in [("DeadWall16", "1"), ("FlowersLoose", "0"), ("Flowers", "1")] {
            if let Some(v) = hand.options.get(option) {
                if v != code_value {
                    warnings.push(format!(
                        "the game was played with {option} {v}; this replay follows the Code ({option} {code_value})"
                    ));
                }
            }
        }
    }
    warnings
}

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let source = read_source(&args.file)?;
    let (rules, warnings) = ruleset(args.ruleset.as_deref(), source.server.as_ref())?;
    let until = args.at.unwrap_or(usize::MAX).min(source.events.len());
    let replayed = Replay::replay(
        PlayRules::of(&rules),
        &source.started,
        source.events[..until].iter().map(|(_, e)| e),
    )?;
    // Each irregularity and the refused event, with the line each came from (event n is the
    // n-th after the start).
    let line = |n: usize| {
        source
            .events
            .get(n.wrapping_sub(1))
            .map_or("", |(at, _)| at.as_str())
    };
    let irregular: Vec<(usize, String, String)> = replayed
        .irregular
        .iter()
        .map(|(n, i)| (*n, line(*n).to_owned(), i.to_string()))
        .collect();
    let failed = replayed
        .refused
        .as_ref()
        .map(|err| format!("{}: {err}", line(err.event)));
    let play = replayed.replay;
    // A single hand: East's earlier wins are not known (§122(r) counts from none).
    let settled = match failed {
        None => settle(&play, &rules, 0)
            .map_err(|v| anyhow::anyhow!("{v}"))?
            .map(|(_, s)| s),
        Some(_) => None,
    };
    let text = if args.json {
        let v = to_json(
            &play,
            &irregular,
            failed.as_deref(),
            settled.as_ref(),
            &source,
            &warnings,
        );
        format!("{}\n", serde_json::to_string_pretty(&v)?)
    } else {
        to_text(
            &play,
            &irregular,
            failed.as_deref(),
            settled.as_ref(),
            &source,
            &warnings,
        )
    };
    super::print_stdout(&text)?;
    Ok(if failed.is_some() {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    })
}

fn concealed(c: &Concealed) -> String {
    match c {
        Concealed::Known(t) => t.format(referee::Style::Compressed),
        Concealed::Counted(n) => format!("{n} unseen"),
    }
}

fn seat_lines(state: &PlayState) -> Vec<(Seat, String)> {
    Seat::ALL
        .iter()
        .map(|&seat| {
            let s = &state.seats[seat];
            let sets: Vec<String> = s.sets.iter().map(|p| format!("[{}]", p.set)).collect();
            let bonus: Vec<String> = s.bonus.iter().map(ToString::to_string).collect();
            let discards: Vec<String> = s
                .discards
                .iter()
                .map(|&i| {
                    let d = &state.discards[i];
                    match d.claimed_by {
                        Some(by) => format!("{}→{by}", d.placed),
                        None => d.placed.to_string(),
                    }
                })
                .collect();
            (
                seat,
                format!(
                    "{} ({}): {} {} {} | discards {}",
                    seat,
                    state.wind_of(seat),
                    concealed(&s.concealed),
                    sets.join(" "),
                    bonus.join(" "),
                    discards.join(" ")
                ),
            )
        })
        .collect()
}

fn to_text(
    play: &Replay,
    irregular: &[(usize, String, String)],
    failed: Option<&str>,
    settled: Option<&Settled>,
    source: &Source,
    warnings: &[String],
) -> String {
    let state = play.state();
    let mut out = String::new();
    for w in warnings {
        let _ = writeln!(out, "warning: {w}");
    }
    let _ = writeln!(
        out,
        "after event {} of {}: {}; live wall {}, kong box {}",
        play.events() - 1,
        source.events.len(),
        state.turn,
        state.wall.live,
        state.wall.kong_box
    );
    if let Some(d) = state.live_discard() {
        let _ = writeln!(out, "live discard: {} from {}", d.placed, d.seat);
    }
    for (_, line) in seat_lines(state) {
        let _ = writeln!(out, "  {line}");
    }
    for (n, at, what) in irregular {
        let _ = writeln!(out, "irregular, event {n} ({at}): {what}");
    }
    if let Some(f) = failed {
        let _ = writeln!(out, "inconsistent: {f}");
    }
    if let Some(s) = settled {
        let _ = writeln!(out, "scores and settlement:");
        for seat in Seat::ALL {
            let server = source.server.as_ref().and_then(|h| {
                h.scores
                    .iter()
                    .find(|(s, _, _)| *s == seat)
                    .map(|(_, score, _)| format!(" (server {score})"))
            });
            let _ = writeln!(
                out,
                "  {seat} ({}): score {}{}, net {}",
                state.wind_of(seat),
                s.sheets[seat].total,
                server.unwrap_or_default(),
                s.nets[seat]
            );
        }
        if let Some((changes, _)) = source.server.as_ref().and_then(|h| h.settlement.clone()) {
            let ours = s.nets.to_winds(state.east).into_array();
            let _ = writeln!(
                out,
                "  the server's settlement, East to North: {changes:?} ({})",
                if ours == changes {
                    "the same"
                } else {
                    "different"
                }
            );
        }
    }
    out
}

fn to_json(
    play: &Replay,
    irregular: &[(usize, String, String)],
    failed: Option<&str>,
    settled: Option<&Settled>,
    source: &Source,
    warnings: &[String],
) -> serde_json::Value {
    let state = play.state();
    let seats: serde_json::Map<String, serde_json::Value> = Seat::ALL
        .iter()
        .map(|&seat| {
            let s = &state.seats[seat];
            let mut v = json!({
                "seat": seat,
                "concealed": concealed(&s.concealed),
                "sets": s.sets.iter().map(|p| p.set.to_string()).collect::<Vec<_>>(),
                "bonus": s.bonus.iter().map(ToString::to_string).collect::<Vec<_>>(),
                "discards": s.discards.iter().map(|&i| state.discards[i].placed.to_string()).collect::<Vec<_>>(),
            });
            if let Some(st) = settled {
                v["score"] = json!(st.sheets[seat].total);
                v["sheet"] = serde_json::to_value(&st.sheets[seat]).unwrap_or_default();
                v["net"] = json!(st.nets[seat]);
            }
            (state.wind_of(seat).to_string().to_lowercase(), v)
        })
        .collect();
    let mut v = json!({
        "event": play.events() - 1,
        "events": source.events.len(),
        "turn": state.turn.to_string(),
        "wall": {"live": state.wall.live, "kong_box": state.wall.kong_box},
        "seats": seats,
        "irregular": irregular.iter().map(|(n, at, what)| json!({"event": n, "at": at, "what": what})).collect::<Vec<_>>(),
        "warnings": warnings,
    });
    if let Some(f) = failed {
        v["inconsistent"] = json!(f);
    }
    if let Some(s) = settled {
        let nets = s.nets.to_winds(state.east);
        v["settlement"] = json!({
            "nets": {"east": nets.east, "south": nets.south, "west": nets.west, "north": nets.north},
            "payments": s.payments.iter().map(|p| json!({
                "from": p.payer.wind(state.east).to_string().to_lowercase(),
                "to": p.payee.wind(state.east).to_string().to_lowercase(),
                "amount": p.amount,
            })).collect::<Vec<_>>(),
        });
    }
    v
}
