//! Claims of the live discard: made, passed, granted by precedence (§61–64, §75), and the set
//! laid down with it (§39–43); a claim after the discard went elsewhere (§62–64, §70) and a set
//! owed too long (§78). Withdrawing a claim is `retract.rs`'s.

use crate::by_seat::BySeat;
use crate::event::{ClaimGranted, ClaimKind, ClaimMade, ClaimPassed, SetExposed};
use crate::play::breach::Breach;
use crate::play::error::{Inconsistent, Irregularity};
use crate::play::rules::PlayRules;
use crate::play::state::{Claimed, Concealed, Discard, Formed, PlayState, PlayedSet, Turn, Window};
use crate::seat::Seat;
use crate::shape::Set;
use crate::tile::{AnyTile, Tile};

use super::out_of_turn;
use super::Outcome;

/// What a claim made with no discard live comes to (§62–64).
pub(super) enum Reopen {
    /// The claims on the discard it names are open again.
    Reopened,
    /// No discard may be claimed.
    Closed,
    /// §64: the discard could have been claimed but for the drawer's tile completing his hand.
    Forfeited,
}

/// §62 and §64: a claim made after the discard went elsewhere may still take it. Reopens the
/// claims on it and says so, or leaves the state as it was.
pub(super) fn reopen(state: &mut PlayState, e: &ClaimMade) -> Result<Reopen, Inconsistent> {
    let matches_discard = |d: &Discard| e.tile == d.placed || e.tile == d.named;
    let reopened = |discard: usize, holder: Seat, k: ClaimKind| {
        let mut claims = BySeat::from_fn(|_| None);
        claims[holder] = Some(k);
        Window {
            discard,
            claims,
            passed: BySeat::from_fn(|_| false),
            declared: true,
            drew: None,
            with: None,
            of_with: BySeat::from_fn(|_| false),
        }
    };
    // §62: a discard granted for chow or pung goes to a higher claim, even once the set is
    // laid down, until its taker has discarded.
    let granted = match state.turn {
        Turn::Expose { seat, claim } => Some((seat, claim, false)),
        Turn::Discard(seat) => match state.seats[seat].sets.last() {
            Some(p) if p.set.kind() != crate::shape::SetKind::Kong => {
                let laid = state.laid_with_last_discard(seat).is_some();
                let k = if p.set.kind() == crate::shape::SetKind::Chow {
                    ClaimKind::Chow
                } else {
                    ClaimKind::Pung
                };
                laid.then_some((seat, k, true))
            }
            _ => None,
        },
        _ => None,
    };
    if let Some((holder, k, laid)) = granted {
        if let Some((i, d)) = state.claimed_tile(holder) {
            let higher = crate::play::window::rank(e.claim) > crate::play::window::rank(k);
            if higher && e.seat != holder && e.seat != d.seat && matches_discard(&d) {
                if laid {
                    take_back_set(state, holder, d.placed)?;
                }
                state.discards[i].claimed_by = None;
                state.seats[holder].claimed = None;
                state.window = Some(reopened(i, holder, k));
                state.turn = Turn::Draw(d.seat.next());
                return Ok(Reopen::Reopened);
            }
        }
    }
    // §63: a discard claimed for kong goes to a Mah-Jongg claim even after the kong is laid
    // down and its loose tile drawn, while its taker has done nothing since (no second kong, no
    // bonus tile declared, no discard): the loose tile goes back, the three tiles to the hand.
    if e.claim == ClaimKind::MahJongg {
        if let Some(holder) = konged_discard(state) {
            if let Some((i, d)) = state.claimed_tile(holder) {
                if e.seat != holder && e.seat != d.seat && matches_discard(&d) {
                    surrender_kong(state, holder, d.placed)?;
                    state.discards[i].claimed_by = None;
                    state.window = Some(reopened(i, holder, ClaimKind::Kong));
                    state.turn = Turn::Draw(d.seat.next());
                    return Ok(Reopen::Reopened);
                }
            }
        }
    }
    // §64: the next player drew, and has done nothing since: the tile goes back to the wall.
    let Some(over) = state.drawn_over.clone() else {
        return Ok(Reopen::Closed);
    };
    let d = state.discards[over.window.discard];
    if e.claim == ClaimKind::Chow || e.seat == over.seat || e.seat == d.seat || !matches_discard(&d)
    {
        return Ok(Reopen::Closed);
    }
    // "… or if the tile should complete his hand … the other player forfeits his claim".
    if state.holds_complete(over.seat) {
        return Ok(Reopen::Forfeited);
    }
    let drawer = &mut state.seats[over.seat];
    match (over.tile, &mut drawer.concealed) {
        (Some(AnyTile::Playing(t)), Concealed::Known(c)) => {
            *c = c.without(t).ok_or(Inconsistent::NotHeld {
                seat: over.seat,
                tile: AnyTile::Playing(t),
            })?;
        }
        (Some(AnyTile::Bonus(b)), _) => {
            let i =
                drawer
                    .undeclared
                    .iter()
                    .position(|&x| x == b)
                    .ok_or(Inconsistent::NotHeld {
                        seat: over.seat,
                        tile: AnyTile::Bonus(b),
                    })?;
            drawer.undeclared.remove(i);
        }
        (_, Concealed::Counted(n)) if *n > 0 => *n -= 1,
        _ => return Err(Inconsistent::NothingHeld { seat: over.seat }),
    }
    if let (Some(AnyTile::Playing(t)), Concealed::Counted(_)) = (over.tile, &drawer.concealed) {
        drawer.shown = drawer.shown.without(t).unwrap_or(drawer.shown);
    }
    // Back on the wall, no longer in play.
    match over.tile {
        Some(AnyTile::Playing(t)) => {
            state.seen[t.index()] = state.seen[t.index()].saturating_sub(1)
        }
        Some(AnyTile::Bonus(b)) => {
            if let Some(i) = crate::tile::Bonus::ALL.iter().position(|&x| x == b) {
                state.seen_bonus[i] = state.seen_bonus[i].saturating_sub(1);
            }
        }
        None => {}
    }
    state.wall.live += 1;
    if let (Some(tiles), Some(t)) = (&mut state.wall.live_tiles, over.tile) {
        tiles.push_front(t);
    }
    state.window = Some(Window {
        drew: Some(over.seat),
        ..over.window
    });
    state.drawn_over = None;
    state.last_draw = None;
    state.turn = Turn::Draw(over.seat);
    Ok(Reopen::Reopened)
}

