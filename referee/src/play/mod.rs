//! A hand as it is played: the state after each event of its stream, and whether each event
//! was legal.
//!
//! A hand recorded play by play is a stream of [`HandEvent`]s (the deal, every draw, discard,
//! claim, kong and declaration). [`Play::start`] takes the [`HandStarted`] event and
//! [`Play::apply`] folds each later one into the state ([`PlayState`]), so the state at any
//! moment is the fold of the events before it and nothing is stored twice.
//!
//! Applying an event has three outcomes, never confused:
//! - *legal* ([`Applied::Legal`]);
//! - *irregular* ([`Applied::Irregular`]): it happened at the table against the Code (a draw
//!   out of turn, §73; a chow of a discard not from the left, §40; a claim granted over a
//!   higher one, §61 …). It is applied as it happened and flagged with the rule it breaks,
//!   for the referee to rule on;
//! - *inconsistent* ([`PlayError`]): it cannot have happened given the tiles known (a fifth
//!   copy, a draw from an empty wall, a discard of a tile the seat does not hold): refused,
//!   and the state is left as it was.
//!
//! What is known of the tiles varies: the whole wall in drawing order, each seat's dealt
//! tiles, or nothing but the dice. A seat whose tiles the recorder has not seen is only
//! counted ([`Concealed::Counted`]); its discards and exposures then reveal tiles without
//! being checked against a holding.
//!
//! How play runs is the ruleset's ([`PlayRules`]): the size of the kong box and where a bonus
//! tile's replacement comes from.

pub(crate) mod apply;
mod describe;
mod error;
mod from_position;
pub mod mjs;
pub(crate) mod moves;
mod rules;
mod state;
#[cfg(test)]
mod tests;
mod view;

pub use describe::describe;
pub use error::{Applied, Breach, Inconsistent, Irregularity, PlayError};
pub use moves::Move;
pub use rules::PlayRules;
pub use state::{
    Concealed, Discard, DrawnOver, Ending, Formed, LastDraw, PlayState, PlayedSet, SeatState, Turn,
    Wall, Window,
};
pub use view::{SeatView, SeenSeat};

use crate::adjudicate::cannon::{CannonReading, CannonWatch};
use crate::adjudicate::false_call::{Call, FalseCall, Rival};
use crate::adjudicate::notes::Notes;
use crate::adjudicate::{Cannon, Insurance};
use crate::event::{ClaimGranted, ClaimKind, ClaimRetracted, HandEvent, HandStarted};
use crate::rules::Cannons;
use crate::Seat;

/// The watch a book's penalty for a dangerous discard needs, where `rules` play one.
pub(crate) fn book_watch(rules: &PlayRules) -> Option<CannonWatch> {
    CannonReading::of(rules.cannons)
        .filter(|r| r != &CannonReading::CODE)
        .map(CannonWatch::new)
}

/// A hand being replayed: its state and how many events made it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Play {
    rules: PlayRules,
    state: PlayState,
    events: usize,
    /// What the cannon ruling needs, kept as the play is folded (Code §90–96).
    watch: CannonWatch,
    /// The same, under the book's reading where the ruleset charges a dangerous discard by
    /// Babcock's insurance penalties or Harr's penalty 2.
    book_watch: Option<CannonWatch>,
    /// Each call of Mah-Jongg, for §82: where play resumes if the caller takes up his hand,
    /// and who laid down tiles meanwhile.
    calls: Vec<Call>,
    /// The other seats whose claims for Mah-Jongg stood when the last discard was granted for
    /// Mah-Jongg, for the call that follows (§83).
    rivals: Vec<Rival>,
    /// What the findings spanning several events need: claims withdrawn, false namings,
    /// Original Calls broken, §89's counts (Code §55, §69–71, §76–78, §84–89).
    notes: Notes,
}

impl Play {
    /// The hand as dealt by `started`.
    pub fn start(rules: PlayRules, started: &HandStarted) -> Result<Play, PlayError> {
        let state =
            PlayState::deal(&rules, started).map_err(|kind| PlayError { event: 0, kind })?;
        Ok(Play {
            book_watch: book_watch(&rules),
            rules,
            state,
            events: 1,
            watch: CannonWatch::new(CannonReading::CODE),
            calls: Vec::new(),
            rivals: Vec::new(),
            notes: Notes::default(),
        })
    }

