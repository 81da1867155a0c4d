//! What the findings that span several events need, kept as the play is folded (as
//! [`super::watch::CannonWatch`] keeps the cannon's): claims withdrawn (§69–71), discards falsely
//! named and the claims of the tile named (§84–88), Original Calls and what broke them (§55),
//! and §89's count at each discard in turn, with the sets declared in error (§76–78).
//!
//! [`Notes::before`] reads what an event needs from the state before it; [`Notes::after`] folds
//! the event in once it has been applied (an inconsistent event, refused, is never noted).

use crate::event::{ClaimKind, HandEvent};
use crate::play::{chows_with, Concealed, LastDraw, PlayState, Turn};
use crate::{is_complete, BySeat, Seat, Tile};

use super::false_naming::{FalseNaming, NamedClaim};
use super::incorrect_hand::{count, Fault, FoulSet, IncorrectHand};
use super::original_call::{Alteration, BrokenCall};
use super::retraction::Retraction;

/// Why a call of Mah-Jongg cannot stand whatever the hand holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Barred {
    /// The caller's hand is long, short or foul (§89(b)), as found at `since`.
    Incorrect { fault: Fault, since: usize },
    /// The caller broke his Original Call at `since` (§55(b)).
    BrokenOriginalCall { since: usize },
}

/// A set in error that may still be corrected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct OpenError {
    set: FoulSet,
    /// The event it was laid down at.
    laid: usize,
}

impl OpenError {
    /// §76's chance ends when another seat draws or claims the erring seat's discard; §77's
    /// when the erring seat itself draws or claims.
    fn closed_by_own_act(self) -> bool {
        !matches!(self.set, FoulSet::ChowNotFromLeft { .. })
    }
}

/// A player's own count of his hand, as the play recorded it (a `ScoreClaimed` event).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwnCount {
    pub seat: Seat,
    pub event: usize,
    pub counted: u64,
    /// The scoring elements he named, as he named them.
    pub elements: Vec<String>,
}

/// The notes of a play so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Notes {
    pub retractions: Vec<Retraction>,
    pub namings: Vec<FalseNaming>,
    pub broken_calls: Vec<BrokenCall>,
    pub incorrect: Vec<IncorrectHand>,
    /// Each discard granted for a pung or kong whose set was never laid down before the
    /// seat's next draw or claim (§78): no score is allowed for that set, whatever else made
    /// the hand foul first.
    pub never_laid: Vec<(Seat, crate::play::Claimed)>,
    /// Each seat's own count of its hand, the last it gave (§110).
    pub own_counts: Vec<OwnCount>,
    /// The event at which each seat laid its hand down after the hand (§104).
    pub laid_down_at: BySeat<Option<usize>>,
    /// Each seat's Original Call (its event) while it binds.
    called: BySeat<Option<usize>>,
    /// Each seat's last discard in turn with a right count.
    last_correct: BySeat<Option<usize>>,
    open: BySeat<Option<OpenError>>,
}

/// What an event needs from the state before it.
#[derive(Clone, Debug, Default)]
pub struct Before {
    /// The event's seat was to discard (its discard is in turn).
    in_turn: bool,
    last_draw: Option<LastDraw>,
    /// The event's seat had a granted discard not yet laid down, and the claim it was for.
    granted: Option<crate::play::Claimed>,
    /// For a retraction: the discard claimed (its place, tile and discarder), whether it was
    /// granted, and whether the claim was in error.
    withdrawn: Option<(usize, Tile, Seat, bool, bool)>,
    /// For a set laid down: the seat the claimed discard came from.
    from: Option<Seat>,
}

fn seat_of(e: &HandEvent) -> Option<Seat> {
    Some(match e {
        HandEvent::TileDrawn(x) => x.seat,
        HandEvent::LooseTileDrawn(x) => x.seat,
        HandEvent::TileDiscarded(x) => x.seat,
        HandEvent::ClaimMade(x) => x.seat,
        HandEvent::ClaimRetracted(x) => x.seat,
        HandEvent::SetExposed(x) => x.seat,
        HandEvent::KongDeclared(x) => x.seat,
        HandEvent::DiscardTakenIntoHand(x) => x.seat,
        HandEvent::DiscardTakenBack(x) => x.seat,
        HandEvent::MahJonggDeclared(x) => x.seat,
        HandEvent::OriginalCallAnnounced(x) => x.seat,
        _ => return None,
    })
}

