//! `mahjong-referee import-game --db DB [--tournament ID] [--ruleset NAME|FILE] FILE...`: games
//! played on
//! mj-server (a game's `hand-NN.mjs` hand histories in order, games' whole `server.log`
//! files, or folders each holding one game) as a tournament whose tables are the games, their
//! hands recorded play by play.
//!
//! The tournament is created (under `--ruleset`: by default the Code of Laws, limit 1000, as
//! mj-server plays), the players
//! registered under the names the files give (the same name in several games is one player),
//! and for each game a table formed in the order the server numbered its players (player 1, the
//! first East, in the East seat as drawn), every hand recorded with its deal and every event of
//! its play through the same command the service runs (the referee replays it and scores and
//! settles its final state, checking that the seat the record has dealing is the one the
//! rotation gives), and the table closed. mj-server writes no `.mjs` for a wash-out, which
//! keeps the deal where it is, so the seats rotate here as they did there; its `server.log`
//! holds every hand, wash-outs included, each dealt from its first 53 draws (the log has no
//! `Wall` line).
//!
//! The import is all or nothing: a file that cannot be read or a hand that cannot be replayed
//! stops it with the file, the line or event, and why, and nothing is recorded. Games are read
//! one at a time, so memory stays that of one game.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use ledger::Ledger;
use referee::import::mjs;
use web::app::accounts::viewer::Official;
use web::app::commands::tournament::{self, NewPlayer, NewTable, NewTournament};
use web::app::commands::{hand, voiding};

#[derive(clap::Args)]
pub struct Args {
    /// The ledger database (created when missing).
    #[arg(long)]
    pub db: PathBuf,
    /// The tournament to create (its id); default `mj-server`.
    #[arg(long, default_value = "mj-server")]
    pub tournament: String,
    /// The tournament's ruleset: a built-in name or a house-ruleset file (default: the Code
    /// of Laws, as mj-server plays). Every hand is replayed, scored and settled under it.
    #[arg(long, default_value = "code-of-laws")]
    pub ruleset: String,
    /// A game's hand histories, `hand-01.mjs` … in the order they were played; games'
    /// `server.log` files; or folders each holding one game (its `server.log`, else its
    /// `.mjs` files).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}

/// Where one game comes from: its hand histories in order, or its log.
enum Source {
    Hands(Vec<PathBuf>),
    Log(PathBuf),
}

impl Source {
    fn name(&self) -> String {
        match self {
            Source::Hands(files) => files
                .first()
                .and_then(|f| f.parent())
                .map_or_else(String::new, |d| d.display().to_string()),
            Source::Log(f) => f.display().to_string(),
        }
    }

    /// The game's hands, each with where it came from.
    fn read(&self) -> anyhow::Result<Vec<(String, mjs::MjsHand)>> {
        let table = "imported".parse()?;
        let text = |f: &Path| {
            std::fs::read_to_string(f).with_context(|| format!("cannot read {}", f.display()))
        };
        match self {
            Source::Log(f) => Ok(mjs::read_log(&text(f)?, &table, 1)
                .map_err(|e| anyhow::anyhow!("{}: {e}", f.display()))?
                .into_iter()
                .map(|(line, h)| (format!("{} line {line}", f.display()), h))
                .collect()),
            Source::Hands(files) => files
                .iter()
                .map(|f| {
                    let hand = mjs::read(&text(f)?, table.clone(), 1, 1)
                        .map_err(|e| anyhow::anyhow!("{}: {e}", f.display()))?;
                    Ok((f.display().to_string(), hand))
                })
                .collect(),
        }
    }
}

/// Does `f` hold a server log (rather than one hand's history)?
fn is_log(f: &Path) -> anyhow::Result<bool> {
    use std::io::Read;
    let mut start = [0u8; 4];
    let n = std::fs::File::open(f)
        .and_then(|mut file| file.read(&mut start))
        .with_context(|| format!("cannot read {}", f.display()))?;
    Ok(matches!(&start[..n], b"<cnx" | b">cnx"))
}

/// The games the arguments name, in order: every `.mjs` file given is a hand of one game (the
/// first), each `server.log` a game, each folder a game (its `server.log`, else its `.mjs`
/// files in name order).
fn sources(files: &[PathBuf]) -> anyhow::Result<Vec<Source>> {
    let mut out = Vec::new();
    let mut hands = Vec::new();
    for f in files {
        if f.is_dir() {
            let log = f.join("server.log");
            if log.is_file() {
                out.push(Source::Log(log));
                continue;
            }
            let mut in_dir: Vec<PathBuf> = std::fs::read_dir(f)
                .with_context(|| format!("cannot read the folder {}", f.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "mjs"))
                .collect();
            anyhow::ensure!(
                !in_dir.is_empty(),
                "{}: no server.log and no .mjs hand histories in this folder",
                f.display()
            );
            in_dir.sort();
            out.push(Source::Hands(in_dir));
        } else if is_log(f)? {
            out.push(Source::Log(f.clone()));
        } else {
            hands.push(f.clone());
        }
    }
    if !hands.is_empty() {
        out.insert(0, Source::Hands(hands));
    }
    Ok(out)
}

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let games = sources(&args.files)?;
    let mut ledger =
        readmodel::open(&args.db).with_context(|| format!("opening {}", args.db.display()))?;
    let by = web::app::accounts::store::command_line("importer", "mj-server import");
    // One transaction for the whole import: all of it is recorded, or nothing.
    let (tables, hands_imported) = ledger.batch(|ledger| import(ledger, &by, args, &games))?;
    outln!(
        "imported {} {} ({hands_imported} hands) into tournament {}: {}",
        tables.len(),
        if tables.len() == 1 { "game" } else { "games" },
        args.tournament,
        tables.join(", ")
    )?;
    Ok(ExitCode::SUCCESS)
}

