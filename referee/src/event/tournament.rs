//! Events of a tournament stream (`tournament:<id>`): who takes part and who sits where.

use serde::{Deserialize, Serialize};

use crate::ids::{OfficialId, PlayerId, TableId};
use crate::BySeat;

/// A tournament was created. The stream's id is the tournament's id.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentCreated {
    pub name: String,
    /// The ruleset the tournament plays, by name (its content hash is fixed per game).
    pub ruleset: String,
}

/// A player was registered for the tournament.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerRegistered {
    pub player: PlayerId,
    pub name: String,
    /// A substitute takes a withdrawn player's seat for a session; he plays and is paid like
    /// anyone, but is kept out of the places (the European federation's practice). Absent in
    /// the stored JSON when false, so events from before substitutes read and hash unchanged.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub substitute: bool,
}

/// What an official may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OfficialRole {
    /// Rules on disputes.
    Referee,
    /// Records play and scores at a table.
    Scorer,
    /// Runs the tournament.
    Organiser,
}

/// An official was registered; only registered officials should record events.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OfficialRegistered {
    pub official: OfficialId,
    pub name: String,
    pub role: OfficialRole,
}

/// A table was formed in the tournament; its play is recorded in stream `table:<table>`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableFormed {
    pub table: TableId,
    pub number: u32,
    /// The session (round of play) the table belongs to, numbered from 1; `None` for a table
    /// formed outside sessions (absent in the stored JSON, as before sessions existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<u32>,
}

/// Seats were drawn at a table (Code §15): the player at each seat. The seats named here are
/// the seats *as drawn*; every `BySeat` in that table's hand events is keyed the same way.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatsDrawn {
    pub table: TableId,
    pub seats: BySeat<PlayerId>,
}

/// An organiser opened (or closed) the play of a table to the public while its session is in
/// play: a featured table (a final, a teaching table) whose hands anyone may follow live. Its
/// part of the standings stays hidden until the session closes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableBroadcast {
    pub table: TableId,
    /// `true` to broadcast its play, `false` to stop.
    pub broadcast: bool,
}