/// Could `seat` show the tiles `tile` completes for `claim`? `None` when its tiles are unseen.
pub(crate) fn could_show(
    state: &PlayState,
    seat: Seat,
    claim: ClaimKind,
    tile: Tile,
    discarder: Seat,
) -> Option<bool> {
    let Concealed::Known(c) = &state.seats[seat].concealed else {
        return None;
    };
    Some(match claim {
        ClaimKind::Chow => discarder.next() == seat && !chows_with(c, tile).is_empty(),
        ClaimKind::Pung => c.get(tile) >= 2,
        ClaimKind::Kong => c.get(tile) >= 3,
        ClaimKind::MahJongg => c.with(tile).is_some_and(|all| is_complete(&all)),
    })
}

impl Notes {
    /// The notes of a play starting from a position (event 0), `to_discard` the seat whose
    /// turn it is to discard: the Original Calls it shows bind from there, and a seat holding
    /// more or fewer tiles than the correct number (§89(a)) is found long or short there.
    pub(crate) fn from_position(state: &PlayState, to_discard: Option<Seat>) -> Notes {
        let mut notes = Notes::default();
        for seat in Seat::ALL {
            if state.seats[seat].original_call {
                notes.called[seat] = Some(0);
            }
            let c = count(&state.seats[seat], u32::from(to_discard == Some(seat)));
            if let Some(fault) = c.fault() {
                notes.incorrect.push(IncorrectHand {
                    seat,
                    fault,
                    event: 0,
                    count: Some(c),
                    last_correct: None,
                    set: None,
                });
            }
        }
        notes
    }

    /// What `event` needs from `state`, the state before it.
    pub fn before(&self, state: &PlayState, event: &HandEvent) -> Before {
        let Some(seat) = seat_of(event) else {
            return Before::default();
        };
        // A discard granted and its set not laid down: while the seat is to lay it down, or
        // after it discarded first (§41), until its next draw or claim (§78).
        let granted = state.seats[seat].claimed;
        let withdrawn = match event {
            HandEvent::ClaimRetracted(r) => Self::withdrawn(state, seat, r.claim),
            _ => None,
        };
        Before {
            // The seat's own discard of its turn: after its draw or claim, a chow's claimant's
            // before laying it down (§41), one made without the replacement owed (§80).
            in_turn: match &state.turn {
                Turn::Discard(s)
                | Turn::Expose { seat: s, .. }
                | Turn::Robbable { seat: s, .. } => *s == seat,
                Turn::Replace { seat: s, then, .. } => *s == seat && **then == Turn::Discard(seat),
                _ => false,
            },
            last_draw: state.last_draw,
            granted,
            withdrawn,
            from: state.claimed_tile(seat).map(|(_, d)| d.seat),
        }
    }

    /// The discard a retraction by `seat` withdraws its claim on.
    fn withdrawn(
        state: &PlayState,
        seat: Seat,
        claim: ClaimKind,
    ) -> Option<(usize, Tile, Seat, bool, bool)> {
        let (i, d, granted) = match (&state.window, &state.turn) {
            (Some(w), _) if w.claims[seat].is_some() => {
                (w.discard, state.discards[w.discard], false)
            }
            // Granted, laid down or not, and the claimant has not discarded since (§69).
            (
                _,
                Turn::Expose { seat: s, .. } | Turn::Discard(s) | Turn::Replace { seat: s, .. },
            ) if *s == seat => {
                let (i, d) = state.claimed_tile(seat)?;
                if i + 1 != state.discards.len() {
                    return None;
                }
                (i, d, true)
            }
            _ => return None,
        };
        let in_error = claim != ClaimKind::MahJongg
            && (claim == ClaimKind::Chow && d.seat.next() != seat
                || !granted && could_show(state, seat, claim, d.placed, d.seat) == Some(false));
        Some((i, d.placed, d.seat, granted, in_error))
    }

