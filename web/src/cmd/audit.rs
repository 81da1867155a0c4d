//! `mahjong-referee audit <db>`: verify every hash link, re-derive every settlement, compare the
//! projections with a fresh replay, decide every event again as the service would, and print
//! the report with the chain head to publish.
//! Exits with status 1 when anything is wrong.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use ledger::signing::Checkpoint;
use ledger::{ChainHead, Hash};

#[derive(clap::Args)]
pub struct Args {
    /// The ledger database to audit (never created or modified).
    pub db: PathBuf,
    /// A chain head published earlier, as POSITION:HASH or a signed checkpoint file (from
    /// `checkpoint`, or downloaded from the audit page); the chain must still pass through it.
    /// May be given more than once.
    #[arg(long = "expect-head", value_name = "POSITION:HASH|FILE", value_parser = parse_expected)]
    pub expect_head: Vec<Expected>,
}

/// A head to expect, and the checkpoint that vouched for it when it came from one.
#[derive(Clone, Debug)]
pub struct Expected {
    head: ChainHead,
    checkpoint: Option<(PathBuf, Checkpoint)>,
}

fn parse_expected(s: &str) -> Result<Expected, String> {
    let path = PathBuf::from(s);
    if !path.is_file() {
        return parse_head(s).map(|head| Expected {
            head,
            checkpoint: None,
        });
    }
    // A checkpoint is a few hundred bytes: a large file is not one.
    let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    if size > 64 * 1024 {
        return Err(format!(
            "{}: {size} bytes is not a checkpoint (a few hundred bytes of JSON)",
            path.display()
        ));
    }
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let (checkpoint, head) =
        Checkpoint::read(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(Expected {
        head,
        checkpoint: Some((path, checkpoint)),
    })
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
    // Read only when it can be (a backup stays byte for byte as it was); a ledger of an
    // earlier release is opened as a writer, which migrates it first.
    let ledger = readmodel::open_reader(&args.db)
        .or_else(|_| readmodel::open_existing(&args.db))
        .with_context(|| format!("opening {}", args.db.display()))?;
    let heads: Vec<ChainHead> = args.expect_head.iter().map(|e| e.head).collect();
    let own = ledger.checkpoints().context("reading the checkpoints")?;
    // The chain proves nothing was changed; deciding every event again proves each was one
    // the service would have recorded (`app::redecide`): side by side (`app::audit`).
    let audited =
        web::app::audit::Audited::of_with(&args.db, &heads).context("auditing the ledger")?;
    drop(ledger);
    for e in &args.expect_head {
        if let Some((path, c)) = &e.checkpoint {
            let whose = if own.iter().any(|o| o.ledger == c.ledger) {
                "this ledger's key"
            } else {
                "a key this ledger has never signed a checkpoint with"
            };
            outln!(
                "checkpoint {}: position {} signed {} by ledger {} ({whose}): signature verified",
                path.display(),
                c.position,
                c.signed_at,
                c.ledger
            )?;
        }
    }
    // Which key signed which checkpoint: a lost or replaced key shows where it changed.
    let mut signer: Option<&str> = None;
    for (i, c) in own.iter().enumerate() {
        let changed = match signer {
            Some(before) if before != c.ledger => " — the key changed here",
            _ => "",
        };
        outln!(
            "checkpoint {}: position {} signed {} with key {}{changed}",
            i + 1,
            c.position,
            c.signed_at,
            c.ledger
        )?;
        signer = Some(&c.ledger);
    }
    outln!("{}", audited.describe())?;
    Ok(if audited.is_clean() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
