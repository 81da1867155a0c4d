//! Deciding a command at the table: every violation it commits, or the events it comes to.
//!
//! A new hand is the next by the rotation ([`crate::rotation`]); a hand reported at its end, or
//! played to its end event by event, is checked across the four hands, scored and settled
//! ([`crate::report`]); a hand in play takes one event at a time, replayed with the adjudication's
//! watchers ([`crate::adjudicate::Replay`]) so that the event that ends it brings the penalties its
//! play found; a correction restates the facts, and may not change who dealt a later hand (§11).

use std::collections::BTreeMap;

use crate::adjudicate::{report, report_as_played, Replay};
use crate::event::{
    CorrectionRecorded, Deal, GameEnded, GameStarted, HandEvent, HandExposed, HandScored,
    HandStarted, MahJonggDeclared, SettlementRecorded, TableEvent, WashOut,
};
use crate::play::{Applied, PlayRules, Turn};
use crate::report::{HandFacts, HandReport, Settled};
use crate::rotation::{HandEnd, Position, Rotated};
use crate::rules::Ruleset;
use crate::seat::Seat;
use crate::settle::Penalty;
use crate::violation::{Violation, Violations};
use crate::BySeat;

use super::{
    Conditions, Decided, Decision, HandKey, HandState, Played, Table, TableCommand, TableStatus,
};

impl Table {
    /// Decides a command into events, or lists every violation.
    pub fn decide(
        &self,
        conditions: &Conditions,
        command: &TableCommand,
    ) -> Result<Vec<Decided>, Violations> {
        self.decision(conditions, command).map(|d| d.events)
    }

    /// Decides a command into events, or lists every violation; for an event of the play, with
    /// the hand in play as the events leave it ([`Decision::played`]).
    pub fn decision(
        &self,
        conditions: &Conditions,
        command: &TableCommand,
    ) -> Result<Decision, Violations> {
        let events = match command {
            TableCommand::RecordHand { report } => {
                return self.decide_record(conditions, Recording::Report(report))
            }
            TableCommand::RecordPlayedHand {
                dice,
                deal,
                events,
                east,
            } => {
                return self.decide_record(
                    conditions,
                    Recording::Play {
                        dice,
                        deal,
                        events,
                        east: *east,
                    },
                )
            }
            TableCommand::StartHand { dice, deal } => self.decide_start(conditions, dice, deal),
            TableCommand::CorrectHand {
                hand,
                reason,
                report,
            } => self.decide_correct(conditions, *hand, reason, report),
            TableCommand::RaiseDispute { hand, dispute } => self.decide_dispute(*hand, dispute),
            TableCommand::Rule { hand, ruling } => self.decide_ruling(conditions, *hand, ruling),
            TableCommand::Count { hand, count } => self.decide_count(conditions, *hand, count),
            TableCommand::Appeal {
                hand,
                superseded,
                replacement,
            } => self.decide_appeal(conditions, *hand, superseded, replacement.as_ref()),
            TableCommand::Play {
                hand,
                event,
                laid_down,
            } => return self.decide_play(conditions, *hand, event, laid_down),
        }?;
        Ok(Decision {
            events,
            played: None,
        })
    }

    /// Refuses new facts for hand `key` whose end would change who deals the hand already
    /// recorded after it (Code §11: correct the later hands first, from the last). East's run
    /// of wins may change: it matters only to §122(r), and the later hands keep their records.
    pub(super) fn keeps_later_deals(
        &self,
        key: HandKey,
        hand: &HandState,
        f: &HandFacts,
    ) -> Option<Violation> {
        let (later_key, later_hand) = self.hands.range(key..).nth(1)?;
        let end = HandEnd::of(
            f.win.as_ref().map(|w| w.winner),
            true,
            &f.penalties,
            hand.position.east,
        )
        .unwrap_or(HandEnd::WashOut);
        let next = hand.position.after(end, &self.rotation).next;
        let recorded = later_hand.position;
        let same = |p: &Position| (p.game, p.hand, p.east, p.prevailing);
        (same(&next) != same(&recorded)).then(|| {
            Violation::rule(
                "winner",
                self.rotation.cite.clone(),
                format!(
                    "this would change who deals hand g{}-h{}, already recorded with the {} seat dealing: correct the later hands first, from the last",
                    later_key.game, later_key.hand, later_hand.position.east
                ),
            )
        })
    }

