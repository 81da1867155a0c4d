//! Starting the play from a position ([`crate::position`]) rather than from the deal: a
//! referee called to a table rules on the acts in dispute exactly as on a recorded hand.
//!
//! The position stands for the events before it (it is event 0, as the deal is; its acts are
//! events 1, 2 …). What it does not say is taken as the quiet case, and written here:
//! - the walls' tiles are unknown, only counted; the kong box, when the line leaves it off, is
//!   what the set leaves for it (the rules' tiles less every tile the position accounts for);
//! - no claim is open, no kong can be robbed, no bonus tile waits to be declared;
//! - a set made with a discard whose discard is not written claimed (`>W`) came from the seat
//!   on its holder's left;
//! - a seat that drew a loose tile (`loose`, or to draw one: `kong`) has declared one kong in
//!   this turn (Kong upon Kong, §122(f), needs a second, written as an act);
//! - every seat but the one whose turn it is came by its tiles by drawing; the seat whose turn
//!   it is claimed for chow or pung when the turn says so (§95(a): it may then not plead No
//!   Choice).

use crate::by_seat::BySeat;
use crate::hand::{Meld, MeldForm};
use crate::position::{Position, ShownDiscard, Stage};
use crate::seat::Seat;
use crate::tile::{AnyTile, Bonus, Tile};

use super::error::{Inconsistent, PlayError};
use super::rules::PlayRules;
use super::state::{Discard, Formed, LastDraw, Open, PlayState, PlayedSet, SeatState, Turn, Wall};
use super::{Concealed, Play};

impl PlayState {
    /// The state a position describes, under `rules`: refused when a bonus tile is there more
    /// often than the set holds it, or the tiles do not add up to the set's.
    pub fn from_position(rules: &PlayRules, p: &Position) -> Result<PlayState, Inconsistent> {
        let to_move = p.to_move();
        let x = to_move.seat;
        let mut state = PlayState {
            game: p.game(),
            hand: p.hand(),
            east: p.dealer(),
            prevailing: p.prevailing(),
            seats: BySeat::from_fn(|s| seat_state(p, s)),
            discards: Vec::new(),
            wall: Wall {
                live: p.wall().live,
                kong_box: p.wall().kong_box.unwrap_or(0),
                live_tiles: None,
                loose_tiles: None,
            },
            turn: match to_move.stage {
                Stage::Draw => Turn::Draw(x),
                Stage::Konged => Turn::Replace {
                    seat: x,
                    loose: true,
                    then: Box::new(Turn::Discard(x)),
                },
                _ => Turn::Discard(x),
            },
            window: None,
            seen: [0; Tile::COUNT],
            seen_bonus: [0; Bonus::ALL.len()],
            last_draw: match to_move.stage {
                Stage::Drew(tile) => Some(LastDraw {
                    seat: x,
                    tile,
                    loose: false,
                }),
                Stage::Loose(tile) => Some(LastDraw {
                    seat: x,
                    tile,
                    loose: true,
                }),
                _ => None,
            },
            robbed_from: None,
            open: Open::default(),
            drawn_over: None,
            kongs_in_turn: matches!(to_move.stage, Stage::Loose(_) | Stage::Konged)
                .then_some((x, 1)),
            laid_down: BySeat::from_fn(|_| None),
        };
        for (i, d) in p.discards().iter().enumerate() {
            state.discards.push(Discard {
                seat: d.seat,
                placed: d.tile,
                named: d.tile,
                claimed_by: d.claimed_by,
                together: false,
            });
            state.seats[d.seat].discards.push(i);
        }
        // Counts past the set's size are refused before they are added up.
        let wall = p.wall();
        if wall.live.max(wall.kong_box.unwrap_or(0)) > rules.tiles {
            return Err(Inconsistent::PositionTiles {
                accounted: wall.live.saturating_add(wall.kong_box.unwrap_or(0)),
                expected: rules.tiles,
            });
        }
        see_everything(rules, &mut state)?;
        let written = state.accounted();
        match p.wall().kong_box {
            Some(_) if written != rules.tiles => {
                return Err(Inconsistent::PositionTiles {
                    accounted: written,
                    expected: rules.tiles,
                })
            }
            Some(_) => {}
            None => {
                state.wall.kong_box =
                    rules
                        .tiles
                        .checked_sub(written)
                        .ok_or(Inconsistent::PositionTiles {
                            accounted: written,
                            expected: rules.tiles,
                        })?
            }
        }
        Ok(state)
    }
}

/// One seat as the position has it, its sets' discards traced to who made them.
fn seat_state(p: &Position, s: Seat) -> SeatState {
    let seat = &p.seats()[s];
    // The discards this seat claimed, each to be matched with the set it went into.
    let mut claimed: Vec<ShownDiscard> = p
        .discards()
        .iter()
        .filter(|d| d.claimed_by == Some(s))
        .copied()
        .collect();
    let mut from = |m: &Meld| {
        let i = claimed.iter().position(|d| m.set.contains(d.tile));
        i.map(|i| claimed.remove(i).seat).unwrap_or(s.previous())
    };
    let sets = seat
        .melds
        .iter()
        .map(|m| PlayedSet {
            set: m.set,
            formed: match m.form {
                MeldForm::Claimed => Formed::Claimed { from: from(m) },
                MeldForm::AnnexedKong => Formed::AnnexedKong { from: from(m) },
                MeldForm::AddedKong => Formed::AddedKong { from: from(m) },
                MeldForm::ConcealedKong => Formed::ConcealedKong,
            },
        })
        .collect();
    // A seat as the deal leaves it, then what the position shows of it.
    SeatState {
        sets,
        bonus: seat.bonus.clone(),
        original_call: seat.original_call,
        ..SeatState::dealt(seat.concealed.clone(), Vec::new())
    }
}

/// Counts every tile the position shows as in play: known concealed tiles, sets, bonus tiles
/// and the discards showing (a claimed one is in its set).
fn see_everything(rules: &PlayRules, state: &mut PlayState) -> Result<(), Inconsistent> {
    let mut tiles: Vec<Tile> = Vec::new();
    let mut bonus: Vec<Bonus> = Vec::new();
    for s in state.seats.values() {
        if let Concealed::Known(c) = &s.concealed {
            tiles.extend(c.tiles());
        }
        tiles.extend(s.sets.iter().flat_map(|p| p.set.tiles()));
        bonus.extend(&s.bonus);
    }
    tiles.extend(
        state
            .discards
            .iter()
            .filter(|d| d.claimed_by.is_none())
            .map(|d| d.placed),
    );
    state.see_all(&tiles)?;
    for b in bonus {
        state.see(rules, AnyTile::Bonus(b))?;
    }
    Ok(())
}

impl Play {
    /// The hand at `position`, to be played on from there: the position is event 0.
    pub fn from_position(rules: PlayRules, position: &Position) -> Result<Play, PlayError> {
        let state = PlayState::from_position(&rules, position)
            .map_err(|kind| PlayError { event: 0, kind })?;
        Ok(Play::at(rules, state))
    }
}
