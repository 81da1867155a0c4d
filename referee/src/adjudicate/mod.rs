//! Adjudication: what a referee must rule on, derived from the replayed play.
//!
//! The replay ([`crate::play`]) says what happened and flags each event that broke a rule of
//! play. Some rulings need more than one event: whether a discard "let off a cannon" depends
//! on what the dangerous player had displayed when it was made, who claimed it and for what,
//! and how the hand ended, possibly many turns later (Code §90–96). The replay keeps what that
//! ruling needs as part of its fold ([`CannonWatch`]), so the finding is there at any moment.
//!
//! [`findings`] lists everything a replayed hand gives the referee to rule on, each a typed
//! [`Finding`] with the events it rests on, the seats concerned, the sections it cites, and its
//! reasoning in plain words. Where the Code is silent or ambiguous, the reading chosen is
//! written beside the rule it reads ("interpretation: …", in [`cannon`]).

pub mod cannon;
pub mod false_call;
#[cfg(test)]
mod false_call_tests;
#[cfg(test)]
mod tests;

pub use cannon::{cannon_reading, Cannon, CannonReading, CannonWatch, Danger, NoChoice, Signal};
pub use false_call::{Call, FalseCall};

use crate::play::{Irregularity, Replayed};
use crate::Seat;

/// One thing a referee must rule on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finding {
    /// A discard that let off a cannon (Code §90–96), or that did but for a plea of No Choice
    /// that stands (§95).
    Cannon(Cannon),
    /// A call of Mah-Jongg on a hand that is not complete (Code §82).
    FalseMahJongg(FalseCall),
    /// An event that broke a rule of play, as the replay flagged it (a draw or discard out of
    /// turn, a late claim, a retraction, a bonus tile declared late …).
    Irregular {
        event: usize,
        irregularity: Irregularity,
    },
}

impl Finding {
    /// Its kind, as `adjudicate --json` names it: `cannon`, `no-choice-excused`, `irregular`.
    pub fn kind(&self) -> &'static str {
        match self {
            Finding::Cannon(c) => c.kind(),
            Finding::FalseMahJongg(_) => "false-mah-jongg",
            Finding::Irregular { .. } => "irregular",
        }
    }

    /// The player whose act it concerns, when the finding names one.
    pub fn offender(&self) -> Option<Seat> {
        match self {
            Finding::Cannon(c) => Some(c.discarder),
            Finding::FalseMahJongg(f) => Some(f.caller),
            Finding::Irregular { .. } => None,
        }
    }

    /// The event it is about: the dangerous discard, the call, the irregular event.
    pub fn event(&self) -> usize {
        match self {
            Finding::Cannon(c) => c.event,
            Finding::FalseMahJongg(f) => f.event,
            Finding::Irregular { event, .. } => *event,
        }
    }

    /// The events it rests on (the hand's start is event 0).
    pub fn events(&self) -> Vec<usize> {
        match self {
            Finding::Cannon(c) => {
                let mut out = c.freed.clone();
                out.push(c.event);
                out
            }
            Finding::FalseMahJongg(f) => f.events(),
            Finding::Irregular { event, .. } => vec![*event],
        }
    }

    /// The sections it cites.
    pub fn citations(&self) -> Vec<&'static str> {
        match self {
            Finding::Cannon(c) => c.citations(),
            Finding::FalseMahJongg(f) => f.citations(),
            Finding::Irregular { irregularity, .. } => vec![irregularity.rule],
        }
    }
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Finding::Cannon(c) => c.fmt(f),
            Finding::FalseMahJongg(x) => x.fmt(f),
            Finding::Irregular {
                event,
                irregularity,
            } => write!(f, "Event {event}: {irregularity}."),
        }
    }
}

/// Every finding of a replayed hand under `rules`, in the order of the events they rest on.
pub fn findings(replayed: &Replayed, rules: &crate::Ruleset) -> Vec<Finding> {
    let mut out: Vec<Finding> = replayed
        .irregular
        .iter()
        .map(|(event, irregularity)| Finding::Irregular {
            event: *event,
            irregularity: irregularity.clone(),
        })
        .collect();
    out.extend(
        replayed
            .play
            .false_calls(rules)
            .into_iter()
            .map(Finding::FalseMahJongg),
    );
    // A false call is no Mah-Jongg: no cannon was let off by it.
    if replayed.play.false_call(rules).is_none() {
        out.extend(replayed.play.cannon().map(Finding::Cannon));
    }
    out.sort_by_key(Finding::event);
    out
}