/// The tiles of `set` other than (one) `claimed`: those its holder supplied.
pub(super) fn other_tiles(set: Set, claimed: Tile) -> Vec<Tile> {
    let mut rest: Vec<Tile> = set.tiles().collect();
    if let Some(i) = rest.iter().position(|&t| t == claimed) {
        rest.remove(i);
    }
    rest
}

/// `holder` takes its last set, laid down with the discard `claimed`, back into its hand: the
/// discard goes elsewhere (§62, §63), its own tiles return to its concealed hand.
pub(super) fn take_back_set(
    state: &mut PlayState,
    holder: Seat,
    claimed: Tile,
) -> Result<(), Inconsistent> {
    let Some(laid) = state.seats[holder].sets.pop() else {
        return Ok(());
    };
    for t in other_tiles(laid.set, claimed) {
        state.seats[holder].take_in_view(t)?;
    }
    Ok(())
}

/// The seat that claimed the last discard for kong, laid it down and drew its loose tile, and
/// has done nothing since (§63's window), if there is one.
pub(super) fn konged_discard(state: &PlayState) -> Option<Seat> {
    let Turn::Discard(holder) = state.turn else {
        return None;
    };
    let annexed = state.seats[holder]
        .sets
        .last()
        .is_some_and(|p| matches!(p.formed, Formed::AnnexedKong { .. }));
    let last_discard = state
        .claimed_tile(holder)
        .is_some_and(|(i, _)| i + 1 == state.discards.len());
    // The loose tile was the last thing drawn, and it is a playing tile still in the hand (a
    // bonus tile would have been declared and replaced: §63 then forfeits the claim).
    let loose = state
        .last_draw
        .is_some_and(|d| d.seat == holder && d.loose && d.tile.is_some());
    let one_kong = state.kongs_in_turn == Some((holder, 1));
    (annexed && last_discard && loose && one_kong).then_some(holder)
}

