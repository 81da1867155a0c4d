//! False Mah-Jongg (Code §82): a call of Mah-Jongg on a hand that is not complete.
//!
//! The play keeps each call ([`Call`]): the state before it (where play resumes if the caller
//! takes his hand back), the other seats that laid down tiles after it, and whether the caller
//! took up his hand. Whether the call was false needs the ruleset (its special hands, its limit
//! on chows), so it is decided here, by scoring the caller's hand as the winning hand it was
//! called as: a hand with no complete arrangement is a false call.
//!
//! §82's two outcomes:
//! - none of the others laid down any tiles before the caller took up his hand: play
//!   continues, no penalty (a discard claimed for the call stays on the table, dead unless
//!   another player claims it, §71 — a genuine Mah-Jongg may still take it);
//! - one or more laid down tiles first: the false caller pays each opponent the ruleset's
//!   penalty (the Code's 300), the hand is finished with no other score, and East passes only
//!   if the false caller was East.
//!
//! *Interpretation* (§82 "before the error is discovered and announced"): the error is
//! announced when the caller takes up his hand (a `ClaimRetracted` of his Mah-Jongg). Tiles
//! another seat laid down after the call and before that are "laid down before the error was
//! announced". While the call stands and nobody else has laid down, the hand waits: it is
//! neither settled nor finished. Pinned by `tests::false_call_*`.
//!
//! A call by a player who cannot Mah-Jongg in the hand — his hand long, short or foul (§89(b)),
//! or his Original Call broken (§55(b)) — is ruled the same way, whatever his tiles hold.
//! *Interpretation*: the Code says only that he "cannot Mah-Jongg" / "is not permitted to claim
//! Mah-Jongg"; a call he could not make is a false call, and §82 says what follows from one.
//! Pinned by `incorrect_hand_tests::a_long_hand_that_calls_mah_jongg_is_ruled_as_a_false_call`.
//!
//! *Not yet derived:* two or three false callers on one discard (§83). The play grants the
//! discard to one Mah-Jongg claim (§61), so only one call can stand at a time; the settlement
//! prices §83 when a referee rules it ([`crate::settle::Penalty::FalseMahJongg`]).

use std::fmt;

use super::incorrect_hand::Fault;
use super::notes::Barred;
use crate::play::{Ending, PlayState, Turn};
use crate::score::{score, ScoreError, ScoreInput};
use crate::settle::Penalty;
use crate::tile::Tile;
use crate::{Ruleset, Seat, TileCounts};

/// A call of Mah-Jongg, as the play recorded it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call {
    pub caller: Seat,
    /// The `MahJonggDeclared` event (the hand's start is event 0).
    pub event: usize,
    /// The other seats that laid down tiles while the call stood, with their events.
    pub laid_down: Vec<(Seat, usize)>,
    /// The event by which the caller took up his hand (§82), if he did.
    pub taken_up: Option<usize>,
    /// The state just before the call: where play resumes if the caller takes up his hand.
    pub(crate) before: Box<PlayState>,
    /// The state as the call stood when the caller took up his hand.
    pub(crate) as_called: Option<Box<PlayState>>,
    /// Why the caller could not Mah-Jongg in this hand at all, if he could not (§55(b),
    /// §89(b)).
    pub barred: Option<Barred>,
}

impl Call {
    pub(crate) fn new(
        caller: Seat,
        event: usize,
        before: PlayState,
        barred: Option<Barred>,
    ) -> Call {
        Call {
            caller,
            event,
            laid_down: Vec::new(),
            taken_up: None,
            before: Box::new(before),
            as_called: None,
            barred,
        }
    }
}

/// A call of Mah-Jongg found false (Code §82).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FalseCall {
    pub caller: Seat,
    /// The tile called on, and the seat that discarded it (None for a drawn tile).
    pub tile: Tile,
    pub discarder: Option<Seat>,
    /// The `MahJonggDeclared` event.
    pub event: usize,
    /// Why the hand is not complete, as the scorer found it.
    pub why: String,
    /// The other seats that laid down tiles before the caller took up his hand.
    pub laid_down: Vec<(Seat, usize)>,
    /// The event by which the caller took up his hand.
    pub taken_up: Option<usize>,
    /// The seat that was East.
    pub east: Seat,
    /// The caller could not Mah-Jongg in this hand whatever he held (§55(b), §89(b)).
    pub barred: Option<Barred>,
}

