//! Disputes and rulings at a table: a dispute is raised about a hand, a referee rules on it,
//! and the ruling moves the money; an appeal supersedes a ruling and the settlement is
//! recomputed.
//!
//! A ruling records its effect on the facts in force, so that an appeal can undo exactly that:
//! the penalties it orders, the penalties in force it lifts (a finding overruled), and — when
//! it abandons a won hand — the win and the hands it set aside ([`SetAside`]). Superseding a
//! ruling takes its penalties off, puts back what it lifted and restores the win it set aside.
//!
//! A ruling on a hand still in play is kept until the play ends, when its effect is applied to
//! the play's result; a ruling that abandons the hand ends the play at once, with the
//! penalties as the only score. A ruling on a settled hand corrects its settlement
//! (`CorrectionRecorded`, then the new sheets and settlement), so the standings follow as for
//! any correction.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::event::{
    Decision, DisputeRaised, HandEvent, RuledFinding, RulingIssued, RulingSuperseded, SetAside,
};
use crate::settle::Penalty;
use crate::violation::{Violation, Violations};
use crate::Seat;

use super::decide::{no_such_hand, result_events, settled};
use super::{Conditions, Decided, HandFacts, HandKey, HandState, Table};

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
    /// Penalties in force the ruling lifts.
    pub withdrawn: Vec<Penalty<Seat>>,
    pub abandons: bool,
}

impl Ruling {
    /// The event that records it, its effect measured against `facts` (the facts in force, or
    /// none while the hand is in play).
    fn issued(&self, facts: Option<&HandFacts>) -> RulingIssued {
        RulingIssued {
            dispute: Some(self.dispute),
            official: self.official.trim().to_owned(),
            finding: self.finding.clone(),
            decision: self.decision,
            reason: self.reason.trim().to_owned(),
            sections: self.sections.iter().map(|s| s.trim().to_owned()).collect(),
            penalties: self.penalties.clone(),
            withdrawn: self.withdrawn.clone(),
            abandons: self.abandons,
            set_aside: facts.filter(|_| self.abandons).and_then(|f| {
                f.win.clone().map(|win| SetAside {
                    win,
                    hands: f.hands.clone(),
                })
            }),
        }
    }
}

