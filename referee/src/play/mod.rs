//! A hand as it is played: the state after each event of its stream, and whether each event
//! was legal. This is the pure fold of the play; what a referee rules on from it (cannons,
//! false calls, incorrect hands …) is the `adjudicate` module's, which watches this fold.
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
//!   higher one, §61 …). It is applied as it happened and flagged with the rule it breaks
//!   ([`Breach`]), for the referee to rule on;
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
//!
//! A call of Mah-Jongg may be taken up (§82), and a rival's claim of the same discard withdrawn
//! (§83), until another player lays down tiles: the play keeps each call ([`Call`]) with the
//! state before it, so that a take-up puts the hand back where it stood.

mod apply;
mod breach;
mod call;
mod deal;
mod error;
mod from_position;
mod moves;
mod possible;
mod report;
mod rules;
mod state;
#[cfg(test)]
mod tests;
mod view;
mod window;

pub use breach::{sections, Breach};
pub use call::{Call, RivalClaim};
pub use error::{Applied, Inconsistent, Irregularity, PlayError};
pub use moves::{chows_with, Move};
pub use possible::{Pick, Possible};
pub use rules::PlayRules;
pub use state::{
    Claimed, Concealed, Discard, DrawnOver, Ending, Formed, LastDraw, Open, PlayState, PlayedSet,
    SeatState, Turn, Wall, Window,
};
pub use view::{Onlooker, SeatView, SeenSeat};

use crate::event::{ClaimGranted, ClaimKind, ClaimRetracted, HandEvent, HandStarted};
use crate::Seat;

use call::{Prior, TakeUp};

/// A hand being played: its state, how many events made it, and its calls of Mah-Jongg.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Play {
    rules: PlayRules,
    state: PlayState,
    events: usize,
    /// Each call of Mah-Jongg, for §82–83: where play resumes if the caller takes up his hand,
    /// who laid down tiles meanwhile, and the rivals' claims.
    calls: Vec<Call>,
    /// The other seats whose claims for Mah-Jongg stood when the last discard was granted for
    /// Mah-Jongg, for the call that follows (§83).
    rivals: Vec<Seat>,
    /// The seat that drew over the last discard granted for Mah-Jongg, and so renounced it
    /// (§65), for the call that follows.
    renounced: Option<Seat>,
}

impl Play {
    /// The hand as dealt by `started`.
    pub fn start(rules: PlayRules, started: &HandStarted) -> Result<Play, PlayError> {
        let state =
            PlayState::deal(&rules, started).map_err(|kind| PlayError { event: 0, kind })?;
        Ok(Play::at(rules, state))
    }

    /// The hand in `state`, its event 0 (a deal, or a position).
    pub(crate) fn at(rules: PlayRules, state: PlayState) -> Play {
        Play {
            rules,
            state,
            events: 1,
            calls: Vec::new(),
            rivals: Vec::new(),
            renounced: None,
        }
    }

    /// Folds one more event in. An inconsistent event is refused and changes nothing.
    pub fn apply(&mut self, event: &HandEvent) -> Result<Applied, PlayError> {
        match event {
            HandEvent::ClaimRetracted(r) => {
                if let Some(take_up) = self.take_up_of(r) {
                    return self.take_up(r, take_up);
                }
            }
            HandEvent::ClaimGranted(g) => return self.granted(event, g),
            HandEvent::ClaimMade(c) if c.claim == ClaimKind::MahJongg => {
                if let Some(prior) = self.prior_of(c) {
                    return Ok(self.prior_claim(prior));
                }
            }
            HandEvent::MahJonggDeclared(m) => return self.called(event, m.seat, m.self_drawn),
            HandEvent::HandExposed(x) => return self.laid_down(event, x.seat),
            _ => {}
        }
        self.fold(event)
    }

    /// The event folded into the state, and counted. The hot path: every draw and discard.
    #[inline]
    fn fold(&mut self, event: &HandEvent) -> Result<Applied, PlayError> {
        let n = self.events;
        let applied = apply::apply(&self.rules, &mut self.state, event)
            .map_err(|kind| PlayError { event: n, kind })?;
        self.events += 1;
        Ok(applied)
    }