    /// Folds in `event`, the `n`-th, applied to give `state`.
    pub fn after(&mut self, state: &PlayState, n: usize, event: &HandEvent, before: Before) {
        match event {
            HandEvent::TileDiscarded(e) => {
                if e.named != e.placed {
                    self.namings.push(FalseNaming {
                        discarder: e.seat,
                        event: n,
                        placed: e.placed,
                        named: e.named,
                        claims: Vec::new(),
                        discard: state.discards.len().checked_sub(1),
                    });
                }
                if let Some(LastDraw {
                    seat,
                    tile: Some(drawn),
                    ..
                }) = before.last_draw
                {
                    if seat == e.seat && drawn != e.placed {
                        let how = Alteration::Discarded {
                            placed: e.placed,
                            drawn,
                        };
                        self.alter(e.seat, n, how);
                    }
                }
                if before.in_turn {
                    self.check_count(state, e.seat, n);
                }
            }
            HandEvent::TileDrawn(e) => self.drew_or_claimed(e.seat, n, before, None),
            HandEvent::HandExposed(e) => self.laid_down_at[e.seat] = Some(n),
            HandEvent::ScoreClaimed(e) => {
                // A player may count again before he is paid: the last count stands.
                self.own_counts.retain(|c| c.seat != e.seat);
                self.own_counts.push(OwnCount {
                    seat: e.seat,
                    event: n,
                    counted: e.points.unsigned_abs(),
                    elements: e.elements.clone(),
                });
            }
            HandEvent::LooseTileDrawn(e) => self.drew_or_claimed(e.seat, n, before, None),
            HandEvent::ClaimMade(e) => {
                let discard = state.window.as_ref().map(|w| w.discard);
                let d = discard.map(|i| state.discards[i]);
                if let (Some(i), Some(d)) = (discard, d) {
                    if e.tile == d.named && d.named != d.placed {
                        let shown = could_show(state, e.seat, e.claim, d.named, d.seat);
                        if let Some(f) = self.namings.iter_mut().find(|f| f.discard == Some(i)) {
                            f.claims.push(NamedClaim {
                                seat: e.seat,
                                claim: e.claim,
                                event: n,
                                shown,
                                withdrawn: None,
                            });
                        }
                    }
                }
                self.drew_or_claimed(e.seat, n, before, d.map(|d| d.seat));
            }
            HandEvent::ClaimRetracted(r) => {
                let Some((i, tile, discarder, granted, in_error)) = before.withdrawn else {
                    return;
                };
                for f in self.namings.iter_mut().filter(|f| f.discard == Some(i)) {
                    for c in f.claims.iter_mut() {
                        if c.seat == r.seat && c.withdrawn.is_none() {
                            c.withdrawn = Some(n);
                        }
                    }
                }
                self.retractions.push(Retraction {
                    seat: r.seat,
                    claim: r.claim,
                    event: n,
                    tile,
                    discarder,
                    granted,
                    in_error,
                });
            }
            HandEvent::SetExposed(e) => {
                self.alter(e.seat, n, Alteration::Exposed(e.claim));
                let set = match (before.granted.map(|c| c.claim), before.from) {
                    (Some(_), Some(from))
                        if e.claim == ClaimKind::Chow && from.next() != e.seat =>
                    {
                        Some(FoulSet::ChowNotFromLeft { discarder: from })
                    }
                    (Some(claimed), _) if claimed != e.claim => Some(FoulSet::NotAsClaimed {
                        claimed,
                        laid: e.claim,
                    }),
                    _ => None,
                };
                if let Some(set) = set {
                    self.open[e.seat].get_or_insert(OpenError { set, laid: n });
                }
            }
            HandEvent::KongDeclared(e) => self.alter(e.seat, n, Alteration::Kong(e.kind)),
            HandEvent::DiscardTakenIntoHand(e) => {
                self.alter(e.seat, n, Alteration::TookDiscard(e.tile))
            }
            HandEvent::DiscardTakenBack(_) => {
                let left = state.discards.len();
                for f in &mut self.namings {
                    if f.discard.is_some_and(|i| i >= left) {
                        f.discard = None;
                    }
                }
            }
            HandEvent::OriginalCallAnnounced(e) if state.seats[e.seat].original_call => {
                self.called[e.seat].get_or_insert(n);
            }
            _ => {}
        }
    }

