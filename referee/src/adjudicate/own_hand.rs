//! The discarder's own hand at a dangerous discard, as the books' exemptions from their
//! penalties read it (Babcock pp. 76–79: the rank of his waiting hand; Harr p. 68: his
//! doubling honours). The watch keeps it with each dangerous discard under a book's reading.

use super::danger::Signal;
use crate::play::{Concealed, PlayState};
use crate::shape::standard_waits;
use crate::tile::Wind;
use crate::{Seat, Tile, TileSet};

/// Babcock's ranks of high hands for insurance (p. 77), lowest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rank {
    /// A waiting hand of nothing but ones, nines and honours.
    Third,
    /// Two sets of winds, not his own, and pairs of the other two; or two sets of dragons and
    /// a pair of the third.
    Second,
    /// A waiting hand entirely of one suit; or three sets of winds, his own among them, and
    /// one or a pair of the fourth.
    First,
}

impl Rank {
    /// The rank of the hand a signal insures against: one suit and the Four Wind Hand are
    /// first, three dragon sets second, ones, nines and honours third (p. 77).
    pub const fn insured(signal: Signal) -> Option<Rank> {
        match signal {
            Signal::OneSuit(_) | Signal::FourWindHand | Signal::Winds => Some(Rank::First),
            Signal::ThirdDragonSet | Signal::Dragons => Some(Rank::Second),
            Signal::Heads => Some(Rank::Third),
            _ => None,
        }
    }
}

/// What the discarder held himself when he made a dangerous discard (his tiles after it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OwnHand {
    /// The tiles that would complete it (empty: not waiting).
    pub waits: TileSet,
    /// Babcock's rank of it, when it is waiting and has one (p. 77).
    pub rank: Option<Rank>,
    /// The doubles its honour sets give (Harr pp. 66–67).
    pub doubling_honours: u32,
    /// The most doubles its honour sets would give with a tile it waits for.
    pub doubling_if_won: u32,
}

impl OwnHand {
    pub fn waiting(&self) -> bool {
        !self.waits.is_empty()
    }
}

/// `seat`'s own hand once `tile` leaves it, when the record knows its tiles.
pub(crate) fn own_hand(state: &PlayState, seat: Seat, tile: Tile) -> Option<OwnHand> {
    let Concealed::Known(held) = &state.seats[seat].concealed else {
        return None;
    };
    let concealed = held.without(tile)?;
    let waits = standard_waits(&concealed);
    let mut counts = *concealed.as_array();
    for s in &state.seats[seat].sets {
        for t in s.set.tiles() {
            counts[t.index()] += 1;
        }
    }
    let (own, prevailing) = (state.wind_of(seat), state.prevailing);
    let doubling_if_won = waits
        .iter()
        .map(|w| {
            let mut c = counts;
            c[w.index()] += 1;
            doubling(&c, own, prevailing)
        })
        .max()
        .unwrap_or(0);
    Some(OwnHand {
        waits,
        rank: (!waits.is_empty()).then(|| rank(&counts, own)).flatten(),
        doubling_honours: doubling(&counts, own, prevailing),
        doubling_if_won,
    })
}

/// Babcock's rank of a waiting hand of these tiles (p. 77), the highest it has.
fn rank(counts: &[u8; Tile::COUNT], own: Wind) -> Option<Rank> {
    let n = |t: Tile| counts[t.index()];
    let held = || Tile::ALL.into_iter().filter(|t| n(*t) > 0);
    let winds = Wind::ALL.map(|w| n(Tile::wind(w)));
    let wind_sets = winds.iter().filter(|&&c| c >= 3).count();
    let own_n = n(Tile::wind(own));
    let one_suit = held()
        .next()
        .and_then(Tile::suit)
        .is_some_and(|s| held().all(|t| t.suit() == Some(s)));
    if one_suit || (own_n >= 3 && wind_sets >= 3 && winds.iter().all(|&c| c >= 1)) {
        return Some(Rank::First);
    }
    let dragons: Vec<u8> = Tile::ALL
        .into_iter()
        .filter(|t| t.is_dragon())
        .map(n)
        .collect();
    let winds_second = wind_sets == 2 && own_n == 2 && winds.iter().all(|&c| c >= 2);
    let dragons_second = dragons.iter().filter(|&&c| c >= 3).count() == 2 && dragons.contains(&2);
    if winds_second || dragons_second {
        return Some(Rank::Second);
    }
    held().all(Tile::is_major).then_some(Rank::Third)
}

/// The doubles honour sets of these tiles give under Harr (pp. 66–67): each dragon set once,
/// the player's own wind once, or twice in his own wind round.
fn doubling(counts: &[u8; Tile::COUNT], own: Wind, prevailing: Wind) -> u32 {
    let dragons = Tile::ALL
        .into_iter()
        .filter(|t| t.is_dragon() && counts[t.index()] >= 3)
        .count() as u32;
    let wind = match (counts[Tile::wind(own).index()] >= 3, own == prevailing) {
        (false, _) => 0,
        (true, false) => 1,
        (true, true) => 2,
    };
    dragons + wind
}
