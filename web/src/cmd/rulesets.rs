//! `mahjong-referee rulesets [NAME|FILE]`: list the built-in rulesets, or print one (its
//! parameters, options and score table with citations); a house-ruleset file is checked and
//! every problem reported with its line.

use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;
use referee::rules::{Element, Exposure, TileFilter, Value};
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
            outln!("{}", serde_json::to_string_pretty(&list)?)?;
        } else {
            for r in &all {
                let limit = r
                    .params
                    .limit
                    .map_or("none (roof off)".to_owned(), |l| l.to_string());
                outln!("{:<18} {}  [limit {limit}]", r.name, r.title)?;
            }
        }
        return Ok(ExitCode::SUCCESS);
    };
    let r = load(name)?;
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&r)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    out!("{}", describe(&r))?;
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
        "settlement: {}; losers settle: {}; limit hand cancels losers: {}; rounding: {}",
        file_word(&s.method),
        s.losers_settle,
        s.limit_hand_cancels_losers,
        file_word(&s.rounding)
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
    let _ = write!(out, "{}", penalties(r));
    let _ = writeln!(out, "readings (where the book can be read two ways):");
    for (key, value, cite) in readings(r) {
        let _ = writeln!(out, "  {key} = {value}  ({cite})");
    }
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
        let _ = writeln!(out, "      {}", element_test(e));
    }
    out
}

/// A ruleset word as files write it (`new-method`, `nearest-ten`).
fn file_word(v: &impl serde::Serialize) -> String {
    match serde_json::to_value(v) {
        Ok(serde_json::Value::String(s)) => s,
        Ok(other) => other.to_string(),
        Err(_) => String::new(),
    }
}

/// The penalty amounts, in words.
fn penalties(r: &Ruleset) -> String {
    use referee::rules::FalseMahJonggScheme;
    let p = &r.penalties;
    let mut out = format!("penalties ({}):\n", p.cite);
    let false_mahjong = match p.false_mahjong {
        FalseMahJonggScheme::None => "none".to_owned(),
        FalseMahJonggScheme::Fixed => format!(
            "{} to each opponent; two offenders {} each, three {} each, to each non-offender",
            p.false_mahjong_amount, p.false_mahjong_two, p.false_mahjong_three
        ),
        FalseMahJonggScheme::LimitShare => {
            "half the limit to each opponent, the whole limit to East".to_owned()
        }
    };
    let east = if p.false_mahjong_east_double {
        "; East pays and receives double"
    } else {
        ""
    };
    out.push_str(&format!("  false Mah-Jongg: {false_mahjong}{east}\n"));
    out.push_str(&format!(
        "  false naming of a discard claimed for chow {}, for pung or kong {}, for Mah-Jongg {}, for a false Mah-Jongg {}\n",
        p.false_naming_chow, p.false_naming_pung, p.false_naming_mahjong, p.false_naming_false_mahjong
    ));
    if p.new_deal_heads == 0 {
        out.push_str("  new deal for single heads: not played\n");
    } else {
        let pays: Vec<String> = p.new_deal_payments.iter().map(u64::to_string).collect();
        out.push_str(&format!(
            "  new deal for {} or more single heads: each other player pays {} (for {}, one more, …)\n",
            p.new_deal_heads,
            pays.join(", "),
            p.new_deal_heads
        ));
    }
    out
}

/// Each reading as `(key, value as a ruleset file writes it, cite)`; read through serde so a
/// reading added to the ruleset is shown without a change here.
fn readings(r: &Ruleset) -> Vec<(String, String, String)> {
    let Ok(serde_json::Value::Object(all)) = serde_json::to_value(&r.readings) else {
        return Vec::new();
    };
    all.into_iter()
        .map(|(key, reading)| {
            let value = match &reading["value"] {
                serde_json::Value::Null => "\"none\"".to_owned(),
                v => v.to_string(),
            };
            let cite = reading["cite"].as_str().unwrap_or_default().to_owned();
            (key, value, cite)
        })
        .collect()
}

/// What an element tests and who it applies to, as the file's keys say it:
/// `Pung of minor tiles, exposed: when = "pung", tiles = "simples", exposure = "exposed",
/// applies = "all-hands"`.
fn element_test(e: &Element) -> String {
    let quoted = |s: &str| format!("\"{s}\"");
    let list = |items: &[String]| {
        let q: Vec<String> = items.iter().map(|i| quoted(i)).collect();
        format!("[{}]", q.join(", "))
    };
    let when = if e.also.is_empty() {
        quoted(e.condition.name())
    } else {
        let all: Vec<String> = std::iter::once(e.condition)
            .chain(e.also.iter().copied())
            .map(|c| c.name().to_owned())
            .collect();
        list(&all)
    };
    let mut keys = vec![format!("when = {when}")];
    if e.tiles != TileFilter::Any {
        keys.push(format!("tiles = {}", quoted(e.tiles.name())));
    }
    if e.exposure != Exposure::Any {
        keys.push(format!("exposure = {}", quoted(e.exposure.name())));
    }
    if let Some(shape) = e.shape {
        keys.push(format!("shape = {}", quoted(shape.name())));
    }
    if e.at_least != 0 {
        keys.push(format!("at_least = {}", e.at_least));
    }
    if !e.except.is_empty() {
        keys.push(format!("except = {}", list(&e.except)));
    }
    keys.push(format!("applies = {}", quoted(e.applies.name())));
    if let Some(d) = e.unlimited_doubles {
        keys.push(format!("unlimited_doubles = {d}"));
    }
    if !e.excludes.is_empty() {
        keys.push(format!("excludes = {}", list(&e.excludes)));
    }
    format!("{}: {}", e.name, keys.join(", "))
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
