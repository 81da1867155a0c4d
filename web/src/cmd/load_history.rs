//! `mahjong-referee load-history --db PATH [--years 10] [--tables 20] [--hands 10]
//! [--play-by-play-every 20] --game LOG` (hidden): years of a club that meets weekly, for
//! `scripts/bench-decade`, recorded through the same commands the server runs.
//!
//! Each year is a season (a tournament of `4 × tables` players); each week a session seated
//! at random, `hands` hands at each table, then closed. One table in `--play-by-play-every`
//! (counted across the whole history) records its hands play by play — the first `hands` hands
//! of the mj-server game in `--game` (a robot game's `server.log` or its `.mjs` hand
//! histories), dealt, played, replayed,
//! scored and settled — and the others record each hand at its end. A week's night is one
//! transaction (a club's evening typed in at once, not hand by hand with a disk sync each).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use readmodel::Reads;
use referee::import::mjs;
use web::app::commands::hand::{self, PlayedHand};
use web::app::commands::session::{self, OpenSession};
use web::app::commands::tournament::{self, NewPlayer, NewTournament};

#[derive(clap::Args)]
pub struct Args {
    /// The database to create (must not exist).
    #[arg(long)]
    pub db: PathBuf,
    /// Seasons, one a year.
    #[arg(long, default_value_t = 10)]
    pub years: u32,
    /// Club nights a year.
    #[arg(long, default_value_t = 52)]
    pub weeks: u32,
    /// Tables a night.
    #[arg(long, default_value_t = 20)]
    pub tables: usize,
    /// Hands a table plays a night.
    #[arg(long, default_value_t = 10)]
    pub hands: usize,
    /// One table in this many records its hands play by play.
    #[arg(long, default_value_t = 20)]
    pub play_by_play_every: usize,
    /// The mj-server game whose hands the play-by-play tables play: its `server.log`, or a
    /// folder of its hand histories (`hand-01.mjs` …).
    #[arg(long)]
    pub game: PathBuf,
}

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(!args.db.exists(), "{} already exists", args.db.display());
    anyhow::ensure!(
        (1..=250).contains(&args.tables) && args.play_by_play_every >= 1,
        "--tables must be 1 to 250 and --play-by-play-every at least 1"
    );
    let game = read_game(&args.game)?;
    anyhow::ensure!(!game.is_empty(), "{}: no hands", args.game.display());
    let mut ledger =
        readmodel::open(&args.db).with_context(|| format!("creating {}", args.db.display()))?;
    let by = web::app::accounts::store::command_line("loader", "Load history");
    let err = |e: web::app::error::AppError| anyhow::anyhow!("{e}");
    let started = Instant::now();
    let (mut table_count, mut hands_at_end, mut hands_played) = (0usize, 0usize, 0usize);
    for year in 1..=args.years {
        let id = format!("season-{}", 2016 + year);
        ledger.batch(|l| -> anyhow::Result<()> {
            tournament::create(
                l,
                &[],
                &by,
                &NewTournament {
                    id: Some(id.clone()),
                    name: format!("Season {}", 2016 + year),
                    ruleset: Some("code-of-laws".into()),
                    limit: Some(1000),
                    starting_chips: 2000,
                    ..Default::default()
                },
            )
            .map_err(err)?;
            for i in 1..=4 * args.tables {
                let p = NewPlayer {
                    id: None,
                    name: format!("Member {i:03}"),
                    substitute: false,
                    different_person: false,
                };
                tournament::register_player(l, &id, &by, &p).map_err(err)?;
            }
            Ok(())
        })?;
        for week in 1..=args.weeks {
            ledger.batch(|l| -> anyhow::Result<()> {
                let open = OpenSession {
                    method: "random".into(),
                    seed: Some(u64::from(year * 100 + week)),
                    sessions: Some(args.weeks),
                    minutes: Some(180),
                };
                session::open(l, &id, &by, &open).map_err(err)?;
                let stream = ledger::StreamId::tournament(&id)?;
                let tables: Vec<String> = l
                    .tables(&stream)?
                    .into_iter()
                    .filter(|t| t.session == Some(week))
                    .map(|t| t.table.to_string())
                    .collect();
                for table in &tables {
                    table_count += 1;
                    if table_count % args.play_by_play_every == 0 {
                        let played = game
                            .iter()
                            .take(args.hands)
                            .map(|(_, h)| PlayedHand {
                                dice: h.started.dice.clone(),
                                deal: h.started.deal.clone(),
                                events: h.events.iter().map(|(_, e)| e.clone()).collect(),
                                east: Some(h.started.east),
                            })
                            .collect();
                        let recorded = hand::record_played_game(l, table, &by, played)
                            .map_err(|(i, e)| anyhow::anyhow!("{table}, hand {i}: {e}"))?;
                        hands_played += recorded.len();
                    } else {
                        super::load_fixture::record_hands(
                            l,
                            &by,
                            std::slice::from_ref(table),
                            args.hands,
                        )?;
                        hands_at_end += args.hands;
                    }
                }
                session::close(l, &id, week, &by, None).map_err(err)?;
                Ok(())
            })?;
        }
        outln!(
            "{id}: {} hands so far ({hands_played} play by play), {:.0} s",
            hands_at_end + hands_played,
            started.elapsed().as_secs_f64()
        )?;
    }
    outln!(
        "recorded {} hands ({hands_played} play by play) at {table_count} tables in {:.1} s",
        hands_at_end + hands_played,
        started.elapsed().as_secs_f64()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// A robot game's hands in order: from its log, or from a folder of its hand histories.
fn read_game(path: &std::path::Path) -> anyhow::Result<Vec<(usize, mjs::MjsHand)>> {
    let table = "imported".parse()?;
    let text = |f: &std::path::Path| {
        std::fs::read_to_string(f).with_context(|| format!("reading {}", f.display()))
    };
    if !path.is_dir() {
        return mjs::read_log(&text(path)?, &table, 1)
            .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()));
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(path)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "mjs"))
        .collect();
    files.sort();
    files
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let hand = mjs::read(&text(f)?, table.clone(), 1, i as u32 + 1)
                .map_err(|e| anyhow::anyhow!("{}: {e}", f.display()))?;
            Ok((i + 1, hand))
        })
        .collect()
}
