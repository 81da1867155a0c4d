//! `mahjong-referee import-game --db DB [--tournament ID] FILE...`: a game played on
//! mj-server (its `hand-NN.mjs` hand histories in order, or its whole `server.log`) as a
//! tournament table whose hands are recorded play by play.
//!
//! The tournament is created (Code of Laws, limit 1000, as mj-server plays), the four players
//! registered under the names the files give, in the order the server numbered them (player 1,
//! the first East, in the East seat as drawn), the table formed, and every hand recorded with
//! its wall and every event of its play through the same command the service runs: the
//! referee replays it and scores and settles its final state. A hand that cannot be replayed
//! stops the import there, with the file, the event and why; the hands before it stay
//! recorded. mj-server writes no `.mjs` for a wash-out, which keeps the deal where it is, so
//! the seats rotate here as they did there; its `server.log` holds every hand, wash-outs
//! included, each dealt from its first 53 draws (the log has no `Wall` line).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use ledger::event::OfficialRole;
use ledger::{Ledger, OfficialId};
use referee::play::mjs;
use web::server::auth::Official;
use web::server::commands::tournament::{self, NewPlayer, NewTable, NewTournament};
use web::server::commands::{hand, voiding};

#[derive(clap::Args)]
pub struct Args {
    /// The ledger database (created when missing).
    #[arg(long)]
    pub db: PathBuf,
    /// The tournament to create (its id); default `mj-server`.
    #[arg(long, default_value = "mj-server")]
    pub tournament: String,
    /// The game's hand histories, `hand-01.mjs` … in the order they were played; or games'
    /// `server.log` files, or folders each holding one game (its `server.log`, else its
    /// `.mjs` files).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}

/// One game to import: where it came from, and its hands with where each came from.
struct Game {
    source: String,
    hands: Vec<(String, mjs::MjsHand)>,
}

/// The files a directory holds as one game: its `server.log` (every hand, wash-outs
/// included), or else its `.mjs` hand histories in order.
fn game_files(dir: &std::path::Path) -> anyhow::Result<Vec<PathBuf>> {
    let log = dir.join("server.log");
    if log.is_file() {
        return Ok(vec![log]);
    }
    let mut hands: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read the folder {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "mjs"))
        .collect();
    hands.sort();
    anyhow::ensure!(
        !hands.is_empty(),
        "{}: no server.log and no .mjs hand histories in this folder",
        dir.display()
    );
    Ok(hands)
}

/// The games the files hold: every `.mjs` given is a hand of one game, in order; each
/// `server.log` is a game of its own, and so is each folder (its `server.log`, or its `.mjs`
/// files).
fn read_games(files: &[PathBuf]) -> anyhow::Result<Vec<Game>> {
    let mut games = Vec::new();
    let mut loose = Vec::new();
    for f in files {
        if f.is_dir() {
            let mut game = read_files(&game_files(f)?)?;
            if let Some(g) = game.first_mut() {
                g.source = f.display().to_string();
            }
            games.extend(game);
        } else {
            loose.push(f.clone());
        }
    }
    let mut out = read_files(&loose)?;
    out.extend(games);
    Ok(out)
}

fn read_files(files: &[PathBuf]) -> anyhow::Result<Vec<Game>> {
    let table = "imported".parse()?;
    let mut games = Vec::new();
    let mut loose = Game {
        source: String::new(),
        hands: Vec::new(),
    };
    for f in files {
        let text =
            std::fs::read_to_string(f).with_context(|| format!("cannot read {}", f.display()))?;
        if text.starts_with("<cnx") || text.starts_with(">cnx") {
            let log = mjs::read_log(&text, &table, 1)
                .map_err(|e| anyhow::anyhow!("{}: {e}", f.display()))?;
            games.push(Game {
                source: f.display().to_string(),
                hands: log
                    .into_iter()
                    .map(|(line, h)| (format!("{} line {line}", f.display()), h))
                    .collect(),
            });
        } else {
            let hand = mjs::read(&text, table.clone(), 1, 1)
                .map_err(|e| anyhow::anyhow!("{}: {e}", f.display()))?;
            if loose.source.is_empty() {
                loose.source = f.display().to_string();
            }
            loose.hands.push((f.display().to_string(), hand));
        }
    }
    if !loose.hands.is_empty() {
        games.insert(0, loose);
    }
    Ok(games)
}

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let games = read_games(&args.files)?;
    let mut ledger =
        Ledger::open(&args.db).with_context(|| format!("opening {}", args.db.display()))?;
    let by = Official {
        id: OfficialId::new("importer")?,
        name: "mj-server import".into(),
        role: OfficialRole::Organiser,
        is_admin: true,
        csrf: None,
    };
    // One transaction for the whole import: each hand is still all or nothing, and the hands
    // before a failing one stay recorded.
    let (tables, hands_imported) = ledger.batch(|ledger| import(ledger, &by, args, &games))?;
    println!(
        "imported {} {} ({hands_imported} hands) into tournament {}: {}",
        tables.len(),
        if tables.len() == 1 { "game" } else { "games" },
        args.tournament,
        tables.join(", ")
    );
    Ok(ExitCode::SUCCESS)
}

/// Creates the tournament and records every game as a table of it; returns the tables and how
/// many hands were recorded.
fn import(
    ledger: &mut Ledger,
    by: &Official,
    args: &Args,
    games: &[Game],
) -> anyhow::Result<(Vec<String>, usize)> {
    let err = |e: web::server::error::AppError| anyhow::anyhow!("{e}");
    let id = args.tournament.as_str();
    tournament::create(
        ledger,
        &[],
        by,
        &NewTournament {
            id: Some(id.into()),
            name: format!(
                "mj-server {} ({})",
                if games.len() == 1 { "game" } else { "games" },
                games.first().map_or("", |g| g.source.as_str())
            ),
            ruleset: Some("code-of-laws".into()),
            limit: Some(1000),
            starting_chips: 2000,
            ..Default::default()
        },
    )
    .map_err(err)?;
    // Players by name: the same robot in several games is one player.
    let mut registered: BTreeMap<String, String> = BTreeMap::new();
    let mut hands_imported = 0;
    let mut tables = Vec::new();
    for game in games {
        let Some((_, first)) = game.hands.first() else {
            continue;
        };
        let mut players = Vec::new();
        for n in 1..=4u8 {
            let name = first
                .players
                .get(&n)
                .cloned()
                .with_context(|| format!("{}: no player {n}", game.source))?;
            let player = match registered.get(&name) {
                Some(p) => p.clone(),
                None => {
                    let p = NewPlayer {
                        id: None,
                        name: name.clone(),
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
        let played = game
            .hands
            .iter()
            .map(|(_, h)| hand::PlayedHand {
                dice: h.started.dice.clone(),
                deal: h.started.deal.clone(),
                events: h.events.iter().map(|(_, e)| e.clone()).collect(),
                east: Some(h.started.east),
            })
            .collect();
        let recorded = hand::record_played_game(ledger, &table, by, played).map_err(|(i, e)| {
            let at = game.hands.get(i).map_or("", |(f, _)| f.as_str());
            anyhow::anyhow!("{at}: {e}")
        })?;
        hands_imported += recorded.len();
        // The game is over: the table is closed, and its players may sit at the next.
        voiding::close_table(ledger, &table, by, &voiding::CloseTable {}).map_err(err)?;
        tables.push(table);
    }
    Ok((tables, hands_imported))
}
