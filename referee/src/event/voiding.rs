//! Events of a tournament stream that take things out of play: a table whose play is over is
//! closed; a tournament, table or player entered by mistake is voided.
//!
//! Nothing is deleted: the ledger is append-only, so a mistake is answered by a later fact that
//! says so, with the reason — and so is the undoing of one (a table reopened, a voiding
//! undone), by an organiser, with why. A voided thing stays in the stream and its history; the service
//! shows it to officials, marked voided, and leaves it out of public pages. A closed table stays
//! public; it only frees its four players to sit at another table (a player sits at one open
//! table of a tournament at a time).

use serde::{Deserialize, Serialize};

use crate::ids::{PlayerId, TableId};

/// The tournament (the stream's own) was voided: entered by mistake, not to be played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentVoided {
    pub reason: String,
}

/// A table of the tournament was voided: formed by mistake; its hands no longer count.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableVoided {
    pub table: TableId,
    pub reason: String,
}

/// A player of the tournament was voided: registered by mistake.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerVoided {
    pub player: PlayerId,
    pub reason: String,
}

/// A table's play is over: no more hands are recorded there, and its players may be seated at
/// another table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableClosed {
    pub table: TableId,
}

/// A closed table opened again by an organiser, with why (closed by mistake, or too soon):
/// hands are recorded there again. The closing stays in the record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableReopened {
    pub table: TableId,
    pub reason: String,
}

/// A voiding undone by an organiser, with why: the table or the player named, or the
/// tournament itself when neither is. The voiding stays in the record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VoidingUndone {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table: Option<TableId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<PlayerId>,
    pub reason: String,
}
