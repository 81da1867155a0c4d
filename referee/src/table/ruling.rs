//! Disputes and rulings at a table: a dispute is raised about a hand, a referee rules on it,
//! and the ruling moves the money; an appeal supersedes a ruling and the settlement is
//! recomputed from the rulings that stand.
//!
//! The facts a hand was recorded with (by its play, a report or a correction) are kept apart
//! from what rulings add to them ([`Rulings::unruled`]): the facts in force are the recorded
//! ones with every standing ruling's penalties, and with no win when a standing ruling
//! abandons the hand. So a ruling issued, then superseded, leaves the hand as it was recorded,
//! and the order of rulings does not matter.
//!
//! A ruling on a hand still in play is kept until the play ends, when its penalties enter the
//! settlement; a ruling that abandons the hand ends the play at once, with its penalties as
//! the only score. A ruling on a settled hand corrects its settlement
//! (`CorrectionRecorded`, then the new sheets and settlement), so standings follow as for any
//! correction.

use uuid::Uuid;

use crate::event::{
    Decision, DisputeRaised, HandEvent, RuledFinding, RulingIssued, RulingSuperseded,
};
use crate::settle::Penalty;
use crate::violation::{Violation, Violations};
use crate::Seat;

use super::{result_events, settled, Conditions, Decided, HandFacts, HandKey, HandState, Table};

/// A referee's ruling, as a command: what [`RulingIssued`] records once decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ruling {
    /// The `DisputeRaised` event ruled on.
    pub dispute: Uuid,
    /// The official ruling (their login name).
    pub official: String,
    /// The engine's finding ruled on, as it was shown.
    pub finding: Option<RuledFinding>,
    pub decision: Decision,
    pub reason: String,
    pub sections: Vec<String>,
    pub penalties: Vec<Penalty<Seat>>,
    pub abandons: bool,
}

/// A hand's disputes and rulings, folded from its events.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rulings {
    /// Each dispute raised, with its event id.
    pub disputes: Vec<(Uuid, DisputeRaised)>,
    /// Each ruling issued, with its event id and the appeal that superseded it, if any.
    pub issued: Vec<(Uuid, RulingIssued, Option<Uuid>)>,
    /// The facts as recorded, before the standing rulings added to them.
    pub unruled: Option<HandFacts>,
}

impl Rulings {
    /// The rulings that stand.
    pub fn standing(&self) -> impl Iterator<Item = (Uuid, &RulingIssued)> {
        self.issued
            .iter()
            .filter(|(_, _, by)| by.is_none())
            .map(|(id, r, _)| (*id, r))
    }

    /// The standing ruling on `dispute`, if there is one.
    pub fn on(&self, dispute: Uuid) -> Option<Uuid> {
        self.standing()
            .find(|(_, r)| r.dispute == Some(dispute))
            .map(|(id, _)| id)
    }

    /// `facts` with what the standing rulings add: their penalties, and no win when one of
    /// them abandons the hand.
    pub fn applied_to(&self, facts: &HandFacts) -> HandFacts {
        let mut out = facts.clone();
        for (_, r) in self.standing() {
            out.penalties.extend(r.penalties.iter().cloned());
            if r.abandons {
                out.win = None;
                out.hands = Default::default();
            }
        }
        out
    }

    /// Folds the facts just scored: unless a standing ruling abandoned the hand (its recorded
    /// facts are then those before), the recorded facts are these, less what the standing
    /// rulings added.
    pub(super) fn scored(&mut self, facts: &HandFacts) {
        if self.standing().any(|(_, r)| r.abandons) {
            return;
        }
        let mut recorded = facts.clone();
        for (_, r) in self.standing() {
            for p in &r.penalties {
                if let Some(i) = recorded.penalties.iter().position(|q| q == p) {
                    recorded.penalties.remove(i);
                }
            }
        }
        self.unruled = Some(recorded);
    }

    pub(super) fn fold(&mut self, id: Uuid, e: &HandEvent) {
        match e {
            HandEvent::DisputeRaised(d) => self.disputes.push((id, d.clone())),
            HandEvent::RulingIssued(r) => self.issued.push((id, r.clone(), None)),
            HandEvent::RulingSuperseded(s) => {
                if let Some(entry) = self.issued.iter_mut().find(|(i, _, _)| *i == s.ruling) {
                    entry.2 = Some(id);
                }
            }
            _ => {}
        }
    }
}

