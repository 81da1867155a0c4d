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