    /// `seat` drew (or claimed the discard of `claimed_from`): §78's and §76–77's chances to
    /// put a set right end.
    fn drew_or_claimed(
        &mut self,
        seat: Seat,
        n: usize,
        before: Before,
        claimed_from: Option<Seat>,
    ) {
        if let Some(c) = before.granted.filter(|c| c.claim != ClaimKind::MahJongg) {
            let set = FoulSet::NeverLaidDown {
                claimed: c.claim,
                tile: c.tile,
            };
            self.foul(seat, n, set, n);
            self.never_laid.push((seat, c));
        }
        for o in Seat::ALL {
            let Some(open) = self.open[o] else { continue };
            let closes = if open.closed_by_own_act() {
                o == seat
            } else {
                o != seat && (claimed_from.is_none() || claimed_from == Some(o))
            };
            if closes {
                self.open[o] = None;
                self.foul(o, open.laid, open.set, n);
            }
        }
    }

    fn foul(&mut self, seat: Seat, laid: usize, set: FoulSet, n: usize) {
        if self.has(seat, Fault::Foul) {
            return;
        }
        self.incorrect.push(IncorrectHand {
            seat,
            fault: Fault::Foul,
            event: n,
            count: None,
            last_correct: None,
            set: Some((set, laid)),
        });
    }

    fn has(&self, seat: Seat, fault: Fault) -> bool {
        self.incorrect
            .iter()
            .any(|h| h.seat == seat && h.fault == fault)
    }

    /// §89(a)'s count of `seat` after its discard in turn, event `n`.
    fn check_count(&mut self, state: &PlayState, seat: Seat, n: usize) {
        let c = count(&state.seats[seat], 0);
        match c.fault() {
            None => self.last_correct[seat] = Some(n),
            Some(fault) if !self.has(seat, fault) => self.incorrect.push(IncorrectHand {
                seat,
                fault,
                event: n,
                count: Some(c),
                last_correct: self.last_correct[seat],
                set: None,
            }),
            Some(_) => {}
        }
    }

    /// `seat`, bound by an Original Call, altered its hand at event `n` (§55).
    fn alter(&mut self, seat: Seat, n: usize, how: Alteration) {
        let Some(called) = self.called[seat] else {
            return;
        };
        if self.broken_calls.iter().any(|b| b.seat == seat) {
            return;
        }
        self.broken_calls.push(BrokenCall {
            seat,
            called,
            event: n,
            how,
        });
    }

    /// A call of Mah-Jongg by `seat` at event `n`, `state` the state before it: why it cannot
    /// stand whatever the hand holds (§55(b), §89(b)). A count found wrong at the call is noted
    /// as an incorrect hand found there.
    pub fn on_mahjongg(
        &mut self,
        state: &PlayState,
        n: usize,
        seat: Seat,
        self_drawn: bool,
    ) -> Option<Barred> {
        let s = &state.seats[seat];
        if self_drawn || s.claimed.is_some() {
            let c = count(s, 1);
            if let Some(fault) = c.fault().filter(|&f| !self.has(seat, f)) {
                self.incorrect.push(IncorrectHand {
                    seat,
                    fault,
                    event: n,
                    count: Some(c),
                    last_correct: self.last_correct[seat],
                    set: None,
                });
            }
        }
        self.barred(seat)
    }

    /// Why `seat` cannot Mah-Jongg in this hand, as the notes stand: a long, short or foul
    /// hand found (§89(b)), or an Original Call broken (§55(b)).
    pub fn barred(&self, seat: Seat) -> Option<Barred> {
        if let Some(h) = self.incorrect.iter().find(|h| h.seat == seat) {
            return Some(Barred::Incorrect {
                fault: h.fault,
                since: h.event,
            });
        }
        self.broken_calls
            .iter()
            .find(|b| b.seat == seat)
            .map(|b| Barred::BrokenOriginalCall { since: b.event })
    }
}
