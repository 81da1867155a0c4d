//! A player's own count of his hand, recorded after the hand is settled (Code §107, §110).
//!
//! The table settles a hand the moment its play ends, at the value of each hand as laid down.
//! The players then count their own hands; a count is recorded as a `ScoreClaimed` event, and
//! the settlement follows it: below the hand's value the hand stands at the count ("if he
//! should undervalue his hand, any other player who draws attention to his error shall
//! reimburse the other players"), above it the value is paid ("any other player … may correct
//! him") — [`crate::settle::Penalty::OwnCount`]. A later count by the same player replaces his
//! earlier one. A count corrects the settlement as a ruling does
//! (`CorrectionRecorded`, then the new sheets and settlement), so the standings follow.
//! Whether a count was right is the adjudication's ([`crate::adjudicate::own_count`]): the
//! `undervalued` finding, overruled, lifts the count.

use crate::event::{CorrectionRecorded, HandEvent, ScoreClaimed};
use crate::settle::Penalty;
use crate::violation::{Violation, Violations};

use super::decide::{no_such_hand, result_events, settled};
use super::{Conditions, Decided, HandKey, Table};

/// The most a count may be: far above any limit a ruleset sets.
const MAX_COUNT: i64 = 100_000_000;

impl Table {
    /// Whether a count may be recorded now. Its play over (the table closed, or its session,
    /// whose results are then published), a hand's settlement changes only by a referee: a
    /// correction or a ruling, each previewed before and after.
    ///
    /// Asked by the service before it decides a count, not by [`Table::decide`]: counts the
    /// service recorded at closed tables before it asked stay in their ledgers' history, and
    /// the audit's re-decision takes them as recorded.
    pub fn may_count(&self) -> Result<(), Violations> {
        if self.status == super::TableStatus::Closed {
            return Err(Violations(vec![Violation::new(
                "hand",
                format!(
                    "table `{}` is closed: its hands change only by a referee's correction or ruling, not by a count recorded now",
                    self.id
                ),
            )]));
        }
        Ok(())
    }

    /// `count`, recorded on settled hand `key`, and the settlement it brings.
    pub(super) fn decide_count(
        &self,
        conditions: &Conditions,
        key: HandKey,
        count: &ScoreClaimed,
    ) -> Result<Vec<Decided>, Violations> {
        let mut v = self.not_voided();
        let Some(hand) = self.hands.get(&key) else {
            return Err(no_such_hand(v));
        };
        let seat = count.seat;
        if !(0..=MAX_COUNT).contains(&count.points) {
            v.push(Violation::new(
                "points",
                format!("a count is 0 to {MAX_COUNT}"),
            ));
        }
        let settled_facts = match (hand.settlement(), hand.facts()) {
            (Some((id, _)), Some(facts)) if hand.play().is_none() => Some((id, facts)),
            _ => None,
        };
        let Some((settlement, mut facts)) = settled_facts else {
            v.push(Violation::rule(
                "hand",
                "Code §107",
                "the hand has no settlement yet: the players count their hands once it is over and settled",
            ));
            return Err(v);
        };
        if facts.win.is_none() {
            v.push(Violation::rule(
                "hand",
                "Code §97",
                "nobody went Mah-Jongg (a wash-out, or a hand abandoned for a penalty): no hand is scored",
            ));
        }
        if facts.hands[seat].is_none() {
            v.push(Violation::rule(
                "seat",
                "Code §106",
                format!("{seat}'s hand was not laid down: it claims no score"),
            ));
        }
        if facts
            .penalties
            .iter()
            .any(|p| matches!(p, Penalty::LongHand { seat: s } if *s == seat))
        {
            v.push(Violation::rule(
                "seat",
                "Code §89(c)",
                format!("{seat} held a long hand: it claims no score"),
            ));
        }
        if !v.is_empty() {
            return Err(v);
        }
        let recorded = ScoreClaimed {
            seat,
            points: count.points,
            elements: count
                .elements
                .iter()
                .map(|e| e.trim().to_owned())
                .filter(|e| !e.is_empty())
                .collect(),
        };
        let mut out = vec![HandEvent::ScoreClaimed(recorded)];
        facts
            .penalties
            .retain(|p| !matches!(p, Penalty::OwnCount { seat: s, .. } if *s == seat));
        facts.penalties.push(Penalty::OwnCount {
            seat,
            counted: count.points.unsigned_abs(),
        });
        let (facts, settled) = settled(
            Some(facts),
            &conditions.ruleset,
            &hand.position,
            Violations::new(),
        )?;
        out.push(HandEvent::CorrectionRecorded(CorrectionRecorded {
            supersedes: settlement,
            reason: format!("settled again after {seat}'s own count of {}", count.points),
        }));
        out.extend(result_events(conditions, &facts, settled));
        Ok(out.into_iter().map(|e| Decided::Hand(key, e)).collect())
    }
}
