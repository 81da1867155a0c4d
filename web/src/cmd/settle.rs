//! `mahjong-referee settle FILE|-`: the payments of one finished hand, from its four hands.
//!
//! The input is one JSON object: the table's report of the hand (the fields of
//! [`HandReport`]: `hands` by seat, `winner`, `win_from`, `discarder`, `circumstances`,
//! `penalties`) with the
//! ruleset and where the table stands (`east`: the seat whose player deals; `prevailing`;
//! `east_wins_before`). The referee checks it, scores each hand in the wind its player holds
//! and settles by the ruleset's method (`referee::table`: the same path as recording a hand in
//! the service), so nothing here decides a rule.
//!
//! Output: each seat's wind, score and net, then the payments (`--json`: the same with every
//! score sheet). A report the rules refuse prints every violation with its field and rule,
//! and the exit status is 2 — as it is for input that is not such an object, or a ruleset
//! that cannot be loaded. Status 1 is left for a file that cannot be read.

use std::fmt::Write as _;
use std::io::Read;
use std::process::ExitCode;

use anyhow::Context;
use referee::score::Circumstances;
use referee::settle::Penalty;
use referee::table::{HandReport, Position, Settled};
use referee::{BySeat, Ruleset, Seat, Violation, Violations, WinFrom, Wind};
use serde::Deserialize;

#[derive(clap::Args)]
pub struct Args {
    /// A JSON file with the hand (see README), or `-` for standard input.
    pub file: String,
    /// Print the settlement, with every score sheet, as JSON.
    #[arg(long)]
    pub json: bool,
}

/// The hand to settle, as sent. Keys not listed are refused.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Request {
    /// A built-in ruleset name or a house-ruleset file.
    #[serde(default = "default_ruleset")]
    ruleset: String,
    /// Ruleset options to switch on.
    #[serde(default)]
    options: Vec<String>,
    /// Play with the roof off.
    #[serde(default)]
    no_limit: bool,
    /// The wind of the round.
    #[serde(default = "east_wind")]
    prevailing: Wind,
    /// The seat whose player is East (the dealer) this hand (Code §108: pays and is paid double).
    #[serde(default = "east_seat")]
    east: Seat,
    /// East's wins in succession before this hand (Code §122(r)).
    #[serde(default)]
    east_wins_before: u32,
    // The report itself, field for field (so a field added to the report is a compile error
    // here until it is taken).
    #[serde(default)]
    hands: BySeat<Option<String>>,
    #[serde(default)]
    winner: Option<Seat>,
    #[serde(default)]
    win_from: Option<WinFrom>,
    #[serde(default)]
    discarder: Option<Seat>,
    /// The last tile, Kong upon Kong, an original call, a blessing.
    #[serde(default)]
    circumstances: Circumstances,
    #[serde(default)]
    penalties: Vec<Penalty<Seat>>,
    /// The seats whose losing hands are short (Code §89(a)), scored as they are (§89(c)).
    #[serde(default)]
    short: Vec<referee::Seat>,
    /// The discards on the table, for "the only place" (Code §115(c)).
    #[serde(default)]
    discards: Vec<referee::Tile>,
}

fn default_ruleset() -> String {
    "code-of-laws".to_owned()
}

fn east_wind() -> Wind {
    Wind::East
}

fn east_seat() -> Seat {
    Seat::East
}

impl Request {
    fn report(&self) -> HandReport {
        HandReport {
            hands: self.hands.clone(),
            winner: self.winner,
            win_from: self.win_from,
            discarder: self.discarder,
            circumstances: self.circumstances,
            penalties: self.penalties.clone(),
            discards: self.discards.clone(),
            short: self.short.clone(),
        }
    }