/// §63: `holder` gives up the kong of `tile` it annexed with a discard: the loose tile goes back
/// to the kong box and the three tiles it held return to its hand.
pub(super) fn surrender_kong(
    state: &mut PlayState,
    holder: Seat,
    tile: Tile,
) -> Result<(), Inconsistent> {
    put_back_loose(state, holder)?;
    take_back_set(state, holder, tile)?;
    state.seats[holder].claimed = None;
    state.last_draw = None;
    state.kongs_in_turn = None;
    Ok(())
}

/// §60, §63: `holder` puts the loose tile it just drew (and holds, seen) back in the kong box.
pub(super) fn put_back_loose(state: &mut PlayState, holder: Seat) -> Result<(), Inconsistent> {
    let loose = state.last_draw.and_then(|d| d.tile);
    if let Some(t) = loose {
        state.seats[holder].give_up_in_view(holder, t)?;
        state.seen[t.index()] = state.seen[t.index()].saturating_sub(1);
        state.wall.kong_box += 1;
        if let Some(tiles) = &mut state.wall.loose_tiles {
            tiles.push_front(AnyTile::Playing(t));
        }
    }
    state.last_draw = None;
    Ok(())
}

/// §78: a seat owing the set of a discard it was granted (it discarded first, §41) draws or
/// claims again: the set can no longer be laid down. The tile stays in its concealed hand, which
/// is foul and scores nothing for that set (the adjudication's finding), and play goes on.
pub(super) fn never_laid_down(state: &mut PlayState, seat: Seat) -> Result<(), Inconsistent> {
    let s = &mut state.seats[seat];
    if let Some(c) = s.claimed.filter(|c| c.claim != ClaimKind::MahJongg) {
        s.take_in_view(c.tile)?;
        s.claimed = None;
        if state.turn.exposing() == Some(seat) {
            // It never laid the set down and drew instead: it holds its tiles, and discards.
            state.turn = Turn::Discard(seat);
        }
    }
    Ok(())
}

pub(super) fn claimed(state: &mut PlayState, e: &ClaimMade) -> Outcome {
    let seat = e.seat;
    if state.window.is_none() && !super::discard::claimed_back(state, seat, e.tile)? {
        match reopen(state, e)? {
            Reopen::Reopened => {}
            Reopen::Closed => return Err(Inconsistent::NoLiveDiscard { what: "claim" }),
            Reopen::Forfeited => {
                return Ok(vec![Irregularity::by(
                    seat,
                    Breach::ClaimForfeited { robbing: false },
                    format!(
                        "{seat} claimed the discard after the next player drew a tile that completes his hand"
                    ),
                )])
            }
        }
    }
    let Some(window) = &state.window else {
        return Err(Inconsistent::NoLiveDiscard { what: "claim" });
    };
    let live = state.discards[window.discard];
    // §75: of two tiles discarded together, either may be claimed.
    let with = window
        .with
        .map(|i| state.discards[i])
        .filter(|w| e.tile != live.placed && e.tile != live.named && e.tile == w.placed);
    let d = with.unwrap_or(live);
    if e.tile != d.placed && e.tile != d.named {
        return Err(Inconsistent::NotTheDiscard {
            seat,
            tile: e.tile,
            placed: d.placed,
        });
    }
    never_laid_down(state, seat)?;
    let mut v = Vec::new();
    // §89(b): a short hand may not claim for a set that leaves it no tile to discard.
    // A kong's loose tile leaves its claimant a tile to discard.
    let from_hand = match e.claim {
        ClaimKind::Chow | ClaimKind::Pung => 2,
        ClaimKind::Kong | ClaimKind::MahJongg => 0,
    };
    if from_hand > 0 && state.seats[seat].concealed.len() <= from_hand {
        v.push(Irregularity::by(
            seat,
            Breach::ClaimLeavesNoDiscard(e.claim),
            format!(
                "{seat} claimed for {} with {} tiles in hand, leaving none to discard",
                e.claim.name(),
                state.seats[seat].concealed.len()
            ),
        ));
    }
    if seat == d.seat {
        v.push(Irregularity::by(
            seat,
            Breach::OwnDiscardClaimed,
            format!("{seat} claimed its own discard"),
        ));
    }
    if e.claim == ClaimKind::Chow && seat != d.seat.next() {
        v.push(Irregularity::by(
            seat,
            Breach::ChowNotFromLeft { discarder: d.seat },
            format!(
                "{seat} claimed for chow a discard of {}, who is not on its left",
                d.seat
            ),
        ));
    }
    if e.tile != d.placed {
        v.push(Irregularity::by(
            seat,
            Breach::NamedTileClaimed {
                discarder: d.seat,
                claim: e.claim,
                placed: d.placed,
                named: d.named,
            },
            format!(
                "{seat} claimed the tile named, `{}`, but `{}` was placed",
                d.named, d.placed
            ),
        ));
    }
    if let Some(w) = &mut state.window {
        w.claims[seat] = Some(e.claim);
        w.passed[seat] = false;
        w.declared = true;
        w.of_with[seat] = with.is_some();
    }
    Ok(v)
}

