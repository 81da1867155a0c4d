//! The end of the hand: Mah-Jongg (§53–54), the hands laid down (§104–105), each player's own
//! count (§107, §110), and the wash-out (§97).

use crate::event::{ClaimKind, HandExposed, MahJonggDeclared, ScoreClaimed, WashOut};
use crate::play::breach::Breach;
use crate::play::error::{Inconsistent, Irregularity};
use crate::play::rules::PlayRules;
use crate::play::state::{Ending, PlayState, Turn};
use crate::score::{Circumstances, WinFrom};
use crate::tile::AnyTile;

use super::out_of_turn;
use super::Outcome;

pub(super) fn mahjongg(_rules: &PlayRules, state: &mut PlayState, e: &MahJonggDeclared) -> Outcome {
    let seat = e.seat;
    if !e.self_drawn && state.open.robbing_refused == Some((seat, e.winning_tile)) {
        // The call that went with a robbing that does not stand: taken up with it.
        return Ok(Vec::new());
    }
    let mut v = Vec::new();
    let (from, discarder) = if e.self_drawn {
        if !state.seats[seat].concealed.holds(e.winning_tile, 1) {
            return Err(Inconsistent::NotHeld {
                seat,
                tile: AnyTile::Playing(e.winning_tile),
            });
        }
        let expected = state.turn.discarding();
        v.extend(out_of_turn(
            state,
            seat,
            expected,
            Breach::MahJonggOutOfTurn,
            "went Mah-Jongg on its own draw",
        ));
        let from = if state.last_draw.is_some_and(|d| d.seat == seat && d.loose) {
            WinFrom::LooseTile
        } else {
            WinFrom::Wall
        };
        (from, None)
    } else {
        // The discard granted and not yet used (laid down, taken in by §78 or §81).
        let Some((_, d)) = state.claimed_tile(seat).filter(|(_, d)| {
            d.placed == e.winning_tile
                && state.seats[seat]
                    .claimed
                    .is_some_and(|c| c.tile == d.placed)
        }) else {
            return Err(Inconsistent::NoSuchClaim {
                seat,
                claim: ClaimKind::MahJongg,
                what: "go Mah-Jongg with",
            });
        };
        // The discard completes the hand: it joins the tiles laid down.
        state.seats[seat].take_in_view(d.placed)?;
        state.seats[seat].claimed = None;
        if !matches!(state.turn, Turn::Expose { seat: s, claim: ClaimKind::MahJongg } if s == seat)
        {
            v.push(Irregularity::by(
                seat,
                Breach::MahJonggOnUnclaimedDiscard,
                format!("{seat} went Mah-Jongg on a discard it had not claimed for Mah-Jongg"),
            ));
        }
        let from = if state.robbed_from.take() == Some(d.seat) {
            WinFrom::RobbedKong
        } else {
            WinFrom::Discard
        };
        (from, Some(d.seat))
    };
    let east = state.east;
    let circumstances = Circumstances {
        last_tile: state.wall.live == 0,
        // §122(f): two kongs in this turn, and the win on the second one's loose tile.
        kong_upon_kong: from == WinFrom::LooseTile
            && state
                .kongs_in_turn
                .is_some_and(|(s, n)| s == seat && n >= 2),
        original_call: state.seats[seat].original_call,
        // §122(a): East's dealt hand (with its replacements) complete, before any discard.
        heavens_blessing: e.self_drawn && seat == east && state.discards.is_empty(),
        // §122(b): another seat out on East's first discard, the first of the hand.
        earths_blessing: from == WinFrom::Discard
            && seat != east
            && discarder == Some(east)
            && state.discards.len() == 1,
    };
    state.turn = Turn::Over(Ending::MahJongg {
        seat,
        tile: e.winning_tile,
        from,
        discarder,
        circumstances,
    });
    state.window = None;
    Ok(v)
}

/// A seat lays its hand down after the hand (§104): the same tiles, sets and bonus tiles it
/// holds, grouped as it scores them (§105).
pub(super) fn laid_down(state: &mut PlayState, e: &HandExposed) -> Outcome {
    let seat = e.seat;
    if !matches!(state.turn, Turn::Over(_)) {
        return Err(Inconsistent::LaidDownEarly { seat });
    }
    let Some(held) = state.hand_of(seat) else {
        // Its tiles were never seen: the hand laid down shows them, if it holds as many.
        let s = &state.seats[seat];
        let shown = e.hand.concealed().len() as u32 + u32::from(e.hand.winning().is_some());
        if shown != s.concealed.len() || e.hand.melds().len() != s.sets.len() {
            return Err(Inconsistent::LaidDownMismatch {
                seat,
                why: format!(
                    "it holds {} concealed tiles and {} sets, the hand laid down {shown} and {}",
                    s.concealed.len(),
                    s.sets.len(),
                    e.hand.melds().len()
                ),
            });
        }
        state.laid_down[seat] = Some(e.hand.clone());
        return Ok(Vec::new());
    };
    // The same tiles, sets and bonus tiles, in whatever order they are written.
    fn same_items<T: PartialEq + Copy>(a: &[T], b: &[T]) -> bool {
        let mut left: Vec<T> = b.to_vec();
        a.len() == b.len()
            && a.iter().all(|x| match left.iter().position(|y| y == x) {
                Some(i) => {
                    left.swap_remove(i);
                    true
                }
                None => false,
            })
    }
    let same = |a: &crate::hand::Hand, b: &crate::hand::Hand| {
        a.concealed() == b.concealed()
            && a.winning() == b.winning()
            && same_items(a.melds(), b.melds())
            && same_items(a.bonus(), b.bonus())
    };
    if !same(&e.hand, &held) {
        return Err(Inconsistent::LaidDownMismatch {
            seat,
            why: format!("it holds {held}, not {}", e.hand.ungrouped()),
        });
    }
    state.laid_down[seat] = Some(e.hand.clone());
    Ok(Vec::new())
}

/// A player states his own count of his hand after the Mah-Jongg (§107, §110), of the hand he
/// laid down, arranged as he scores it (§104–105), or of the hand as it lies.
/// Whether it is right is the adjudication's (the `adjudicate::own_count` findings).
pub(super) fn score_claimed(state: &mut PlayState, e: &ScoreClaimed) -> Outcome {
    if !matches!(state.turn, Turn::Over(_)) {
        return Err(Inconsistent::ScoreClaim {
            seat: e.seat,
            why: "before the hand was over (Code §107: the hands are scored after the Mah-Jongg)",
        });
    }
    if e.points < 0 {
        return Err(Inconsistent::ScoreClaim {
            seat: e.seat,
            why: "below nothing: a hand scores 0 or more",
        });
    }
    if state.laid_down[e.seat].is_none() && state.hand_of(e.seat).is_none() {
        return Err(Inconsistent::ScoreClaim {
            seat: e.seat,
            why: "for a hand not laid down (Code §104: the hand is laid down, arranged as it is scored, then counted; a long hand claims no score, §89(c))",
        });
    }
    Ok(Vec::new())
}

pub(super) fn wash_out(state: &mut PlayState, e: &WashOut) -> Outcome {
    let mut v = Vec::new();
    if state.wall.live > 0 {
        v.push(Irregularity::new(
            Breach::EarlyWashOut {
                left: state.wall.live,
            },
            None,
            format!(
                "the hand was abandoned ({}) with {} tiles left in the live wall",
                e.reason, state.wall.live
            ),
        ));
    }
    state.turn = Turn::Over(Ending::WashOut);
    state.window = None;
    Ok(v)
}
