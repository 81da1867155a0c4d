//! What the conditions about combinations of sets ask of one way of counting, found in one
//! pass over its groups.
//!
//! Twenty-odd elements of a ruleset (three dragon sets, concealed pungs, no chows, fishing the
//! eyes …) look at the same handful of facts: how many sets of dragons or winds, how many
//! concealed, whether any chow, which group the winning tile completed. A hand is counted up to
//! a dozen ways, so each way's facts are gathered once and every condition reads them.

use crate::tile::{Tile, Wind};

use super::candidate::{Group, GroupKind};

/// The facts of one way of counting that the combination conditions read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Summary {
    /// Pungs and kongs.
    pub sets: u8,
    pub dragon_sets: u8,
    pub wind_sets: u8,
    /// Sets of the player's own wind.
    pub own_wind_sets: u8,
    /// Pungs and kongs that count as concealed for the doubles.
    pub concealed_sets: u8,
    pub kongs: u8,
    pub chows: u8,
    /// Groups other than pairs (sets and chows).
    pub non_pairs: u8,
    pub dragon_pairs: u8,
    pub wind_pairs: u8,
    /// Every group counts as concealed for the doubles.
    pub all_concealed: bool,
    /// The first pair.
    pub pair: Option<Group>,
    /// The group the winning tile completed.
    pub winning: Option<Group>,
}

impl Summary {
    pub fn of(groups: &[Group], seat: Wind) -> Summary {
        let own = Tile::wind(seat);
        let mut s = Summary {
            all_concealed: true,
            ..Summary::default()
        };
        for &g in groups {
            let (dragon, wind) = (g.tile.is_dragon(), g.tile.is_wind());
            s.all_concealed &= g.concealed_for_doubles;
            if g.winning && s.winning.is_none() {
                s.winning = Some(g);
            }
            match g.kind {
                GroupKind::Pung | GroupKind::Kong => {
                    s.sets += 1;
                    s.non_pairs += 1;
                    s.dragon_sets += u8::from(dragon);
                    s.wind_sets += u8::from(wind);
                    s.own_wind_sets += u8::from(g.tile == own);
                    s.concealed_sets += u8::from(g.concealed_for_doubles);
                    s.kongs += u8::from(g.kind == GroupKind::Kong);
                }
                GroupKind::Chow => {
                    s.chows += 1;
                    s.non_pairs += 1;
                }
                GroupKind::Pair => {
                    s.dragon_pairs += u8::from(dragon);
                    s.wind_pairs += u8::from(wind);
                    s.pair = s.pair.or(Some(g));
                }
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile::{Dragon, Suit};

    fn group(kind: GroupKind, tile: Tile, concealed: bool) -> Group {
        Group {
            kind,
            tile,
            concealed,
            concealed_for_doubles: concealed,
            winning: false,
        }
    }

    #[test]
    fn counts_each_kind_of_group() {
        let red = Tile::dragon(Dragon::Red);
        let south = Tile::wind(Wind::South);
        let east = Tile::wind(Wind::East);
        let one = Tile::suited(Suit::Bamboo, 1).unwrap();
        let groups = [
            group(GroupKind::Pung, red, false),
            group(GroupKind::Kong, south, true),
            group(GroupKind::Chow, one, true),
            group(GroupKind::Pung, east, true),
            Group {
                winning: true,
                ..group(GroupKind::Pair, Tile::dragon(Dragon::White), true)
            },
        ];
        let s = Summary::of(&groups, Wind::South);
        assert_eq!(
            (s.sets, s.dragon_sets, s.wind_sets, s.own_wind_sets),
            (3, 1, 2, 1)
        );
        assert_eq!(
            (s.concealed_sets, s.kongs, s.chows, s.non_pairs),
            (2, 1, 1, 4)
        );
        assert_eq!((s.dragon_pairs, s.wind_pairs), (1, 0));
        assert!(!s.all_concealed);
        assert_eq!(s.pair, Some(groups[4]));
        assert_eq!(s.winning, Some(groups[4]));
    }

    #[test]
    fn no_groups_is_all_concealed_and_empty() {
        let s = Summary::of(&[], Wind::East);
        assert!(s.all_concealed);
        assert_eq!(s.sets + s.chows + s.non_pairs, 0);
        assert_eq!(s.winning, None);
    }
}
