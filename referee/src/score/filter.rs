//! Which tiles each tile filter admits, for one seat in one round, as a set of 34 bits.
//!
//! The per-set conditions test every group of every way of counting against their element's
//! filter; a hand may be counted a dozen ways under fifty elements, so the test is one bit
//! here, and what each filter means is written once ([`admits`]).

use crate::rules::TileFilter;
use crate::tile::{Tile, Wind};

/// Does `f` admit `t`, for a player of `seat` in a round of `prevailing`? (`const`, so the
/// table below is built from it at compile time.)
pub(crate) const fn admits(f: TileFilter, t: Tile, seat: Wind, prevailing: Wind) -> bool {
    let own = Tile::wind(seat).index() == t.index();
    let round = Tile::wind(prevailing).index() == t.index();
    match f {
        TileFilter::Any => true,
        TileFilter::Simples => t.is_minor(),
        TileFilter::Terminals => t.is_terminal(),
        TileFilter::Honours => t.is_honour(),
        TileFilter::Majors => t.is_major(),
        TileFilter::Winds => t.is_wind(),
        TileFilter::Dragons => t.is_dragon(),
        TileFilter::OwnWind => own,
        TileFilter::PrevailingWind => round,
        TileFilter::OwnAndPrevailingWind => own && round,
        TileFilter::OtherWind => t.is_wind() && !own && !round,
        TileFilter::TerminalsAndOtherWinds => t.is_terminal() || (t.is_wind() && !own),
        TileFilter::DragonsAndOwnWind => t.is_dragon() || own,
    }
}

/// Every filter's tiles for one seat in one round, built once per hand scored.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FilterMasks([u64; TileFilter::ALL.len()]);

/// The masks for each of the sixteen (seat, round) pairs, built at compile time.
const TABLE: [FilterMasks; 16] = {
    let mut table = [FilterMasks([0; TileFilter::ALL.len()]); 16];
    let mut pair = 0;
    while pair < 16 {
        let (seat, prevailing) = (Wind::ALL[pair / 4], Wind::ALL[pair % 4]);
        let mut f = 0;
        while f < TileFilter::ALL.len() {
            let mut mask = 0u64;
            let mut t = 0;
            while t < Tile::COUNT {
                if admits(TileFilter::ALL[f], Tile::ALL[t], seat, prevailing) {
                    mask |= 1 << t;
                }
                t += 1;
            }
            table[pair].0[f] = mask;
            f += 1;
        }
        pair += 1;
    }
    table
};

impl FilterMasks {
    pub fn new(seat: Wind, prevailing: Wind) -> FilterMasks {
        TABLE[seat as usize * 4 + prevailing as usize]
    }

    /// The tiles `f` admits, one bit per [`Tile::index`].
    pub fn mask(&self, f: TileFilter) -> u64 {
        self.0[f as usize]
    }

    pub fn admits(&self, f: TileFilter, t: Tile) -> bool {
        self.mask(f) >> t.index() & 1 == 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_agrees_with_the_filters_meaning() {
        for seat in Wind::ALL {
            for prevailing in Wind::ALL {
                let masks = FilterMasks::new(seat, prevailing);
                for f in TileFilter::ALL {
                    for t in Tile::ALL {
                        assert_eq!(
                            masks.admits(f, t),
                            admits(f, t, seat, prevailing),
                            "{f} {t} seat {seat} round {prevailing}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn other_wind_is_neither_own_nor_prevailing() {
        let masks = FilterMasks::new(Wind::South, Wind::East);
        let winds: Vec<Tile> = Tile::ALL
            .into_iter()
            .filter(|&t| masks.admits(TileFilter::OtherWind, t))
            .collect();
        assert_eq!(winds, [Tile::wind(Wind::West), Tile::wind(Wind::North)]);
    }
}
