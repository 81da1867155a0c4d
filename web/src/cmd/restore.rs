//! `mahjong-referee restore BACKUP --db DB`: put a backup in place of a ledger. Refused when
//! the backup does not audit clean, while a server serves DB, and — unless `--force` — when DB
//! holds events the backup lacks (its chain is not a prefix of the backup's) or another
//! signing key. Forced, what is replaced is kept aside first. The restored ledger is audited.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use web::app::backup;

#[derive(clap::Args)]
pub struct Args {
    /// The backup to restore (from `backup`, or a copy the server made with --backup-dir).
    pub backup: PathBuf,
    /// The ledger database to restore into (created when missing).
    #[arg(long)]
    pub db: PathBuf,
    /// Replace a ledger the backup does not continue, or another signing key, keeping what is
    /// replaced aside (`<db>.before-restore-<time>`).
    #[arg(long)]
    pub force: bool,
}

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let restored = backup::restore(&args.backup, &args.db, args.force)
        .with_context(|| format!("restoring {}", args.backup.display()))?;
    let head = restored.after.head;
    let had = restored.before.position;
    let since = if had == 0 {
        "into a new ledger".to_owned()
    } else if restored.kept.is_some() {
        format!("over a ledger of {had} events that it did not continue")
    } else {
        format!(
            "over a ledger of {had} of them ({} new)",
            head.position.saturating_sub(had)
        )
    };
    outln!(
        "restored {} into {}: {} events, {since}; its chain head is {}:{}",
        args.backup.display(),
        args.db.display(),
        head.position,
        head.position,
        head.chain_hash
    )?;
    if let Some(kept) = &restored.kept {
        outln!("the ledger it replaced is kept at {}", kept.display())?;
    }
    outln!("{}", restored.key.describe(&args.db))?;
    outln!("{}", restored.audit.describe())?;
    Ok(if restored.audit.is_clean() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
