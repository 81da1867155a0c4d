//! Folding one event of play into the state: check, then change.
//!
//! Each handler first finds everything that makes the event inconsistent (and returns it
//! without touching the state), then applies it, collecting the rules it breaks. The handlers
//! live beside this file by the part of the play they fold: draws, discards, claims, kongs and
//! the end of the hand.

mod claim;
mod discard;
mod draw;
mod end;
mod kong;
mod retract;

use crate::event::HandEvent;
use crate::seat::Seat;

use super::breach::Breach;
use super::error::{Applied, Inconsistent, Irregularity};
use super::rules::PlayRules;
use super::state::{Ending, PlayState, Turn};

use claim::{claimed, exposed, granted, passed};
use discard::{discarded, returned, taken_back, taken_into_hand};
use draw::{bonus_declared, drawn, loose_drawn};
use end::{laid_down, mahjongg, score_claimed, wash_out};
use kong::{kong, robbed};
use retract::retracted;

pub(super) type Outcome = Result<Vec<Irregularity>, Inconsistent>;

pub(crate) fn apply(
    rules: &PlayRules,
    state: &mut PlayState,
    event: &HandEvent,
) -> Result<Applied, Inconsistent> {
    if let Turn::Over(end) = state.turn {
        // The hands are laid down after the end, and a plea of No Choice for the winning
        // discard is made as they are shown (§95).
        let allowed = match event {
            HandEvent::HandExposed(_) => true,
            HandEvent::NoChoicePleaded(_) | HandEvent::ScoreClaimed(_) => {
                matches!(end, Ending::MahJongg { .. })
            }
            _ => false,
        };
        if !allowed {
            return Err(Inconsistent::HandOver(match end {
                Ending::MahJongg { seat, .. } => format!("{seat} went Mah-Jongg"),
                Ending::WashOut => "a wash-out".into(),
            }));
        }
    }
    // §64's chance to claim over a draw lasts until the drawer does anything else.
    let keeps_draw_open = matches!(
        event,
        HandEvent::TileDrawn(_) | HandEvent::ClaimMade(_) | HandEvent::ClaimPassed(_)
    );
    // A draw from the live wall that starts a turn (not a bonus tile's replacement).
    let turn_starts = match event {
        HandEvent::TileDrawn(d) => matches!(state.turn, Turn::Draw(s) if s == d.seat),
        HandEvent::TileDiscarded(_) | HandEvent::ClaimGranted(_) => true,
        _ => false,
    };
    let irregular = match event {
        HandEvent::HandStarted(_) => return Err(Inconsistent::StartedTwice),
        HandEvent::TileDrawn(e) => drawn(rules, state, e),
        HandEvent::LooseTileDrawn(e) => loose_drawn(rules, state, e),
        HandEvent::BonusTileDeclared(e) => bonus_declared(rules, state, e),
        HandEvent::TileDiscarded(e) => discarded(rules, state, e),
        HandEvent::ClaimMade(e) => claimed(state, e),
        HandEvent::ClaimPassed(e) => passed(state, e),
        HandEvent::ClaimGranted(e) => granted(state, e),
        HandEvent::SetExposed(e) => exposed(rules, state, e),
        HandEvent::DiscardTakenBack(e) => taken_back(state, e),
        HandEvent::DiscardTakenIntoHand(e) => taken_into_hand(state, e),
        HandEvent::DiscardReturned(e) => returned(state, e),
        HandEvent::ClaimRetracted(e) => retracted(state, e),
        HandEvent::KongDeclared(e) => kong(rules, state, e),
        HandEvent::OriginalCallAnnounced(e) => {
            let seat = e.seat;
            let latest = state.discards.len().checked_sub(1);
            let s = &mut state.seats[seat];
            let mut v = Vec::new();
            // §55(a): straight after the seat's first discard (its first tile drawn or
            // claimed), before anyone discards again. A call out of time binds to nothing and
            // earns nothing (§56).
            let first = s.discards.len() == 1 && s.discards.last().copied() == latest;
            if !first {
                v.push(Irregularity::by(
                    seat,
                    Breach::OriginalCallMistimed,
                    format!("{seat} announced an Original Call other than straight after its first discard"),
                ));
            }
            s.original_call |= first;
            Ok(v)
        }
        HandEvent::NoChoicePleaded(e) => {
            // §95(b): once the seat's discard is taken, before it draws or claims again.
            Ok(if state.no_choice_in_time(e.seat) {
                Vec::new()
            } else {
                vec![Irregularity::by(
                    e.seat,
                    Breach::NoChoiceLate,
                    format!(
                        "{} pleaded No Choice other than between its discard being claimed and its next draw or claim",
                        e.seat
                    ),
                )]
            })
        }
        HandEvent::KongRobbed(e) => robbed(rules, state, e),
        HandEvent::MahJonggDeclared(e) => mahjongg(rules, state, e),
        HandEvent::HandExposed(e) => laid_down(state, e),
        HandEvent::WashOut(e) => wash_out(state, e),
        HandEvent::ScoreClaimed(e) => score_claimed(state, e),
        HandEvent::DisputeRaised(_) => Err(Inconsistent::NotPlay("a dispute")),
        HandEvent::RulingIssued(_) => Err(Inconsistent::NotPlay("a ruling")),
        HandEvent::RulingSuperseded(_) => Err(Inconsistent::NotPlay("an appeal")),
        HandEvent::CorrectionRecorded(_) => Err(Inconsistent::NotPlay("a correction")),
        HandEvent::EntryStruck(_) => Err(Inconsistent::NotPlay("a scorer's strike")),
        HandEvent::SettlementRecorded(_) => Err(Inconsistent::NotPlay("a settlement")),
        HandEvent::HandScored(_) => Err(Inconsistent::NotPlay("a score")),
    }?;
    if !keeps_draw_open {
        state.drawn_over = None;
    }
    state.open.close_after(event);
    // The kongs of the turn, for Kong upon Kong (§122(f)): a discard ends a turn, a draw or a
    // claimed discard starts one.
    if turn_starts {
        state.kongs_in_turn = None;
    }
    // What came after a seat's discard, for a plea of No Choice (§95(b)).
    match event {
        HandEvent::TileDrawn(d) => state.seats[d.seat].drew_at = Some(state.discards.len()),
        HandEvent::LooseTileDrawn(d) => state.seats[d.seat].drew_at = Some(state.discards.len()),
        HandEvent::ClaimMade(c) => state.seats[c.seat].claimed_at = Some(state.discards.len()),
        _ => {}
    }
    if let HandEvent::KongDeclared(k) = event {
        state.kongs_in_turn = Some(match state.kongs_in_turn {
            Some((s, n)) if s == k.seat => (s, n + 1),
            _ => (k.seat, 1),
        });
    }
    Ok(if irregular.is_empty() {
        Applied::Legal
    } else {
        Applied::Irregular(irregular)
    })
}

/// Is it `seat`'s turn to do `what`? If not, the irregularity (the event is still applied).
pub(super) fn out_of_turn(
    state: &PlayState,
    seat: Seat,
    expected: Option<Seat>,
    breach: Breach,
    what: &str,
) -> Option<Irregularity> {
    match expected {
        Some(s) if s == seat => None,
        Some(s) => Some(Irregularity::by(
            seat,
            breach,
            format!("{seat} {what} out of turn: it was {s}'s turn"),
        )),
        None => Some(Irregularity::by(
            seat,
            breach,
            format!("{seat} {what} when no one was to ({})", state.turn),
        )),
    }
}
