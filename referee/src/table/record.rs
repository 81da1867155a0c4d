//! A hand's result as recorded: the one fold of a hand's result events, without a ruleset —
//! the hands laid down in force, who won or that it washed out, the score sheets and the
//! settlement in force, every settlement recorded and what took each out, the corrections and
//! the rulings. The table aggregate keeps one per hand ([`super::HandState`]) and the read
//! model stores one per hand, so the two can never disagree about what a hand came to.
//!
//! Corrections (`CorrectionRecorded`) point at the event they supersede:
//!
//! * **the settlement in force**: it stops counting, and the score sheets and the hands laid
//!   down go with it; the replacement facts recorded after the correction (hands, result,
//!   sheets, settlement) fill the record again;
//! * **a correction of the hand**: that correction is *withdrawn*, with everything it brought
//!   up to the next correction (its replacement facts); the settlement it took out counts again.
//!   A withdrawn correction is itself restored by withdrawing the correction that withdrew it.
//!   This reaches back into earlier facts, so it cannot be folded one event at a time:
//!   [`ResultRecord::fold`] says so ([`ReachesBack`]) and the record is derived again from the
//!   hand's facts ([`ResultRecord::derive`]), which for every other history gives exactly what
//!   folding does;
//! * **anything else** (an event of the play, a settlement no longer in force): recorded and
//!   counted, but it changes nothing.
//!
//! The table decides only corrections of the settlement in force; the others come from a raw
//! append or an import, and the table folds them as recorded, as the read model does.
//!
//! A settlement recorded without a correction while another is in force replaces it: the old
//! one no longer counts, taken out by nothing. Disputes and rulings are not facts a correction
//! restates: they fold whatever the corrections around them (the appeal, `RulingSuperseded`, is
//! how a ruling stops standing).

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::counts::TileCounts;
use crate::event::{
    ClaimKind, ClaimRetracted, CorrectionRecorded, DisputeRaised, HandEvent, HandExposed,
    HandScored, MahJonggDeclared, RulingIssued, RulingSuperseded, SettlementRecorded, WashOut,
};
use crate::hand::Hand;
use crate::report::HandFacts;
use crate::{BySeat, Seat};

use super::ruling::Rulings;