impl Table {
    /// A dispute raised about hand `key`.
    pub(super) fn decide_dispute(
        &self,
        key: HandKey,
        dispute: &DisputeRaised,
    ) -> Result<Vec<Decided>, Violations> {
        let mut v = self.not_voided();
        if !self.hands.contains_key(&key) {
            v.push(Violation::new(
                "hand",
                "there is no such hand at this table",
            ));
        }
        if dispute.official.trim().is_empty() {
            v.push(Violation::new(
                "official",
                "name the official recording the dispute",
            ));
        }
        if dispute.description.trim().is_empty() {
            v.push(Violation::new(
                "description",
                "say what is disputed (it is recorded)",
            ));
        }
        if let Some(line) = &dispute.position {
            if let Err(e) = line.parse::<crate::position::Position>() {
                v.push(Violation::new("position", e.to_string()));
            }
        }
        if !v.is_empty() {
            return Err(v);
        }
        let mut d = dispute.clone();
        d.description = d.description.trim().to_owned();
        Ok(vec![Decided::Hand(key, HandEvent::DisputeRaised(d))])
    }

    /// A ruling on a dispute about hand `key`, and the settlement it brings.
    pub(super) fn decide_ruling(
        &self,
        conditions: &Conditions,
        key: HandKey,
        ruling: &Ruling,
    ) -> Result<Vec<Decided>, Violations> {
        let mut v = self.not_voided();
        let Some(hand) = self.hands.get(&key) else {
            v.push(Violation::new(
                "hand",
                "there is no such hand at this table",
            ));
            return Err(v);
        };
        if !hand
            .rulings
            .disputes
            .iter()
            .any(|(id, _)| *id == ruling.dispute)
        {
            v.push(Violation::new(
                "dispute",
                format!("no dispute {} was raised about this hand", ruling.dispute),
            ));
        }
        if let Some(standing) = hand.rulings.on(ruling.dispute) {
            v.push(Violation::new(
                "dispute",
                format!("the dispute is already ruled on (ruling {standing}): an appeal supersedes that ruling"),
            ));
        }
        check_ruling(ruling, &mut v);
        if !v.is_empty() {
            return Err(v);
        }
        let issued = RulingIssued {
            dispute: Some(ruling.dispute),
            official: ruling.official.trim().to_owned(),
            finding: ruling.finding.clone(),
            decision: ruling.decision,
            reason: ruling.reason.trim().to_owned(),
            sections: ruling
                .sections
                .iter()
                .map(|s| s.trim().to_owned())
                .collect(),
            penalties: ruling.penalties.clone(),
            abandons: ruling.abandons,
        };
        let mut after = hand.rulings.clone();
        after.issued.push((Uuid::nil(), issued.clone(), None));
        let mut out = vec![HandEvent::RulingIssued(issued)];
        out.extend(self.resettled(conditions, hand, &after, "a ruling")?);
        Ok(out.into_iter().map(|e| Decided::Hand(key, e)).collect())
    }

    /// An appeal: the ruling `ruling` on hand `key` no longer stands, replaced by
    /// `replacement` if given; the settlement is recomputed.
    pub(super) fn decide_appeal(
        &self,
        conditions: &Conditions,
        key: HandKey,
        superseded: &RulingSuperseded,
        replacement: Option<&Ruling>,
    ) -> Result<Vec<Decided>, Violations> {
        let mut v = self.not_voided();
        let Some(hand) = self.hands.get(&key) else {
            v.push(Violation::new(
                "hand",
                "there is no such hand at this table",
            ));
            return Err(v);
        };
        let old = hand
            .rulings
            .standing()
            .find(|(id, _)| *id == superseded.ruling)
            .map(|(_, r)| r.clone());
        if old.is_none() {
            v.push(Violation::new(
                "ruling",
                format!(
                    "no ruling {} stands on this hand (it was never issued here, or is already superseded)",
                    superseded.ruling
                ),
            ));
        }
        if superseded.official.trim().is_empty() {
            v.push(Violation::new(
                "official",
                "name the official hearing the appeal",
            ));
        }
        if superseded.reason.trim().is_empty() {
            v.push(Violation::new(
                "reason",
                "say why the ruling is superseded (it is recorded)",
            ));
        }
        if let (Some(r), Some(old)) = (replacement, &old) {
            if old.dispute != Some(r.dispute) {
                v.push(Violation::new(
                    "replacement.dispute",
                    "the new ruling must be on the dispute the superseded one ruled on",
                ));
            }
            check_ruling(r, &mut v);
        }
        if !v.is_empty() {
            return Err(v);
        }
        let appeal = RulingSuperseded {
            ruling: superseded.ruling,
            official: superseded.official.trim().to_owned(),
            reason: superseded.reason.trim().to_owned(),
        };
        let mut after = hand.rulings.clone();
        after.fold(Uuid::nil(), &HandEvent::RulingSuperseded(appeal.clone()));
        let mut out = vec![HandEvent::RulingSuperseded(appeal)];
        if let Some(r) = replacement {
            let issued = RulingIssued {
                dispute: Some(r.dispute),
                official: r.official.trim().to_owned(),
                finding: r.finding.clone(),
                decision: r.decision,
                reason: r.reason.trim().to_owned(),
                sections: r.sections.iter().map(|s| s.trim().to_owned()).collect(),
                penalties: r.penalties.clone(),
                abandons: r.abandons,
            };
            after.issued.push((Uuid::nil(), issued.clone(), None));
            out.push(HandEvent::RulingIssued(issued));
        }
        out.extend(self.resettled(conditions, hand, &after, "an appeal")?);
        Ok(out.into_iter().map(|e| Decided::Hand(key, e)).collect())
    }

