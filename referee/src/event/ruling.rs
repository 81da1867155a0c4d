//! Events about results and their review: scores, disputes, rulings, corrections, settlements.

use crate::Seat;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::settle::{Payment, Penalty};
use crate::BySeat;

/// A seat claimed a score for its hand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScoreClaimed {
    pub seat: Seat,
    pub points: i64,
    /// The scoring elements claimed, by the names the ruleset gives them.
    pub elements: Vec<String>,
}

/// A dispute was raised about a hand, by a seat or an official, possibly about one of its
/// events — or, at a table where nobody recorded the play, about a position (the position
/// notation, `referee::position`), which the ruling then rests on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DisputeRaised {
    /// The seat that raised it, when a player did.
    pub raised_by: Option<Seat>,
    /// The official who recorded it (their login name).
    pub official: String,
    /// The event disputed.
    pub about: Option<Uuid>,
    pub description: String,
    /// The table as the referee found it, when the play was not recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
}

/// What a ruling does with the engine's finding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Decision {
    /// The finding stands as the engine gave it.
    Accepted,
    /// The referee rules otherwise (the reason says why); the finding is kept beside it.
    Overruled,
}

/// The engine's finding as it was shown when the referee ruled, kept with the ruling.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuledFinding {
    /// `cannon`, `false-mah-jongg`, `late-bonus` …
    pub kind: String,
    pub offender: Option<Seat>,
    /// The events of the play it rests on (the hand's start is event 0).
    pub events: Vec<usize>,
    pub citations: Vec<String>,
    pub text: String,
}

/// A referee ruled on a dispute: accepted or overruled the engine's finding (both kept), with
/// the sections cited, the penalties (priced by the ruleset, or agreed where no rule prices
/// them), and whether the hand is abandoned. The settlement follows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulingIssued {
    /// The `DisputeRaised` event ruled on (`None` only for rulings stored before v2).
    pub dispute: Option<Uuid>,
    /// The official who ruled (their login name; empty only for rulings stored before v2).
    pub official: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finding: Option<RuledFinding>,
    pub decision: Decision,
    /// Why, in the referee's words.
    pub reason: String,
    pub sections: Vec<String>,
    /// The penalties the ruling orders, priced by the ruleset (or agreed, where no rule
    /// prices them), on top of those in force.
    pub penalties: Vec<Penalty<Seat>>,
    /// The penalties in force the ruling lifts (a cannon overruled, say).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub withdrawn: Vec<Penalty<Seat>>,
    /// The hand is abandoned: no score counts but the penalties.
    #[serde(default)]
    pub abandons: bool,
    /// The win (and the hands laid down) an abandoning ruling set aside, so an appeal that
    /// supersedes it restores them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub set_aside: Option<SetAside>,
}

/// What a ruling that abandons a won hand set aside.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetAside {
    pub win: crate::event::WinContext,
    pub hands: BySeat<Option<crate::Hand>>,
}

/// An appeal: a ruling no longer stands. Its replacement, if any, is its own `RulingIssued`
/// (in the same append); the settlement is recomputed from the rulings that stand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulingSuperseded {
    /// The `RulingIssued` event superseded.
    pub ruling: Uuid,
    pub official: String,
    pub reason: String,
}

/// An earlier event is superseded; it stays in the ledger and stops counting. The replacement,
/// if any, is recorded as its own event (usually in the same append).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CorrectionRecorded {
    pub supersedes: Uuid,
    pub reason: String,
}

/// The hand was settled: each seat's score, the payments between seats, and each seat's net.
/// `nets` must equal what `payments` add up to (checked on append and re-derived by the audit).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SettlementRecorded {
    pub winner: Option<Seat>,
    pub scores: BySeat<i64>,
    pub payments: Vec<Payment<Seat>>,
    pub nets: BySeat<i64>,
}
