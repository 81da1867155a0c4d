//! `mahjong-referee rulesets [NAME|FILE]`: list the built-in rulesets, or print one (its
//! parameters, options and score table with citations); a house-ruleset file is checked and
//! every problem reported with its line.

use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;
use referee::rules::{Element, Value};
use referee::Ruleset;

#[derive(clap::Args)]
pub struct Args {
    /// A built-in name or a house-ruleset file to show; without it, list the built-ins.
    pub ruleset: Option<String>,
    /// Print as JSON.
    #[arg(long)]
    pub json: bool,
}

/// A built-in by name, or a house-ruleset file by path.
pub fn load(name_or_path: &str) -> anyhow::Result<Ruleset> {
    if let Some(r) = Ruleset::builtin(name_or_path) {
        return Ok(r);
    }
    let path = Path::new(name_or_path);
    if !path.exists() {
        let names: Vec<&str> = Ruleset::builtin_names().collect();
        anyhow::bail!(
            "`{name_or_path}` is neither a built-in ruleset ({}) nor a file",
            names.join(", ")
        );
    }
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    Ruleset::parse(&text).with_context(|| format!("{}", path.display()))
}

/// A ruleset as a hand is played under it: [`load`], then `options` switched on and, with
/// `no_limit`, the roof off. `score` and `settle` both take these three.
pub fn load_playing(
    name_or_path: &str,
    options: &[String],
    no_limit: bool,
) -> anyhow::Result<Ruleset> {
    let mut rules = load(name_or_path)?;
    for o in options {
        rules.set_option(o, true).map_err(anyhow::Error::msg)?;
    }
    if no_limit {
        rules.params.limit = None;
    }
    Ok(rules)
}

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let Some(name) = &args.ruleset else {
        let all: Vec<Ruleset> = Ruleset::builtin_names()
            .filter_map(Ruleset::builtin)
            .collect();
        if args.json {
            let list: Vec<serde_json::Value> = all
                .iter()
                .map(|r| {
                    serde_json::json!({
                        "name": r.name, "title": r.title, "source": r.source,
                        "limit": r.params.limit, "options": r.options.keys().collect::<Vec<_>>(),
                    })
                })
                .collect();
            println!("{}", serde_json::to_string_pretty(&list)?);
        } else {
            for r in &all {
                let limit = r
                    .params
                    .limit
                    .map_or("none (roof off)".to_owned(), |l| l.to_string());
                println!("{:<18} {}  [limit {limit}]", r.name, r.title);
            }
        }
        return Ok(ExitCode::SUCCESS);
    };
    let r = load(name)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&r)?);
        return Ok(ExitCode::SUCCESS);
    }
    print!("{}", describe(&r));
    Ok(ExitCode::SUCCESS)
}

fn describe(r: &Ruleset) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(out, "{} — {}", r.name, r.title);
    let _ = writeln!(out, "source: {}", r.source);
    if let Some(b) = &r.base {
        let _ = writeln!(out, "house ruleset based on {b}");
    }
    let p = &r.params;
    let _ = writeln!(
        out,
        "limit: {}; bonus tiles: {}; most chows: {}; dead wall: {}",
        p.limit
            .map_or("none (roof off)".to_owned(), |l| l.to_string()),
        if p.bonus_tiles { "yes" } else { "no" },
        p.max_chows,
        p.dead_wall
    );
    let s = &r.settlement;
    let _ = writeln!(
        out,
        "settlement: {:?}; losers settle: {}; limit hand cancels losers: {}; rounding: {:?}",
        s.method, s.losers_settle, s.limit_hand_cancels_losers, s.rounding
    );
    let t = &r.rotation;
    let _ = writeln!(
        out,
        "rotation: the deal passes {}; East keeps it after a wash-out: {}; {} round(s) a game; East gives up after {} ({})",
        match t.deal_passes {
            referee::rules::DealPasses::Right => "to East's right",
            referee::rules::DealPasses::ToWinner => "to the winner",
        },
        t.east_keeps_on_wash_out,
        t.rounds_per_game,
        match t.east_gives_up_after {
            0 => "no number of wins".to_owned(),
            n => format!("{n} wins in succession"),
        },
        t.cite
    );
    if !r.options.is_empty() {
        let _ = writeln!(out, "options:");
        for (name, o) in &r.options {
            let on = if r.option_on(name) { "on " } else { "off" };
            let _ = writeln!(out, "  [{on}] {name}: {} ({})", o.description, o.cite);
        }
    }
    let _ = writeln!(out, "score table:");
    for e in &r.elements {
        let _ = writeln!(out, "  {}", element_line(r, e));
    }
    out
}

fn element_line(r: &Ruleset, e: &Element) -> String {
    let value = match e.value {
        Value::Points(p) => format!("{p} points"),
        Value::Doubles(1) => "1 double".to_owned(),
        Value::Doubles(d) => format!("{d} doubles"),
        Value::Limit(s) => format!("limit ({})", s.name()),
    };
    let mut line = format!("{:<34} {:<14} {}", e.id, value, e.cite);
    if let Some(o) = &e.option {
        let state = if r.option_on(o) { "on" } else { "off" };
        line.push_str(&format!("  [option {o}: {state}]"));
    }
    if !e.enabled {
        line.push_str("  [disabled]");
    }
    line
}