    /// Nothing is written at a voided table; a closed one still takes corrections and rulings.
    pub(super) fn not_voided(&self) -> Violations {
        let mut v = Violations::new();
        if let TableStatus::Voided { reason } = &self.status {
            v.push(Violation::new(
                "",
                format!(
                    "table `{}` is voided ({reason}): nothing is recorded there",
                    self.id
                ),
            ));
        }
        v
    }

    /// Whether anything may be recorded at this table: its seats drawn, and neither closed nor
    /// voided.
    pub(super) fn writable(&self) -> Violations {
        let mut v = Violations::new();
        if !self.seats_drawn {
            v.push(Violation::rule(
                "",
                "Code §15",
                "the seats at this table have not been drawn",
            ));
        }
        match &self.status {
            TableStatus::Open => {}
            TableStatus::Closed => v.push(Violation::new(
                "",
                format!(
                    "table `{}` is closed (its play is over): no hand is recorded there",
                    self.id
                ),
            )),
            TableStatus::Voided { reason } => v.push(Violation::new(
                "",
                format!(
                    "table `{}` is voided ({reason}): nothing is recorded there",
                    self.id
                ),
            )),
        }
        v
    }

    /// The hand that starts at `next`, with `dice` and `deal`.
    fn started(&self, next: &Position, dice: &[u8], deal: &Deal) -> HandStarted {
        HandStarted {
            table: self.id.clone(),
            game: next.game,
            hand: next.hand,
            east: next.east,
            prevailing_wind: next.prevailing,
            dice: dice.to_vec(),
            deal: deal.clone(),
        }
    }

    /// The table's own events a new hand at `rotated` brings: the game before ended, and a new
    /// one started.
    fn opening(&self, conditions: &Conditions, rotated: &Rotated) -> Vec<Decided> {
        let Rotated { next, game_ended } = rotated;
        let mut out = Vec::new();
        if next.game > self.games_started {
            if *game_ended && self.games_started > 0 {
                out.push(Decided::Table(TableEvent::GameEnded(GameEnded {
                    game: self.games_started,
                    final_chips: None,
                    reason: format!(
                        "{} rounds completed ({})",
                        conditions.ruleset.rotation.rounds_per_game,
                        conditions.ruleset.rotation.cite
                    ),
                })));
            }
            let mut options = BTreeMap::new();
            if let Some(limit) = conditions.ruleset.params.limit {
                options.insert("limit".to_owned(), limit.to_string());
            }
            out.push(Decided::Table(TableEvent::GameStarted(GameStarted {
                game: next.game,
                ruleset: conditions.ruleset_ref.clone(),
                options,
                starting_chips: conditions.starting_chips,
            })));
        }
        out
    }

    fn decide_start(
        &self,
        conditions: &Conditions,
        dice: &[u8],
        deal: &Deal,
    ) -> Result<Vec<Decided>, Violations> {
        let mut v = self.writable();
        if let Some((key, _)) = self.in_play() {
            v.push(Violation::new(
                "",
                format!(
                    "hand g{}-h{} is still being played: record its play to the end (or its result) before the next hand starts",
                    key.game, key.hand
                ),
            ));
            return Err(v);
        }
        let rotated = self.rotated();
        v.0.extend(super::dice::problem(dice));
        let started = self.started(&rotated.next, dice, deal);
        if let Err(e) = Replay::start(self.play_rules.clone(), &started) {
            v.push(Violation::new("deal", e.kind.to_string()));
        }
        if !v.is_empty() {
            return Err(v);
        }
        let mut out = self.opening(conditions, &rotated);
        out.push(Decided::Hand(
            HandKey::from(&rotated.next),
            HandEvent::HandStarted(started),
        ));
        Ok(out)
    }

