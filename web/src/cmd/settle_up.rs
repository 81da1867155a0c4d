//! `mahjong-referee settle-up FILE|- [--starting CHIPS] [--json]`: the treasurer's page (issue
//! 14) — who pays whom with the fewest transfers, from each player's net at the end of a
//! session or of the tournament, and each player's chips with a warning for those who have run
//! out. The input is a JSON list of nets, player 1 first (`[-30, 10, 20]`). The arithmetic is
//! `referee::treasurer`'s; nets that do not add up to zero are refused (status 2).

use std::fmt::Write as _;
use std::io::Read;
use std::process::ExitCode;

use anyhow::Context;
use referee::treasurer::{chips, fewest_transfers, EXACT_UP_TO};

#[derive(clap::Args)]
pub struct Args {
    /// A JSON file with the nets (`[-30, 10, 20]`, player 1 first), or `-` for standard input.
    pub file: String,
    /// Chips each player started with (Babcock p. 4: 2,000 points of counters).
    #[arg(long, default_value_t = 2_000)]
    pub starting: i64,
    /// Print the transfers and chips as JSON.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let mut text = String::new();
    if args.file == "-" {
        std::io::stdin()
            .read_to_string(&mut text)
            .context("reading standard input")?;
    } else {
        text = std::fs::read_to_string(&args.file)
            .with_context(|| format!("reading {}", args.file))?;
    }
    let nets: Vec<i64> = match serde_json::from_str(&text) {
        Ok(nets) => nets,
        Err(e) => {
            eprintln!(
                "error: {}: {e} (expected a list of nets, player 1 first)",
                args.file
            );
            return Ok(ExitCode::from(2));
        }
    };
    let settled = fewest_transfers(&nets).and_then(|s| Ok((s, chips(args.starting, &nets)?)));
    let (settlement, chips) = match settled {
        Ok(done) => done,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    let number = |p: usize| p + 1;
    let out = if args.json {
        let json = serde_json::json!({
            "transfers": settlement.transfers.iter().map(|t| serde_json::json!({
                "from": number(t.from), "to": number(t.to), "amount": t.amount,
            })).collect::<Vec<_>>(),
            "fewest": settlement.exact,
            "chips": chips.chips,
            "out_of_chips": chips.out.iter().map(|&p| number(p)).collect::<Vec<_>>(),
        });
        format!("{}\n", serde_json::to_string_pretty(&json)?)
    } else {
        let mut out = format!(
            "{} transfers ({}):\n",
            settlement.transfers.len(),
            if settlement.exact {
                "the fewest possible".to_owned()
            } else {
                format!("greedy: more than {EXACT_UP_TO} players owed, not proven the fewest")
            }
        );
        for t in &settlement.transfers {
            let _ = writeln!(
                out,
                "  player {} pays player {}: {}",
                number(t.from),
                number(t.to),
                t.amount
            );
        }
        let _ = writeln!(out, "chips (starting with {}):", args.starting);
        for (p, c) in chips.chips.iter().enumerate() {
            let _ = writeln!(out, "  player {}: {c}", number(p));
        }
        for &p in &chips.out {
            let _ = writeln!(
                out,
                "warning: player {} has run out of chips ({})",
                number(p),
                chips.chips[p]
            );
        }
        out
    };
    super::print_stdout(&out)?;
    Ok(ExitCode::SUCCESS)
}
