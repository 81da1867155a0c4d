//! Re-deciding recorded events: would the table have decided them?
//!
//! A record that arrives from outside (an import) or that was written behind the service's back
//! (what the audit looks for) is only as good as the decision that made it. So it is decided
//! again: the command a live write would have given is read back from the recorded events — the
//! hand's start with its report, its play or nothing more; one event of the play; a correction
//! with the facts it restates; a dispute, a ruling, an appeal, a player's count — and decided by
//! [`Table::decision`], the one path every live write takes. The record stands only when that
//! decision comes to exactly the events recorded; else every violation the decision names is
//! the refusal, or, when the command is decided to other events (a settlement off the ruleset,
//! a second settlement, a ruling that moves other money), the first event that differs.
//!
//! There is no second list of checks here: a hand at a closed or voided table, a discard after
//! the hand's end, a correction past the limit are refused because deciding them refuses them.

use std::mem::discriminant;

use crate::event::{describe, HandEvent, HandExposed, HandStarted};
use crate::report::HandReport;
use crate::violation::{Violation, Violations};

use super::record::{Fact, ResultRecord};
use super::{Conditions, Decided, Decision, HandKey, Ruling, Table, TableCommand};

/// Why recorded events do not stand: the decision's violations, or how it differs from the
/// record, and which recorded event (counted from the first given) it concerns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotDecided {
    pub event: usize,
    pub violations: Violations,
}

impl From<Violations> for NotDecided {
    fn from(violations: Violations) -> NotDecided {
        NotDecided {
            event: 0,
            violations,
        }
    }
}

impl std::fmt::Display for NotDecided {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.violations.fmt(f)
    }
}

/// Recorded events of one hand, re-decided: the command that makes them and its decision. The
/// decision's events are the first `hand_events` recorded ones of the hand, and the table's own
/// events it names (a game ended, a game started) are the caller's to find in the table's stream.
#[derive(Clone, Debug)]
pub struct Redecided {
    pub command: TableCommand,
    pub decision: Decision,
    pub hand_events: usize,
}

impl Table {
    /// Re-decides the events recorded next in hand `key`'s stream (`recorded`, from the first
    /// not yet decided): the live command that makes the first of them and as many more as
    /// that command decides, or why none does.
    pub fn redecide(
        &self,
        conditions: &Conditions,
        key: HandKey,
        recorded: &[HandEvent],
    ) -> Result<Redecided, NotDecided> {
        let Some(first) = recorded.first() else {
            return Err(Violations::from(Violation::new("", "there is no event to decide")).into());
        };
        let candidates = self.commands_for(key, recorded);
        if candidates.is_empty() {
            return Err(Violations::from(Violation::new(
                "",
                format!(
                    "`{}` is never recorded on its own: it follows from the command that records the hand, its correction or its ruling",
                    describe(first)
                ),
            ))
            .into());
        }
        let mut refusal: Option<NotDecided> = None;
        for command in candidates {
            match self.decision(conditions, &command) {
                Ok(decision) => match differs(key, &decision, recorded, &conditions.ruleset.name) {
                    None => {
                        let hand_events = decision
                            .events
                            .iter()
                            .filter(|d| matches!(d, Decided::Hand(..)))
                            .count();
                        return Ok(Redecided {
                            command,
                            decision,
                            hand_events,
                        });
                    }
                    Some((event, why)) => {
                        let refused = NotDecided {
                            event,
                            violations: Violation::new("", why).into(),
                        };
                        // A hand reported whole (no moves of play) is recorded by its report or
                        // not at all: deciding its start alone would only refuse its next event.
                        if matches!(command, TableCommand::RecordHand { .. }) && event > 0 {
                            return Err(refused);
                        }
                        refusal.get_or_insert(refused);
                    }
                },
                Err(v) => {
                    refusal.get_or_insert(v.into());
                }
            }
        }
        Err(refusal.unwrap_or_else(|| Violations::default().into()))
    }

