//! `mahjong-referee import --db PATH [FILE]`: verify a JSON Lines record (from `export`) and add
//! it to the ledger, all or nothing. A broken chain or a conflicting event is refused, and a
//! ledger the refused import created is removed rather than left behind empty. Into a live
//! ledger (one with events), the record must also be what this ledger would have recorded
//! (`app::import_check`: its officials, its dates, every event decided again as a live write)
//! and every stream it adds to signed by a ledger the administrator trusts (`app::trust`:
//! `--trust KEYFILE`, or `--unsigned`, logged); into an empty one it is a copy of another
//! ledger's record, whose signatures are reported.

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
    /// The ledgers whose exports a live ledger takes: a file of their public keys, one per
    /// line (as `/audit` and `export` show them), each optionally followed by a name. This
    /// ledger's own key is always trusted.
    #[arg(long, value_name = "KEYFILE")]
    pub trust: Option<PathBuf>,
    /// Take unsigned streams, and streams signed by any ledger, into a live ledger (logged).
    #[arg(long, conflicts_with = "trust")]
    pub unsigned: bool,
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
        let (events, signed) = match ledger::read_export_signed(&bytes[..]) {
            Ok(read) => read,
            Err(e) => return refuse(ledger, anyhow::Error::new(e).context("importing")),
        };
        let mut problems = Vec::new();
        if args.unsigned {
            tracing::warn!(db = %args.db.display(), "import --unsigned: streams taken without checking whose ledger signed them");
            eprintln!("warning: --unsigned: the streams are taken without checking whose ledger signed them");
        } else {
            let trusted = match trusted_keys(args) {
                Ok(t) => t,
                Err(e) => return refuse(ledger, e),
            };
            let fresh = match web::app::import_check::unrecorded(&ledger, &events) {
                Ok(fresh) => fresh,
                Err(e) => {
                    return refuse(ledger, anyhow::Error::new(e).context("reading the ledger"))
                }
            };
            problems.extend(web::app::trust::unsigned(&fresh, &signed, &trusted));
        }
        problems.extend(web::app::import_check::check(&ledger, &events));
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
    outln!(
        "imported {} events ({} already present)",
        report.imported,
        report.already_present
    )?;
    for (stream, version) in &report.streams {
        let signed = report
            .signed_by
            .iter()
            .find(|(s, _)| s == stream)
            .map_or_else(
                || "unsigned".to_owned(),
                |(_, key)| format!("signed by ledger {key}"),
            );
        outln!("  {stream} now at version {version} ({signed})")?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The keys `--trust` names, with this ledger's own (when it has one).
fn trusted_keys(args: &Args) -> anyhow::Result<web::app::trust::TrustedKeys> {
    let mut trusted = match &args.trust {
        Some(path) => web::app::trust::TrustedKeys::read(path).map_err(anyhow::Error::msg)?,
        None => Default::default(),
    };
    let own = ledger::signing::key_path(&args.db);
    if own.exists() {
        let key = ledger::signing::LedgerKey::load(&own).context("the ledger's key")?;
        trusted = trusted.with_own(key.public_hex());
    }
    Ok(trusted)
}

/// Removes a ledger this command created and left empty, with SQLite's files and the lock
/// beside it.
fn remove_new_ledger(db: &Path) {
    for suffix in ["", "-wal", "-shm", ".lock"] {
        let _ = std::fs::remove_file(ledger::beside(db, suffix));
    }
}
