//! What one seat could see at a moment of the hand: its own concealed tiles, and of the others
//! only what is on the table (Code §27: each may count the others' tiles, not see them).
//!
//! "No Choice" (§95) and false naming (§84–88) are judged on what the discarder could know, so
//! the view is derived from the state, for any seat and any moment.

use crate::by_seat::BySeat;
use crate::counts::TileCounts;
use crate::seat::Seat;
use crate::tile::{Bonus, Tile};

use super::state::{Concealed, PlayState, PlayedSet};

/// What `seat` sees of one seat (its own, or another's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeenSeat {
    /// The concealed tiles, for the seat itself (when the recorder knows them).
    pub concealed: Option<TileCounts>,
    /// How many tiles are in the hand (concealed, and bonus tiles not yet declared).
    pub in_hand: u32,
    pub sets: Vec<PlayedSet>,
    pub bonus: Vec<Bonus>,
    /// The seat's discards in order, and whether each was claimed.
    pub discards: Vec<(Tile, bool)>,
}

/// One seat's view of the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatView {
    pub seat: Seat,
    pub seats: BySeat<SeenSeat>,
    /// Every tile this seat can see: its own, every set and bonus tile on the table, every
    /// discard.
    pub visible: TileCounts,
    pub live_wall: u32,
    pub kong_box: u32,
}

impl PlayState {
    /// What `seat` could see now.
    pub fn view(&self, seat: Seat) -> SeatView {
        let mut visible = TileCounts::EMPTY;
        let seats = BySeat::from_fn(|other| {
            let s = &self.seats[other];
            let concealed = match (&s.concealed, other == seat) {
                (Concealed::Known(c), true) => Some(*c),
                _ => None,
            };
            if let Some(c) = &concealed {
                let _ = visible.try_merge(c);
            }
            for p in &s.sets {
                p.set.tiles().for_each(|t| {
                    let _ = visible.try_add(t);
                });
            }
            let discards = s
                .discards
                .iter()
                .map(|&i| {
                    let d = &self.discards[i];
                    if d.claimed_by.is_none() {
                        let _ = visible.try_add(d.placed);
                    }
                    (d.placed, d.claimed_by.is_some())
                })
                .collect();
            SeenSeat {
                concealed,
                in_hand: s.in_hand(),
                sets: s.sets.clone(),
                bonus: s.bonus.clone(),
                discards,
            }
        });
        SeatView {
            seat,
            seats,
            visible,
            live_wall: self.wall.live,
            kong_box: self.wall.kong_box,
        }
    }
}
