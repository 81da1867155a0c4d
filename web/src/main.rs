//! `mahjong-referee`: the web service (`serve`) and the command-line tools.
//!
//! Each tool subcommand lives in its own module under `cmd/`; the server is the library's
//! `server` module. This file only parses arguments and dispatches. Errors are reported with
//! `anyhow` here, at the edge; libraries return typed errors.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cmd;

#[derive(Parser)]
#[command(
    name = "mahjong-referee",
    version,
    about = "Referee for classical Mah-Jongg"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the web pages and the JSON API on the ledger (the main job).
    Serve(web::server::ServeArgs),
    /// Read 13-tile concealed hands from standard input, one per line, and print their waits.
    Waits(cmd::waits::Args),
    /// Verify a ledger database: hash chain, settlements, projections; print the chain head.
    Audit(cmd::audit::Args),
    /// Copy a ledger consistently while it is served (SQLite's online backup), with its key,
    /// audit the copy and print its chain head.
    Backup(cmd::backup::Args),
    /// Put a backup in place of a ledger it continues (or, forced, of any), keeping what it
    /// replaces, and audit the result.
    Restore(cmd::restore::Args),
    /// Sign a checkpoint of the ledger's chain head with its key, record it, and print it (the
    /// head a club publishes; `audit --expect-head FILE` checks it).
    Checkpoint(cmd::checkpoint::Args),
    /// Write one stream of a ledger as JSON Lines (to send a disputed hand to a referee).
    Export(cmd::export::Args),
    /// Read a JSON Lines stream into a ledger, verifying its chain; refuses broken records.
    Import(cmd::import::Args),
    /// Build a large tournament for the load test (scripts/load-test).
    #[command(hide = true)]
    LoadFixture(cmd::load_fixture::Args),
    /// Build years of a weekly club for the scale benchmark (scripts/bench-decade).
    #[command(hide = true)]
    LoadHistory(cmd::load_history::Args),
    /// List the built-in rulesets, or show one (or check a house-ruleset file).
    Rulesets(cmd::rulesets::Args),
    /// Score one hand under a ruleset: the itemized sheet, readable or as JSON; `score -`
    /// scores JSON Lines from standard input, one hand per line.
    Score(cmd::score::Args),
    /// Settle one finished hand from its four hands (JSON): each seat's score, net and payments.
    Settle(cmd::settle::Args),
    /// Replay one hand recorded play by play (an mj-server `.mjs`, or an exported hand stream)
    /// to any event: the state, every irregularity with its rule, and at the end the scores
    /// and settlement.
    Replay(cmd::replay::Args),
    /// What a referee must rule on in one hand recorded play by play (a cannon, No Choice, the
    /// irregular events), citing the rules, and the settlement that follows
    Adjudicate(cmd::adjudicate::Args),
    /// Import a game played on mj-server (its hand histories) as a tournament table whose
    /// hands are recorded play by play.
    ImportGame(cmd::import_game::Args),
    /// A seating plan for a tournament (no-repeat, Swiss, Babcock's progressive game), drawn
    /// from a seed, with its repeated meetings.
    Seating(cmd::seating::Args),
    /// The treasurer: who pays whom with the fewest transfers, from each player's net, and each
    /// player's chips.
    SettleUp(cmd::settle_up::Args),
    /// Administer a database's officials from the machine that holds it (a lost password).
    Admin(cmd::admin::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Serve(args) => actix_web::rt::System::new()
            .block_on(web::server::run(args))
            .map(|()| ExitCode::SUCCESS),
        Command::Waits(args) => cmd::waits::run(&args),
        Command::Audit(args) => cmd::audit::run(&args),
        Command::Backup(args) => cmd::backup::run(&args),
        Command::Restore(args) => cmd::restore::run(&args),
        Command::Checkpoint(args) => cmd::checkpoint::run(&args),
        Command::Export(args) => cmd::export::run(&args),
        Command::Import(args) => cmd::import::run(&args),
        Command::LoadFixture(args) => cmd::load_fixture::run(&args),
        Command::LoadHistory(args) => cmd::load_history::run(&args),
        Command::Rulesets(args) => cmd::rulesets::run(&args),
        Command::Score(args) => cmd::score::run(&args),
        Command::Settle(args) => cmd::settle::run(&args),
        Command::Replay(args) => cmd::replay::run(&args),
        Command::Adjudicate(args) => cmd::adjudicate::run(&args),
        Command::ImportGame(args) => cmd::import_game::run(&args),
        Command::Seating(args) => cmd::seating::run(&args),
        Command::SettleUp(args) => cmd::settle_up::run(&args),
        Command::Admin(args) => cmd::admin::run(&args),
    };
    match result {
        Ok(code) => code,
        // The reader went away (`| head`): nothing more to say, and nobody to say it to. The
        // exit is a closed pipe's (128 + SIGPIPE), as any Unix tool's: a pipeline under
        // `set -o pipefail` still sees that the command did not finish.
        Err(e)
            if e.chain().any(|c| {
                c.downcast_ref::<std::io::Error>()
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            }) =>
        {
            ExitCode::from(141)
        }
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(1)
        }
    }
}
