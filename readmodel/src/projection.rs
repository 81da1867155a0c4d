//! The read model as a projection the ledger keeps: its name and version, its tables and their
//! schema, and the fold that fills them.

use ledger::{Fold, Projection};

use crate::fold::ReadModelFold;

/// The application's read model, registered with the ledger by this crate's `open` functions.
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

    /// Version 1 is the family migrations 5 and 8 created, folded as it was when it lived in
    /// the ledger; version 2 stores each hand's result as the referee's `ResultRecord` (issue
    /// 25). Bump it with any change to `schema.sql` or to the fold: every database is rebuilt
    /// once, when next opened for writing.
    fn version(&self) -> u32 {
        2
    }

    fn tables(&self) -> &'static [&'static str] {
        TABLES
    }

    fn schema(&self) -> &'static str {
        include_str!("schema.sql")
    }

    fn begin(&self) -> Box<dyn Fold + '_> {
        Box::new(ReadModelFold::default())
    }
}