    fn decide_play(
        &self,
        conditions: &Conditions,
        key: HandKey,
        event: &HandEvent,
        laid_down: &[HandExposed],
    ) -> Result<Decision, Violations> {
        let mut v = self.writable();
        let Some(hand) = self.hands.get(&key) else {
            return Err(no_such_hand(v));
        };
        let Some(play) = hand.play() else {
            v.push(Violation::new(
                "hand",
                format!(
                    "hand g{}-h{} is not in play: its result is recorded (correct it instead)",
                    key.game, key.hand
                ),
            ));
            return Err(v);
        };
        if let HandEvent::EntryStruck(strike) = event {
            return hand.decide_strike(key, strike, laid_down, v);
        }
        if !event.is_play() {
            v.push(Violation::new(
                "event",
                "a start, a result or a ruling is not an event of the play: the hands laid down, the score and the settlement follow from the play when it ends",
            ));
        }
        if !v.is_empty() {
            return Err(v);
        }
        let mut after = Box::new(play.clone());
        let applied = match after.apply(event) {
            Ok(applied) => applied,
            Err(e) => {
                return Err(
                    Violation::new("event", format!("event {}: {}", e.event, e.kind)).into(),
                )
            }
        };
        let mut out = vec![Decided::Hand(key, event.clone())];
        let over = matches!(after.state().turn, Turn::Over(_));
        if !laid_down.is_empty() && !over {
            return Err(Violation::rule(
                "laid_down",
                "Code §104",
                "the hands are laid down when the hand is over, with the event that ends it",
            )
            .into());
        }
        for (i, x) in laid_down.iter().enumerate() {
            let e = HandEvent::HandExposed(x.clone());
            if let Err(err) = after.apply(&e) {
                return Err(Violation::new(format!("laid_down.{i}"), err.kind.to_string()).into());
            }
            out.push(Decided::Hand(key, e));
        }
        if over {
            let rules = &conditions.ruleset;
            let Some(report) = report(&after, rules) else {
                if after.false_call(rules).is_some() {
                    // §82: the false caller may take up his hand until another lays down tiles;
                    // the hand waits for one or the other.
                    return Ok(Decision {
                        events: out,
                        played: Some(Played {
                            hand: key,
                            replay: after,
                            applied,
                        }),
                    });
                }
                return Err(Violation::new(
                    "event",
                    "the hand is over, but a seat's tiles were never seen, so its hand cannot be scored: record its result with a report instead",
                )
                .into());
            };
            let facts = checked(&report, &mut v).map(|f| hand.rulings().applied_to(&f));
            let (facts, settled) = settled(facts, &conditions.ruleset, &hand.position, v)?;
            let laid = &after.state().laid_down;
            out.extend(
                after_play(result_events(conditions, &facts, settled), laid)
                    .map(|e| Decided::Hand(key, e)),
            );
        }
        Ok(Decision {
            events: out,
            played: Some(Played {
                hand: key,
                replay: after,
                applied,
            }),
        })
    }

    /// The hand in play finished from a report of how it ended.
    fn decide_finish(
        &self,
        conditions: &Conditions,
        key: HandKey,
        report: &HandReport,
        mut v: Violations,
    ) -> Result<Vec<Decided>, Violations> {
        let Some(hand) = self.hands.get(&key) else {
            return Err(no_such_hand(Violations::new()));
        };
        let facts = checked(report, &mut v).map(|f| hand.rulings().applied_to(&f));
        let (facts, settled) = settled(facts, &conditions.ruleset, &hand.position, v)?;
        Ok(result_events(conditions, &facts, settled)
            .into_iter()
            .map(|e| Decided::Hand(key, e))
            .collect())
    }

    /// A hand recorded whole: reported at its end, or played event by event to its end (the
    /// decision then carries the replay, so that the table takes it instead of replaying the
    /// hand again).
    fn decide_record(
        &self,
        conditions: &Conditions,
        recording: Recording,
    ) -> Result<Decision, Violations> {
        let mut v = self.writable();
        if let Some((key, _)) = self.in_play() {
            if let Recording::Report(report) = recording {
                return Ok(Decision {
                    events: self.decide_finish(conditions, key, report, v)?,
                    played: None,
                });
            }
            v.push(Violation::new(
                "",
                format!(
                    "hand g{}-h{} is being recorded play by play: record its play to the end (or its result) first",
                    key.game, key.hand
                ),
            ));
            return Err(v);
        }
        let rotated = self.rotated();
        let next = rotated.next;
        // A hand played event by event is replayed to its end, and its final state reported.
        let (started, played, facts, replay) = match recording {
            Recording::Report(report) => (
                self.started(&next, &[], &Deal::Unknown),
                Vec::new(),
                checked(report, &mut v),
                None,
            ),
            Recording::Play {
                dice,
                deal,
                events,
                east,
            } => {
                if let Some(east) = east.filter(|&e| e != next.east) {
                    v.push(Violation::rule(
                        "east",
                        self.rotation.cite.clone(),
                        format!(
                            "the record has the {east} seat dealing, but the deal is the {} seat's: a hand is missing before this one, or the hands are out of order",
                            next.east
                        ),
                    ));
                    // Its deal and play are for another seat's hand: replaying them would
                    // only add noise.
                    return Err(v);
                }
                v.0.extend(super::dice::problem(dice));
                let started = self.started(&next, dice, deal);
                let (report, replay) = replayed(&self.play_rules, &started, events, &mut v)
                    .map_or((None, None), |(report, replay)| {
                        (Some(report), Some(replay))
                    });
                let facts = report.and_then(|r| checked(&r, &mut v));
                (started, events.to_vec(), facts, replay)
            }
        };
        let (facts, settled) = settled(facts, &conditions.ruleset, &next, v)?;
        let key = HandKey::from(&next);
        let mut out = self.opening(conditions, &rotated);
        out.push(Decided::Hand(key, HandEvent::HandStarted(started)));
        let results = result_events(conditions, &facts, settled);
        if played.is_empty() {
            out.extend(results.into_iter().map(|e| Decided::Hand(key, e)));
        } else {
            let mut laid = BySeat::from_fn(|_| None);
            for e in &played {
                if let HandEvent::HandExposed(x) = e {
                    laid[x.seat] = Some(x.hand.clone());
                }
            }
            out.extend(played.into_iter().map(|e| Decided::Hand(key, e)));
            out.extend(after_play(results, &laid).map(|e| Decided::Hand(key, e)));
        }
        Ok(Decision {
            events: out,
            played: replay.map(|(replay, applied)| Played {
                hand: key,
                replay: Box::new(replay),
                applied,
            }),
        })
    }

