//! Draws: from the live wall in turn (Code §34), out of turn (§72–73), a loose tile for a kong
//! (§46, §48, §50), and a bonus tile declared and replaced (§31).

use crate::event::{BonusTileDeclared, LooseTileDrawn, TileDrawn};
use crate::play::breach::Breach;
use crate::play::error::{Inconsistent, Irregularity};
use crate::play::rules::PlayRules;
use crate::play::state::{Concealed, DrawnOver, LastDraw, PlayState, Turn};
use crate::rules::BonusReplacement;
use crate::seat::Seat;
use crate::tile::AnyTile;

use super::claim::never_laid_down;
use super::out_of_turn;
use super::Outcome;

/// Takes the next tile (or, with a known wall, `tile`) off the live wall or the kong box.
pub(super) fn draw_from(
    state: &mut PlayState,
    seat: Seat,
    tile: Option<AnyTile>,
    loose: bool,
) -> Result<(Option<AnyTile>, Option<Irregularity>), Inconsistent> {
    let wall = &mut state.wall;
    let (count, tiles, name) = if loose {
        (&mut wall.kong_box, &mut wall.loose_tiles, "kong box")
    } else {
        (&mut wall.live, &mut wall.live_tiles, "live wall")
    };
    if *count == 0 {
        return Err(Inconsistent::WallEmpty { seat, wall: name });
    }
    let Some(tiles) = tiles else {
        *count -= 1;
        return Ok((tile, None));
    };
    let taken = match tile {
        None => 0,
        Some(t) => tiles
            .iter()
            .position(|&x| x == t)
            .ok_or(Inconsistent::NotInWall { seat, tile: t })?,
    };
    let wrong = (taken != 0).then(|| {
        Irregularity::by(
            seat,
            Breach::WrongTileDrawn,
            format!(
                "{seat} drew `{}` from the {name}, not the next tile `{}`",
                tiles[taken], tiles[0]
            ),
        )
    });
    // The count said a tile is left: a known wall always holds it.
    let t = tiles
        .remove(taken)
        .ok_or(Inconsistent::WallEmpty { seat, wall: name })?;
    *count -= 1;
    Ok((Some(t), wrong))
}

/// `seat` draws from the live wall or the kong box: the tile (checked against the tiles in
/// play unless the wall vouches for it) joins the hand, a bonus tile to wait for its
/// declaration. Returns the tile, and a wrong tile drawn from a known wall (§72).
pub(super) fn take_draw(
    rules: &PlayRules,
    state: &mut PlayState,
    seat: Seat,
    tile: Option<AnyTile>,
    loose: bool,
) -> Result<(Option<AnyTile>, Option<Irregularity>), Inconsistent> {
    let wall_known = if loose {
        state.wall.loose_tiles.is_some()
    } else {
        state.wall.live_tiles.is_some()
    };
    if let (false, Some(t)) = (wall_known, tile) {
        state.can_see(rules, t)?;
    }
    let (tile, wrong) = draw_from(state, seat, tile, loose)?;
    if loose && rules.kong_box_replenished && state.wall.live > 0 {
        // Babcock: "the two last tiles in the wall are placed on top of the end of the wall
        // and used as new loose tiles": the box keeps its size, the live wall gives a tile.
        state.wall.live -= 1;
        state.wall.kong_box += 1;
        if let (Some(live), Some(loose)) = (&mut state.wall.live_tiles, &mut state.wall.loose_tiles)
        {
            if let Some(t) = live.pop_back() {
                loose.push_back(t);
            }
        }
    }
    match tile {
        Some(t) => state.take(rules, seat, t)?,
        // An unseen tile in a hand the recorder sees: the hand is counted from now on.
        None => {
            let s = &mut state.seats[seat];
            if let Concealed::Known(c) = s.concealed {
                // Every tile it held is in view already.
                s.shown = c;
            }
            s.concealed = Concealed::Counted(s.concealed.len() + 1);
        }
    }
    state.last_draw = Some(LastDraw {
        seat,
        tile: match tile {
            Some(AnyTile::Playing(t)) => Some(t),
            _ => None,
        },
        loose,
    });
    Ok((tile, wrong))
}

/// The drawer's turn goes on: back to what a replacement interrupted, or to its discard.
pub(super) fn resume_after_draw(state: &mut PlayState, seat: Seat) {
    state.turn = match std::mem::replace(&mut state.turn, Turn::Discard(seat)) {
        Turn::Replace { then, seat: s, .. } if s == seat => *then,
        _ => Turn::Discard(seat),
    };
}