    /// Folds one more event in. An inconsistent event is refused and changes nothing.
    pub fn apply(&mut self, event: &HandEvent) -> Result<Applied, PlayError> {
        let n = self.events;
        if let HandEvent::ClaimRetracted(r) = event {
            if let Some(applied) = self.take_up(r)? {
                return Ok(applied);
            }
        }
        let rivals = match event {
            HandEvent::ClaimGranted(g) => Some(self.rivals_of(g)),
            _ => None,
        };
        let before = matches!(event, HandEvent::MahJonggDeclared(_)).then(|| self.state.clone());
        let noted = self.watch.note(&self.state, n, event);
        let book_noted = self
            .book_watch
            .as_ref()
            .map(|w| w.note(&self.state, n, event));
        let notes_before = self.notes.before(&self.state, event);
        let applied = apply::apply(&self.rules, &mut self.state, event)
            .map_err(|kind| PlayError { event: n, kind })?;
        self.watch.record(&self.state, event, noted);
        if let (Some(w), Some(noted)) = (self.book_watch.as_mut(), book_noted) {
            w.record(&self.state, event, noted);
        }
        self.notes.after(&self.state, n, event, notes_before);
        if let Some(rivals) = rivals {
            self.rivals = rivals;
        }
        match event {
            HandEvent::MahJonggDeclared(m) => {
                if let Some(before) = before {
                    let barred = self.notes.on_mahjongg(&before, n, m.seat, m.self_drawn);
                    let rivals = if m.self_drawn {
                        Vec::new()
                    } else {
                        std::mem::take(&mut self.rivals)
                    };
                    self.calls
                        .push(Call::new(m.seat, n, before, barred, rivals));
                }
            }
            HandEvent::HandExposed(x) => {
                if let Some(call) = self.standing_call_mut() {
                    if call.caller != x.seat && !call.rival_pressing(x.seat) {
                        call.laid_down.push((x.seat, n));
                    }
                }
            }
            _ => {}
        }
        self.events += 1;
        Ok(applied)
    }

    /// The seats other than `granted`'s whose claims of the discard for Mah-Jongg stand as it
    /// is granted for Mah-Jongg (§83); none for any other grant.
    fn rivals_of(&self, granted: &ClaimGranted) -> Vec<Rival> {
        let Some(w) = &self.state.window else {
            return Vec::new();
        };
        if granted.claim != ClaimKind::MahJongg {
            return Vec::new();
        }
        Seat::ALL
            .into_iter()
            .filter(|&s| s != granted.seat && w.claims[s] == Some(ClaimKind::MahJongg))
            .map(|seat| Rival {
                seat,
                barred: self.notes.barred(seat),
                withdrawn: None,
            })
            .collect()
    }

    /// The caller of Mah-Jongg takes up his hand (§82): play resumes where it stood before
    /// the call, a discard claimed for it staying on the table, dead (§71); or a rival
    /// claimant of the same discard withdraws his claim (§83), and the call stands. Refused
    /// once a seat that did not claim the discard for Mah-Jongg has laid down tiles: the hand
    /// is then finished. `None` when `r` is neither.
    fn take_up(&mut self, r: &ClaimRetracted) -> Result<Option<Applied>, PlayError> {
        let n = self.events;
        let Turn::Over(Ending::MahJongg { seat, .. }) = self.state.turn else {
            return Ok(None);
        };
        let state = self.state.clone();
        let Some(call) = self.standing_call_mut() else {
            return Ok(None);
        };
        let rival = r.seat != seat && call.rival_pressing(r.seat);
        if r.claim != ClaimKind::MahJongg || (r.seat != seat && !rival) {
            return Ok(None);
        }
        if let Some((other, _)) = call.laid_down.first() {
            let who = if rival {
                format!("{} can no longer withdraw his claim", r.seat)
            } else {
                "the caller can no longer take up his hand".to_string()
            };
            return Err(PlayError {
                event: n,
                kind: Inconsistent::HandOver(format!(
                    "{seat} went Mah-Jongg and {other} laid down tiles after it: {who} (Code §82–83)"
                )),
            });
        }
        if rival {
            if let Some(x) = call.rivals.iter_mut().find(|x| x.seat == r.seat) {
                x.withdrawn = Some(n);
            }
            self.events += 1;
            return Ok(Some(Applied::Legal));
        }
        call.as_called = Some(Box::new(state));
        call.taken_up = Some(n);
        self.state = (*call.before).clone();
        if matches!(self.state.turn, Turn::Expose { seat: s, .. } if s == seat) {
            // The claim behind the call is withdrawn: the discard goes back, dead.
            let _ = apply::apply(
                &self.rules,
                &mut self.state,
                &HandEvent::ClaimRetracted(r.clone()),
            );
        }
        self.events += 1;
        Ok(Some(Applied::Legal))
    }