/// The line in its file of the event a refusal names (`events.N`, N counting the play's
/// events from 0), when it names one.
fn refused_line(e: &web::app::error::AppError, lines: &[usize]) -> Option<usize> {
    e.violations.iter().find_map(|v| {
        let n: usize = v.field.strip_prefix("events.")?.parse().ok()?;
        lines.get(n).copied()
    })
}

/// The file of a hand's whereabouts (`server.log line 232` → `server.log`).
fn file_of(at: &str) -> &str {
    at.rsplit_once(" line ").map_or(at, |(f, _)| f)
}

/// Creates the tournament and records every game as a table of it; returns the tables and how
/// many hands were recorded.
fn import(
    ledger: &mut Ledger,
    by: &Official,
    args: &Args,
    games: &[Source],
) -> anyhow::Result<(Vec<String>, usize)> {
    let err = |e: web::app::error::AppError| anyhow::anyhow!("{e}");
    let id = args.tournament.as_str();
    // A built-in by name, else a house-ruleset file's text (checked by `rulesets::load`).
    super::rulesets::load(&args.ruleset)?;
    let builtin = referee::Ruleset::builtin(&args.ruleset).is_some();
    let house_ruleset = if builtin {
        None
    } else {
        Some(
            std::fs::read_to_string(&args.ruleset)
                .with_context(|| format!("reading {}", args.ruleset))?,
        )
    };
    tournament::create(
        ledger,
        &[],
        by,
        &NewTournament {
            id: Some(id.into()),
            name: format!(
                "mj-server {} ({})",
                if games.len() == 1 { "game" } else { "games" },
                games.first().map(Source::name).unwrap_or_default()
            ),
            ruleset: builtin.then(|| args.ruleset.clone()),
            house_ruleset,
            limit: None,
            starting_chips: 2000,
            ..Default::default()
        },
    )
    .map_err(err)?;
    // Players by name: the same robot in several games is one player.
    let mut registered: BTreeMap<String, String> = BTreeMap::new();
    let mut hands_imported = 0;
    let mut tables = Vec::new();
    for source in games {
        let hands = source.read()?;
        let Some((_, first)) = hands.first() else {
            continue;
        };
        let mut players = Vec::new();
        for n in 1..=4u8 {
            let name = first
                .players
                .get(&n)
                .cloned()
                .with_context(|| format!("{}: no player {n}", source.name()))?;
            let player = match registered.get(&name) {
                Some(p) => p.clone(),
                None => {
                    let p = NewPlayer {
                        id: None,
                        name: name.clone(),
                        substitute: false,
                        different_person: false,
                    };
                    let p = tournament::register_player(ledger, id, by, &p)
                        .map_err(err)?
                        .to_string();
                    registered.insert(name, p.clone());
                    p
                }
            };
            players.push(player);
        }
        let table = tournament::form_table(
            ledger,
            id,
            by,
            &NewTable {
                players,
                ..Default::default()
            },
        )
        .map_err(err)?
        .to_string();
        let wheres: Vec<String> = hands.iter().map(|(f, _)| f.clone()).collect();
        // Each event's line in its file, to name the line a refused event came from.
        let lines: Vec<Vec<usize>> = hands
            .iter()
            .map(|(_, h)| h.events.iter().map(|(l, _)| *l).collect())
            .collect();
        let played = hands
            .into_iter()
            .map(|(_, h)| hand::PlayedHand {
                dice: h.started.dice,
                deal: h.started.deal,
                events: h.events.into_iter().map(|(_, e)| e).collect(),
                east: Some(h.started.east),
            })
            .collect();
        let recorded = hand::record_played_game(ledger, &table, by, played).map_err(|(i, e)| {
            let at = wheres.get(i).map_or("", String::as_str);
            match refused_line(&e, lines.get(i).map_or(&[][..], Vec::as_slice)) {
                Some(line) => anyhow::anyhow!("{}: line {line}: {e}", file_of(at)),
                None => anyhow::anyhow!("{at}: {e}"),
            }
        })?;
        hands_imported += recorded.len();
        // The game is over: the table is closed, and its players may sit at the next.
        voiding::close_table(ledger, &table, by, &voiding::CloseTable {}, None).map_err(err)?;
        tables.push(table);
    }
    Ok((tables, hands_imported))
}
