//! Tile counts and tile sets: the fixed-size representations every shape algorithm works on.
//!
//! A hand is, for shape purposes, how many of each of the 34 kinds it holds (`[u8; 34]`), and a
//! set of kinds (the waits, say) is a 34-bit mask. Both are `Copy` and never allocate.

use std::fmt;

use crate::notation::{self, format_tiles, Style};
use crate::tile::{AnyTile, Bonus, Tile};

/// How many copies of each playing tile kind: at most four each (checked on construction).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct TileCounts([u8; 34]);

impl TileCounts {
    /// No tiles.
    pub const EMPTY: TileCounts = TileCounts([0; 34]);

    /// Counts of `tiles`, refusing a fifth copy of any kind.
    pub fn from_tiles(tiles: &[Tile]) -> Result<TileCounts, FifthCopy> {
        let mut c = TileCounts::EMPTY;
        for &t in tiles {
            c.try_add(t)?;
        }
        Ok(c)
    }

    /// Counts from a raw array, refusing any count over four.
    pub fn from_array(counts: [u8; 34]) -> Result<TileCounts, FifthCopy> {
        match counts.iter().position(|&n| n > 4) {
            Some(i) => Err(FifthCopy { tile: Tile::ALL[i] }),
            None => Ok(TileCounts(counts)),
        }
    }

    /// The raw counts, indexed by [`Tile::index`].
    pub const fn as_array(&self) -> &[u8; 34] {
        &self.0
    }

    /// How many of `t`.
    pub const fn get(&self, t: Tile) -> u8 {
        self.0[t.index()]
    }

    /// Total number of tiles.
    pub fn len(&self) -> usize {
        self.0.iter().map(|&n| usize::from(n)).sum()
    }

    /// No tiles at all.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&n| n == 0)
    }

    /// Adds one `t`, refusing a fifth copy.
    pub fn try_add(&mut self, t: Tile) -> Result<(), FifthCopy> {
        let n = &mut self.0[t.index()];
        if *n >= 4 {
            return Err(FifthCopy { tile: t });
        }
        *n += 1;
        Ok(())
    }

    /// This hand with one more `t`, or `None` if that would be a fifth copy.
    pub fn with(mut self, t: Tile) -> Option<TileCounts> {
        self.try_add(t).ok().map(|()| self)
    }

    /// This hand with one `t` fewer, or `None` if it holds none.
    pub fn without(mut self, t: Tile) -> Option<TileCounts> {
        let n = &mut self.0[t.index()];
        if *n == 0 {
            return None;
        }
        *n -= 1;
        Some(self)
    }

    /// Adds the counts of `other`, refusing a fifth copy.
    pub fn try_merge(&mut self, other: &TileCounts) -> Result<(), FifthCopy> {
        for t in Tile::ALL {
            for _ in 0..other.get(t) {
                self.try_add(t)?;
            }
        }
        Ok(())
    }

    /// Every tile, in canonical order, with repeats.
    pub fn tiles(&self) -> impl Iterator<Item = Tile> + '_ {
        Tile::ALL
            .iter()
            .flat_map(move |&t| std::iter::repeat_n(t, usize::from(self.get(t))))
    }

    /// The kinds present, as a set.
    pub fn kinds(&self) -> TileSet {
        Tile::ALL
            .iter()
            .filter(|&&t| self.get(t) > 0)
            .copied()
            .collect()
    }

    /// The tiles written in the given style.
    pub fn format(&self, style: Style) -> String {
        format_tiles(self.tiles(), style)
    }
}

impl Default for TileCounts {
    fn default() -> TileCounts {
        TileCounts::EMPTY
    }
}

impl fmt::Display for TileCounts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.format(Style::Compressed))
    }
}

impl fmt::Debug for TileCounts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TileCounts({self})")
    }
}

/// A fifth copy of a tile kind was asked for: the set holds only four.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a fifth `{tile}`: the set holds only four of each tile")]
pub struct FifthCopy {
    pub tile: Tile,
}

/// A set of playing tile kinds (not copies): a 34-bit mask in canonical order.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct TileSet(u64);

impl TileSet {
    /// The empty set.
    pub const EMPTY: TileSet = TileSet(0);

    /// From the raw mask; bits past 34 are dropped.
    pub const fn from_bits(bits: u64) -> TileSet {
        TileSet(bits & ((1 << 34) - 1))
    }

    /// The raw mask: bit `i` is [`Tile::ALL`]`[i]`.
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// Does the set hold `t`?
    pub const fn contains(self, t: Tile) -> bool {
        self.0 & (1 << t.index()) != 0
    }

