//! What one seat could see at a moment of the hand: its own concealed tiles, and of the others
//! only what is on the table (Code §27: each may count the others' tiles, not see them); and
//! what an onlooker sees — a referee every hand the record knows, the public the concealed
//! tiles only once the hand is over and the hands are laid down.
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

/// Who is looking at the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Onlooker {
    /// A player: his own concealed tiles, and the table (§27); everyone's once the hand is
    /// over.
    Seat(Seat),
    /// A referee or official: every concealed hand the record knows.
    Referee,
    /// Anyone: the table, and the concealed tiles once the hand is over.
    Public,
}

impl Onlooker {
    /// Whether it sees `seat`'s concealed tiles, the hand being `over` or not.
    pub fn sees(self, seat: Seat, over: bool) -> bool {
        match self {
            Onlooker::Referee => true,
            Onlooker::Seat(s) => s == seat || over,
            Onlooker::Public => over,
        }
    }
}

/// One seat's view of the table (or an onlooker's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatView {
    /// Who looks.
    pub onlooker: Onlooker,
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
        self.view_as(Onlooker::Seat(seat))
    }

    /// What `onlooker` sees now.
    pub fn view_as(&self, onlooker: Onlooker) -> SeatView {
        let over = matches!(self.turn, super::state::Turn::Over(_));
        let mut visible = TileCounts::EMPTY;
        let seats = BySeat::from_fn(|other| {
            let s = &self.seats[other];
            let concealed = match (&s.concealed, onlooker.sees(other, over)) {
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
            onlooker,
            seats,
            visible,
            live_wall: self.wall.live,
            kong_box: self.wall.kong_box,
        }
    }
}