pub(super) fn passed(state: &mut PlayState, e: &ClaimPassed) -> Outcome {
    let Some(w) = &mut state.window else {
        // Letting a kong just declared go unrobbed (§57–58): an added kong, or a concealed one
        // (robbable only for the Thirteen Unique Wonders) before its loose tile.
        if matches!(
            state.turn,
            Turn::Robbable { .. } | Turn::Replace { loose: true, .. }
        ) {
            return Ok(Vec::new());
        }
        return Err(Inconsistent::NoLiveDiscard { what: "pass on" });
    };
    w.passed[e.seat] = true;
    w.claims[e.seat] = None;
    Ok(Vec::new())
}

pub(super) fn granted(state: &mut PlayState, e: &ClaimGranted) -> Outcome {
    let seat = e.seat;
    let Some(w) = &state.window else {
        return Err(Inconsistent::NoLiveDiscard { what: "grant" });
    };
    if w.claims[seat] != Some(e.claim) {
        return Err(Inconsistent::NoSuchClaim {
            seat,
            claim: e.claim,
            what: "grant",
        });
    }
    // §75: of two tiles discarded together, the one granted is the discard.
    let (index, other) = match w.with {
        Some(with) if w.of_with[seat] => (with, Some(w.discard)),
        Some(with) => (w.discard, Some(with)),
        None => (w.discard, None),
    };
    let d = state.discards[index];
    let mut v = Vec::new();
    if let Some((first, k)) = w.weighed(d.seat) {
        if first != seat {
            v.push(Irregularity::by(
                seat,
                Breach::Precedence {
                    claim: e.claim,
                    over: first,
                    their: k,
                },
                format!("the discard went to {seat}'s {:?} claim over {first}'s {k:?} claim, which takes precedence", e.claim),
            ));
        }
    }
    let index = match other {
        Some(o) => take_back_other(state, o, index)?,
        None => index,
    };
    state.discards[index].claimed_by = Some(seat);
    state.discards[index].together = false;
    state.seats[seat].claimed = Some(Claimed {
        tile: d.placed,
        claim: e.claim,
    });
    state.window = None;
    state.turn = Turn::Expose {
        seat,
        claim: e.claim,
    };
    Ok(v)
}

