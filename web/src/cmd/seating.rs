//! `mahjong-referee seating`: a seating plan for a club tournament (issue 14), and its
//! repeated meetings.
//!
//! The plan is made by `referee::seating` from the method and the seed (and, for Swiss and
//! progressive, the results so far, `--results FILE`), so the same command prints the same
//! plan; nothing here decides a seat. Output: each session's tables, players in chair order
//! (East, South, West, North, and at a table of five the Dreamer of the first hand), then the
//! repeated meetings and the chair balance; `--json` prints
//! `{"sessions": [[[1, 2, 3, 4], ...], ...], "repeats": {...}, ...}`.
//!
//! A request the referee refuses (too few or too many players or sessions, a remainder policy
//! that cannot seat the players, results of the wrong shape) prints every problem and exits
//! with status 2, as does a results file that is not JSON; an unreadable file is status 1.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use referee::seating::{plan, Chair, Meetings, Method, Plan, PlanRequest, Remainder};

#[derive(clap::Args)]
pub struct Args {
    /// How many players (numbered from 1).
    #[arg(long)]
    pub players: u64,
    /// How many sessions.
    #[arg(long)]
    pub sessions: u64,
    /// no-repeat, swiss, progressive or random.
    #[arg(long)]
    pub method: Method,
    /// The seed the plan is drawn from (record it with the plan).
    #[arg(long)]
    pub seed: u64,
    /// Players left over from tables of four: fewest (tables of five or three, the fewest),
    /// fives, threes or byes.
    #[arg(long, default_value = "fewest")]
    pub remainder: Remainder,
    /// For swiss and progressive: a JSON file of the sessions played, each a list of every
    /// player's net in that session (`[[10, -10, ...], ...]`, player 1 first).
    #[arg(long)]
    pub results: Option<PathBuf>,
    /// Print the plan as JSON.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let results: Vec<Vec<i64>> = match &args.results {
        None => Vec::new(),
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("reading {}", path.display()))?;
            match serde_json::from_str(&text) {
                Ok(results) => results,
                Err(e) => {
                    eprintln!(
                        "error: {}: {e} (expected a list of sessions, each a list of every player's net)",
                        path.display()
                    );
                    return Ok(ExitCode::from(2));
                }
            }
        }
    };
    let request = PlanRequest {
        players: args.players,
        sessions: args.sessions,
        method: args.method,
        remainder: args.remainder,
        seed: args.seed,
        results,
    };
    let plan = match plan(&request) {
        Ok(plan) => plan,
        Err(e) => {
            eprintln!("error: no seating plan:");
            for problem in &e.problems {
                eprintln!("  {problem}");
            }
            return Ok(ExitCode::from(2));
        }
    };
    let text = if args.json {
        format!("{}\n", serde_json::to_string_pretty(&as_json(&plan))?)
    } else {
        describe(&plan)
    };
    super::print_stdout(&text)?;
    Ok(ExitCode::SUCCESS)
}

/// How many sessions still wait for results.
fn pending(plan: &Plan) -> usize {
    usize::from(plan.layout().sessions()) - plan.sessions().len()
}

fn as_json(plan: &Plan) -> serde_json::Value {
    let m = plan.meetings();
    let mut json = serde_json::json!({
        "method": plan.method().name(),
        "seed": plan.seed(),
        "players": plan.layout().players(),
        "remainder": plan.layout().remainder().name(),
        "sessions": plan.sessions().iter().map(|s| &s.tables).collect::<Vec<_>>(),
        "repeats": {
            "repeats": m.repeats,
            "pairs_repeated": m.pairs_repeated,
            "most": m.most,
            "pairs": m.repeated.iter().map(|(a, b, n)| serde_json::json!([a, b, n])).collect::<Vec<_>>(),
        },
        "chairs": {
            "east": { "fewest": m.east().0, "most": m.east().1 },
            "wind_spread": m.wind_spread(),
        },
        "pending_sessions": pending(plan),
    });
    if plan.layout().byes() > 0 {
        json["byes"] =
            serde_json::json!(plan.sessions().iter().map(|s| &s.byes).collect::<Vec<_>>());
    }
    json
}

fn describe(plan: &Plan) -> String {
    let layout = plan.layout();
    let mut out = String::new();
    let sizes: Vec<String> = layout.tables().iter().map(u8::to_string).collect();
    let _ = writeln!(
        out,
        "{} seating: {} players, {} sessions, seed {}; tables of {} (remainder: {}){}",
        plan.method(),
        layout.players(),
        layout.sessions(),
        plan.seed(),
        sizes.join(", "),
        layout.remainder(),
        if layout.byes() > 0 {
            format!(", {} sitting out", layout.byes())
        } else {
            String::new()
        }
    );
    for (s, session) in plan.sessions().iter().enumerate() {
        let _ = writeln!(out, "session {}", s + 1);
        for (t, table) in session.tables.iter().enumerate() {
            let seats: Vec<String> = table
                .iter()
                .enumerate()
                .map(|(i, p)| format!("{p} {}", Chair::at(i).letter()))
                .collect();
            let _ = writeln!(out, "  table {}: {}", t + 1, seats.join(", "));
        }
        if !session.byes.is_empty() {
            let byes: Vec<String> = session.byes.iter().map(ToString::to_string).collect();
            let _ = writeln!(out, "  sitting out: {}", byes.join(", "));
        }
    }
    let left = pending(plan);
    if left > 0 {
        let _ = writeln!(
            out,
            "sessions {} to {} follow from the results of the sessions before them (--results FILE)",
            plan.sessions().len() + 1,
            layout.sessions()
        );
    }
    out.push_str(&report(&plan.meetings()));
    out
}

fn report(m: &Meetings) -> String {
    let mut out = format!(
        "repeated meetings: {} ({} pairs meet more than once; the most one pair meets: {})\n",
        m.repeats, m.pairs_repeated, m.most
    );
    if !m.repeated.is_empty() {
        let shown: Vec<String> = m
            .repeated
            .iter()
            .take(20)
            .map(|(a, b, n)| format!("{a} & {b} ×{n}"))
            .collect();
        let more = m.repeated.len().saturating_sub(20);
        let _ = writeln!(
            out,
            "  {}{}",
            shown.join(", "),
            if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            }
        );
    }
    let (fewest, most) = m.east();
    let _ = writeln!(
        out,
        "East: each player {fewest} to {most} times; winds: no player's counts of East, South, West and North differ by more than {}",
        m.wind_spread()
    );
    let (fewest, most) = m.byes_range();
    if most > 0 {
        let _ = writeln!(out, "sitting out: each player {fewest} to {most} times");
    }
    out
}
