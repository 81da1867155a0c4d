//! Kongs: declared concealed, annexed or added (§46–51), and robbed (§57–58).

use crate::event::{ClaimKind, KongDeclared, KongKind, KongRobbed};
use crate::play::breach::Breach;
use crate::play::error::{Inconsistent, Irregularity};
use crate::play::rules::PlayRules;
use crate::play::state::{Claimed, Concealed, Discard, Formed, PlayState, PlayedSet, Turn};
use crate::rules::KongRobbing;
use crate::shape::Set;

use super::claim::{lay_down, put_back_loose};
use super::out_of_turn;
use super::Outcome;

pub(super) fn kong(rules: &PlayRules, state: &mut PlayState, e: &KongDeclared) -> Outcome {
    let seat = e.seat;
    let t = e.tile;
    let mut v = Vec::new();
    match e.kind {
        KongKind::Concealed => {
            let after_claim = state.turn_by_claim(seat);
            lay_down(state, seat, &[t; 4])?;
            if after_claim {
                v.push(Irregularity::by(
                    seat,
                    Breach::KongOutOfTurn(KongKind::Concealed),
                    format!("{seat} declared a concealed kong straight after claiming a discard"),
                ));
            }
            // §33: a dealt kong may be declared by any seat before play starts.
            let expected = if state.discards.is_empty() {
                Some(seat)
            } else {
                state.turn.discarding()
            };
            v.extend(out_of_turn(
                state,
                seat,
                expected,
                Breach::KongOutOfTurn(KongKind::Concealed),
                "declared a concealed kong",
            ));
            state.seats[seat].sets.push(PlayedSet {
                set: Set::kong(t),
                formed: Formed::ConcealedKong,
            });
            if e.unmarked {
                // §52: "may score that kong as exposed only".
                state.seats[seat].unmarked.push(t);
            }
            state.turn = if rules.kong_robbing == KongRobbing::AddedOrWonders {
                // §58: open to robbing for the Thirteen Unique Wonders until the loose tile.
                Turn::Robbable { seat, tile: t }
            } else {
                Turn::Replace {
                    seat,
                    loose: true,
                    then: Box::new(Turn::Discard(seat)),
                }
            };
        }
        KongKind::AddedToExposedPung => {
            let Some(i) = state.seats[seat]
                .sets
                .iter()
                .position(|s| s.set == Set::pung(t) && matches!(s.formed, Formed::Claimed { .. }))
            else {
                return Err(Inconsistent::NoExposedPung { seat, tile: t });
            };
            let after_claim = state.turn_by_claim(seat);
            lay_down(state, seat, &[t])?;
            if after_claim {
                v.push(Irregularity::by(
                    seat,
                    Breach::KongOutOfTurn(KongKind::AddedToExposedPung),
                    format!("{seat} added a tile from its hand to an exposed pung straight after claiming a discard, not one drawn from the wall"),
                ));
            }
            let expected = state.turn.discarding();
            v.extend(out_of_turn(
                state,
                seat,
                expected,
                Breach::KongOutOfTurn(KongKind::AddedToExposedPung),
                "added a tile to an exposed pung",
            ));
            let Formed::Claimed { from } = state.seats[seat].sets[i].formed else {
                return Err(Inconsistent::NoExposedPung { seat, tile: t });
            };
            state.seats[seat].sets[i] = PlayedSet {
                set: Set::kong(t),
                formed: Formed::AddedKong { from },
            };
            // §57–59: open to robbing in this turn, until the loose tile is drawn.
            state.turn = Turn::Robbable { seat, tile: t };
        }
        KongKind::AnnexedDiscard => {
            let held = state.seats[seat].claimed.is_some_and(|c| c.tile == t);
            let Some((_, d)) = state
                .claimed_tile(seat)
                .filter(|(_, d)| d.placed == t && held)
            else {
                return Err(Inconsistent::NoSuchClaim {
                    seat,
                    claim: ClaimKind::Kong,
                    what: "annex a discard with",
                });
            };
            lay_down(state, seat, &[t; 3])?;
            // The kong granted is the seat's to lay down, now or (having discarded first) until
            // its next draw or claim, as a chow's (§41, §78).
            let exposing = state.turn.exposing() == Some(seat);
            let expected = Some(seat);
            v.extend(out_of_turn(
                state,
                seat,
                expected,
                Breach::KongOutOfTurn(KongKind::AnnexedDiscard),
                "annexed a discard to a pung",
            ));
            state.seats[seat].claimed = None;
            state.seats[seat].sets.push(PlayedSet {
                set: Set::kong(t),
                formed: Formed::AnnexedKong { from: d.seat },
            });
            // Annexed when granted, the seat then discards; annexed after discarding first
            // (flagged), the play goes on where it stands once the loose tile is drawn.
            let then = if exposing {
                Box::new(Turn::Discard(seat))
            } else {
                Box::new(std::mem::replace(&mut state.turn, Turn::Discard(seat)))
            };
            state.turn = Turn::Replace {
                seat,
                loose: true,
                then,
            };
        }
    }
    Ok(v)
}