/// §75: of two tiles discarded together, the one not granted, discard `other`, goes back into
/// its discarder's hand. Returns where the granted discard, `kept`, now lies.
fn take_back_other(
    state: &mut PlayState,
    other: usize,
    kept: usize,
) -> Result<usize, Inconsistent> {
    let o = state.discards[other];
    state.seats[o.seat].take_in_view(o.placed)?;
    state.discards.remove(other);
    let own = &mut state.seats[o.seat].discards;
    own.retain(|&i| i != other);
    for i in own.iter_mut().filter(|i| **i > other) {
        *i -= 1;
    }
    state.open.into_hand.retain(|&(_, i)| i != other);
    for (_, i) in state.open.into_hand.iter_mut().filter(|(_, i)| *i > other) {
        *i -= 1;
    }
    Ok(if kept > other { kept - 1 } else { kept })
}

/// Takes `tiles` out of `seat`'s concealed hand, or refuses if it does not hold them.
pub(super) fn lay_down(
    state: &mut PlayState,
    seat: Seat,
    tiles: &[Tile],
) -> Result<(), Inconsistent> {
    let s = &state.seats[seat];
    match &s.concealed {
        Concealed::Known(c) => {
            let mut c = *c;
            for &t in tiles {
                c = c.without(t).ok_or(Inconsistent::NotHeld {
                    seat,
                    tile: AnyTile::Playing(t),
                })?;
            }
            state.seats[seat].concealed = Concealed::Known(c);
        }
        Concealed::Counted(n) => {
            if (*n as usize) < tiles.len() {
                return Err(Inconsistent::NothingHeld { seat });
            }
            let n = *n;
            // Tiles shown from an unseen hand come into view, unless they were already.
            let (fresh, shown) = state.seats[seat].unshown(tiles);
            state.see_all(&fresh)?;
            state.seats[seat].shown = shown;
            state.seats[seat].concealed = Concealed::Counted(n - tiles.len() as u32);
        }
    }
    Ok(())
}

pub(super) fn exposed(rules: &PlayRules, state: &mut PlayState, e: &SetExposed) -> Outcome {
    let seat = e.seat;
    // The discard granted and not yet used: one laid down, taken into the hand or folded in
    // by §78 is spent.
    let Some((_, d)) = state.claimed_tile(seat).filter(|(_, d)| {
        state.seats[seat]
            .claimed
            .is_some_and(|c| c.tile == d.placed)
    }) else {
        return Err(Inconsistent::NoSuchClaim {
            seat,
            claim: e.claim,
            what: "expose",
        });
    };
    let set = match e.claim {
        ClaimKind::Chow => Set::chow(e.lowest).ok_or(Inconsistent::NoSuchChow(e.lowest))?,
        _ => Set::pung(e.lowest),
    };
    if !set.contains(d.placed) {
        return Err(Inconsistent::SetWithoutDiscard {
            seat,
            tile: d.placed,
        });
    }
    lay_down(state, seat, &other_tiles(set, d.placed))?;
    let mut v = Vec::new();
    // §41: a chow's claimant who discarded first lays it down before his next draw or claim.
    let owed = state.seats[seat]
        .claimed
        .is_some_and(|c| c.tile == d.placed);
    let exposing = state.turn.exposing() == Some(seat);
    let expected = if owed {
        Some(seat)
    } else {
        state.turn.exposing()
    };
    v.extend(out_of_turn(
        state,
        seat,
        expected,
        Breach::ExposedOutOfTurn,
        "exposed a set",
    ));
    let chows = state.seats[seat]
        .sets
        .iter()
        .filter(|s| s.set.kind() == crate::shape::SetKind::Chow)
        .count();
    if e.claim == ClaimKind::Chow && chows >= usize::from(rules.max_chows) {
        v.push(Irregularity::by(
            seat,
            Breach::ChowBeyondLimit {
                max: rules.max_chows,
            },
            format!(
                "{seat} exposed a chow beyond the {} the ruleset allows",
                rules.max_chows
            ),
        ));
    }
    state.seats[seat].claimed = None;
    state.seats[seat].sets.push(PlayedSet {
        set,
        formed: Formed::Claimed { from: d.seat },
    });
    if exposing || !owed {
        state.turn = Turn::Discard(seat);
    }
    Ok(v)
}
