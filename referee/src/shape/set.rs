//! Sets and arrangements: what a complete hand is made of.
//!
//! Code of Laws §112 and Babcock ch. II: a set is a chow (sequence, "run") of three consecutive
//! tiles of one suit, a pung (three alike) or a kong (four alike); a complete hand is four sets
//! and a pair (Code §122(c)), except the special hands. A [`Set`] can only be built through
//! constructors that check it, so a chow of 8-9-10 or of winds cannot exist.

use std::fmt;

use crate::counts::TileCounts;
use crate::notation::{format_tiles, Style};
use crate::tile::Tile;

/// What kind of set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SetKind {
    /// Three alike.
    Pung,
    /// Four alike (only ever declared: concealed tiles never group into a kong on their own).
    Kong,
    /// Three consecutive tiles of one suit.
    Chow,
}

/// A checked set: its kind and its lowest tile.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Set {
    // Field order is the sort order: by tile, then pung, kong, chow.
    tile: Tile,
    kind: SetKind,
}

impl Set {
    /// The chow starting at `lowest`, if `lowest` is a suited tile of rank 1–7.
    pub const fn chow(lowest: Tile) -> Option<Set> {
        match lowest.rank() {
            Some(1..=7) => Some(Set {
                kind: SetKind::Chow,
                tile: lowest,
            }),
            _ => None,
        }
    }

    /// The pung of `tile`.
    pub const fn pung(tile: Tile) -> Set {
        Set {
            kind: SetKind::Pung,
            tile,
        }
    }

    /// The kong of `tile`.
    pub const fn kong(tile: Tile) -> Set {
        Set {
            kind: SetKind::Kong,
            tile,
        }
    }

    /// The set's kind.
    pub const fn kind(self) -> SetKind {
        self.kind
    }

    /// The set's lowest (for pungs and kongs: only) tile.
    pub const fn tile(self) -> Tile {
        self.tile
    }

    /// Number of tiles in the set.
    pub const fn len(self) -> usize {
        match self.kind {
            SetKind::Kong => 4,
            _ => 3,
        }
    }

    /// Never empty; here for the `len`/`is_empty` convention.
    pub const fn is_empty(self) -> bool {
        false
    }

    /// The tiles of the set in order.
    pub fn tiles(self) -> impl Iterator<Item = Tile> {
        let t = self.tile;
        let (a, b, c, d) = match self.kind {
            SetKind::Chow => {
                let b = t.succ().unwrap_or(t);
                (t, b, b.succ().unwrap_or(b), None)
            }
            SetKind::Pung => (t, t, t, None),
            SetKind::Kong => (t, t, t, Some(t)),
        };
        [a, b, c].into_iter().chain(d)
    }

    /// Does the set contain `t`?
    pub fn contains(self, t: Tile) -> bool {
        self.tiles().any(|x| x == t)
    }
}

impl fmt::Display for Set {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format_tiles(self.tiles(), Style::Compressed))
    }
}

impl fmt::Debug for Set {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}({self})", self.kind)
    }
}

/// One way to group concealed tiles into sets and one pair. At most four sets: a hand never
/// holds more (Code §122(c)).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Arrangement {
    sets: [Set; 4],
    len: u8,
    pair: Tile,
}

impl Arrangement {
    /// An arrangement of the given sets (at most four, in any order) and pair. Sets are kept in
    /// canonical order so that equal arrangements compare equal.
    pub fn new(sets: &[Set], pair: Tile) -> Option<Arrangement> {
        if sets.len() > 4 {
            return None;
        }
        let mut arr = [Set::pung(pair); 4];
        arr[..sets.len()].copy_from_slice(sets);
        arr[..sets.len()].sort_unstable();
        Some(Arrangement {
            sets: arr,
            len: sets.len() as u8,
            pair,
        })
    }

    /// The sets, in canonical order.
    pub fn sets(&self) -> &[Set] {
        &self.sets[..usize::from(self.len)]
    }

    /// The pair's tile.
    pub const fn pair(&self) -> Tile {
        self.pair
    }

    /// The tiles the arrangement uses.
    pub fn counts(&self) -> TileCounts {
        let mut c = [0u8; 34];
        for s in self.sets() {
            for t in s.tiles() {
                c[t.index()] += 1;
            }
        }
        c[self.pair.index()] += 2;
        // An arrangement built from checked sets never exceeds four copies of a tile that came
        // from a real hand; saturate rather than panic if a caller built a fanciful one.
        TileCounts::from_array(c.map(|n| n.min(4))).unwrap_or_default()
    }
}

impl fmt::Display for Arrangement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for s in self.sets() {
            write!(f, "{s} ")?;
        }
        write!(f, "{}{}", self.pair, self.pair)
    }
}

impl fmt::Debug for Arrangement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Arrangement({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Tile {
        s.parse().unwrap()
    }

    #[test]
    fn chows_only_from_suited_one_to_seven() {
        assert!(Set::chow(t("7s")).is_some());
        assert!(Set::chow(t("8s")).is_none());
        assert!(Set::chow(t("E")).is_none());
        assert_eq!(Set::chow(t("7s")).unwrap().to_string(), "789s");
        assert_eq!(Set::kong(t("R")).to_string(), "RRRR");
        assert_eq!(Set::kong(t("R")).len(), 4);
    }

    #[test]
    fn arrangements_compare_regardless_of_set_order() {
        let a = Arrangement::new(&[Set::pung(t("E")), Set::chow(t("1m")).unwrap()], t("5p"));
        let b = Arrangement::new(&[Set::chow(t("1m")).unwrap(), Set::pung(t("E"))], t("5p"));
        assert_eq!(a, b);
        assert_eq!(a.unwrap().to_string(), "123m EEE 5p5p");
        assert_eq!(a.unwrap().counts().len(), 8);
        assert!(Arrangement::new(&[Set::pung(t("E")); 5], t("5p")).is_none());
    }
}