pub(super) fn drawn(rules: &PlayRules, state: &mut PlayState, e: &TileDrawn) -> Outcome {
    let seat = e.seat;
    let mut v = Vec::new();
    // A bonus tile's replacement from the live wall (§31) is a draw too.
    let replacing =
        matches!(&state.turn, Turn::Replace { seat: s, loose: false, .. } if *s == seat);
    let expected = match &state.turn {
        Turn::Draw(s) => Some(*s),
        Turn::Replace {
            seat: s,
            loose: false,
            ..
        } => Some(*s),
        _ => None,
    };
    let (tile, wrong) = take_draw(rules, state, seat, e.tile, false)?;
    never_laid_down(state, seat)?;
    v.extend(out_of_turn(
        state,
        seat,
        expected,
        Breach::DrawOutOfTurn { turn_of: expected },
        "drew",
    ));
    v.extend(wrong);
    // The draw closes the claims on the discard before it (§64 lets a higher claim displace it
    // until the tile is in the hand; such a claim comes before this event in the record).
    if expected != Some(seat) {
        // §73: the errant seat keeps the tile (a long hand); play goes on in its order.
        return Ok(v);
    }
    if !replacing {
        state.drawn_over = state
            .window
            .take()
            .map(|window| DrawnOver { window, seat, tile });
    }
    resume_after_draw(state, seat);
    Ok(v)
}

pub(super) fn loose_drawn(rules: &PlayRules, state: &mut PlayState, e: &LooseTileDrawn) -> Outcome {
    let seat = e.seat;
    let mut v = Vec::new();
    let expected = match &state.turn {
        Turn::Replace {
            seat: s,
            loose: true,
            ..
        } => Some(*s),
        Turn::Robbable { seat: s, .. } => Some(*s),
        _ => None,
    };
    let robbable = match state.turn {
        Turn::Robbable { seat: s, tile } if s == seat => Some((s, tile)),
        _ => None,
    };
    let (drawn, wrong) = take_draw(rules, state, seat, e.tile, true)?;
    never_laid_down(state, seat)?;
    // §60: the kong may still be robbed, the loose tile going back, while its owner does
    // nothing else (a playing tile, seen: a bonus tile is declared and replaced first).
    state.open.loose_for_kong = robbable.filter(|_| matches!(drawn, Some(AnyTile::Playing(_))));
    v.extend(out_of_turn(
        state,
        seat,
        expected,
        Breach::LooseTileOutOfTurn { turn_of: expected },
        "drew a loose tile",
    ));
    v.extend(wrong);
    if expected != Some(seat) {
        return Ok(v);
    }
    resume_after_draw(state, seat);
    Ok(v)
}

pub(super) fn bonus_declared(
    rules: &PlayRules,
    state: &mut PlayState,
    e: &BonusTileDeclared,
) -> Outcome {
    let seat = e.seat;
    let s = &state.seats[seat];
    match (s.undeclared.iter().position(|&b| b == e.tile), &s.concealed) {
        (Some(i), _) => {
            state.seats[seat].undeclared.remove(i);
        }
        (None, Concealed::Known(_)) => {
            return Err(Inconsistent::NotHeld {
                seat,
                tile: AnyTile::Bonus(e.tile),
            })
        }
        // A counted hand: the bonus tile was one of its unseen tiles.
        (None, Concealed::Counted(0)) => return Err(Inconsistent::NothingHeld { seat }),
        (None, Concealed::Counted(n)) => {
            let n = *n - 1;
            state.see(rules, AnyTile::Bonus(e.tile))?;
            state.seats[seat].concealed = Concealed::Counted(n);
        }
    }
    state.seats[seat].bonus.push(e.tile);
    let mut v = Vec::new();
    // §31–32: declared in the turn it was drawn, or before play starts; another seat's turn
    // means it was kept back.
    let own_turn = match &state.turn {
        Turn::Discard(s) | Turn::Replace { seat: s, .. } => *s == seat,
        _ => false,
    };
    let before_play = state.discards.is_empty();
    if !own_turn && !before_play {
        v.push(Irregularity::by(
            seat,
            Breach::BonusDeclaredLate(e.tile),
            format!("{seat} declared `{}` after the turn it was drawn in: it scores nothing and is not replaced", e.tile),
        ));
        return Ok(v);
    }
    let loose = rules.bonus_replacement == BonusReplacement::LooseTile;
    let then = Box::new(std::mem::replace(&mut state.turn, Turn::Discard(seat)));
    state.turn = Turn::Replace { seat, loose, then };
    Ok(v)
}
