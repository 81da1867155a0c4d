//! `mahjong-referee import-game --db DB [--tournament ID] FILE...`: a game played on
//! mj-server (its `hand-NN.mjs` hand histories, in order) as a tournament table whose hands are
//! recorded play by play.
//!
//! The tournament is created (Code of Laws, limit 1000, as mj-server plays), the four players
//! registered under the names the files give, in the order the server numbered them (player 1,
//! the first East, in the East seat as drawn), the table formed, and every hand recorded with
//! its wall and every event of its play through the same command the service runs: the
//! referee replays it and scores and settles its final state. A hand that cannot be replayed
//! stops the import there, with the file, the event and why; the hands before it stay
//! recorded. mj-server writes no file for a wash-out, which keeps the deal where it is, so the
//! seats rotate here as they did there.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use ledger::event::OfficialRole;
use ledger::{Ledger, OfficialId};
use referee::play::mjs;
use web::server::auth::Official;
use web::server::commands::hand;
use web::server::commands::tournament::{self, NewPlayer, NewTable, NewTournament};
use web::server::table_context::TableContext;

#[derive(clap::Args)]
pub struct Args {
    /// The ledger database (created when missing).
    #[arg(long)]
    pub db: PathBuf,
    /// The tournament to create (its id); default `mj-server`.
    #[arg(long, default_value = "mj-server")]
    pub tournament: String,
    /// The game's hand histories, `hand-01.mjs` … in the order they were played.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let mut hands = Vec::new();
    for f in &args.files {
        let text =
            std::fs::read_to_string(f).with_context(|| format!("cannot read {}", f.display()))?;
        let hand = mjs::read(&text, "imported".parse()?, 1, 1)
            .map_err(|e| anyhow::anyhow!("{}: {e}", f.display()))?;
        hands.push((f, hand));
    }
    let mut ledger =
        Ledger::open(&args.db).with_context(|| format!("opening {}", args.db.display()))?;
    let by = Official {
        id: OfficialId::new("importer")?,
        name: "mj-server import".into(),
        role: OfficialRole::Organiser,
        is_admin: true,
        csrf: None,
    };
    let err = |e: web::server::error::AppError| anyhow::anyhow!("{e}");
    let id = args.tournament.as_str();
    tournament::create(
        &mut ledger,
        &[],
        &by,
        &NewTournament {
            id: Some(id.into()),
            name: format!("mj-server game ({})", args.files[0].display()),
            ruleset: Some("code-of-laws".into()),
            limit: Some(1000),
            starting_chips: 2000,
            ..Default::default()
        },
    )
    .map_err(err)?;
    let names = &hands[0].1.players;
    let mut players = Vec::new();
    for n in 1..=4u8 {
        let name = names
            .get(&n)
            .cloned()
            .with_context(|| format!("{}: no player {n}", args.files[0].display()))?;
        let p = NewPlayer { id: None, name };
        players.push(
            tournament::register_player(&mut ledger, id, &by, &p)
                .map_err(err)?
                .to_string(),
        );
    }
    let table = tournament::form_table(
        &mut ledger,
        id,
        &by,
        &NewTable {
            players,
            ..Default::default()
        },
    )
    .map_err(err)?
    .to_string();
    for (f, h) in &hands {
        let ctx = TableContext::load(&ledger, &table).map_err(err)?;
        let next = ctx.state.next();
        anyhow::ensure!(
            next.east == h.started.east,
            "{}: East is the {} seat in this hand, but the table's next East is the {} seat (a hand file missing, or out of order?)",
            f.display(),
            h.started.east,
            next.east
        );
        let events = h.events.iter().map(|(_, e)| e.clone()).collect();
        hand::record_played(
            &mut ledger,
            &table,
            &by,
            h.started.dice.clone(),
            h.started.deal.clone(),
            events,
        )
        .map_err(|e| anyhow::anyhow!("{}: {e}", f.display()))?;
    }
    println!(
        "imported {} hands into table {table} of tournament {id}",
        hands.len()
    );
    Ok(ExitCode::SUCCESS)
}