pub(super) fn robbed(rules: &PlayRules, state: &mut PlayState, e: &KongRobbed) -> Outcome {
    // §57–59 until the loose tile is drawn; §60 after it, while its owner has done nothing else.
    let (seat, tile, after_loose) = match (&state.turn, state.open.loose_for_kong) {
        (Turn::Robbable { seat, tile }, _) => (*seat, *tile, false),
        (Turn::Discard(s), Some((k, tile))) if *s == k => (k, tile, true),
        _ => {
            return Err(Inconsistent::NoKongToRob {
                from: e.from,
                tile: e.tile,
            })
        }
    };
    if seat != e.from || tile != e.tile {
        return Err(Inconsistent::NoKongToRob {
            from: e.from,
            tile: e.tile,
        });
    }
    let Some(k) = state.seats[seat]
        .sets
        .iter()
        .position(|s| s.set == Set::kong(tile))
    else {
        return Err(Inconsistent::NoKongToRob {
            from: e.from,
            tile: e.tile,
        });
    };
    let formed = state.seats[seat].sets[k].formed;
    // Whether the ruleset lets this kong be robbed, and why not.
    let refused = match formed {
        // §57: a kong made by adding a drawn tile to an exposed pung.
        Formed::AddedKong { .. } => (rules.kong_robbing == KongRobbing::None).then(|| {
            Irregularity::by(
                e.robber,
                Breach::KongRobbedUnderRuleset { from: seat },
                format!(
                    "{} robbed {seat}'s kong of {tile}: this book has no robbing of a kong",
                    e.robber
                ),
            )
        }),
        // §58: a concealed kong only to complete the Thirteen Unique Wonders (a robber whose
        // tiles are unseen is taken at his word).
        _ => {
            let wonders = match &state.seats[e.robber].concealed {
                Concealed::Known(c) => c.with(tile).map(|all| {
                    crate::shape::SpecialShape::ThirteenUniqueWonders.is_complete(&all, tile)
                }),
                Concealed::Counted(_) => None,
            };
            (rules.kong_robbing != KongRobbing::AddedOrWonders || wonders == Some(false)).then(|| {
                Irregularity::by(
                    e.robber,
                    Breach::ConcealedKongRobbed { from: seat },
                    format!(
                        "{} robbed {seat}'s concealed kong of {tile}: a concealed kong may be robbed only to complete the Thirteen Unique Wonders",
                        e.robber
                    ),
                )
            })
        }
    };
    // §60: "… or if the loose tile should complete his own hand … the kong may not be robbed".
    let refused = refused.or_else(|| {
        (after_loose && state.holds_complete(seat)).then(|| {
            Irregularity::by(
                e.robber,
                Breach::ClaimForfeited { robbing: true },
                format!(
                    "{} robbed {seat}'s kong of {tile} after its loose tile, which completes {seat}'s hand",
                    e.robber
                ),
            )
        })
    });
    if let Some(refused) = refused {
        // The robbing does not stand: the robber takes up his hand, and his call of Mah-Jongg
        // on the tile with it; the kong stays, its owner draws the loose tile, play goes on.
        state.open.robbing_refused = Some((e.robber, tile));
        return Ok(vec![refused]);
    }
    if after_loose {
        // §60: the loose tile goes back to the kong box.
        put_back_loose(state, seat)?;
        state.open.loose_for_kong = None;
    }
    match formed {
        // §57: the kong goes back to a pung; the fourth tile is the robber's, as a discard is.
        Formed::AddedKong { from } => {
            state.seats[seat].sets[k] = PlayedSet {
                set: Set::pung(tile),
                formed: Formed::Claimed { from },
            };
        }
        // §58: a concealed kong goes back into the hand as three tiles, the fourth the robber's.
        _ => {
            state.seats[seat].sets.remove(k);
            for _ in 0..3 {
                state.seats[seat].take_in_view(tile)?;
            }
        }
    }
    state.robbed_from = Some(seat);
    let index = state.discards.len();
    state.discards.push(Discard {
        seat,
        placed: tile,
        named: tile,
        claimed_by: Some(e.robber),
        together: false,
    });
    state.seats[seat].discards.push(index);
    state.seats[e.robber].claimed = Some(Claimed {
        tile,
        claim: ClaimKind::MahJongg,
    });
    state.turn = Turn::Expose {
        seat: e.robber,
        claim: ClaimKind::MahJongg,
    };
    Ok(Vec::new())
}
