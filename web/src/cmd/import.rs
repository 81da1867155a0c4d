//! `mahjong-referee import --db PATH [FILE]`: verify a JSON Lines record (from `export`) and add
//! it to the ledger, all or nothing. A broken chain or a conflicting event is refused, and a
//! ledger the refused import created is removed rather than left behind empty.

use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::{Path, PathBuf};
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
    let created = !args.db.exists();
    let mut ledger =
        Ledger::open(&args.db).with_context(|| format!("opening {}", args.db.display()))?;
    let report = match ledger.import(input) {
        Ok(report) => report,
        Err(e) => {
            // A refused import writes nothing: a ledger it created would be left empty.
            drop(ledger);
            if created {
                remove_new_ledger(&args.db);
            }
            return Err(anyhow::Error::new(e).context("importing"));
        }
    };
    println!(
        "imported {} events ({} already present)",
        report.imported, report.already_present
    );
    for (stream, version) in &report.streams {
        let signed = report
            .signed_by
            .iter()
            .find(|(s, _)| s == stream)
            .map_or_else(
                || "unsigned".to_owned(),
                |(_, key)| format!("signed by ledger {key}"),
            );
        println!("  {stream} now at version {version} ({signed})");
    }
    Ok(ExitCode::SUCCESS)
}

/// Removes a ledger this command created and left empty, with SQLite's files beside it.
fn remove_new_ledger(db: &Path) {
    for suffix in ["", "-wal", "-shm"] {
        let mut path = db.as_os_str().to_owned();
        path.push(suffix);
        let _ = std::fs::remove_file(path);
    }
}
