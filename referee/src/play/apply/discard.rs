//! Discards: in turn (§35), out of turn (§74), falsely named (§84), two together (§75), taken
//! back (§70–71) or into the hand (§81).

use crate::event::{
    ClaimKind, DiscardReturned, DiscardTakenBack, DiscardTakenIntoHand, TileDiscarded,
};
use crate::play::breach::Breach;
use crate::play::error::{Inconsistent, Irregularity};
use crate::play::rules::PlayRules;
use crate::play::state::{Concealed, Discard, PlayState, Turn, Window};
use crate::seat::Seat;
use crate::tile::{AnyTile, Tile};

use super::out_of_turn;
use super::Outcome;

pub(super) fn discarded(rules: &PlayRules, state: &mut PlayState, e: &TileDiscarded) -> Outcome {
    let seat = e.seat;
    let s = &state.seats[seat];
    if !s.concealed.holds(e.placed, 1) {
        return Err(if s.concealed.is_empty() {
            Inconsistent::NothingHeld { seat }
        } else {
            Inconsistent::NotHeld {
                seat,
                tile: AnyTile::Playing(e.placed),
            }
        });
    }
    let mut v = Vec::new();
    let expected = match &state.turn {
        Turn::Discard(s) => Some(*s),
        // §41: the claimant of a chow may discard before laying the chow down; the set stays
        // owed until his next draw or claim (§78). The Code gives that leave to a chow only: a
        // pung or kong claimant discarding first is flagged, and play goes on the same way.
        Turn::Expose { seat: s, claim } if *s == seat && *claim != ClaimKind::MahJongg => {
            if *claim != ClaimKind::Chow {
                v.push(Irregularity::by(
                    seat,
                    Breach::DiscardedBeforeLayingDown(*claim),
                    format!(
                        "{seat} discarded before laying down the {} it was granted",
                        claim.name()
                    ),
                ));
            }
            Some(*s)
        }
        // §80: a loose tile or a bonus tile's replacement not drawn: the seat plays on with a
        // short hand.
        Turn::Replace {
            seat: s,
            loose,
            then,
        } if *s == seat && **then == Turn::Discard(seat) => {
            v.push(Irregularity::by(
                seat,
                Breach::ReplacementNotDrawn { loose: *loose },
                format!(
                    "{seat} discarded without drawing its {}",
                    if *loose {
                        "loose tile"
                    } else {
                        "replacement tile"
                    }
                ),
            ));
            Some(*s)
        }
        // §57–59, §80: an added kong's loose tile not drawn.
        Turn::Robbable { seat: s, .. } if *s == seat => {
            v.push(Irregularity::by(
                seat,
                Breach::ReplacementNotDrawn { loose: true },
                format!("{seat} discarded without drawing its loose tile"),
            ));
            Some(*s)
        }
        _ => None,
    };
    // §75: a second tile from the seat whose discard is still the live one.
    let again = state
        .live_discard()
        .is_some_and(|d| d.seat == seat && expected != Some(seat));
    if again {
        v.push(Irregularity::by(
            seat,
            Breach::TwoDiscards,
            format!("{seat} discarded more than one tile"),
        ));
    } else {
        v.extend(out_of_turn(
            state,
            seat,
            expected,
            Breach::DiscardOutOfTurn { turn_of: expected },
            "discarded",
        ));
    }
    if let Some(&b) = state.seats[seat].undeclared.first() {
        v.push(Irregularity::by(
            seat,
            Breach::BonusNotDeclared(b),
            format!(
                "{seat} discarded without declaring `{b}`: it scores nothing and is not replaced"
            ),
        ));
    }
    if e.named != e.placed {
        v.push(Irregularity::by(
            seat,
            Breach::FalselyNamed {
                placed: e.placed,
                named: e.named,
            },
            format!(
                "{seat} placed `{}` and named it `{}`: the tile placed is the discard",
                e.placed, e.named
            ),
        ));
    }
    if let Concealed::Counted(_) = state.seats[seat].concealed {
        // A discard from an unseen hand shows one of its tiles, unless it was in view already.
        let (fresh, shown) = state.seats[seat].unshown(&[e.placed]);
        if !fresh.is_empty() {
            state.see(rules, AnyTile::Playing(e.placed))?;
        }
        state.seats[seat].shown = shown;
    }
    match &mut state.seats[seat].concealed {
        Concealed::Known(c) => {
            *c = c.without(e.placed).unwrap_or(*c);
        }
        Concealed::Counted(n) => *n -= 1,
    }
    let index = state.discards.len();
    state.discards.push(Discard {
        seat,
        placed: e.placed,
        named: e.named,
        claimed_by: None,
        together: again,
    });
    state.seats[seat].discards.push(index);
    // §75: the tile discarded before it may be claimed as well, while both lie.
    let with = state.window.as_ref().filter(|_| again).map(|w| w.discard);
    state.window = Some(Window {
        with,
        ..Window::open(index)
    });
    // §74: a discard out of turn lies on the table and may be claimed; the turn stays.
    if expected == Some(seat) {
        state.turn = Turn::Draw(seat.next());
    }
    Ok(v)
}

