//! `mahjong-referee audit <db>`: verify every hash link, re-derive every settlement, compare the
//! projections with a fresh replay, and print the report with the chain head to publish.
//! Exits with status 1 when anything is wrong.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use ledger::{ChainHead, Hash, Ledger};

#[derive(clap::Args)]
pub struct Args {
    /// The ledger database to audit (never created or modified).
    pub db: PathBuf,
    /// A chain head published earlier, as POSITION:HASH; the chain must still pass through it.
    /// May be given more than once.
    #[arg(long = "expect-head", value_name = "POSITION:HASH", value_parser = parse_head)]
    pub expect_head: Vec<ChainHead>,
}

fn parse_head(s: &str) -> Result<ChainHead, String> {
    let (position, hash) = s
        .split_once(':')
        .ok_or_else(|| format!("`{s}` is not POSITION:HASH"))?;
    let position = position
        .parse()
        .map_err(|_| format!("`{position}` is not a position"))?;
    let chain_hash: Hash = hash.parse().map_err(|e| format!("{e}"))?;
    Ok(ChainHead {
        position,
        chain_hash,
    })
}

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let ledger = Ledger::open_existing(&args.db)
        .with_context(|| format!("opening {}", args.db.display()))?;
    let report = ledger
        .audit_with(&args.expect_head)
        .context("auditing the ledger")?;
    println!("{report}");
    Ok(if report.is_clean() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
