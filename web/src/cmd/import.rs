//! `mahjong-referee import --db PATH [FILE]`: verify a JSON Lines record (from `export`) and add
//! it to the ledger, all or nothing. A broken chain or a conflicting event is refused.

use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use ledger::Ledger;

#[derive(clap::Args)]
pub struct Args {
    /// The ledger database to import into (created if missing).
    #[arg(long)]
    pub db: PathBuf,
    /// The JSON Lines file; standard input when absent or `-`.
    pub file: Option<PathBuf>,
}

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let input: Box<dyn BufRead> = match &args.file {
        Some(path) if path.as_os_str() != "-" => Box::new(BufReader::new(
            File::open(path).with_context(|| format!("opening {}", path.display()))?,
        )),
        _ => Box::new(io::stdin().lock()),
    };
    let mut ledger =
        Ledger::open(&args.db).with_context(|| format!("opening {}", args.db.display()))?;
    let report = ledger.import(input).context("importing")?;
    println!(
        "imported {} events ({} already present)",
        report.imported, report.already_present
    );
    for (stream, version) in &report.streams {
        println!("  {stream} now at version {version}");
    }
    Ok(ExitCode::SUCCESS)
}