    fn decide_correct(
        &self,
        conditions: &Conditions,
        key: HandKey,
        reason: &str,
        report: &HandReport,
    ) -> Result<Vec<Decided>, Violations> {
        let Some(hand) = self.hands.get(&key) else {
            return Err(no_such_hand(Violations::new()));
        };
        let mut v = Violations::new();
        if let TableStatus::Voided { reason } = &self.status {
            v.push(Violation::new(
                "",
                format!(
                    "table `{}` is voided ({reason}): nothing is recorded there",
                    self.id
                ),
            ));
        }
        if reason.trim().is_empty() {
            v.push(Violation::new(
                "reason",
                "say why the hand is corrected (the reason is recorded)",
            ));
        }
        let Some((settlement_id, _)) = hand.settlement() else {
            v.push(Violation::new(
                "hand",
                "the hand has no settlement in force to correct",
            ));
            return Err(v);
        };
        let facts = checked(report, &mut v);
        if let Some(f) = &facts {
            if hand.facts().as_ref() == Some(f) {
                v.push(Violation::new(
                    "",
                    "the correction changes nothing that was recorded: change a hand, the winner, how it was won, the discarder or a penalty",
                ));
            }
            if let Some(x) = self.keeps_later_deals(key, hand, f) {
                v.push(x);
            }
        }
        let (facts, settled) = settled(facts, &conditions.ruleset, &hand.position, v)?;
        let mut out = vec![HandEvent::CorrectionRecorded(CorrectionRecorded {
            supersedes: settlement_id,
            reason: reason.trim().to_owned(),
        })];
        out.extend(result_events(conditions, &facts, settled));
        Ok(out.into_iter().map(|e| Decided::Hand(key, e)).collect())
    }
}

/// What a hand is recorded from.
enum Recording<'a> {
    /// The report of the hand after it ended.
    Report(&'a HandReport),
    /// The deal and every event of the play (and the seat the record says dealt).
    Play {
        dice: &'a [u8],
        deal: &'a Deal,
        events: &'a [HandEvent],
        east: Option<Seat>,
    },
}

/// The play replayed from `started` (`referee::play`), and its final state as a report; every
/// event that cannot be applied, or a play that does not end, is a violation.
fn replayed(
    rules: &PlayRules,
    started: &HandStarted,
    events: &[HandEvent],
    v: &mut Violations,
) -> Option<(HandReport, (Replay, Applied))> {
    let mut play = match Replay::start(rules.clone(), started) {
        Ok(p) => p,
        Err(e) => {
            v.push(Violation::new("deal", e.kind.to_string()));
            return None;
        }
    };
    let mut last = Applied::Legal;
    for (i, e) in events.iter().enumerate() {
        if !e.is_play() {
            v.push(Violation::new(
                format!("events.{i}"),
                "the play ends with Mah-Jongg or a wash-out (and the hands laid down): the score and the settlement follow from it",
            ));
            return None;
        }
        match play.apply(e) {
            Ok(applied) => last = applied,
            Err(err) => {
                v.push(Violation::new(format!("events.{i}"), err.kind.to_string()));
                return None;
            }
        }
    }
    let state = play.state();
    if !matches!(state.turn, Turn::Over(_)) {
        v.push(Violation::new(
            "events",
            format!(
                "the play does not reach the end of the hand ({})",
                state.turn
            ),
        ));
        return None;
    }
    let Some(report) = report_as_played(&play) else {
        v.push(Violation::new(
            "events",
            "a seat's tiles were never seen, so its hand cannot be scored",
        ));
        return None;
    };
    Some((report, (play, last)))
}

