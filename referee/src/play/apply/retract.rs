//! A claim withdrawn (Code §69–71): before the grant, or after it until the claimant has
//! discarded — the set laid down, or a kong's loose tile drawn, going back with it.

use crate::event::ClaimRetracted;
use crate::play::error::Inconsistent;
use crate::play::state::{Formed, PlayState, Turn, Window};
use crate::seat::Seat;

use super::claim::{konged_discard, surrender_kong, take_back_set};
use super::Outcome;

pub(super) fn retracted(state: &mut PlayState, e: &ClaimRetracted) -> Outcome {
    let seat = e.seat;
    if let Some(w) = &mut state.window {
        if w.claims[seat].is_some() {
            w.claims[seat] = None;
            return Ok(Vec::new());
        }
    }
    // §69: granted, and the claimant has not discarded: he puts the tile back, and any tiles he
    // laid down with it go back into his hand (a kong's loose tile, if drawn, to the kong box,
    // as §63 has it). The discard stays on the table, dead "unless the declarant should claim
    // the discard for another purpose, or another player claim it for any purpose" (§71): its
    // claims open again, and close as any discard's do.
    let Some((i, d)) = state.claimed_tile(seat) else {
        return Err(no_claim(e));
    };
    match granted_undiscarded(state, seat, i) {
        Some(Undo::Claim) => {}
        Some(Undo::Set) => take_back_set(state, seat, d.placed)?,
        Some(Undo::Kong) => surrender_kong(state, seat, d.placed)?,
        Some(Undo::KongBeforeLoose) => {
            take_back_set(state, seat, d.placed)?;
            state.kongs_in_turn = None;
        }
        None => return Err(no_claim(e)),
    }
    state.discards[i].claimed_by = None;
    state.seats[seat].claimed = None;
    state.turn = Turn::Draw(d.seat.next());
    state.window = Some(Window {
        declared: true,
        ..Window::open(i)
    });
    Ok(Vec::new())
}

fn no_claim(e: &ClaimRetracted) -> Inconsistent {
    Inconsistent::NoSuchClaim {
        seat: e.seat,
        claim: e.claim,
        what: "retract",
    }
}

/// What a retraction by `seat` of its claim on discard `i` undoes (§69), while it may.
enum Undo {
    /// Granted, nothing laid down yet.
    Claim,
    /// A chow or pung laid down with it.
    Set,
    /// A kong annexed with it, its loose tile drawn (it goes back to the kong box).
    Kong,
    /// A kong annexed with it, its loose tile not yet drawn.
    KongBeforeLoose,
}

/// §69: the claim `seat` was granted on discard `i`, the latest discard, and what it has done
/// with it — if it has not discarded since (nor drawn from the live wall, declared another kong
/// or a bonus tile after a kong's loose tile).
fn granted_undiscarded(state: &PlayState, seat: Seat, i: usize) -> Option<Undo> {
    if i + 1 != state.discards.len() {
        return None;
    }
    match &state.turn {
        Turn::Expose { seat: s, .. } if *s == seat => Some(Undo::Claim),
        Turn::Discard(s) if *s == seat => {
            let last = state.seats[seat].sets.last()?;
            match last.formed {
                Formed::Claimed { .. } if state.laid_with_last_discard(seat).is_some() => {
                    Some(Undo::Set)
                }
                Formed::AnnexedKong { .. } if konged_discard(state) == Some(seat) => {
                    Some(Undo::Kong)
                }
                _ => None,
            }
        }
        Turn::Replace {
            seat: s,
            loose: true,
            ..
        } if *s == seat => {
            let last = state.seats[seat].sets.last()?;
            matches!(last.formed, Formed::AnnexedKong { .. }).then_some(Undo::KongBeforeLoose)
        }
        _ => None,
    }
}
