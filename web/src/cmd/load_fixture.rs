//! `mahjong-referee load-fixture --db PATH --hands N [--tables T] [--sessions S]` (hidden):
//! builds a tournament of N hands for the load test, through the same commands the server runs
//! (scored, settled, projected). Each hand is one durable append. By default the tournament has
//! 16 players at 4 tables formed by hand; with `--sessions S` it has `4 T` players seated at T
//! tables in each of S sessions by the seating generator, the hands shared among the sessions,
//! and the last session left open (so the public's standings leave it out, the case to
//! measure).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use ledger::Ledger;
use readmodel::Reads;
use referee::table::HandReport;
use referee::{BySeat, Seat};
use web::app::accounts::viewer::Official;
use web::app::commands::hand::{self, RecordHand};
use web::app::commands::session::{self, OpenSession};
use web::app::commands::tournament::{self, NewPlayer, NewTable, NewTournament};
use web::app::table::TableContext;

#[derive(clap::Args)]
pub struct Args {
    /// The database to create (must not exist).
    #[arg(long)]
    pub db: PathBuf,
    /// How many hands to record.
    #[arg(long, default_value_t = 10_000)]
    pub hands: usize,
    /// Tables (of four players each).
    #[arg(long, default_value_t = 4)]
    pub tables: usize,
    /// Sessions to play the hands in (0: tables formed by hand, no sessions).
    #[arg(long, default_value_t = 0)]
    pub sessions: u32,
}

/// Four losing-hand shapes and the winning hands that go with them, from one tile set.
/// (The losers always hold the three `LOSING` hands; no tile appears five times at a table.)
const WINNING: [&str; 4] = [
    "123m 456m 789m EE 11p =1p",
    "234p 567p [999s] NN 11m =1m",
    "[RRR] 345s 678s 22p 33m =3m",
    "{GGGG} 789p 123s 55m 99s =9s",
];
const LOSING: [&str; 3] = [
    "345p 678p SSS 13m PP",
    "111s 678m 99p 23s 77p W",
    "456s 789s 22m 44p 66p S",
];

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(!args.db.exists(), "{} already exists", args.db.display());
    let mut ledger =
        readmodel::open(&args.db).with_context(|| format!("creating {}", args.db.display()))?;
    // The loader organises the tournament and records its hands: it acts as the administrator
    // (roles are checked by the same commands the server runs).
    let by = web::app::accounts::store::command_line("loader", "Load fixture");
    let err = |e: web::app::error::AppError| anyhow::anyhow!("{e}");
    tournament::create(
        &mut ledger,
        &[],
        &by,
        &NewTournament {
            id: Some("load".into()),
            name: "Load test".into(),
            ruleset: Some("code-of-laws".into()),
            limit: Some(1000),
            starting_chips: 2000,
            ..Default::default()
        },
    )
    .map_err(err)?;
    anyhow::ensure!(
        (1..=1000).contains(&args.tables),
        "--tables must be 1 to 1000"
    );
    let mut players = Vec::new();
    for i in 1..=4 * args.tables {
        let p = NewPlayer {
            id: None,
            name: format!("Player {i:02}"),
            substitute: false,
            different_person: false,
        };
        players.push(
            tournament::register_player(&mut ledger, "load", &by, &p)
                .map_err(err)?
                .to_string(),
        );
    }
    let start = Instant::now();
    if args.sessions == 0 {
        let mut tables = Vec::new();
        for chunk in players.chunks(4) {
            let t = NewTable {
                players: chunk.to_vec(),
                ..Default::default()
            };
            tables.push(
                tournament::form_table(&mut ledger, "load", &by, &t)
                    .map_err(err)?
                    .to_string(),
            );
        }
        record_hands(&mut ledger, &by, &tables, args.hands)?;
    } else {
        let per_session = args.hands / args.sessions as usize;
        for s in 1..=args.sessions {
            let open = OpenSession {
                method: "random".into(),
                seed: Some(u64::from(s)),
                sessions: Some(args.sessions),
                minutes: Some(150),
            };
            session::open(&mut ledger, "load", &by, &open).map_err(err)?;
            let stream = ledger::StreamId::tournament("load")?;
            let tables: Vec<String> = ledger
                .tables(&stream)?
                .into_iter()
                .filter(|t| t.session == Some(s))
                .map(|t| t.table.to_string())
                .collect();
            let hands = if s == args.sessions {
                args.hands - per_session * (args.sessions as usize - 1)
            } else {
                per_session
            };
            record_hands(&mut ledger, &by, &tables, hands)?;
            if s < args.sessions {
                session::close(&mut ledger, "load", s, &by, None).map_err(err)?;
            }
        }
    }
    outln!(
        "recorded {} hands at {} tables in {:.1} s",
        args.hands,
        args.tables,
        start.elapsed().as_secs_f64()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// Records `count` hands round the `tables`.
pub(crate) fn record_hands(
    ledger: &mut Ledger,
    by: &Official,
    tables: &[String],
    count: usize,
) -> anyhow::Result<()> {
    let err = |e: web::app::error::AppError| anyhow::anyhow!("{e}");
    for i in 0..count {
        let table = &tables[i % tables.len()];
        let ctx = TableContext::load(ledger, table).map_err(err)?;
        // A spread of winners (East and others) and wash-outs, so East's rotation moves.
        let k = (i / tables.len() * 7) % 5;
        let winner = Seat::from_index(k);
        let report = if i % 9 == 8 || k == 4 {
            HandReport::default()
        } else {
            let shape = i % 4;
            let text = |seat: Seat| {
                Some(if seat == winner {
                    WINNING[shape].to_owned()
                } else {
                    LOSING[(seat.index() + 3 - winner.index()) % 4].to_owned()
                })
            };
            HandReport {
                hands: BySeat::from_fn(text),
                winner: Some(winner),
                win_from: Some(ledger::event::WinFrom::Wall),
                ..Default::default()
            }
        };
        let command = RecordHand::new(ctx.next_hand_id(), report);
        hand::record(ledger, table, by, &command).map_err(err)?;
    }
    Ok(())
}