/// §70, §74, §75: the discarder takes its live discard back.
pub(super) fn taken_back(state: &mut PlayState, e: &DiscardTakenBack) -> Outcome {
    let seat = e.seat;
    let Some(w) = &state.window else {
        return Err(Inconsistent::NoLiveDiscard { what: "take back" });
    };
    let index = w.discard;
    let d = state.discards[index];
    if d.seat != seat || d.placed != e.tile || index + 1 != state.discards.len() {
        return Err(Inconsistent::NotTheDiscard {
            seat,
            tile: e.tile,
            placed: d.placed,
        });
    }
    let mut v = Vec::new();
    if w.declared || w.claims.values().any(Option::is_some) {
        v.push(Irregularity::by(
            seat,
            Breach::DiscardTakenBackAfterClaim,
            format!(
                "{seat} took back its discard `{}` after it was claimed",
                e.tile
            ),
        ));
    }
    state.seats[seat].take_in_view(e.tile)?;
    state.discards.pop();
    state.seats[seat].discards.pop();
    let left = state.discards.len();
    state.open.into_hand.retain(|&(_, i)| i < left);
    if d.together {
        // §75: the tile discarded with it is the discard.
        state.window = Some(Window::open(state.discards.len() - 1));
    } else {
        state.window = None;
        if state.turn == Turn::Draw(seat.next()) {
            // §70: it discards again; the tile taken back may still be claimed until then.
            state.turn = Turn::Discard(seat);
            state.open.taken_back = Some((seat, e.tile));
        }
    }
    Ok(v)
}

/// §81: a discard `e.seat` took into its concealed hand goes back to the table, where it lies
/// as it did: the live discard again if nothing has been discarded since (the seat then draws
/// in its turn instead of using it), else dead.
pub(super) fn returned(state: &mut PlayState, e: &DiscardReturned) -> Outcome {
    let seat = e.seat;
    let Some(k) = state.open.into_hand.iter().rposition(|&(s, i)| {
        s == seat
            && state
                .discards
                .get(i)
                .is_some_and(|d| d.placed == e.tile && d.claimed_by == Some(seat))
    }) else {
        return Err(Inconsistent::NothingToReturn { seat, tile: e.tile });
    };
    let (_, i) = state.open.into_hand[k];
    state.seats[seat].give_up_in_view(seat, e.tile)?;
    state.open.into_hand.remove(k);
    state.discards[i].claimed_by = None;
    if i + 1 == state.discards.len() && state.turn == Turn::Discard(seat) {
        state.turn = Turn::Draw(seat);
        state.window = Some(Window {
            declared: true,
            ..Window::open(i)
        });
    }
    Ok(Vec::new())
}

/// §70: a claim of a discard its discarder took back, before he discarded another in its
/// place: the tile goes back on the table as his discard, and the claim is made on it. `false`
/// (nothing changed) when the claim is not of such a tile.
pub(super) fn claimed_back(
    state: &mut PlayState,
    claimer: Seat,
    tile: Tile,
) -> Result<bool, Inconsistent> {
    let Some((seat, t)) = state.open.taken_back else {
        return Ok(false);
    };
    if t != tile || claimer == seat || state.turn != Turn::Discard(seat) {
        return Ok(false);
    }
    state.seats[seat].give_up_in_view(seat, t)?;
    let index = state.discards.len();
    state.discards.push(Discard {
        seat,
        placed: t,
        named: t,
        claimed_by: None,
        together: false,
    });
    state.seats[seat].discards.push(index);
    state.window = Some(Window::open(index));
    state.turn = Turn::Draw(seat.next());
    state.open.taken_back = None;
    Ok(true)
}

/// §81: a discard taken into a concealed hand, which the others may demand back.
pub(super) fn taken_into_hand(state: &mut PlayState, e: &DiscardTakenIntoHand) -> Outcome {
    let seat = e.seat;
    let Some(w) = &state.window else {
        return Err(Inconsistent::NoLiveDiscard {
            what: "take into a hand",
        });
    };
    let index = w.discard;
    let d = state.discards[index];
    if d.placed != e.tile {
        return Err(Inconsistent::NotTheDiscard {
            seat,
            tile: e.tile,
            placed: d.placed,
        });
    }
    state.seats[seat].take_in_view(e.tile)?;
    state.discards[index].claimed_by = Some(seat);
    state.open.into_hand.push((seat, index));
    state.window = None;
    if state.turn == Turn::Draw(seat) {
        state.turn = Turn::Discard(seat);
    }
    Ok(vec![Irregularity::by(
        seat,
        Breach::DiscardIntoHand,
        format!(
            "{seat} took the discard `{}` into its concealed hand",
            e.tile
        ),
    )])
}