    /// The commands a live write could have made `recorded` with, most likely first.
    fn commands_for(&self, key: HandKey, recorded: &[HandEvent]) -> Vec<TableCommand> {
        let Some(first) = recorded.first() else {
            return Vec::new();
        };
        let rest = &recorded[1..];
        let mut out = Vec::new();
        match first {
            HandEvent::HandStarted(started) => {
                let result = through_settlement(rest);
                if let Some(result) = result {
                    if started.dice.is_empty() && result.iter().all(|e| !is_move(e)) {
                        out.extend(
                            report_of(result, None)
                                .map(|report| TableCommand::RecordHand { report }),
                        );
                    }
                    out.push(played_whole(started, result));
                }
                out.push(TableCommand::StartHand {
                    dice: started.dice.clone(),
                    deal: started.deal.clone(),
                });
            }
            HandEvent::CorrectionRecorded(c) => {
                let seen = self.hands.get(&key).map(|h| h.seen);
                if let Some(report) = through_settlement(rest).and_then(|r| report_of(r, seen)) {
                    out.push(TableCommand::CorrectHand {
                        hand: key,
                        reason: c.reason.clone(),
                        report,
                    });
                }
            }
            HandEvent::DisputeRaised(d) => out.push(TableCommand::RaiseDispute {
                hand: key,
                dispute: d.clone(),
            }),
            HandEvent::RulingIssued(r) => out.push(TableCommand::Rule {
                hand: key,
                ruling: Ruling::as_issued(r),
            }),
            HandEvent::RulingSuperseded(s) => {
                if let Some(HandEvent::RulingIssued(r)) = rest.first() {
                    out.push(TableCommand::Appeal {
                        hand: key,
                        superseded: s.clone(),
                        replacement: Some(Ruling::as_issued(r)),
                    });
                }
                out.push(TableCommand::Appeal {
                    hand: key,
                    superseded: s.clone(),
                    replacement: None,
                });
            }
            HandEvent::EntryStruck(_) => out.push(TableCommand::Play {
                hand: key,
                event: first.clone(),
                laid_down: Vec::new(),
            }),
            HandEvent::ScoreClaimed(c) => out.push(TableCommand::Count {
                hand: key,
                count: c.clone(),
            }),
            e if e.is_play() => {
                // One event of the play, with the hands laid down after it when it ends the hand.
                let laid_down: Vec<HandExposed> = rest
                    .iter()
                    .map_while(|e| match e {
                        HandEvent::HandExposed(x) => Some(x.clone()),
                        _ => None,
                    })
                    .collect();
                if !laid_down.is_empty() {
                    out.push(TableCommand::Play {
                        hand: key,
                        event: e.clone(),
                        laid_down,
                    });
                }
                out.push(TableCommand::Play {
                    hand: key,
                    event: e.clone(),
                    laid_down: Vec::new(),
                });
                // The hand in play finished from a report of how it ended.
                if matches!(e, HandEvent::HandExposed(_)) || e.ends_play() {
                    if let Some(report) =
                        through_settlement(recorded).and_then(|r| report_of(r, None))
                    {
                        out.push(TableCommand::RecordHand { report });
                    }
                }
            }
            _ => {}
        }
        out
    }
}

impl Ruling {
    /// The ruling a recorded [`crate::event::RulingIssued`] was decided from (what it set aside
    /// is the decision's to measure again).
    pub fn as_issued(r: &crate::event::RulingIssued) -> Ruling {
        Ruling {
            dispute: r.dispute.unwrap_or_default(),
            official: r.official.clone(),
            finding: r.finding.clone(),
            decision: r.decision,
            reason: r.reason.clone(),
            sections: r.sections.clone(),
            penalties: r.penalties.clone(),
            withdrawn: r.withdrawn.clone(),
            abandons: r.abandons,
        }
    }
}

/// A move of the play (a draw, a discard, a claim…), as against the hands laid down and the end
/// that a report states too.
fn is_move(e: &HandEvent) -> bool {
    e.is_play() && !matches!(e, HandEvent::HandExposed(_)) && !e.ends_play()
}