impl FalseCall {
    /// The call as `state` shows it (the state while it stood), if it is false under `rules`;
    /// `None` for a complete hand, or one whose tiles were never seen.
    pub(crate) fn of(call: &Call, state: &PlayState, rules: &Ruleset) -> Option<FalseCall> {
        let Turn::Over(Ending::MahJongg {
            seat,
            tile,
            from,
            discarder,
            circumstances,
        }) = state.turn
        else {
            return None;
        };
        if let Some(barred) = call.barred {
            let why = match barred {
                Barred::Incorrect { fault, since } => format!(
                    "{seat} holds {} (found at event {since}), which cannot Mah-Jongg (Code §89(b))",
                    fault.name()
                ),
                Barred::BrokenOriginalCall { since } => format!(
                    "{seat} broke his Original Call at event {since} and may not claim Mah-Jongg in this hand (Code §55(b))"
                ),
            };
            return Some(FalseCall {
                caller: seat,
                tile,
                discarder,
                event: call.event,
                why,
                laid_down: call.laid_down.clone(),
                taken_up: call.taken_up,
                east: state.east,
                barred: Some(barred),
            });
        }
        let hand = match &state.laid_down[seat] {
            Some(h) => h.clone(),
            None => state.hand_of(seat)?,
        };
        let input = ScoreInput {
            hand,
            seat: state.wind_of(seat),
            prevailing: state.prevailing,
            win: Some(circumstances.win(from)),
            visible: TileCounts::EMPTY,
        };
        let why = match score(rules, &input) {
            Err(
                e @ (ScoreError::NotComplete { .. }
                | ScoreError::NotCompleteAsGrouped { .. }
                | ScoreError::TooManyChows { .. }),
            ) => e.to_string(),
            _ => return None,
        };
        Some(FalseCall {
            caller: seat,
            tile,
            discarder,
            event: call.event,
            why,
            laid_down: call.laid_down.clone(),
            taken_up: call.taken_up,
            east: state.east,
            barred: None,
        })
    }

    /// Its kind, as `adjudicate --json` names it: `false-mah-jongg`, or for a call the caller
    /// could not make at all `incorrect-hand-mah-jongg` (§89(b)) or
    /// `broken-original-call-mah-jongg` (§55(b)).
    pub fn kind(&self) -> &'static str {
        match self.barred {
            None => "false-mah-jongg",
            Some(Barred::Incorrect { .. }) => "incorrect-hand-mah-jongg",
            Some(Barred::BrokenOriginalCall { .. }) => "broken-original-call-mah-jongg",
        }
    }

    /// For a call barred by an incorrect hand, what was wrong with it.
    pub fn fault(&self) -> Option<Fault> {
        match self.barred {
            Some(Barred::Incorrect { fault, .. }) => Some(fault),
            _ => None,
        }
    }

    /// Others laid down tiles before the caller took up his hand: the penalty is due and the
    /// hand is finished (§82).
    pub fn abandons(&self) -> bool {
        !self.laid_down.is_empty()
    }

    /// The title of East passes after the hand: only when it was abandoned and the false
    /// caller was East (§82).
    pub fn east_passes(&self) -> bool {
        self.abandons() && self.caller == self.east
    }

    /// The penalty due, priced by the ruleset ([`Penalty::FalseMahJongg`]).
    pub fn penalty(&self) -> Option<Penalty<Seat>> {
        self.abandons().then(|| Penalty::FalseMahJongg {
            offenders: vec![self.caller],
        })
    }

    /// The events it rests on: the call, the first tiles laid down by another, the taking up.
    pub fn events(&self) -> Vec<usize> {
        let mut out: Vec<usize> = match self.barred {
            Some(Barred::Incorrect { since, .. } | Barred::BrokenOriginalCall { since }) => {
                vec![since]
            }
            None => Vec::new(),
        };
        out.push(self.event);
        out.extend(self.laid_down.first().map(|(_, e)| *e));
        out.extend(self.taken_up);
        out
    }

    /// The sections it cites.
    pub fn citations(&self) -> Vec<&'static str> {
        let mut out = match self.barred {
            None => vec![],
            Some(Barred::Incorrect { .. }) => vec!["Code §89(b)"],
            Some(Barred::BrokenOriginalCall { .. }) => vec!["Code §55(b)"],
        };
        out.push("Code §82");
        if self.discarder.is_some() && self.taken_up.is_some() {
            out.push("Code §71");
        }
        out
    }
}

impl fmt::Display for FalseCall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let caller = self.caller;
        write!(
            f,
            "Event {}: {caller} called Mah-Jongg on {}",
            self.event, self.tile
        )?;
        match self.discarder {
            Some(d) => write!(f, ", discarded by {d}")?,
            None => write!(f, ", drawn")?,
        }
        match self.barred {
            None => write!(f, ", but the hand is not complete ({}).", self.why)?,
            Some(_) => write!(
                f,
                ", but {}. Interpretation: a call he could not make is ruled as a false call (Code §82).",
                self.why
            )?,
        }
        match (self.laid_down.first(), self.taken_up) {
            (None, Some(e)) => {
                write!(
                    f,
                    " {caller} took up the hand at event {e} before anyone else laid down tiles, so play continued without penalty (Code §82)"
                )?;
                if self.discarder.is_some() {
                    write!(
                        f,
                        "; the discard stayed on the table, dead unless another player claimed it (Code §71)"
                    )?;
                }
                write!(f, ".")
            }
            (None, None) => write!(
                f,
                " No one else has laid down tiles: {caller} may take up the hand and play continues without penalty (Code §82)."
            ),
            (Some((seat, e)), _) => {
                write!(
                    f,
                    " {seat} laid down tiles at event {e} before the error was announced, so {caller} pays each opponent the false Mah-Jongg penalty, the hand is finished and no other score counts (Code §82)."
                )?;
                if self.east_passes() {
                    write!(f, " {caller} was East: the title of East passes to the next player.")
                } else {
                    write!(f, " {caller} was not East: the {} seat keeps the title of East.", self.east)
                }
            }
        }
    }
}
