//! `mahjong-referee adjudicate FILE|--position LINE [--ruleset NAME|FILE] [--json]`: what a
//! referee must rule on in one hand, and the settlement that follows.
//!
//! FILE is what `replay` reads: an mj-server hand history (`hand-NN.mjs`) or a hand's stream as
//! `export` writes it. `--position` takes instead the table as the referee finds it, with the
//! acts in dispute, in the position notation (`referee::position`): for the hand nobody
//! recorded. The hand is replayed (an inconsistent event, or a position that does not parse or
//! hold together, stops it with exit status 2) and its findings listed
//! (`referee::adjudicate::findings`): a cannon let off (Code §90–96) or excused by a plea of No
//! Choice (§95), a false Mah-Jongg (§82), and every event the replay flagged against a rule of
//! play. Each names the player concerned, the events it rests on and the sections it
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
use referee::position::Position;
use serde_json::json;

use super::replay::{read_source, ruleset};

#[derive(clap::Args)]
#[command(group = clap::ArgGroup::new("source").required(true).args(["file", "position"]))]
pub struct Args {
    /// An mj-server `.mjs` hand history, or a hand stream exported as JSON Lines.
    pub file: Option<String>,
    /// A position in the position notation (`referee::position`), with the acts in dispute:
    /// the table as the referee finds it, for a hand nobody recorded play by play.
    #[arg(long)]
    pub position: Option<String>,
    /// A built-in ruleset name or a house-ruleset file (default: code-of-laws).
    #[arg(long)]
    pub ruleset: Option<String>,
    /// Print as JSON.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let (rules, warnings, replayed, at) = match (&args.file, &args.position) {
        (_, Some(line)) => {
            let position: Position = match line.parse() {
                Ok(p) => p,
                Err(e) => {
                    eprintln!("--position: {e}");
                    return Ok(ExitCode::from(2));
                }
            };
            let (rules, warnings) = ruleset(args.ruleset.as_deref(), None)?;
            let replayed = match Play::replay_from_position(PlayRules::of(&rules), &position) {
                Ok(r) => r,
                Err(e) => {
                    eprintln!("--position: {}", e.kind);
                    return Ok(ExitCode::from(2));
                }
            };
            let acts: Vec<String> = position.acts().iter().map(|a| a.to_string()).collect();
            (rules, warnings, replayed, acts)
        }
        (Some(file), None) => {
            let source = read_source(file)?;
            let (rules, warnings) = ruleset(args.ruleset.as_deref(), source.server.as_ref())?;
            let replayed = Play::replay(
                PlayRules::of(&rules),
                &source.started,
                source.events.iter().map(|(_, e)| e),
            )?;
            let at: Vec<String> = source.events.into_iter().map(|(at, _)| at).collect();
            (rules, warnings, replayed, at)
        }
        (None, None) => anyhow::bail!("give a FILE or --position"),
    };
    if let Some(err) = &replayed.refused {
        let source = args.file.as_deref().unwrap_or("--position");
        let at: &[String] = &at;
        let at = at.get(err.event.wrapping_sub(1)).map_or("", String::as_str);
        eprintln!("{source}: {at}: {err}");
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
