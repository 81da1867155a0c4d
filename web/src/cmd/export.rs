//! `mahjong-referee export --db PATH STREAM [-o FILE]`: write one stream (e.g. a disputed hand)
//! as JSON Lines, with every hash, so it can be verified and imported elsewhere.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use ledger::StreamId;

#[derive(clap::Args)]
pub struct Args {
    /// The ledger database to read.
    #[arg(long)]
    pub db: PathBuf,
    /// The stream to export: `tournament:<id>`, `table:<id>` or `hand:<id>`.
    pub stream: StreamId,
    /// Write to this file instead of standard output.
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
}

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let ledger = readmodel::open_existing(&args.db)
        .with_context(|| format!("opening {}", args.db.display()))?;
    if ledger.stream_version(&args.stream)? == 0 {
        anyhow::bail!("{}: no such stream in {}", args.stream, args.db.display());
    }
    let out: Box<dyn Write> = match &args.output {
        Some(path) => {
            Box::new(File::create(path).with_context(|| format!("creating {}", path.display()))?)
        }
        None => Box::new(io::stdout().lock()),
    };
    // Signed with the ledger's own key, created beside the database if it has none yet (and
    // never made anew for a ledger whose checkpoints another key signed).
    let key = ledger::signing::LedgerKey::for_ledger(&ledger, &args.db, false)
        .context("the ledger's key")?;
    let count = ledger
        .export_stream_signed(&args.stream, Some(&key), BufWriter::new(out))
        .context("exporting")?;
    eprintln!(
        "exported {count} events of {}, signed by ledger {}",
        args.stream,
        key.public_hex()
    );
    Ok(ExitCode::SUCCESS)
}
