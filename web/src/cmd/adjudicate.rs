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
//! "over": true, "goes_on": false, "settlement": {"nets": {"east": …}, "payments": […]},
//! "next": {"east": "south", "title_passes": true, "game_ended": false}}`: `next` (for a hand
//! settled or abandoned) names who is East in the next hand (Code §11–12, §82, §122(r)), by the
//! wind that player holds in this one.

use std::fmt::Write as _;
use std::process::ExitCode;

use referee::adjudicate::findings;
use referee::adjudicate::report::next_hand;
use referee::adjudicate::{settle, Replay};
use referee::play::PlayRules;
use referee::position::Position;
use serde_json::json;

use super::replay::{read_source, ruleset, server_warnings};

#[derive(clap::Args)]
#[command(group = clap::ArgGroup::new("source").required(true).args(["files", "position"]))]
pub struct Args {
    /// mj-server `.mjs` hand histories, or hand streams exported as JSON Lines: each is
    /// adjudicated on its own (with several, each report is headed by its file; JSON gives an
    /// array of reports, each with its `file`).
    pub files: Vec<String>,
    /// A position in the position notation (`referee::position`), with the acts in dispute:
    /// the table as the referee finds it, for a hand nobody recorded play by play.
    #[arg(long, conflicts_with = "files")]
    pub position: Option<String>,
    /// A built-in ruleset name or a house-ruleset file (default: code-of-laws).
    #[arg(long)]
    pub ruleset: Option<String>,
    /// Print as JSON.
    #[arg(long)]
    pub json: bool,
}

/// One hand to adjudicate: where it came from, its rules, and its replay.
struct Case<'a> {
    source: String,
    rules: &'a referee::Ruleset,
    warnings: Vec<String>,
    replayed: referee::adjudicate::Replayed,
    /// Where each event of the play came from (a line of the file, an act of the position).
    at: Vec<String>,
}

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let several = args.files.len() > 1;
    let mut out = Report::new(args.json, several);
    if let Some(line) = &args.position {
        let position: Position = match line.parse() {
            Ok(p) => p,
            Err(e) => {
                eprintln!("--position: {e}");
                return Ok(ExitCode::from(2));
            }
        };
        let (rules, warnings) = ruleset(args.ruleset.as_deref(), None)?;
        let replayed = match Replay::replay_from_position(PlayRules::of(&rules), &position) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("--position: {}", e.kind);
                return Ok(ExitCode::from(2));
            }
        };
        let at = position.acts().iter().map(|a| a.to_string()).collect();
        out.add(&Case {
            source: "--position".to_owned(),
            rules: &rules,
            warnings,
            replayed,
            at,
        })?;
    }
    // One hand at a time, each dropped once reported: a whole tournament's hands fit. The
    // ruleset is loaded once.
    let named = args.ruleset.as_deref();
    if args.files.is_empty() {
        return out.finish();
    }
    let (rules, _) = ruleset(named, None)?;
    let play_rules = PlayRules::of(&rules);
    for file in &args.files {
        let source = read_source(file)?;
        let warnings = server_warnings(named, source.server.as_ref());
        let replayed = Replay::replay(
            play_rules.clone(),
            &source.started,
            source.events.iter().map(|(_, e)| e),
        )?;
        let at = source.events.into_iter().map(|(at, _)| at).collect();
        out.add(&Case {
            source: file.clone(),
            rules: &rules,
            warnings,
            replayed,
            at,
        })?;
    }
    out.finish()
}

/// The reports written as the hands are adjudicated.
struct Report {
    json: bool,
    several: bool,
    written: usize,
    refused: bool,
    closed: bool,
    stdout: std::io::BufWriter<std::io::Stdout>,
}

impl Report {
    fn new(json: bool, several: bool) -> Report {
        Report {
            json,
            several,
            written: 0,
            refused: false,
            closed: false,
            stdout: std::io::BufWriter::new(std::io::stdout()),
        }
    }