    /// Adds `t`.
    pub fn insert(&mut self, t: Tile) {
        self.0 |= 1 << t.index();
    }

    /// Number of kinds in the set.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Is the set empty?
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Kinds in both sets.
    pub const fn intersection(self, other: TileSet) -> TileSet {
        TileSet(self.0 & other.0)
    }

    /// Kinds in `self` but not in `other`.
    pub const fn difference(self, other: TileSet) -> TileSet {
        TileSet(self.0 & !other.0)
    }

    /// Kinds in either set.
    pub const fn union(self, other: TileSet) -> TileSet {
        TileSet(self.0 | other.0)
    }

    /// The kinds in canonical order.
    pub fn iter(self) -> impl Iterator<Item = Tile> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            Tile::from_index(i)
        })
    }

    /// Canonical tokens separated by single spaces, or `-` for the empty set (the CLI's format).
    pub fn to_tokens(self) -> String {
        if self.is_empty() {
            "-".to_owned()
        } else {
            format_tiles(self.iter(), Style::PerTile)
        }
    }
}

impl FromIterator<Tile> for TileSet {
    fn from_iter<I: IntoIterator<Item = Tile>>(iter: I) -> TileSet {
        let mut s = TileSet::EMPTY;
        for t in iter {
            s.insert(t);
        }
        s
    }
}

impl fmt::Debug for TileSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TileSet({})", self.to_tokens())
    }
}

/// Why a list of playing tiles, well-formed as notation, is not acceptable in its context.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TilesError {
    #[error(transparent)]
    Notation(#[from] notation::NotationError),
    #[error("column {column}: `{tile}` is a bonus tile, where only playing tiles belong")]
    BonusNotAllowed { column: usize, tile: Bonus },
    #[error("column {column}: a fifth `{tile}` (the set holds only four of each tile)")]
    FifthCopy { column: usize, tile: Tile },
    #[error("expected {expected} tiles, found {found}")]
    WrongCount { expected: usize, found: usize },
}

/// Reads a list of playing tiles, refusing bonus tiles and fifth copies, and (if `expected` is
/// given) any other number of tiles.
pub fn parse_counts(s: &str, expected: Option<usize>) -> Result<TileCounts, TilesError> {
    let mut counts = TileCounts::EMPTY;
    let mut found = 0;
    for located in notation::parse_any(s, 0)? {
        match located.tile {
            AnyTile::Bonus(tile) => {
                return Err(TilesError::BonusNotAllowed {
                    column: located.column,
                    tile,
                })
            }
            AnyTile::Playing(tile) => {
                counts.try_add(tile).map_err(|_| TilesError::FifthCopy {
                    column: located.column,
                    tile,
                })?;
                found += 1;
            }
        }
    }
    match expected {
        Some(expected) if expected != found => Err(TilesError::WrongCount { expected, found }),
        _ => Ok(counts),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_refuse_a_fifth_copy() {
        let e = parse_counts("1111m 1m", None).unwrap_err();
        assert_eq!(
            e,
            TilesError::FifthCopy {
                column: 7,
                tile: "1m".parse().unwrap()
            }
        );
        assert!(e.to_string().contains("fifth `1m`"));
        let c = parse_counts("1111m", None).unwrap();
        assert_eq!(c.with("1m".parse().unwrap()), None);
        assert!(TileCounts::from_array([5; 34]).is_err());
    }

    #[test]
    fn counts_refuse_bonus_tiles_and_wrong_lengths() {
        assert!(matches!(
            parse_counts("123m 2f", None),
            Err(TilesError::BonusNotAllowed { column: 6, .. })
        ));
        assert_eq!(
            parse_counts("123m", Some(13)),
            Err(TilesError::WrongCount {
                expected: 13,
                found: 3
            })
        );
    }

    #[test]
    fn tile_sets_iterate_in_canonical_order() {
        let s: TileSet = ["P", "1m", "E"]
            .iter()
            .map(|t| t.parse().unwrap())
            .collect();
        assert_eq!(s.to_tokens(), "1m E P");
        assert_eq!(TileSet::EMPTY.to_tokens(), "-");
        assert_eq!(s.len(), 3);
    }

    #[test]
    fn display_is_compressed_canonical() {
        let c = parse_counts("E 9s 1m 5p 5p 2m", None).unwrap();
        assert_eq!(c.to_string(), "12m 55p 9s E");
        assert_eq!(c.len(), 6);
    }
}