    /// The call of Mah-Jongg that ended the play, while it stands (not taken up).
    fn standing_call_mut(&mut self) -> Option<&mut Call> {
        let i = self.standing_call()?;
        self.calls.get_mut(i)
    }

    /// The index of the call of Mah-Jongg that ended the play, while it stands.
    fn standing_call(&self) -> Option<usize> {
        if !matches!(self.state.turn, Turn::Over(Ending::MahJongg { .. })) {
            return None;
        }
        let i = self.calls.len().checked_sub(1)?;
        self.calls[i].taken_up.is_none().then_some(i)
    }

    /// Every call of Mah-Jongg found false under `rules` (§82), the one standing last.
    pub fn false_calls(&self, rules: &crate::Ruleset) -> Vec<FalseCall> {
        self.calls
            .iter()
            .filter_map(|c| {
                let state = c.as_called.as_deref().unwrap_or(&self.state);
                FalseCall::of(c, state, rules)
            })
            .collect()
    }

    /// The call of Mah-Jongg that ended the play, if it stands and is false under `rules`.
    pub fn false_call(&self, rules: &crate::Ruleset) -> Option<FalseCall> {
        FalseCall::of(&self.calls[self.standing_call()?], &self.state, rules)
    }

    /// What the play comes to under `rules` once it is over: the hand's report to score and
    /// settle ([`Play::report`]), or — when it ended on a false call of Mah-Jongg that others
    /// laid down tiles after — the hand abandoned with the false caller's penalty and no other
    /// score (§82). `None` before the end, while a seat's tiles are unseen, or while a false
    /// call stands with no one else's tiles laid down (the caller may still take up his hand).
    pub fn result(&self, rules: &crate::Ruleset) -> Option<crate::table::HandReport> {
        match self.false_call(rules) {
            Some(f) => f.penalty().map(|p| crate::table::HandReport {
                penalties: vec![p],
                ..crate::table::HandReport::default()
            }),
            None => self.report(),
        }
    }

    /// The cannon let off, under the Code (§90–96), once the hand has ended in Mah-Jongg on
    /// one: the finding, whatever the ruleset; whether it moves the money is the ruleset's
    /// ([`PlayRules::cannons`]).
    pub fn cannon(&self) -> Option<Cannon> {
        self.watch.cannon(&self.state)
    }

    /// The dangerous discard charged (or exempt) under Babcock's insurance penalties or Harr's
    /// penalty 2, once the hand has ended in Mah-Jongg, where the play's rules name one of them
    /// ([`PlayRules::cannons`]); `None` under any other rules.
    pub fn insurance(&self) -> Option<Insurance> {
        let watch = self.book_watch.as_ref()?;
        crate::adjudicate::insurance::insurance(watch, &self.state, self.rules.new_method)
    }