    /// A discard granted: for Mah-Jongg, the other claims for Mah-Jongg that stood beside the
    /// one it went to are kept for the call that follows (§83).
    #[inline(never)]
    fn granted(&mut self, event: &HandEvent, g: &ClaimGranted) -> Result<Applied, PlayError> {
        let rivals = self.rivals_of(g);
        let renounced = self.state.window.as_ref().and_then(|w| w.drew);
        let applied = self.fold(event)?;
        self.rivals = rivals;
        self.renounced = renounced;
        Ok(applied)
    }

    /// A call of Mah-Jongg: kept with the state before it, where play resumes if the caller
    /// takes up his hand (§82), and with its rivals (§83).
    #[inline(never)]
    fn called(
        &mut self,
        event: &HandEvent,
        seat: Seat,
        self_drawn: bool,
    ) -> Result<Applied, PlayError> {
        let n = self.events;
        let before = self.state.clone();
        let applied = self.fold(event)?;
        if !matches!(self.state.turn, Turn::Over(_)) {
            // Taken up with a robbing that does not stand (§58): no call stands.
            return Ok(applied);
        }
        let rivals = if self_drawn {
            Vec::new()
        } else {
            std::mem::take(&mut self.rivals)
        };
        let renounced = if self_drawn {
            None
        } else {
            self.renounced.take()
        };
        self.calls
            .push(Call::new(seat, n, before, &rivals, renounced));
        Ok(applied)
    }

    /// §65: a claim for Mah-Jongg of the discard the hand was won with, by a seat before the
    /// winner in order of play after the discarder that did not draw over it: he "retains the
    /// right to claim the discard to complete his hand (even though the second … should have
    /// laid down his hand) at any time until the scoring and settlement have been completed".
    fn prior_of(&self, c: &crate::event::ClaimMade) -> Option<Prior> {
        let i = self.standing_call()?;
        let Turn::Over(Ending::MahJongg {
            seat: winner,
            tile,
            from: crate::score::WinFrom::Discard,
            discarder: Some(d),
            ..
        }) = self.state.turn
        else {
            return None;
        };
        let order = |s: Seat| (s.index() + 4 - d.index()) % 4;
        let before_winner = c.seat != d && order(c.seat) < order(winner);
        let call = &self.calls[i];
        (c.tile == tile && before_winner && call.renounced != Some(c.seat)).then_some(Prior {
            call: i,
            winner,
            claimant: c.seat,
        })
    }

    /// §65: the winner's call is undone as a take-up is (§82), and the claims on the discard
    /// open again with his claim and the earlier seat's, for the grant that follows (§61 gives
    /// it to the earlier).
    fn prior_claim(&mut self, prior: Prior) -> Applied {
        let n = self.events;
        let call = &mut self.calls[prior.call];
        let as_called = std::mem::replace(&mut self.state, (*call.before).clone());
        call.as_called = Some(Box::new(as_called));
        call.taken_up = Some(n);
        let holder = match &self.state.turn {
            Turn::Expose { seat, .. } => *seat,
            _ => prior.winner,
        };
        if let Some((i, d)) = self.state.claimed_tile(holder) {
            self.state.discards[i].claimed_by = None;
            self.state.seats[holder].claimed = None;
            let mut window = Window::open(i);
            window.declared = true;
            window.claims[holder] = Some(ClaimKind::MahJongg);
            window.claims[prior.claimant] = Some(ClaimKind::MahJongg);
            self.state.window = Some(window);
            self.state.turn = Turn::Draw(d.seat.next());
        }
        self.events += 1;
        Applied::Legal
    }

    /// A hand laid down: while a call stands, a seat other than the caller's and its rivals'
    /// laying down tiles finishes the hand for a false call (§82–83).
    #[inline(never)]
    fn laid_down(&mut self, event: &HandEvent, seat: Seat) -> Result<Applied, PlayError> {
        let n = self.events;
        let applied = self.fold(event)?;
        if let Some(call) = self.standing_call().map(|i| &mut self.calls[i]) {
            if call.caller != seat && !call.rival_pressing(seat) {
                call.laid_down.push((seat, n));
            }
        }
        Ok(applied)
    }

