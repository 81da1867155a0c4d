//! Events of a tournament stream that run it in sessions (issue 14): a session opened with its
//! tables and how they were seated, a session closed, a player withdrawn.
//!
//! A **session** is a round of play. Its tables are formed in the same append as its
//! `SessionOpened` (each `TableFormed` names the session); while it is open its results are
//! seen by officials only, and the public pages show them once `SessionClosed` is recorded
//! (AIM's and Pantheon's practice, so that no one plays to the standings). The time the
//! session was opened is the event's own `recorded_at`, so the session clock is the ledger's
//! and survives a restart.

use serde::{Deserialize, Serialize};

use crate::ids::PlayerId;

/// A session was opened; its tables follow in the same append.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SessionOpened {
    /// Numbered from 1, one after the last.
    pub session: u32,
    /// How long the session is to last, in minutes, for its clock; `None` for no time set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minutes: Option<u32>,
    /// How the program seated it, when it did (tables formed by hand have none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seating: Option<SessionSeating>,
}

/// How a session's tables were seated by the seating generator (the `seating` module), so that
/// anyone can make the same seating again from these facts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SessionSeating {
    /// `no-repeat`, `swiss`, `progressive` or `random` (`seating::Method`).
    pub method: String,
    pub seed: u64,
    /// The remainder policy for a count not divisible by four (`seating::Remainder`).
    pub remainder: String,
    /// The players as the plan numbers them: plan player `k` is `players[k - 1]`.
    pub players: Vec<PlayerId>,
    /// How many sessions the plan was made for, and which of them this one is (from 1): a
    /// no-repeat plan is made for the rest of the event at once and taken session by session.
    pub plan_sessions: u32,
    pub plan_session: u32,
    /// The plan's repeated meetings, as reported when it was made.
    pub repeats: u32,
    /// Who sits out this session.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub byes: Vec<PlayerId>,
    /// Substitutes seated in withdrawn players' places for this session.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub substitutions: Vec<Substitution>,
}

/// A substitute took a withdrawn player's place in the plan for one session.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Substitution {
    pub withdrawn: PlayerId,
    pub substitute: PlayerId,
}

/// A session's play is over: its open tables were closed in the same append, and its results
/// are now public.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SessionClosed {
    pub session: u32,
}

/// A closed session opened again by an organiser, with why: its results are hidden from the
/// public again until it closes. Its tables stay closed; each is reopened on its own.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SessionReopened {
    pub session: u32,
    pub reason: String,
}

/// A player withdrew from the tournament: he keeps the results he has, and is not seated
/// again. (Unlike `PlayerVoided`, which is for a registration made by mistake.)
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerWithdrew {
    pub player: PlayerId,
    pub reason: String,
}
