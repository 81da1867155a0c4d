//! The whole audit of a ledger's file, as `audit` prints it: the ledger's own audit (the hash
//! chain, settlements, projections, accounts, checkpoints) and every event decided again as
//! the service would have decided it (`redecide`).
//!
//! The two are independent passes over the same events, so they run side by side, each on a
//! read connection of its own: on two cores the audit takes as long as the longer of the two,
//! not their sum (a decade of a big club's history: 75 s one after the other).

use std::path::Path;

use ledger::{AuditReport, ChainHead};

/// What the audit found.
pub struct Audited {
    pub report: AuditReport,
    /// Events the service would have refused (`redecide`).
    pub refused: Vec<String>,
}

impl Audited {
    /// Audits the ledger at `path`, reading only.
    pub fn of(path: &Path) -> ledger::Result<Audited> {
        Audited::of_with(path, &[])
    }

    /// [`Audited::of`], also checking that the chain passes through heads published earlier.
    pub fn of_with(path: &Path, published: &[ChainHead]) -> ledger::Result<Audited> {
        std::thread::scope(|s| {
            let redecided = s.spawn(|| {
                let ledger = readmodel::open_reader(path)?;
                super::redecide::audit(&ledger)
            });
            let ledger = readmodel::open_reader(path)?;
            let report = ledger.audit_with(published)?;
            let refused = redecided.join().map_err(|_| ledger::Error::Copy {
                path: path.to_owned(),
                why: "the re-decision of the events stopped in the middle (a panic)".into(),
            })??;
            Ok(Audited { report, refused })
        })
    }

    pub fn is_clean(&self) -> bool {
        self.report.is_clean() && self.refused.is_empty()
    }

    /// The audit's report, as `audit` prints it.
    pub fn describe(&self) -> String {
        format!(
            "{}\n{}",
            self.report,
            super::redecide::report(&self.refused)
        )
    }
}

/// How far a copy is checked when it is made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Depth {
    /// Every event read back: its hash, its stream's link and the global chain recomputed, its
    /// payload decoded, up to the head — what proves the copy holds the ledger intact.
    #[default]
    Chain,
    /// The whole audit ([`Audited`]): also settlements, projections and every event decided
    /// again — what proves the ledger itself sound, at several times the cost.
    Full,
}

/// What checking a copy found.
pub enum Checked {
    Chain {
        events: u64,
        head: ChainHead,
        /// Where the chain broke, if it did.
        broken: Option<String>,
    },
    Full(Audited),
}

impl Checked {
    /// Checks the ledger at `path` to `depth`, reading only.
    pub fn of(path: &Path, depth: Depth) -> ledger::Result<Checked> {
        if depth == Depth::Full {
            return Audited::of(path).map(Checked::Full);
        }
        let ledger = ledger::Ledger::open_reader(path)?;
        Ok(match ledger.replay(|_| ()) {
            Ok(stats) => Checked::Chain {
                events: stats.events,
                head: stats.head,
                broken: None,
            },
            Err(e @ ledger::Error::Corrupt { .. }) => Checked::Chain {
                events: 0,
                head: ledger.head()?,
                broken: Some(e.to_string()),
            },
            Err(e) => return Err(e),
        })
    }

    pub fn is_clean(&self) -> bool {
        match self {
            Checked::Chain { broken, .. } => broken.is_none(),
            Checked::Full(audited) => audited.is_clean(),
        }
    }

    /// What was checked and found, in words.
    pub fn describe(&self) -> String {
        match self {
            Checked::Chain {
                events,
                head,
                broken: None,
            } => format!(
                "checked: all {events} events read back, every hash, link and the chain to head {}:{} verified (the whole audit — settlements, projections, every event decided again — is `backup --audit`, or `audit` on the copy)",
                head.position, head.chain_hash
            ),
            Checked::Chain {
                broken: Some(why), ..
            } => format!("checked: the copy's chain is broken: {why}"),
            Checked::Full(audited) => audited.describe(),
        }
    }
}
