//! `mahjong-referee import --db PATH [FILE]`: verify a JSON Lines record (from `export`) and add
//! it to the ledger, all or nothing. A broken chain or a conflicting event is refused, and a
//! ledger the refused import created is removed rather than left behind empty. Into a live
//! ledger (one with events), the record must also be what this ledger would have recorded
//! (`app::import_check`: its officials, its dates, the table's rotation, the ruleset's
//! settlement); into an empty one it is a copy of another ledger's record.

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
        readmodel::open(&args.db).with_context(|| format!("opening {}", args.db.display()))?;
    let refuse = |ledger: Ledger, e: anyhow::Error| {
        // A refused import writes nothing: a ledger it created would be left empty.
        drop(ledger);
        if created {
            remove_new_ledger(&args.db);
        }
        Err(e)
    };
    let mut bytes = Vec::new();
    let mut input = input;
    if let Err(e) = std::io::Read::read_to_end(&mut input, &mut bytes) {
        return refuse(ledger, anyhow::Error::new(e).context("reading the import"));
    }
    // A live ledger takes only what a live write would have made (`app::import_check`).
    let live = match ledger.head() {
        Ok(head) => head.position > 0,
        Err(e) => return refuse(ledger, anyhow::Error::new(e).context("reading the ledger")),
    };
    if live {
        let events = match ledger::read_export(&bytes[..]) {
            Ok(events) => events,
            Err(e) => return refuse(ledger, anyhow::Error::new(e).context("importing")),
        };
        let problems = web::app::import_check::check(&ledger, &events);
        if !problems.is_empty() {
            let listed: Vec<String> = problems.iter().map(|p| format!("  {p}")).collect();
            return refuse(
                ledger,
                anyhow::anyhow!(
                    "importing: refused, nothing was imported: the record is not what this ledger would have recorded:\n{}",
                    listed.join("\n")
                ),
            );
        }
    }
    let report = match ledger.import(&bytes[..]) {
        Ok(report) => report,
        Err(e) => return refuse(ledger, anyhow::Error::new(e).context("importing")),
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
