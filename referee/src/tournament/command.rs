//! What may be asked of a tournament, and how a request is refused.

use std::collections::BTreeMap;

use crate::event::{OfficialRegistered, RulesetRef};
use crate::ids::{PlayerId, TableId};
use crate::violation::{Violation, Violations};

/// A command to the tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TournamentCommand {
    /// Create it with its conditions; the officials listed are registered in it.
    Create(NewTournament),
    /// Register an official created after the tournament.
    RegisterOfficial(OfficialRegistered),
    /// Register players, all or none: each problem of each is named by `labels[i]` when given
    /// (a line of a pasted list), else as `players[i].field` (or `field` for one player).
    RegisterPlayers {
        players: Vec<NewPlayer>,
        labels: Vec<String>,
    },
    /// A player withdraws: he keeps his results and is not seated again.
    Withdraw { player: String, reason: String },
    /// Form a table of four and seat them (Code §15); numbered `number`, else the next free.
    FormTable {
        number: Option<u32>,
        players: Vec<String>,
        draw: SeatDraw,
    },
    /// Open the next session, seated by the generator.
    OpenSession {
        method: String,
        /// The seed for a new plan (a continuing plan keeps its own).
        seed: u64,
        /// How many sessions the event has in all, when a new plan is made.
        sessions: Option<u32>,
        /// The session's length in minutes, for its clock.
        minutes: Option<u32>,
        /// Each closed session's nets by player, for the methods that seat by results
        /// (Swiss, progressive): the caller reads them from the standings.
        nets: BTreeMap<u32, BTreeMap<PlayerId, i64>>,
    },
    /// Close an open session: its open tables close, and its results are made public.
    CloseSession { session: u32 },
    /// Close a table whose play is over.
    CloseTable { table: TableId },
    /// Open a table's play to the public while its session is in play (or stop).
    Broadcast { table: TableId, broadcast: bool },
    /// Void the tournament, entered by mistake.
    VoidTournament { reason: String },
    /// Void a table, formed by mistake.
    VoidTable { table: TableId, reason: String },
    /// Void a player, registered by mistake.
    VoidPlayer { player: String, reason: String },
    /// Open a closed table again (closed by mistake or too soon), saying why.
    ReopenTable { table: TableId, reason: String },
    /// Open a closed session again, saying why: its results are hidden again until it closes.
    ReopenSession { session: u32, reason: String },
    /// Undo a voiding, saying why.
    UndoVoid { target: VoidTarget, reason: String },
}

/// What a voiding undone was of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VoidTarget {
    Tournament,
    Table(TableId),
    Player(String),
}

/// A tournament to create. The ruleset has been loaded by the caller (a built-in, or the text
/// of a house ruleset pinned by its hash); what was wrong with it comes as violations, listed
/// with the command's own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewTournament {
    /// The id in URLs; made from the name when absent ([`NewTournament::id`]).
    pub id: Option<String>,
    pub name: String,
    pub ruleset: Result<LoadedRuleset, Violations>,
    /// The limit on one hand's score; the ruleset's own when absent.
    pub limit: Option<u64>,
    pub starting_chips: i64,
    /// How ties in the standings are broken, as key names; the default chain when absent.
    pub tie_break: Option<Vec<String>>,
    /// The officials to register in it.
    pub officials: Vec<OfficialRegistered>,
}

/// A ruleset as loaded for a new tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadedRuleset {
    pub pinned: RulesetRef,
    pub title: String,
    /// The text of a house ruleset; `None` for a built-in.
    pub house_ruleset: Option<String>,
    /// The ruleset's own limit.
    pub limit: Option<u64>,
}

impl NewTournament {
    /// The tournament's id: the one given, else made from its name.
    pub fn id(&self) -> String {
        match &self.id {
            Some(id) if !id.trim().is_empty() => id.trim().to_owned(),
            _ => super::slug(self.name.trim(), "tournament"),
        }
    }
}

/// A player to register.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NewPlayer {
    /// The id in URLs; made from the name when absent.
    pub id: Option<String>,
    pub name: String,
    /// A substitute: seated in a withdrawn player's place, kept out of the places.
    pub substitute: bool,
    /// The organiser confirms this is a different person from a player of the same name
    /// already registered (or listed with him): without it, such a name is refused, so that a
    /// list sent twice registers nobody twice.
    pub different_person: bool,
}

/// How a new table's seats are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatDraw {
    /// East, South, West, North in the order listed.
    AsListed,
    /// At random, with the seed recorded (the caller draws a fresh seed when none was given).
    Random { seed: u64 },
}

/// Why a command was refused. Nothing is recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Something it names does not exist.
    NotFound(String),
    /// It conflicts with what the tournament already holds (a duplicate, a second open
    /// session, something already done).
    Conflict(String),
    /// It cannot be done as asked: one reason, with no one field to blame.
    Unprocessable(String),
    /// Every problem with its input, each naming its field.
    Invalid(Violations),
}

impl Refusal {
    /// The refusal's message(s) in words.
    pub fn message(&self) -> String {
        match self {
            Refusal::NotFound(m) | Refusal::Conflict(m) | Refusal::Unprocessable(m) => m.clone(),
            Refusal::Invalid(v) => v.to_string(),
        }
    }
}

impl From<Violations> for Refusal {
    fn from(v: Violations) -> Refusal {
        Refusal::Invalid(v)
    }
}

impl From<Violation> for Refusal {
    fn from(v: Violation) -> Refusal {
        Refusal::Invalid(v.into())
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message())
    }
}
