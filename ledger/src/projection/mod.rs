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
mod standings;
mod status;

use std::sync::Arc;

pub use hand_queries::{HandPosition, HandSummary, PlayerHand, SettlementRow};
pub use hand_record::{Contribution, HandEvent, HandRecord, HandStart, RecordedSettlement};
pub use pages::Slice;
pub use queries::{PlayerRow, TableRow, TournamentRow};
pub use sessions::SessionRow;
pub use standings::{Standing, StandingsScope};
pub use status::{Voided, VoidedKind};

use crate::projector::{Fold, Projection, Projections};

/// The read model as a projection the ledger keeps.
pub struct ReadModel;

/// Its tables, in the order they are compared and rebuilt.
const TABLES: &[&str] = &[
    "proj_tournaments",
    "proj_players",
    "proj_tables",
    "proj_seats",
    "proj_hand_records",
    "proj_player_hands",
    "proj_standings",
    "proj_voided",
    "proj_closed_tables",
    "proj_draw_methods",
    "proj_sessions",
    "proj_session_standings",
];

impl Projection for ReadModel {
    fn name(&self) -> &'static str {
        "read_model"
    }

    fn version(&self) -> u32 {
        1
    }

    fn tables(&self) -> &'static [&'static str] {
        TABLES
    }

    fn schema(&self) -> &'static str {
        include_str!("schema.sql")
    }

    fn begin(&self) -> Box<dyn Fold + '_> {
        Box::new(apply::Projector::default())
    }
}

/// A registry holding the read model alone.
pub(crate) fn registry() -> Projections {
    Projections::new([Arc::new(ReadModel) as Arc<dyn Projection>]).unwrap_or_default()
}
