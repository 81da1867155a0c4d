//! A seat's concealed playing tiles as the record knows them: every tile, when a scorer has
//! seen them (a known wall or known hands), or only how many, while nobody has (Code §24: the
//! deal is face down). The play folds them; a position written by a referee states them.

use crate::counts::TileCounts;
use crate::tile::Tile;

/// A seat's concealed playing tiles: known, or only counted while no scorer has seen them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Concealed {
    Known(TileCounts),
    Counted(u32),
}

impl Concealed {
    /// How many tiles.
    pub fn len(&self) -> u32 {
        match self {
            Concealed::Known(c) => c.len() as u32,
            Concealed::Counted(n) => *n,
        }
    }

    /// Holds no tiles.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Takes `t` in (a counted hand only counts it).
    pub(crate) fn add(&mut self, t: Tile) -> Result<(), crate::FifthCopy> {
        match self {
            Concealed::Known(c) => c.try_add(t),
            Concealed::Counted(n) => {
                *n += 1;
                Ok(())
            }
        }
    }

    /// Does it hold `n` of `t`? A counted hand holds whatever it shows, if it has that many
    /// tiles.
    pub fn holds(&self, t: Tile, n: u8) -> bool {
        match self {
            Concealed::Known(c) => c.get(t) >= n,
            Concealed::Counted(k) => *k >= u32::from(n),
        }
    }
}
