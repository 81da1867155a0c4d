//! Events about results and their review: scores, disputes, rulings, corrections, settlements.

use crate::Seat;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::settle::Payment;
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

/// A dispute was raised, possibly about a particular earlier event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DisputeRaised {
    pub raised_by: Seat,
    pub about: Option<Uuid>,
    pub description: String,
}

/// A referee ruled: the verdict, the sections of the rules cited, and any payments ordered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulingIssued {
    /// The DisputeRaised event ruled on.
    pub dispute: Option<Uuid>,
    pub verdict: String,
    pub sections: Vec<String>,
    pub payments: Vec<Payment<Seat>>,
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