/// A hand's disputes and rulings, folded from its events (by its [`super::ResultRecord`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rulings {
    /// Each dispute raised, with its event id.
    pub disputes: Vec<(Uuid, DisputeRaised)>,
    /// Each ruling issued, with its event id and the appeal that superseded it, if any.
    pub issued: Vec<(Uuid, RulingIssued, Option<Uuid>)>,
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

    /// `facts` with the standing rulings applied, in the order they were issued: what the
    /// play's result becomes when rulings were made while it was in play.
    pub fn applied_to(&self, facts: &HandFacts) -> HandFacts {
        let mut out = facts.clone();
        for (_, r) in self.standing() {
            apply(&mut out, r);
        }
        out
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

    /// What is wrong with `line` as the position of a dispute about hand `key`: it must read,
    /// be this hand (its game and hand, its dealer and prevailing wind as recorded), and its
    /// acts must replay from it, so that the dispute is ruled on from what was raised, not
    /// refused at the ruling.
    ///
    /// Asked by the service when a dispute is raised, not by [`Table::decide`]: disputes
    /// raised before it asked stay in their ledgers' history as recorded.
    pub fn dispute_position_problems(&self, key: HandKey, line: &str) -> Violations {
        match line.parse::<crate::position::Position>() {
            Err(e) => Violations(vec![Violation::new("position", e.to_string())]),
            Ok(p) => Violations(self.position_problems(key, &p)),
        }
    }

    fn position_problems(&self, key: HandKey, p: &crate::position::Position) -> Vec<Violation> {
        let mut v = Vec::new();
        let Some(hand) = self.hands.get(&key) else {
            return v;
        };
        let recorded = &hand.position;
        if (p.game(), p.hand()) != (key.game, key.hand) {
            v.push(Violation::new(
                "position",
                format!(
                    "the position is of g{} h{}, but the dispute is about g{} h{}",
                    p.game(),
                    p.hand(),
                    key.game,
                    key.hand
                ),
            ));
        }
        if p.dealer() != recorded.east {
            v.push(Violation::rule(
                "position",
                "Code §11",
                format!(
                    "the position has the {} seat dealing, but the record has the {} seat dealing this hand",
                    p.dealer(),
                    recorded.east
                ),
            ));
        }
        if p.prevailing() != recorded.prevailing {
            v.push(Violation::rule(
                "position",
                "Code §13",
                format!(
                    "the position has {} prevailing, but the record has {} prevailing this hand",
                    p.prevailing(),
                    recorded.prevailing
                ),
            ));
        }
        let refused =
            match crate::adjudicate::Replay::replay_from_position(self.play_rules.clone(), p) {
                Err(e) => Some(e),
                Ok(replayed) => replayed.refused,
            };
        if let Some(e) = refused {
            v.push(Violation::new(
                "position",
                format!("the position cannot be replayed: {e}"),
            ));
        }
        v
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
            return Err(no_such_hand(v));
        };
        if !hand
            .rulings()
            .disputes
            .iter()
            .any(|(id, _)| *id == ruling.dispute)
        {
            v.push(Violation::new(
                "dispute",
                format!("no dispute {} was raised about this hand", ruling.dispute),
            ));
        }
        if let Some(standing) = hand.rulings().on(ruling.dispute) {
            v.push(Violation::new(
                "dispute",
                format!("the dispute is already ruled on (ruling {standing}): an appeal supersedes that ruling"),
            ));
        }
        check_ruling(ruling, &mut v);
        if !v.is_empty() {
            return Err(v);
        }
        let issued = ruling.issued(hand.facts().filter(|_| hand.play().is_none()).as_ref());
        let mut out = vec![HandEvent::RulingIssued(issued.clone())];
        out.extend(self.resettled(conditions, key, hand, &[], &[issued], "a ruling")?);
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
            return Err(no_such_hand(v));
        };
        let old = hand
            .rulings()
            .standing()
            .find(|(id, _)| *id == superseded.ruling)
            .map(|(id, r)| (id, r.clone()));
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
        if let (Some(r), Some((_, old))) = (replacement, &old) {
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
        let mut out = vec![HandEvent::RulingSuperseded(appeal)];
        let undone = old.into_iter().collect::<Vec<_>>();
        let mut issued = Vec::new();
        if let Some(r) = replacement {
            // Measured against the facts once the old ruling is undone.
            let facts = hand.facts().filter(|_| hand.play().is_none()).map(|mut f| {
                for (_, u) in &undone {
                    undo(&mut f, u, &Rulings::default());
                }
                f
            });
            let i = r.issued(facts.as_ref());
            out.push(HandEvent::RulingIssued(i.clone()));
            issued.push(i);
        }
        out.extend(self.resettled(conditions, key, hand, &undone, &issued, "an appeal")?);
        Ok(out.into_iter().map(|e| Decided::Hand(key, e)).collect())
    }

    /// The events that settle `hand` again once the rulings `undone` are superseded and
    /// `issued` are issued: none while it is in play (the rulings apply when it ends) unless
    /// the rulings then standing abandon it; a correction and the new result for a settled
    /// hand.
    fn resettled(
        &self,
        conditions: &Conditions,
        key: HandKey,
        hand: &HandState,
        undone: &[(Uuid, RulingIssued)],
        issued: &[RulingIssued],
        what: &str,
    ) -> Result<Vec<HandEvent>, Violations> {
        let mut standing = hand.rulings().clone();
        standing
            .issued
            .retain(|(id, _, _)| !undone.iter().any(|(u, _)| u == id));
        if hand.play().is_some() {
            let mut all = standing.standing().map(|(_, r)| r).chain(issued);
            if !all.any(|r| r.abandons) {
                return Ok(Vec::new());
            }
            // The hand ends here: the penalties are its only score.
            let mut facts = HandFacts {
                hands: Default::default(),
                win: None,
                penalties: Vec::new(),
                discards: crate::TileCounts::EMPTY,
            };
            for r in standing.standing().map(|(_, r)| r).chain(issued) {
                apply(&mut facts, r);
            }
            let (facts, settled) = settled(
                Some(facts),
                &conditions.ruleset,
                &hand.position,
                Violations::new(),
            )?;
            return Ok(result_events(conditions, &facts, settled));
        }
        let (Some((settlement_id, _)), Some(mut facts)) = (hand.settlement(), hand.facts()) else {
            return Err(Violation::new(
                "hand",
                format!("the hand has no settlement in force for {what} to change: record or correct its result first"),
            )
            .into());
        };
        for (_, r) in undone {
            undo(&mut facts, r, &standing);
        }
        for r in issued {
            apply(&mut facts, r);
        }
        // Abandoning a win, or an appeal restoring one, must not change who dealt a hand
        // recorded after it.
        let mut v = Violations::new();
        if let Some(x) = self.keeps_later_deals(key, hand, &facts) {
            v.push(x);
        }
        let (facts, settled) = settled(Some(facts), &conditions.ruleset, &hand.position, v)?;
        let mut out = vec![HandEvent::CorrectionRecorded(
            crate::event::CorrectionRecorded {
                supersedes: settlement_id,
                reason: format!("settled again after {what}"),
            },
        )];
        out.extend(result_events(conditions, &facts, settled));
        Ok(out)
    }
}

/// `r`'s effect on `facts`: the penalties it lifts off, those it orders on, and no win (nor
/// hands laid down) when it abandons the hand.
fn apply(facts: &mut HandFacts, r: &RulingIssued) {
    for p in &r.withdrawn {
        if let Some(i) = facts.penalties.iter().position(|q| q == p) {
            facts.penalties.remove(i);
        }
    }
    facts.penalties.extend(r.penalties.iter().cloned());
    if r.abandons {
        facts.win = None;
        facts.hands = Default::default();
    }
}

/// `r`'s effect on `facts` undone (an appeal): its penalties off, what it lifted back on, and
/// the win it set aside restored unless another standing ruling (`others`) abandons the hand.
fn undo(facts: &mut HandFacts, r: &RulingIssued, others: &Rulings) {
    for p in &r.penalties {
        if let Some(i) = facts.penalties.iter().position(|q| q == p) {
            facts.penalties.remove(i);
        }
    }
    facts.penalties.extend(r.withdrawn.iter().cloned());
    if let Some(s) = &r.set_aside {
        if !others.standing().any(|(_, o)| o.abandons) {
            facts.win = Some(s.win.clone());
            facts.hands = s.hands.clone();
        }
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
