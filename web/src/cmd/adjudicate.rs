//! `mahjong-referee adjudicate FILE [--ruleset NAME|FILE] [--json]`: what a referee must rule
//! on in one hand recorded play by play, and the settlement that follows.
//!
//! FILE is what `replay` reads: an mj-server hand history (`hand-NN.mjs`) or a hand's stream as
//! `export` writes it. The hand is replayed to its end (an inconsistent event stops it, exit
//! status 2) and its findings listed (`referee::adjudicate::findings`): a cannon let off (Code
//! §90–96) or excused by a plea of No Choice (§95), and every event the replay flagged against
//! a rule of play. Each names the player concerned, the events it rests on and the sections it
//! cites, and explains itself. The settlement is the one the findings bring under the ruleset:
//! under the Code's cannons, the discarder paying for all (§96).
//!
//! JSON keys seats by the wind each holds in that hand: `{"findings": [{"kind": "cannon",
//! "offender": "south", "events": [305], "citations": ["Code §90(a)", …], "text": "…"}],
//! "settlement": {"nets": {"east": …}, "payments": […]}}`.

use std::fmt::Write as _;
use std::process::ExitCode;

use referee::adjudicate::findings;
use referee::play::{Play, PlayRules};
use serde_json::json;

use super::replay::{read_source, ruleset};

#[derive(clap::Args)]
pub struct Args {
    /// An mj-server `.mjs` hand history, or a hand stream exported as JSON Lines.
    pub file: String,
    /// A built-in ruleset name or a house-ruleset file (default: code-of-laws).
    #[arg(long)]
    pub ruleset: Option<String>,
    /// Print as JSON.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let source = read_source(&args.file)?;
    let (rules, warnings) = ruleset(args.ruleset.as_deref(), source.server.as_ref())?;
    let replayed = Play::replay(
        PlayRules::of(&rules),
        &source.started,
        source.events.iter().map(|(_, e)| e),
    )?;
    if let Some(err) = &replayed.refused {
        let at = source
            .events
            .get(err.event.wrapping_sub(1))
            .map_or("", |(at, _)| at.as_str());
        eprintln!("{}: {at}: {err}", args.file);
        return Ok(ExitCode::from(2));
    }
    let found = findings(&replayed, &rules);
    let play = &replayed.play;
    let east = play.state().east;
    // A single hand: East's earlier wins are not known (§122(r) counts from none).
    let settled = play
        .settle(&rules, 0)
        .map_err(|v| anyhow::anyhow!("{v}"))?
        .map(|(_, s)| s);
    let wind = |s: referee::Seat| s.wind(east).to_string().to_lowercase();
    let text = if args.json {
        let mut v = json!({
            "findings": found.iter().map(|f| json!({
                "kind": f.kind(),
                "offender": f.offender().map(wind),
                "events": f.events(),
                "citations": f.citations(),
                "text": f.to_string(),
            })).collect::<Vec<_>>(),
            "over": settled.is_some(),
            "warnings": warnings,
        });
        if let Some(s) = &settled {
            let nets = s.nets.to_winds(east);
            v["settlement"] = json!({
                "nets": {"east": nets.east, "south": nets.south, "west": nets.west, "north": nets.north},
                "payments": s.payments.iter().map(|p| json!({
                    "from": wind(p.payer), "to": wind(p.payee), "amount": p.amount,
                })).collect::<Vec<_>>(),
            });
        }
        format!("{}\n", serde_json::to_string_pretty(&v)?)
    } else {
        let mut out = String::new();
        for w in &warnings {
            let _ = writeln!(out, "warning: {w}");
        }
        if found.is_empty() {
            let _ = writeln!(out, "no findings: nothing to rule on");
        }
        for f in &found {
            let _ = writeln!(out, "{} ({}): {f}", f.kind(), f.citations().join(", "));
        }
        match &settled {
            Some(s) => {
                let _ = writeln!(out, "settlement:");
                for seat in referee::Seat::ALL {
                    let _ = writeln!(
                        out,
                        "  {seat} ({}): score {}, net {}",
                        wind(seat),
                        s.sheets[seat].total,
                        s.nets[seat]
                    );
                }
            }
            None => {
                let _ = writeln!(out, "the hand is not over: no settlement yet");
            }
        }
        out
    };
    super::print_stdout(&text)?;
    Ok(ExitCode::SUCCESS)
}
