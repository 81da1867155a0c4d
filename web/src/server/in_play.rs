//! What is still in play in a tournament: the checks every write that seats a player or records
//! a hand makes before it writes, and what pages leave out for the public. Shared by `commands`
//! and `views`, so neither reaches into the other.
//!
//! Rules (documented in the README):
//! - **A player sits at one open table of a tournament at a time.** A table is *open* from
//!   `TableFormed` until it is closed (`TableClosed`, its play is over) or voided
//!   (`TableVoided`). Forming a table with a player who sits at another open table is refused,
//!   naming the player and the table.
//! - **Nothing is written into a voided tournament**, no hand at a voided or closed table, and
//!   no voided player is seated.

use std::collections::HashMap;

use ledger::{Ledger, PlayerId, StreamId, TableId};
use readmodel::{PlayerRow, Reads, Voided, VoidedKind};
use referee::seating::session::Roster;

use crate::server::error::AppError;

/// A tournament's voidings and closed tables, read once for a write.
#[derive(Clone, Debug, Default)]
pub struct InPlay {
    /// The tournament's own id.
    tournament: String,
    /// (kind, id) → the reason it was voided.
    voided: HashMap<(VoidedKind, String), String>,
    closed: Vec<TableId>,
}

impl InPlay {
    pub fn load(ledger: &Ledger, tournament: &StreamId) -> Result<InPlay, AppError> {
        let voided = ledger
            .voided(tournament)?
            .into_iter()
            .map(|Voided { kind, id, reason }| ((kind, id), reason))
            .collect();
        Ok(InPlay {
            tournament: tournament.id().to_owned(),
            voided,
            closed: ledger.closed_tables(tournament)?,
        })
    }

    fn reason(&self, kind: VoidedKind, id: &str) -> Option<&str> {
        self.voided.get(&(kind, id.to_owned())).map(String::as_str)
    }

    /// Why the tournament was voided, if it was.
    pub fn tournament_voided(&self) -> Option<&str> {
        self.reason(VoidedKind::Tournament, &self.tournament)
    }

    /// Why a table was voided, if it was.
    pub fn table_voided(&self, table: &TableId) -> Option<&str> {
        self.reason(VoidedKind::Table, table.as_str())
    }

    /// Why a player was voided, if they were.
    pub fn player_voided(&self, player: &PlayerId) -> Option<&str> {
        self.reason(VoidedKind::Player, player.as_str())
    }

    /// Who the seating may seat, from the registered `players`: those neither voided nor
    /// withdrawn, players and substitutes apart, each in registration order.
    pub fn roster(&self, players: &[PlayerRow]) -> Roster {
        let ids = |substitute: bool| {
            players
                .iter()
                .filter(|p| p.substitute == substitute)
                .filter(|p| p.withdrawn.is_none() && self.player_voided(&p.player).is_none())
                .map(|p| p.player.clone())
                .collect()
        };
        Roster {
            present: ids(false),
            substitutes: ids(true),
        }
    }

    pub fn table_closed(&self, table: &TableId) -> bool {
        self.closed.contains(table)
    }

    /// Neither closed nor voided: its players may not sit elsewhere.
    pub fn table_open(&self, table: &TableId) -> bool {
        !self.table_closed(table) && self.table_voided(table).is_none()
    }

    /// Refuses any write into a voided tournament (422).
    pub fn require_tournament(&self) -> Result<(), AppError> {
        match self.tournament_voided() {
            Some(reason) => Err(AppError::unprocessable(format!(
                "tournament `{}` is voided ({reason}): nothing more is recorded in it",
                self.tournament
            ))),
            None => Ok(()),
        }
    }

    /// Refuses a hand at a table that is voided or closed, or of a voided tournament (422).
    pub fn require_table_open(&self, table: &TableId) -> Result<(), AppError> {
        self.require_tournament()?;
        if let Some(reason) = self.table_voided(table) {
            return Err(AppError::unprocessable(format!(
                "table `{table}` is voided ({reason}): no hand is recorded there"
            )));
        }
        if self.table_closed(table) {
            return Err(AppError::unprocessable(format!(
                "table `{table}` is closed (its play is over): no hand is recorded there"
            )));
        }
        Ok(())
    }
}