    fn position(&self) -> Position {
        Position {
            east: self.east,
            prevailing: self.prevailing,
            east_wins: self.east_wins_before,
            ..Position::FIRST
        }
    }
}

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let text = read(&args.file)?;
    let (request, settled) = match settle(&text) {
        Ok(done) => done,
        Err(violations) => {
            if args.json {
                super::print_stdout(&format!(
                    "{}\n",
                    serde_json::json!({ "violations": violations })
                ))?;
            } else {
                eprintln!("error: the hand cannot be settled:");
                for v in violations.iter() {
                    eprintln!("  {v}");
                }
            }
            return Ok(ExitCode::from(2));
        }
    };
    let text = if args.json {
        format!(
            "{}\n",
            serde_json::to_string_pretty(&as_json(&request, &settled))?
        )
    } else {
        describe(&request, &settled)
    };
    super::print_stdout(&text)?;
    Ok(ExitCode::SUCCESS)
}

fn read(file: &str) -> anyhow::Result<String> {
    let mut text = String::new();
    if file == "-" {
        std::io::stdin()
            .read_to_string(&mut text)
            .context("reading standard input")?;
    } else {
        text = std::fs::read_to_string(file).with_context(|| format!("reading {file}"))?;
    }
    Ok(text)
}

/// Parses, checks, scores and settles; every problem found on the way, with its field.
fn settle(text: &str) -> Result<(Request, Settled), Violations> {
    let request: Request = serde_json::from_str(text).map_err(|e| {
        let message = e.to_string();
        let message = message
            .rsplit_once(" at line ")
            .map_or(message.as_str(), |(m, _)| m);
        Violation::new(
            "",
            format!("line {} column {}: {message}", e.line(), e.column()),
        )
    })?;
    let rules = referee_rules(&request);
    let facts = request.report().check();
    let (rules, facts) = match (rules, facts) {
        (Ok(r), Ok(f)) => (r, f),
        (rules, facts) => {
            let mut all = Violations::new();
            if let Err(v) = rules {
                all.push(v);
            }
            for v in facts.err().into_iter().flatten() {
                all.push(v);
            }
            return Err(all);
        }
    };
    let settled = facts.score_and_settle(&rules, &request.position())?;
    Ok((request, settled))
}

fn referee_rules(r: &Request) -> Result<Ruleset, Violation> {
    super::rulesets::load_playing(&r.ruleset, &r.options, r.no_limit)
        .map_err(|e| Violation::new("ruleset", format!("{e:#}")))
}

fn as_json(request: &Request, s: &Settled) -> serde_json::Value {
    serde_json::json!({
        "ruleset": s.sheets.east.ruleset,
        "east": request.east,
        "prevailing": request.prevailing,
        "winds": BySeat::from_fn(|seat| seat.wind(request.east)),
        "totals": s.sheets.as_ref().map(|sheet| sheet.total),
        "nets": s.nets,
        "payments": s.payments,
        "sheets": s.sheets,
    })
}

fn describe(request: &Request, s: &Settled) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Settled under {}; East sits {}, prevailing wind {}.",
        s.sheets.east.ruleset, request.east, request.prevailing
    );
    let _ = writeln!(out, "seat   wind    score      net");
    for (seat, sheet) in s.sheets.iter() {
        let won = if request.winner == Some(seat) {
            "  Mah-Jongg"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "{:<6} {:<6} {:>6} {:>+8}{won}",
            seat.name(),
            seat.wind(request.east).name(),
            sheet.total,
            s.nets[seat],
        );
    }
    let _ = writeln!(out, "payments:");
    if s.payments.is_empty() {
        let _ = writeln!(out, "  none");
    }
    for p in &s.payments {
        let _ = writeln!(out, "  {} pays {} {}", p.payer, p.payee, p.amount);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_problem_is_listed_with_its_field() {
        let v = settle(
            r#"{"ruleset": "nope", "winner": "south", "hands": {"east": null, "south": "123x", "west": null, "north": null}}"#,
        )
        .unwrap_err();
        let fields: Vec<&str> = v.iter().map(|v| v.field.as_str()).collect();
        assert_eq!(fields, ["ruleset", "hands.south", "win_from"], "{v}");
    }

    #[test]
    fn bad_json_says_where() {
        let v = settle("{\n  \"winer\": \"south\"\n}").unwrap_err();
        let text = v.to_string();
        assert!(
            text.contains("line 2 column") && text.contains("unknown field `winer`"),
            "{text}"
        );
        assert!(settle("[1, 2").is_err());
        assert!(settle("").is_err());
    }
}
