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
//! Two or three false callers on one discard (§83). The play grants the discard to one
//! Mah-Jongg claim (§61), so one call stands; the play keeps with it the other seats that had
//! claimed the same discard for Mah-Jongg when it was granted, and their claims pressed
//! ([`RivalClaim`]). When the call that stands is false, each rival's hand is judged with the
//! discard the same way; a rival whose hand it would not complete (or who could not Mah-Jongg
//! at all) is a co-offender, and the penalty is §83's: from two offenders 150 each to each
//! non-offender, from three 100 each to the fourth, as the ruleset prices it
//! ([`crate::settle::Penalty::FalseMahJongg`] with several offenders).
//!
//! *Interpretation* (§83 "if the other players should lay down any part of their hands"): a
//! rival who shows his hand is pressing his own claim, not laying down as a player who thinks
//! the hand is over; the tiles that abandon the hand are those laid down by a seat that did not
//! claim the discard for Mah-Jongg. A rival may withdraw his claim, as the caller may take up
//! his hand, until such a seat lays down; he is then no offender. A genuine rival is no
//! offender either: the false caller pays alone (§82), and if he takes up his hand the rival
//! may claim the discard (§71). A false rival behind a genuine call is not penalised: the hand
//! ended by the genuine Mah-Jongg and nobody abandoned a hand for his call. Pinned by
//! `false_call_tests::two_false_callers_*` and `three_false_callers_*`.

use std::fmt;

use super::incorrect_hand::Fault;
use super::notes::Barred;
#[cfg(doc)]
use crate::play::RivalClaim;
use crate::play::{Call, Ending, PlayState, Turn};
use crate::score::{score, ScoreError, ScoreInput};
use crate::settle::Penalty;
use crate::tile::Tile;
use crate::{Ruleset, Seat, TileCounts};

/// Why a call of Mah-Jongg could not stand whatever the hand held, as the notes stood when it
/// was made: the caller's, and each rival claimant's of the same discard (§55(b), §89(b)), in
/// the order of the play's [`RivalClaim`]s.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CallBars {
    pub caller: Option<Barred>,
    pub rivals: Vec<Option<Barred>>,
}

/// How a rival's claim of the same discard for Mah-Jongg was judged (§83).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RivalVerdict {
    /// The discard would not complete his hand, or he could not Mah-Jongg at all: he is a
    /// co-offender. Why, in words.
    False(String),
    /// The discard completes his hand.
    Complete,
    /// His tiles were never seen: his claim cannot be judged.
    Unseen,
    /// He withdrew his claim at this event while the call stood.
    Withdrawn(usize),
}

/// A rival claimant of the discard, as judged (§83).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RivalCall {
    pub seat: Seat,
    pub verdict: RivalVerdict,
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
    /// The other seats that claimed the same discard for Mah-Jongg, judged (§83).
    pub rivals: Vec<RivalCall>,
}

impl FalseCall {
    /// The call as `state` shows it (the state while it stood), if it is false under `rules`;
    /// `None` for a complete hand, or one whose tiles were never seen.
    pub(crate) fn of(
        call: &Call,
        bars: &CallBars,
        state: &PlayState,
        rules: &Ruleset,
    ) -> Option<FalseCall> {
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
        let win = circumstances.win(from);
        let why = match bars.caller {
            Some(barred) => barred_why(seat, barred),
            None => {
                let hand = match &state.laid_down[seat] {
                    Some(h) => h.clone(),
                    None => state.hand_of(seat)?,
                };
                incomplete(rules, state, seat, hand, win)?
            }
        };
        let barred = bars.rivals.iter().copied().chain(std::iter::repeat(None));
        let rivals = call
            .rivals
            .iter()
            .zip(barred)
            .map(|(r, barred)| RivalCall {
                seat: r.seat,
                verdict: match (r.withdrawn, barred) {
                    (Some(e), _) => RivalVerdict::Withdrawn(e),
                    (None, Some(barred)) => RivalVerdict::False(barred_why(r.seat, barred)),
                    (None, None) => {
                        let hand = state.laid_down[r.seat]
                            .clone()
                            .or_else(|| state.hand_of(r.seat))
                            .and_then(|h| h.completed_by(tile));
                        match hand {
                            None => RivalVerdict::Unseen,
                            Some(hand) => match incomplete(rules, state, r.seat, hand, win) {
                                Some(why) => RivalVerdict::False(why),
                                None => RivalVerdict::Complete,
                            },
                        }
                    }
                },
            })
            .collect();
        Some(FalseCall {
            caller: seat,
            tile,
            discarder,
            event: call.event,
            why,
            laid_down: call.laid_down.clone(),
            taken_up: call.taken_up,
            east: state.east,
            barred: bars.caller,
            rivals,
        })
    }

