//! Building projections from the events: once when a database does not keep a registered
//! projection at its version ([`sync`], when a writer opens it), and on demand
//! ([`Ledger::rebuild_projections`]). Either way it is the same replay the audit compares with,
//! inside one write transaction, so a reader sees the old rows or the new ones, never a mix.

use rusqlite::{Connection, TransactionBehavior};

use crate::error::{Error, Result, SqlContext};
use crate::projector::{self, replay_into, Projection, Projections};
use crate::snapshot::{snapshot, ProjectionSnapshot};
use crate::store::Ledger;

/// Builds each of `projections` that the database does not keep at its version (its schema,
/// then every event replayed), and records it; answers the projections the database keeps that
/// are not among `projections`. One transaction, taken under the write lock so that two
/// processes opening the database at once do not both build.
pub(crate) fn sync(conn: &mut Connection, projections: &Projections) -> Result<Vec<String>> {
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .ctx("starting to build the projections")?;
    let recorded = projector::recorded(&tx)?;
    let stale: Vec<&dyn Projection> = projections
        .iter()
        .filter(|p| recorded.get(p.name()) != Some(&i64::from(p.version())))
        .collect();
    if !stale.is_empty() {
        for p in &stale {
            tx.execute_batch(p.schema())
                .ctx("creating a projection's tables")?;
        }
        // Events that do not decode are left out here rather than refusing to open the ledger:
        // the audit, which must be able to open it, reports them.
        replay_into(&tx, &tx, &stale)?;
        for p in &stale {
            projector::record(&tx, *p)?;
        }
    }
    tx.commit().ctx("committing the projections")?;
    Ok(recorded
        .into_keys()
        .filter(|name| projections.get(name).is_none())
        .collect())
}

impl Ledger {
    /// Drops every row of every projection this ledger keeps and replays all events, in one
    /// transaction. Refuses (and changes nothing) when a stored event does not decode: run the
    /// audit to find it.
    pub fn rebuild_projections(&mut self) -> Result<()> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .ctx("starting a rebuild")?;
        for table in self.projections.tables() {
            tx.execute(&format!("DELETE FROM {table}"), [])
                .ctx("clearing a projection")?;
        }
        let all: Vec<&dyn Projection> = self.projections.iter().collect();
        let skipped = replay_into(&tx, &tx, &all)?;
        if let Some((position, what)) = skipped.into_iter().next() {
            return Err(Error::Corrupt {
                position,
                stream: String::new(),
                version: 0,
                what,
            });
        }
        tx.commit().ctx("committing a rebuild")
    }

    /// Every row of the projections this ledger keeps, rendered as text and sorted: for
    /// comparing two states.
    pub fn projection_snapshot(&self) -> Result<ProjectionSnapshot> {
        snapshot(&self.conn, &self.projections.tables())
    }
}