    /// Whether `event` takes up a call of Mah-Jongg or withdraws a rival's claim on it
    /// (§82–83), or tries to once it is too late: the play's own bookkeeping of the call,
    /// not an act of play to judge.
    pub fn is_take_up(&self, event: &HandEvent) -> bool {
        matches!(event, HandEvent::ClaimRetracted(r) if self.take_up_of(r).is_some())
    }

    /// The seats other than `granted`'s whose claims of the discard for Mah-Jongg stand as it
    /// is granted for Mah-Jongg (§83); none for any other grant.
    fn rivals_of(&self, granted: &ClaimGranted) -> Vec<Seat> {
        let Some(w) = &self.state.window else {
            return Vec::new();
        };
        if granted.claim != ClaimKind::MahJongg {
            return Vec::new();
        }
        Seat::ALL
            .into_iter()
            .filter(|&s| s != granted.seat && w.claims[s] == Some(ClaimKind::MahJongg))
            .collect()
    }

    /// What `r` does to the call of Mah-Jongg standing, if it concerns it: the caller takes up
    /// his hand (§82), or a rival claimant of the same discard withdraws his claim (§83) —
    /// either too late once a seat that did not claim the discard for Mah-Jongg has laid down
    /// tiles: the hand is then finished. `None` when `r` is neither.
    fn take_up_of(&self, r: &ClaimRetracted) -> Option<TakeUp> {
        let Turn::Over(Ending::MahJongg { seat, .. }) = self.state.turn else {
            return None;
        };
        let call = &self.calls[self.standing_call()?];
        let rival = r.seat != seat && call.rival_pressing(r.seat);
        if r.claim != ClaimKind::MahJongg || (r.seat != seat && !rival) {
            return None;
        }
        if let Some((other, _)) = call.laid_down.first() {
            let who = if rival {
                format!("{} can no longer withdraw his claim", r.seat)
            } else {
                "the caller can no longer take up his hand".to_string()
            };
            return Some(TakeUp::TooLate(format!(
                "{seat} went Mah-Jongg and {other} laid down tiles after it: {who} (Code §82–83)"
            )));
        }
        Some(if rival {
            TakeUp::Rival(r.seat)
        } else {
            TakeUp::Caller
        })
    }

    /// The caller takes up his hand (§82): play resumes where it stood before the call, a
    /// discard claimed for it staying on the table, dead (§71); or a rival claimant withdraws
    /// his claim (§83), and the call stands.
    fn take_up(&mut self, r: &ClaimRetracted, take_up: TakeUp) -> Result<Applied, PlayError> {
        let n = self.events;
        let Some(i) = self.standing_call() else {
            return Ok(Applied::Legal);
        };
        match take_up {
            TakeUp::TooLate(why) => {
                return Err(PlayError {
                    event: n,
                    kind: Inconsistent::HandOver(why),
                })
            }
            TakeUp::Rival(seat) => {
                if let Some(x) = self.calls[i].rivals.iter_mut().find(|x| x.seat == seat) {
                    x.withdrawn = Some(n);
                }
            }
            TakeUp::Caller => {
                let call = &mut self.calls[i];
                let as_called = std::mem::replace(&mut self.state, (*call.before).clone());
                call.as_called = Some(Box::new(as_called));
                call.taken_up = Some(n);
                if matches!(self.state.turn, Turn::Expose { seat: s, .. } if s == call.caller) {
                    // The claim behind the call is withdrawn: the discard goes back, dead.
                    let _ = apply::apply(
                        &self.rules,
                        &mut self.state,
                        &HandEvent::ClaimRetracted(r.clone()),
                    );
                }
            }
        }
        self.events += 1;
        Ok(Applied::Legal)
    }

    /// The index of the call of Mah-Jongg that ended the play, while it stands (not taken up).
    pub fn standing_call(&self) -> Option<usize> {
        if !matches!(self.state.turn, Turn::Over(Ending::MahJongg { .. })) {
            return None;
        }
        let i = self.calls.len().checked_sub(1)?;
        self.calls[i].taken_up.is_none().then_some(i)
    }

    /// Every call of Mah-Jongg made, in order.
    pub fn calls(&self) -> &[Call] {
        &self.calls
    }

    /// The seats whose claims of the last discard for Mah-Jongg stood beside the one it was
    /// granted to (§83), while no call has been made on it.
    pub fn rivals(&self) -> &[Seat] {
        &self.rivals
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
}