/// The events up to and including the first settlement, when there is one.
fn through_settlement(events: &[HandEvent]) -> Option<&[HandEvent]> {
    let end = events
        .iter()
        .position(|e| matches!(e, HandEvent::SettlementRecorded(_)))?;
    Some(&events[..=end])
}

/// The report that states the facts of `result` (the hands laid down, the end, the sheets' win
/// and penalties), with the discards seen in the play when known.
fn report_of(result: &[HandEvent], seen: Option<crate::TileCounts>) -> Option<HandReport> {
    let facts: Vec<_> = result
        .iter()
        .filter_map(|e| Fact::of(e).map(|f| (uuid::Uuid::nil(), f)))
        .collect();
    let facts = ResultRecord::derive(&facts).facts(seen.unwrap_or(crate::TileCounts::EMPTY))?;
    Some(HandReport::from_facts(&facts))
}

/// A hand recorded whole from its deal and play: the moves and what ends them, up to the score.
fn played_whole(started: &HandStarted, result: &[HandEvent]) -> TableCommand {
    TableCommand::RecordPlayedHand {
        dice: started.dice.clone(),
        deal: started.deal.clone(),
        events: {
            // The play as it stands: a scorer's strikes take their entries back out.
            let mut play = crate::event::PlayPicker::default();
            for e in result.iter().take_while(|e| !e.is_result()) {
                play.push((), e.clone());
            }
            play.finish().into_iter().map(|(_, e)| e).collect()
        },
        east: Some(started.east),
    }
}

/// Why `decision` is not the record, and at which recorded event: its hand events are not the
/// first ones recorded of hand `key`, in order; `None` when they are.
fn differs(
    key: HandKey,
    decision: &Decision,
    recorded: &[HandEvent],
    ruleset: &str,
) -> Option<(usize, String)> {
    let mut i = 0;
    for d in &decision.events {
        let Decided::Hand(k, decided) = d else {
            continue;
        };
        let here = i;
        i += 1;
        let Some(r) = recorded.get(here) else {
            return Some((
                here.saturating_sub(1),
                format!(
                    "the record stops before `{}`, which deciding it brings",
                    describe(decided)
                ),
            ));
        };
        if *k != key && !matches!(r, HandEvent::HandStarted(_)) {
            return Some((
                here,
                format!(
                    "the table's next hand is g{}-h{}, not g{}-h{}",
                    k.game, k.hand, key.game, key.hand
                ),
            ));
        }
        if r == decided {
            continue;
        }
        let why = if discriminant(r) == discriminant(decided) {
            described_difference(r, decided, ruleset)
        } else {
            format!(
                "`{}` is recorded where deciding it gives `{}`",
                describe(r),
                describe(decided)
            )
        };
        return Some((here, why));
    }
    None
}

/// What differs between a recorded event and the decided one of the same kind.
fn described_difference(recorded: &HandEvent, decided: &HandEvent, ruleset: &str) -> String {
    match (recorded, decided) {
        (HandEvent::SettlementRecorded(r), HandEvent::SettlementRecorded(d)) => format!(
            "the settlement pays {}, but the ruleset `{ruleset}` settles these hands {} (the same hands, win and penalties)",
            nets(&r.nets),
            nets(&d.nets)
        ),
        (HandEvent::HandStarted(r), HandEvent::HandStarted(d)) => format!(
            "game {} hand {} with the {} seat dealing and {} prevailing, but the table's next hand is game {} hand {} with the {} seat dealing and {} prevailing (Code §11–14)",
            r.game, r.hand, r.east, r.prevailing_wind, d.game, d.hand, d.east, d.prevailing_wind
        ),
        _ => format!(
            "`{}` is recorded where deciding it gives `{}`",
            describe(recorded),
            describe(decided)
        ),
    }
}

fn nets(n: &crate::BySeat<i64>) -> String {
    n.iter()
        .map(|(seat, v)| format!("{seat} {v:+}"))
        .collect::<Vec<_>>()
        .join(", ")
}
