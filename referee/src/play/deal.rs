//! The deal that begins a hand (Code §24): a known wall dealt in its order, known hands, or
//! nothing but each seat's count.

use crate::by_seat::BySeat;
use crate::concealed::Concealed;
use crate::counts::TileCounts;
use crate::event::{Deal, HandStarted};
use crate::seat::Seat;
use crate::tile::{AnyTile, Bonus, Tile};

use super::error::Inconsistent;
use super::rules::PlayRules;
use super::state::{bonus_index, Open, PlayState, SeatState, Turn, Wall};

/// A known wall holds every tile of the set, each as often as the set has it.
fn check_wall(rules: &PlayRules, tiles: &[AnyTile]) -> Result<(), Inconsistent> {
    let mut playing = [0u8; Tile::COUNT];
    let mut bonus = [0u32; Bonus::ALL.len()];
    for &t in tiles {
        match t {
            AnyTile::Playing(t) => {
                playing[t.index()] += 1;
                if playing[t.index()] > 4 {
                    return Err(Inconsistent::FifthCopy(t));
                }
            }
            AnyTile::Bonus(b) => {
                bonus[bonus_index(b)] += 1;
                if bonus[bonus_index(b)] > rules.bonus_tiles / 8 {
                    return Err(Inconsistent::TooManyBonus(b));
                }
            }
        }
    }
    Ok(())
}

/// East is dealt fourteen, the others thirteen.
fn dealt_to(east: Seat, seat: Seat) -> usize {
    if seat == east {
        14
    } else {
        13
    }
}

impl PlayState {
    /// The hand as dealt.
    pub(crate) fn deal(
        rules: &PlayRules,
        started: &HandStarted,
    ) -> Result<PlayState, Inconsistent> {
        let east = started.east;
        let dealt: u32 = 14 + 3 * 13;
        let empty = || SeatState::dealt(Concealed::Counted(0), Vec::new());
        let mut state = PlayState {
            game: started.game,
            hand: started.hand,
            east,
            prevailing: started.prevailing_wind,
            seats: BySeat::from_fn(|_| empty()),
            // At most one discard per tile drawn, and the first: sized once.
            discards: Vec::with_capacity((rules.tiles - dealt + 1) as usize),
            wall: Wall {
                live: rules.tiles - dealt - rules.kong_box,
                kong_box: rules.kong_box,
                live_tiles: None,
                loose_tiles: None,
            },
            turn: Turn::Discard(east),
            window: None,
            seen: [0; Tile::COUNT],
            seen_bonus: [0; Bonus::ALL.len()],
            last_draw: None,
            robbed_from: None,
            open: Open::default(),
            drawn_over: None,
            kongs_in_turn: None,
            laid_down: BySeat::from_fn(|_| None),
        };
        match &started.deal {
            Deal::Unknown => {
                for seat in Seat::ALL {
                    state.seats[seat].concealed = Concealed::Counted(dealt_to(east, seat) as u32);
                }
            }
            Deal::Hands { hands } => {
                for (seat, tiles) in hands.iter() {
                    let expected = dealt_to(east, seat);
                    if tiles.len() != expected {
                        let got = hands.values().map(Vec::len).sum();
                        return Err(Inconsistent::BadDeal {
                            got,
                            expected: 14 + 3 * 13,
                            seat,
                            seat_count: tiles.len(),
                        });
                    }
                    state.seats[seat].concealed = Concealed::Known(TileCounts::EMPTY);
                    for &t in tiles {
                        state.take(rules, seat, t)?;
                    }
                }
            }
            Deal::Wall { tiles, order } => {
                if tiles.len() != rules.tiles as usize {
                    return Err(Inconsistent::BadWall {
                        got: tiles.len(),
                        expected: rules.tiles,
                    });
                }
                check_wall(rules, tiles)?;
                for seat in Seat::ALL {
                    state.seats[seat].concealed = Concealed::Known(TileCounts::EMPTY);
                }
                let mut next = 0;
                for &(from_east, n) in order.takes() {
                    let seat = Seat::from_index((east.index() + from_east) % 4);
                    for &t in &tiles[next..next + n] {
                        state.take(rules, seat, t)?;
                    }
                    next += n;
                }
                let box_start = tiles.len() - rules.kong_box as usize;
                state.wall.live_tiles = Some(tiles[next..box_start].iter().copied().collect());
                // The kong box is the end of the wall; its loose tiles are drawn from the end.
                state.wall.loose_tiles = Some(tiles[box_start..].iter().rev().copied().collect());
            }
        }
        Ok(state)
    }
}
