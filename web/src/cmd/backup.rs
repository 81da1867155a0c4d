//! `mahjong-referee backup --db DB OUT [--audit]`: a consistent copy of a ledger, even while
//! `serve` writes to it (SQLite's online backup, never a file copy), with its signing key
//! beside it, checked — every event read back and its chain verified, or with `--audit` the
//! whole audit — and the copy's chain head printed. OUT may be a folder: the copy is then named
//! by its time and head, as the server's scheduled copies are. Exits with status 1 when the
//! copy does not check clean (the ledger copied is then itself damaged: audit it).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use web::app::backup;

#[derive(clap::Args)]
pub struct Args {
    /// The ledger database to copy (never modified).
    #[arg(long)]
    pub db: PathBuf,
    /// The new file to write (never overwritten), or a folder to write a copy named by its
    /// time and chain head into.
    pub out: PathBuf,
    /// Do not copy the signing key (`<db>.key`) beside the copy: for a copy kept where the
    /// key must not go.
    #[arg(long)]
    pub without_key: bool,
    /// Audit the copy whole (settlements, projections, every event decided again), not only
    /// its chain of events: several times longer on a big ledger.
    #[arg(long)]
    pub audit: bool,
}

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let target = if args.out.is_dir() {
        backup::Target::Folder(&args.out)
    } else {
        backup::Target::File(&args.out)
    };
    let depth = if args.audit {
        backup::Depth::Full
    } else {
        backup::Depth::Chain
    };
    let taken = backup::take(&args.db, target, !args.without_key, depth)
        .with_context(|| format!("backing up {}", args.db.display()))?;
    outln!(
        "copied {} to {}: {} events, {} bytes; its chain head is {}:{}",
        args.db.display(),
        taken.path.display(),
        taken.copied.head.position,
        taken.copied.bytes,
        taken.copied.head.position,
        taken.copied.head.chain_hash
    )?;
    outln!("{}", taken.key.describe())?;
    outln!("{}", taken.audit.describe())?;
    Ok(if taken.audit.is_clean() {
        ExitCode::SUCCESS
    } else {
        eprintln!(
            "error: the copy does not check clean: the ledger at {} is damaged as the copy is (run `mahjong-referee audit {}`)",
            args.db.display(),
            args.db.display()
        );
        ExitCode::from(1)
    })
}
