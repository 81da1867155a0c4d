//! `mahjong-referee export --db PATH STREAM [-o FILE]`: write one stream (e.g. a disputed hand)
//! as JSON Lines, with every hash, so it can be verified and imported elsewhere; `--all`
//! writes every stream, in the order the events were recorded (the whole ledger, for an
//! off-site record or a move to another machine: `import` into a new database rebuilds it).

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
    #[arg(required_unless_present = "all")]
    pub stream: Option<StreamId>,
    /// Export every stream of the ledger instead of one.
    #[arg(long, conflicts_with = "stream")]
    pub all: bool,
    /// Write to this file instead of standard output.
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
}

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let ledger = readmodel::open_existing(&args.db)
        .with_context(|| format!("opening {}", args.db.display()))?;
    if let Some(stream) = &args.stream {
        if ledger.stream_version(stream)? == 0 {
            anyhow::bail!("{stream}: no such stream in {}", args.db.display());
        }
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
    let out = BufWriter::new(out);
    match &args.stream {
        Some(stream) => {
            let count = ledger
                .export_stream_signed(stream, Some(&key), out)
                .context("exporting")?;
            eprintln!(
                "exported {count} events of {stream}, signed by ledger {}",
                key.public_hex()
            );
        }
        None => {
            let (events, streams) = ledger
                .export_all_signed(Some(&key), out)
                .context("exporting")?;
            eprintln!(
                "exported {events} events of {streams} streams, signed by ledger {}",
                key.public_hex()
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