    /// The finished hand's report ([`PlayState::report`]) with the penalty its play brings:
    /// where the ruleset plays the Code's cannons, the discarder of a cannon pays for all
    /// (§96), unless he pleaded No Choice and could (§95); where it plays Babcock's insurance
    /// penalties or Harr's penalty 2, the liable discarder pays for all, in full or in half,
    /// as the book says.
    pub fn report(&self) -> Option<crate::table::HandReport> {
        // A long hand scores nothing and pays the other losers in full (§89(c)), once another
        // has gone Mah-Jongg (a long hand cannot win: its call is a false one); it has no
        // place on the score sheet. A wash-out settles nothing.
        let long: Vec<Seat> = match self.state.turn {
            Turn::Over(Ending::MahJongg { seat: winner, .. }) => Seat::ALL
                .into_iter()
                .filter(|&s| {
                    s != winner
                        && self
                            .notes
                            .incorrect
                            .iter()
                            .any(|h| h.seat == s && h.fault == crate::adjudicate::Fault::Long)
                })
                .collect(),
            _ => Vec::new(),
        };
        let mut report = self.state.report_leaving_out(&long)?;
        report.penalties.extend(
            long.iter()
                .map(|&seat| crate::settle::Penalty::LongHand { seat }),
        );
        // Each player's own count: an undervalued hand stands at it (§110).
        report
            .penalties
            .extend(
                self.notes
                    .own_counts
                    .iter()
                    .map(|c| crate::settle::Penalty::OwnCount {
                        seat: c.seat,
                        counted: c.counted,
                    }),
            );
        // A false naming claimed brings its penalty whatever else happens (§85–88).
        report
            .penalties
            .extend(self.notes.namings.iter().filter_map(|f| f.penalty()));
        let dangerous = match self.rules.cannons {
            Cannons::CodeOfLaws => self.cannon().and_then(|c| c.penalty()),
            Cannons::BabcockInsurance | Cannons::HarrPenalty => {
                self.insurance().and_then(|i| i.penalty())
            }
            Cannons::None => None,
        };
        report.penalties.extend(dangerous);
        Some(report)
    }

    /// The finished hand scored and settled under `rules`, as [`PlayState::settle`] does, with
    /// the penalty its play brings ([`Play::report`]).
    pub fn settle(
        &self,
        rules: &crate::Ruleset,
        east_wins: u32,
    ) -> Result<Option<(crate::table::HandReport, crate::table::Settled)>, crate::Violations> {
        self.result(rules)
            .map(|r| self.state.settle_report(r, rules, east_wins))
            .transpose()
    }

    /// What the play has noted for the findings that span several events.
    pub fn notes(&self) -> &Notes {
        &self.notes
    }

    /// The state now.
    pub fn state(&self) -> &PlayState {
        &self.state
    }

    /// How many events have been folded in (the start included).
    pub fn events(&self) -> usize {
        self.events
    }

    /// The rules of play it follows.
    pub fn rules(&self) -> &PlayRules {
        &self.rules
    }

    /// The hand started by `started` replayed through `events`, stopping at the first event
    /// that cannot be applied: the state, every irregularity with the event it came from (the
    /// start is event 0), and the refused event if there was one.
    pub fn replay<'a>(
        rules: PlayRules,
        started: &HandStarted,
        events: impl IntoIterator<Item = &'a HandEvent>,
    ) -> Result<Replayed, PlayError> {
        Ok(Play::start(rules, started)?.replay_on(events))
    }

    /// This play carried on through `events`, stopping at the first that cannot be applied.
    fn replay_on<'a>(mut self, events: impl IntoIterator<Item = &'a HandEvent>) -> Replayed {
        let mut irregular = Vec::new();
        let mut refused = None;
        for e in events {
            let n = self.events;
            match self.apply(e) {
                Ok(Applied::Legal) => {}
                Ok(Applied::Irregular(found)) => {
                    irregular.extend(found.into_iter().map(|i| (n, i)))
                }
                Err(err) => {
                    refused = Some(err);
                    break;
                }
            }
        }
        Replayed {
            play: self,
            irregular,
            refused,
        }
    }
}

/// A hand replayed ([`Play::replay`], [`Play::replay_from_position`]).
#[derive(Clone, Debug)]
pub struct Replayed {
    pub play: Play,
    /// Each irregularity found, with the event it came from.
    pub irregular: Vec<(usize, Irregularity)>,
    /// The event the replay stopped at, when one was inconsistent.
    pub refused: Option<PlayError>,
}