    /// The events that settle `hand` again under the rulings `after`: none while it is in play
    /// (the rulings' penalties enter when it ends) unless a ruling abandons it; a correction
    /// and the new result for a settled hand.
    fn resettled(
        &self,
        conditions: &Conditions,
        hand: &HandState,
        after: &Rulings,
        what: &str,
    ) -> Result<Vec<HandEvent>, Violations> {
        let abandons = after.standing().any(|(_, r)| r.abandons);
        if hand.play().is_some() {
            if !abandons {
                return Ok(Vec::new());
            }
            // The hand ends here: the penalties are its only score.
            let nothing = HandFacts {
                hands: Default::default(),
                win: None,
                penalties: Vec::new(),
                discards: crate::TileCounts::EMPTY,
            };
            let facts = after.applied_to(&nothing);
            let (facts, settled) = settled(
                Some(facts),
                &conditions.ruleset,
                &hand.position,
                Violations::new(),
            )?;
            return Ok(result_events(conditions, &facts, settled));
        }
        let (Some((settlement_id, _)), Some(unruled)) = (&hand.settlement, &after.unruled) else {
            return Err(Violation::new(
                "hand",
                format!("the hand has no settlement in force for {what} to change: record or correct its result first"),
            )
            .into());
        };
        let facts = after.applied_to(unruled);
        let (facts, settled) = settled(
            Some(facts),
            &conditions.ruleset,
            &hand.position,
            Violations::new(),
        )?;
        let mut out = vec![HandEvent::CorrectionRecorded(
            crate::event::CorrectionRecorded {
                supersedes: *settlement_id,
                reason: format!("settled again after {what}"),
            },
        )];
        out.extend(result_events(conditions, &facts, settled));
        Ok(out)
    }
}

/// Every problem with a ruling's own fields.
fn check_ruling(r: &Ruling, v: &mut Violations) {
    if r.official.trim().is_empty() {
        v.push(Violation::new("official", "name the official ruling"));
    }
    if r.reason.trim().is_empty() {
        v.push(Violation::new(
            "reason",
            "give the reason for the ruling (it is recorded beside the finding)",
        ));
    }
    if r.sections.iter().all(|s| s.trim().is_empty()) {
        v.push(Violation::new(
            "sections",
            "cite the section(s) of the rules the ruling rests on",
        ));
    }
    if r.decision == Decision::Overruled && r.finding.is_none() {
        v.push(Violation::new(
            "decision",
            "only a finding can be overruled: give the finding, or accept the dispute's claim",
        ));
    }
    for (i, p) in r.penalties.iter().enumerate() {
        if let Penalty::Agreed {
            payer,
            payee,
            amount,
            reason,
        } = p
        {
            if *amount <= 0 {
                v.push(Violation::new(
                    format!("penalties.{i}.amount"),
                    "a payment is a positive number of points",
                ));
            }
            if Some(*payer) == *payee {
                v.push(Violation::new(
                    format!("penalties.{i}.payee"),
                    "a player does not pay himself",
                ));
            }
            if reason.trim().is_empty() {
                v.push(Violation::new(
                    format!("penalties.{i}.reason"),
                    "say what a payment no rule prices is for",
                ));
            }
        }
    }
}
