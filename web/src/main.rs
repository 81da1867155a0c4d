//! `mahjong-referee`: the command-line tool (and, later, the web service).
//!
//! Each subcommand lives in its own module under `cmd/`; this file only parses arguments and
//! dispatches. Errors are reported with `anyhow` here, at the edge; libraries return typed errors.

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
    /// Read 13-tile concealed hands from standard input, one per line, and print their waits.
    Waits(cmd::waits::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Waits(args) => cmd::waits::run(&args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(1)
        }
    }
}