/// The result events that follow a play: its Mah-Jongg or wash-out is already in it, and so
/// are the hands the players laid down (`laid`).
fn after_play(
    results: Vec<HandEvent>,
    laid: &BySeat<Option<crate::hand::Hand>>,
) -> impl Iterator<Item = HandEvent> + '_ {
    results.into_iter().filter(move |e| match e {
        HandEvent::HandExposed(x) => laid[x.seat].is_none(),
        e => !e.ends_play(),
    })
}

/// `v` with the refusal of a hand the table does not have.
pub(super) fn no_such_hand(mut v: Violations) -> Violations {
    v.push(Violation::new(
        "hand",
        "there is no such hand at this table",
    ));
    v
}

/// The report checked, its problems added to `v`.
pub(super) fn checked(report: &HandReport, v: &mut Violations) -> Option<HandFacts> {
    report.check().map_err(|e| v.extend_under("", e)).ok()
}

/// The facts scored and settled at `position` — when nothing so far is wrong, for a score of a
/// refused report would only add noise to its violations.
pub(super) fn settled(
    facts: Option<HandFacts>,
    rules: &Ruleset,
    position: &Position,
    mut v: Violations,
) -> Result<(HandFacts, Settled), Violations> {
    match facts {
        Some(f) if v.is_empty() => {
            let s = f.score_and_settle(rules, position)?;
            Ok((f, s))
        }
        _ => {
            if v.is_empty() {
                v.push(Violation::new("", "the report states no facts"));
            }
            Err(v)
        }
    }
}

/// The events that state a hand's result: the hands laid down, Mah-Jongg or the wash-out, the
/// sheets, the settlement.
pub(super) fn result_events(
    conditions: &Conditions,
    facts: &HandFacts,
    settled: Settled,
) -> Vec<HandEvent> {
    let mut out: Vec<HandEvent> = facts
        .hands
        .iter()
        .filter_map(|(seat, hand)| {
            hand.as_ref().map(|hand| {
                HandEvent::HandExposed(HandExposed {
                    seat,
                    hand: hand.clone(),
                })
            })
        })
        .collect();
    out.push(match &facts.win {
        Some(w) => HandEvent::MahJonggDeclared(MahJonggDeclared {
            seat: w.winner,
            winning_tile: w.tile,
            self_drawn: w.from.is_drawn(),
        }),
        None => HandEvent::WashOut(WashOut {
            reason: abandoned_because(&facts.penalties)
                .unwrap_or("no Mah-Jongg before the wall was exhausted (Code §97)")
                .to_owned(),
        }),
    });
    let scores = settled
        .sheets
        .as_ref()
        .map(|s| i64::try_from(s.total).unwrap_or(i64::MAX));
    out.push(HandEvent::HandScored(HandScored {
        ruleset: conditions.ruleset_ref.clone(),
        win: facts.win.clone(),
        penalties: facts.penalties.clone(),
        sheets: Box::new(settled.sheets),
    }));
    out.push(HandEvent::SettlementRecorded(SettlementRecorded {
        winner: facts.win.as_ref().map(|w| w.winner),
        scores,
        payments: settled.payments,
        nets: settled.nets,
    }));
    out
}

/// Why a hand with no winner was abandoned, when a penalty finished it.
fn abandoned_because(penalties: &[Penalty<Seat>]) -> Option<&'static str> {
    penalties.iter().find_map(|p| match p {
        Penalty::FalseMahJongg { .. } => {
            Some("abandoned: a false call of Mah-Jongg after others laid down tiles (Code §82–83)")
        }
        Penalty::FalseNaming { .. } if p.abandons_hand(Seat::East).is_some() => {
            Some("abandoned: a falsely named discard claimed for Mah-Jongg (Code §87)")
        }
        _ => None,
    })
}