    /// The rivals whose calls were false too: the co-offenders of §83.
    pub fn co_offenders(&self) -> impl Iterator<Item = Seat> + '_ {
        self.rivals
            .iter()
            .filter(|r| matches!(r.verdict, RivalVerdict::False(_)))
            .map(|r| r.seat)
    }

    /// Every offender: the caller, then the co-offenders (§82–83).
    pub fn offenders(&self) -> Vec<Seat> {
        std::iter::once(self.caller)
            .chain(self.co_offenders())
            .collect()
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

    /// The title of East passes after the hand: only when it was abandoned and a false
    /// caller was East (§82; §83 read with §82, see the `adjudicate` module).
    pub fn east_passes(&self) -> bool {
        self.abandons() && self.offenders().contains(&self.east)
    }

    /// The penalty due, priced by the ruleset ([`Penalty::FalseMahJongg`]): the caller's
    /// alone (§82), or with his co-offenders' (§83).
    pub fn penalty(&self) -> Option<Penalty<Seat>> {
        self.abandons().then(|| Penalty::FalseMahJongg {
            offenders: self.offenders(),
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
        if self.co_offenders().next().is_some() {
            out.push("Code §83");
        }
        if self.discarder.is_some() && self.taken_up.is_some() {
            out.push("Code §71");
        }
        out
    }
}

/// Why a call by `seat`, barred as `barred`, is false.
fn barred_why(seat: Seat, barred: Barred) -> String {
    match barred {
        Barred::Incorrect { fault, since } => format!(
            "{seat} holds {} (found at event {since}), which cannot Mah-Jongg (Code §89(b))",
            fault.name()
        ),
        Barred::BrokenOriginalCall { since } => format!(
            "{seat} broke his Original Call at event {since} and may not claim Mah-Jongg in this hand (Code §55(b))"
        ),
    }
}

/// Why `hand`, called by `seat` as a winning hand, is not complete under `rules`; `None` when
/// it is (or fails for a reason other than its arrangement).
fn incomplete(
    rules: &Ruleset,
    state: &PlayState,
    seat: Seat,
    hand: crate::hand::Hand,
    win: crate::score::Win,
) -> Option<String> {
    let input = ScoreInput {
        hand,
        seat: state.wind_of(seat),
        prevailing: state.prevailing,
        win: Some(win),
        visible: TileCounts::EMPTY,
    };
    match score(rules, &input) {
        Err(
            e @ (ScoreError::NotComplete { .. }
            | ScoreError::NotCompleteAsGrouped { .. }
            | ScoreError::TooManyChows { .. }),
        ) => Some(e.to_string()),
        _ => None,
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
                let offenders = self.offenders();
                if offenders.len() == 1 {
                    write!(
                        f,
                        " {seat} laid down tiles at event {e} before the error was announced, so {caller} pays each opponent the false Mah-Jongg penalty, the hand is finished and no other score counts (Code §82)."
                    )?;
                } else {
                    let each = if offenders.len() == 2 {
                        "each of the non-offending players"
                    } else {
                        "the fourth player"
                    };
                    write!(
                        f,
                        " {seat} laid down tiles at event {e} before the errors were announced, so {} each pay {each} the penalty for {} false callers on one discard, the hand is finished and no other score counts (Code §83).",
                        names(&offenders),
                        offenders.len()
                    )?;
                }
                if self.east_passes() {
                    write!(
                        f,
                        " {} was East: the title of East passes to the next player.",
                        self.east
                    )
                } else {
                    write!(
                        f,
                        " No false caller was East: the {} seat keeps the title of East.",
                        self.east
                    )
                }
            }
        }?;
        for r in &self.rivals {
            let rival = r.seat;
            match &r.verdict {
                RivalVerdict::False(why) => write!(
                    f,
                    " {rival} also claimed the discard for Mah-Jongg, falsely too ({why})."
                )?,
                RivalVerdict::Complete => {
                    write!(
                        f,
                        " {rival} also claimed the discard for Mah-Jongg, and it completes his hand: he is no offender"
                    )?;
                    if self.abandons() {
                        write!(f, ", but the hand is finished with no other score (Code §82).")?
                    } else {
                        write!(
                            f,
                            ", and may claim the discard once {caller} takes up his hand (Code §71)."
                        )?
                    }
                }
                RivalVerdict::Unseen => write!(
                    f,
                    " {rival} also claimed the discard for Mah-Jongg; his tiles were not seen, so whether his call was false too (Code §83) is the referee's to find."
                )?,
                RivalVerdict::Withdrawn(e) => write!(
                    f,
                    " {rival} also claimed the discard for Mah-Jongg and withdrew the claim at event {e}, before anyone else laid down tiles: he is no offender."
                )?,
            }
        }
        Ok(())
    }
}

/// Seats named in a list: "South and West", "South, West and North".
fn names(seats: &[Seat]) -> String {
    match seats {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!(
            "{} and {last}",
            rest.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}
