//! Projections: what pages and the standings board read, derived from the events.
//!
//! They are updated by a [`Projector`] inside the append's own transaction, so a reader never sees
//! an event without its effect or the reverse. It only folds: every check happened before
//! the event was written (see `store.rs`). Because it is a pure fold over events in global
//! order, dropping the rows and replaying ([`Ledger::rebuild_projections`]) reproduces them
//! exactly, and the audit compares the stored rows with a replay into a fresh in-memory copy.
//!
//! There is one family (issue 9): the tournament's bookkeeping (`apply.rs`: tournaments,
//! players, tables, seats) and, for each hand, one record folded from its events
//! (`hand_record.rs`); each seat's share of a hand and the standings are derived from that
//! record alone (`hands.rs`), and so are the settlement rows and hand summaries
//! (`hand_queries.rs`). Seat-to-player bookkeeping comes from the events themselves:
//! `TableFormed` ties a table to its tournament, `SeatsDrawn` puts players in seats, and
//! `HandStarted` snapshots who sits where for that hand.

mod apply;
mod hand_queries;
mod hand_record;
mod hands;
mod pages;
mod queries;
mod sessions;
mod snapshot;
mod standings;
mod status;

pub(crate) use apply::{EventMeta, Projector};
pub use hand_queries::{HandPosition, HandSummary, PlayerHand, SettlementRow};
pub use hand_record::{Contribution, HandEvent, HandRecord, HandStart, RecordedSettlement};
pub use pages::Slice;
pub use queries::{PlayerRow, TableRow, TournamentRow};
pub use sessions::SessionRow;
pub(crate) use snapshot::snapshot;
pub use snapshot::{ProjectionSnapshot, RowDifference};
pub use standings::{Standing, StandingsScope};
pub use status::{Voided, VoidedKind};

use crate::error::{Error, Result, SqlContext};
use crate::record::{RowRef, COLUMNS};
use crate::schema::PROJECTION_TABLES;
use crate::Ledger;

/// Replays every stored event through a [`Projector`] on `conn` (whose projection tables are empty).
/// Events that do not decode are skipped and returned as `(position, why)`, so the audit can
/// report them while still comparing the rest.
pub(crate) fn replay_into(
    events: &rusqlite::Connection,
    target: &rusqlite::Connection,
) -> Result<Vec<(u64, String)>> {
    let sql = format!("SELECT {COLUMNS} FROM events ORDER BY position");
    let mut stmt = events.prepare(&sql).ctx("reading the events")?;
    let mut rows = stmt.query([]).ctx("reading the events")?;
    let mut skipped = Vec::new();
    let mut projector = Projector::default();
    while let Some(row) = rows.next().ctx("reading the events")? {
        let r = RowRef::from_row(row).ctx("reading an event row")?;
        match r.decode() {
            Ok(e) => {
                let meta = EventMeta {
                    position: e.position,
                    stream: &e.stream,
                    version: e.version,
                    event_id: e.event_id,
                };
                projector.apply(target, events, &meta, &e.event)?;
            }
            Err(why) => skipped.push((r.position_u64(), why)),
        }
    }
    projector.finish(target)?;
    Ok(skipped)
}

impl Ledger {
    /// Drops every projection row and replays all events, in one transaction. Refuses (and
    /// changes nothing) when a stored event does not decode: run the audit to find it.
    pub fn rebuild_projections(&mut self) -> Result<()> {
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .ctx("starting a rebuild")?;
        for table in PROJECTION_TABLES {
            tx.execute(&format!("DELETE FROM {table}"), [])
                .ctx("clearing a projection")?;
        }
        let skipped = replay_into(&tx, &tx)?;
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

    /// Every projection row, rendered as text and sorted: for comparing two states.
    pub fn projection_snapshot(&self) -> Result<ProjectionSnapshot> {
        snapshot(&self.conn)
    }
}
