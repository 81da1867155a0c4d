//! `mahjong-referee checkpoint --db DB [-o FILE]`: sign a checkpoint of the ledger's chain
//! head with its key (created beside the database on first use), record it in the ledger, and
//! print it as JSON — the line a club publishes (a printed sheet, an e-mail, a notice board),
//! which `audit --expect-head FILE` checks later.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use ledger::signing::LedgerKey;

#[derive(clap::Args)]
pub struct Args {
    /// The ledger database (must exist).
    #[arg(long)]
    pub db: PathBuf,
    /// Also write the checkpoint to this file.
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
    /// Sign with the key file as it is (or a new key when it is missing) although the ledger's
    /// checkpoints were signed with another: the key was lost or replaced.
    #[arg(long)]
    pub new_key: bool,
}

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let mut ledger = readmodel::open_existing(&args.db)
        .with_context(|| format!("opening {}", args.db.display()))?;
    let key = LedgerKey::for_ledger(&ledger, &args.db, args.new_key).context("the ledger's key")?;
    let checkpoint = ledger
        .sign_checkpoint(&key, &web::app::accounts::store::system())
        .context("signing a checkpoint")?;
    let json = serde_json::to_string(&checkpoint)?;
    if let Some(path) = &args.output {
        std::fs::write(path, format!("{json}\n"))
            .with_context(|| format!("writing {}", path.display()))?;
    }
    super::print_stdout(&format!("{json}\n"))?;
    Ok(ExitCode::SUCCESS)
}