    fn add(&mut self, case: &Case<'_>) -> anyhow::Result<()> {
        if let Some(err) = &case.replayed.refused {
            let at = case
                .at
                .get(err.event.wrapping_sub(1))
                .map_or("", String::as_str);
            eprintln!("{}: {at}: {err}", case.source);
            self.refused = true;
            return Ok(());
        }
        let (mut json, text) = adjudicated(case)?;
        let chunk = match (self.json, self.several) {
            (true, true) => {
                json["file"] = serde_json::Value::String(case.source.clone());
                let sep = if self.written == 0 { "[\n" } else { ",\n" };
                format!("{sep}{}", serde_json::to_string_pretty(&json)?)
            }
            (true, false) => format!("{}\n", serde_json::to_string_pretty(&json)?),
            (false, true) => format!("== {} ==\n{text}", case.source),
            (false, false) => text,
        };
        self.emit(&chunk)?;
        self.written += 1;
        Ok(())
    }

    /// Writes `s`; a closed pipe (`| head`) stops the output quietly.
    fn emit(&mut self, s: &str) -> anyhow::Result<()> {
        use std::io::Write as _;
        if self.closed {
            return Ok(());
        }
        match self.stdout.write_all(s.as_bytes()) {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(())
            }
            r => Ok(r?),
        }
    }

    fn finish(mut self) -> anyhow::Result<ExitCode> {
        use std::io::Write as _;
        if self.json && self.several {
            let close = if self.written == 0 { "[]\n" } else { "\n]\n" };
            self.emit(close)?;
        }
        match self.stdout.flush() {
            // A closed pipe (`| head`) is not an error.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
            r => r?,
        }
        Ok(if self.refused {
            ExitCode::from(2)
        } else {
            ExitCode::SUCCESS
        })
    }
}

/// One case's findings and settlement, as JSON and as text.
fn adjudicated(case: &Case<'_>) -> anyhow::Result<(serde_json::Value, String)> {
    let (rules, warnings, replayed) = (case.rules, &case.warnings, &case.replayed);
    let found = findings(replayed, rules);
    let play = &replayed.replay;
    let east = play.state().east;
    // A single hand: East's earlier wins are not known (§122(r) counts from none).
    let finished = settle(play, rules, 0).map_err(|v| anyhow::anyhow!("{v}"))?;
    let next = finished
        .as_ref()
        .and_then(|(report, _)| next_hand(play, report, rules, 0));
    let settled = finished.map(|(_, s)| s);
    let wind = |s: referee::Seat| s.wind(east).to_string().to_lowercase();
    let mut v = json!({
        "findings": found.iter().map(|f| json!({
            "kind": f.kind(),
            "offender": f.offender().map(wind),
            "events": f.events(),
            "citations": f.citations(),
            "text": f.to_string(),
        })).collect::<Vec<_>>(),
        "over": settled.is_some(),
        "goes_on": settled.is_none(),
        "warnings": warnings,
    });
    if let Some(n) = &next {
        v["next"] = json!({
            "east": wind(n.next.east),
            "title_passes": n.next.east != east,
            "game_ended": n.game_ended,
        });
    }
    if let Some(s) = &settled {
        let nets = s.nets.to_winds(east);
        v["settlement"] = json!({
            "nets": {"east": nets.east, "south": nets.south, "west": nets.west, "north": nets.north},
            "payments": s.payments.iter().map(|p| json!({
                "from": wind(p.payer), "to": wind(p.payee), "amount": p.amount,
            })).collect::<Vec<_>>(),
        });
    }
    let mut out = String::new();
    for w in warnings {
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
    if let Some(n) = &next {
        let who = n.next.east;
        let _ = writeln!(
            out,
            "next hand: {who} ({}) is East{}{}",
            wind(who),
            if who == east {
                ", keeping the title"
            } else {
                ""
            },
            if n.game_ended {
                "; the game has ended"
            } else {
                ""
            }
        );
    }
    Ok((v, out))
}