/// An event of a hand that the record folds, borrowed from whichever enum carries it (the
/// referee's [`HandEvent`], or the ledger's catalogue): [`Fact::of`] picks them out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fact<'a> {
    Exposed(&'a HandExposed),
    MahJongg(&'a MahJonggDeclared),
    WashOut(&'a WashOut),
    /// A call of Mah-Jongg taken back (§82): the only retraction that changes a fact
    /// ([`Fact::retracted`]).
    Retracted(&'a ClaimRetracted),
    Scored(&'a HandScored),
    Settled(&'a SettlementRecorded),
    Correction(&'a CorrectionRecorded),
    Dispute(&'a DisputeRaised),
    Ruling(&'a RulingIssued),
    Appeal(&'a RulingSuperseded),
}

impl<'a> Fact<'a> {
    /// The fact `e` states, if it is one the record folds.
    pub fn of(e: &'a HandEvent) -> Option<Fact<'a>> {
        Some(match e {
            HandEvent::HandExposed(e) => Fact::Exposed(e),
            HandEvent::MahJonggDeclared(e) => Fact::MahJongg(e),
            HandEvent::WashOut(e) => Fact::WashOut(e),
            HandEvent::ClaimRetracted(e) => return Fact::retracted(e),
            HandEvent::HandScored(e) => Fact::Scored(e),
            HandEvent::SettlementRecorded(e) => Fact::Settled(e),
            HandEvent::CorrectionRecorded(e) => Fact::Correction(e),
            HandEvent::DisputeRaised(e) => Fact::Dispute(e),
            HandEvent::RulingIssued(e) => Fact::Ruling(e),
            HandEvent::RulingSuperseded(e) => Fact::Appeal(e),
            _ => return None,
        })
    }

    /// A retraction as a fact: only a call of Mah-Jongg taken back is one (a pung or kong
    /// taken back belongs to the play alone).
    pub fn retracted(e: &'a ClaimRetracted) -> Option<Fact<'a>> {
        (e.claim == ClaimKind::MahJongg).then_some(Fact::Retracted(e))
    }

    /// A fact of the result that a correction restates (the hands, the end, the sheets): what a
    /// correction of the settlement takes out with it.
    fn is_restated(self) -> bool {
        matches!(
            self,
            Fact::Exposed(_) | Fact::MahJongg(_) | Fact::WashOut(_) | Fact::Scored(_)
        )
    }
}

/// Where a settlement stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Standing {
    /// It counts.
    InForce,
    /// A later settlement recorded without a correction replaced it.
    Replaced,
    /// The correction with this id took it out (or withdrew the correction that brought it).
    TakenOut(Uuid),
}

/// A settlement recorded for a hand, and where it stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settlement {
    /// Its event.
    pub id: Uuid,
    pub recorded: SettlementRecorded,
    pub standing: Standing,
}

impl Settlement {
    /// The correction that took it out; `None` while it counts or when it was simply replaced.
    pub fn superseded_by(&self) -> Option<Uuid> {
        match self.standing {
            Standing::TakenOut(by) => Some(by),
            Standing::InForce | Standing::Replaced => None,
        }
    }
}

/// Folding a correction that withdraws a correction reaches back into the facts before it:
/// derive the record again from the hand's facts with it ([`ResultRecord::derive`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a correction that withdraws a correction reaches back: derive the record from the hand's facts")]
pub struct ReachesBack;

/// A hand's result as it now stands (see the module docs).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResultRecord {
    /// Each seat's hand as laid down (the latest `HandExposed` in force).
    hands: BySeat<Option<Hand>>,
    winner: Option<Seat>,
    washed_out: bool,
    /// The score sheets in force, with their event.
    scored: Option<(Uuid, HandScored)>,
    /// Every settlement recorded, in the order recorded; at most one is in force.
    settlements: Vec<Settlement>,
    /// The corrections recorded, in order (withdrawn ones included).
    corrections: Vec<Uuid>,
    /// The corrections withdrawn (by a correction of them that is itself in force).
    withdrawn: Vec<Uuid>,
    /// The facts a correction of the settlement would take out (hands, end, sheets): those
    /// folded since the last correction that took one out.
    in_force: Vec<Uuid>,
    /// The facts taken out by a correction, or brought by a correction since withdrawn.
    taken_out: Vec<Uuid>,
    /// Its disputes and rulings.
    rulings: Rulings,
}

impl ResultRecord {
    /// Each seat's hand as laid down, in force.
    pub fn hands(&self) -> &BySeat<Option<Hand>> {
        &self.hands
    }

    pub fn winner(&self) -> Option<Seat> {
        self.winner
    }

    pub fn washed_out(&self) -> bool {
        self.washed_out
    }

    /// The score sheets in force.
    pub fn scored(&self) -> Option<&HandScored> {
        self.scored.as_ref().map(|(_, s)| s)
    }

    /// The settlement in force, with its event.
    pub fn settlement(&self) -> Option<(Uuid, &SettlementRecorded)> {
        self.in_force().map(|s| (s.id, &s.recorded))
    }

    /// The settlement in force.
    pub fn in_force(&self) -> Option<&Settlement> {
        self.settlements
            .iter()
            .find(|s| s.standing == Standing::InForce)
    }

    /// Every settlement recorded, in the order recorded.
    pub fn settlements(&self) -> &[Settlement] {
        &self.settlements
    }

    /// The settlements that no longer count, in the order recorded.
    pub fn superseded(&self) -> impl Iterator<Item = &Settlement> {
        self.settlements
            .iter()
            .filter(|s| s.standing != Standing::InForce)
    }

    /// The corrections recorded in the hand, in order (withdrawn ones included).
    pub fn corrections(&self) -> &[Uuid] {
        &self.corrections
    }

    /// Its disputes and rulings.
    pub fn rulings(&self) -> &Rulings {
        &self.rulings
    }

    /// The corrections withdrawn, in order.
    pub fn withdrawn(&self) -> &[Uuid] {
        &self.withdrawn
    }

    /// Whether the event `id` no longer counts: a fact (hands shown, the end, sheets or a
    /// settlement) a correction took out, a later settlement replaced, or a withdrawn
    /// correction brought; or a withdrawn correction itself.
    pub fn is_superseded(&self, id: Uuid) -> bool {
        self.taken_out.contains(&id)
            || self.withdrawn.contains(&id)
            || self.superseded().any(|s| s.id == id)
    }

    /// The facts in force as the referee scores them — the hands shown, the win and the
    /// penalties of the sheets in force — with `discards`, the tiles the play left on the
    /// table (which the record does not see); `None` before the hand is scored, or once a
    /// correction took its sheets out and before its own follow.
    pub fn facts(&self, discards: TileCounts) -> Option<HandFacts> {
        self.scored().map(|s| HandFacts {
            hands: self.hands.clone(),
            win: s.win.clone(),
            penalties: s.penalties.clone(),
            discards,
        })
    }

    /// Folds the next fact of the hand (`id` is its event's). A correction that withdraws a
    /// correction of this hand cannot be folded this way: the record is left as it was and
    /// [`ReachesBack`] says to derive it ([`ResultRecord::derive`]) from the hand's facts with
    /// this one.
    pub fn fold(&mut self, id: Uuid, fact: Fact<'_>) -> Result<(), ReachesBack> {
        if let Fact::Correction(c) = fact {
            if self.corrections.contains(&c.supersedes) {
                return Err(ReachesBack);
            }
        }
        self.apply(id, fact);
        Ok(())
    }

    /// The record of a hand's facts, in the order recorded, honouring withdrawn corrections.
    pub fn derive(facts: &[(Uuid, Fact<'_>)]) -> ResultRecord {
        let withdrawn_by = withdrawals(facts);
        let mut record = ResultRecord::default();
        // The correction that withdrew the one whose replacement facts are being read.
        let mut skipping: Option<Uuid> = None;
        for &(id, fact) in facts {
            if let Fact::Correction(_) = fact {
                skipping = withdrawn_by.get(&id).copied();
                if skipping.is_some() {
                    record.corrections.push(id);
                    record.withdrawn.push(id);
                    continue;
                }
            }
            match (skipping, fact) {
                (None, fact)
                | (Some(_), fact @ (Fact::Dispute(_) | Fact::Ruling(_) | Fact::Appeal(_))) => {
                    record.apply(id, fact)
                }
                (Some(by), Fact::Settled(s)) => record.settlements.push(Settlement {
                    id,
                    recorded: s.clone(),
                    standing: Standing::TakenOut(by),
                }),
                (Some(_), fact) if fact.is_restated() => record.taken_out.push(id),
                (Some(_), _) => {}
            }
        }
        record
    }

    /// Folds a fact that does not reach back.
    fn apply(&mut self, id: Uuid, fact: Fact<'_>) {
        if fact.is_restated() {
            self.in_force.push(id);
        }
        match fact {
            Fact::Exposed(e) => self.hands[e.seat] = Some(e.hand.clone()),
            Fact::MahJongg(e) => {
                self.winner = Some(e.seat);
                self.washed_out = false;
            }
            Fact::WashOut(_) => {
                self.winner = None;
                self.washed_out = true;
            }
            // §82: the caller took up his hand; play goes on.
            Fact::Retracted(e) => {
                if e.claim == ClaimKind::MahJongg && self.winner == Some(e.seat) {
                    self.winner = None;
                }
            }
            Fact::Scored(e) => {
                // The scored facts say who won: none, whatever call ended the play, for a hand
                // abandoned (§82) or washed out; the winner again, when an appeal restores a
                // win.
                match &e.win {
                    None => {
                        self.winner = None;
                        self.washed_out = true;
                    }
                    Some(w) => {
                        self.winner = Some(w.winner);
                        self.washed_out = false;
                    }
                }
                self.scored = Some((id, e.clone()));
            }
            Fact::Settled(e) => {
                if let Some(old) = self.in_force_mut() {
                    old.standing = Standing::Replaced;
                }
                self.settlements.push(Settlement {
                    id,
                    recorded: e.clone(),
                    standing: Standing::InForce,
                });
            }
            Fact::Correction(c) => {
                self.corrections.push(id);
                if let Some(out) = self.in_force_mut().filter(|s| s.id == c.supersedes) {
                    out.standing = Standing::TakenOut(id);
                    // The sheets and the hands laid down go with the settlement; the
                    // correction's own follow (a hand not shown again is off the record). Who
                    // won stands until the correction's result replaces it.
                    self.scored = None;
                    self.hands = BySeat::default();
                    self.taken_out.append(&mut self.in_force);
                }
            }
            Fact::Dispute(d) => self.rulings.disputes.push((id, d.clone())),
            Fact::Ruling(r) => self.rulings.issued.push((id, r.clone(), None)),
            Fact::Appeal(s) => {
                let mut issued = self.rulings.issued.iter_mut();
                if let Some(entry) = issued.find(|(i, _, _)| *i == s.ruling) {
                    entry.2 = Some(id);
                }
            }
        }
    }

    fn in_force_mut(&mut self) -> Option<&mut Settlement> {
        self.settlements
            .iter_mut()
            .find(|s| s.standing == Standing::InForce)
    }
}

/// Each withdrawn correction and the correction that withdrew it. A correction is withdrawn
/// when a correction that is itself in force supersedes it; corrections only point backwards,
/// so deciding from the last to the first settles each one after everything that could
/// withdraw it.
fn withdrawals(facts: &[(Uuid, Fact<'_>)]) -> HashMap<Uuid, Uuid> {
    let corrections: Vec<(Uuid, Uuid)> = facts
        .iter()
        .filter_map(|&(id, fact)| match fact {
            Fact::Correction(c) => Some((id, c.supersedes)),
            _ => None,
        })
        .collect();
    let mut withdrawn_by = HashMap::new();
    for &(id, target) in corrections.iter().rev() {
        if withdrawn_by.contains_key(&id) {
            continue;
        }
        if corrections.iter().any(|&(other, _)| other == target) {
            withdrawn_by.insert(target, id);
        }
    }
    withdrawn_by
}
