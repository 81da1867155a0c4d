//! The tiles of the classical game: 34 playing kinds, four copies each, and 8 bonus tiles.
//!
//! Code of Laws §1–3 and Babcock ch. I describe the set: three suits (characters, circles,
//! bamboo) numbered 1–9, four Winds, three Dragons, and the flowers and seasons, each of which is
//! proper to one seat (1 = East, 2 = South, 3 = West, 4 = North).
//!
//! A [`Tile`] is a playing tile kind, a dense index `0..34` in canonical order (characters,
//! circles, bamboo, winds E S W N, dragons R G P), so that tile counts fit a fixed array. A
//! [`Bonus`] tile never takes part in a set and is its own type, so that a flower can never be
//! placed where a playing tile belongs.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// One of the three numbered suits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Suit {
    /// Characters (wan), written `m`.
    Characters,
    /// Circles (dots, tung), written `p`.
    Circles,
    /// Bamboo (bams, sok), written `s`.
    Bamboo,
}

impl Suit {
    /// All suits in canonical order.
    pub const ALL: [Suit; 3] = [Suit::Characters, Suit::Circles, Suit::Bamboo];

    /// The letter that ends a suited token in the notation.
    pub const fn letter(self) -> char {
        match self {
            Suit::Characters => 'm',
            Suit::Circles => 'p',
            Suit::Bamboo => 's',
        }
    }

    /// The suit whose notation letter is `c` (case-sensitive).
    pub const fn from_letter(c: char) -> Option<Suit> {
        match c {
            'm' => Some(Suit::Characters),
            'p' => Some(Suit::Circles),
            's' => Some(Suit::Bamboo),
            _ => None,
        }
    }

    /// Index 0..3 in canonical order.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// English name, as the books print it.
    pub const fn name(self) -> &'static str {
        match self {
            Suit::Characters => "characters",
            Suit::Circles => "circles",
            Suit::Bamboo => "bamboo",
        }
    }
}

/// A Wind: a honour tile, and also a seat at the table and the wind of a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wind {
    East,
    South,
    West,
    North,
}

impl Wind {
    /// All winds in the order of play (Code §11: the deal passes East → South → West → North).
    pub const ALL: [Wind; 4] = [Wind::East, Wind::South, Wind::West, Wind::North];

    /// The letter used in the notation.
    pub const fn letter(self) -> char {
        match self {
            Wind::East => 'E',
            Wind::South => 'S',
            Wind::West => 'W',
            Wind::North => 'N',
        }
    }

    /// Index 0..4 in order of play.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The wind with index `i % 4`.
    pub const fn from_index(i: usize) -> Wind {
        Wind::ALL[i % 4]
    }

    /// The next wind in order of play (East → South → West → North → East).
    pub const fn next(self) -> Wind {
        Wind::from_index(self.index() + 1)
    }

    /// English name, lower case.
    pub const fn name(self) -> &'static str {
        match self {
            Wind::East => "east",
            Wind::South => "south",
            Wind::West => "west",
            Wind::North => "north",
        }
    }
}

impl fmt::Display for Wind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a wind name did not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a wind: expected east, south, west or north (or E, S, W, N)")]
pub struct ParseWindError(pub String);

impl FromStr for Wind {
    type Err = ParseWindError;

    fn from_str(s: &str) -> Result<Wind, ParseWindError> {
        match s {
            "E" | "east" | "East" => Ok(Wind::East),
            "S" | "south" | "South" => Ok(Wind::South),
            "W" | "west" | "West" => Ok(Wind::West),
            "N" | "north" | "North" => Ok(Wind::North),
            _ => Err(ParseWindError(s.to_owned())),
        }
    }
}

impl Serialize for Wind {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Wind {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Wind, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// A Dragon.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Dragon {
    Red,
    Green,
    White,
}

impl Dragon {
    /// All dragons in canonical order.
    pub const ALL: [Dragon; 3] = [Dragon::Red, Dragon::Green, Dragon::White];

    /// The letter used in the notation (`P` for white: "plain", as `W` is West).
    pub const fn letter(self) -> char {
        match self {
            Dragon::Red => 'R',
            Dragon::Green => 'G',
            Dragon::White => 'P',
        }
    }
}

/// What a playing tile is, as a value to `match` on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TileKind {
    Suited { suit: Suit, rank: u8 },
    Wind(Wind),
    Dragon(Dragon),
}

/// A playing tile kind: one of 34, four copies of each in the set.
///
/// Internally the index in canonical order, so `Tile` orders canonically and tile counts are
/// `[u8; 34]` arrays indexed by [`Tile::index`].
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Tile(u8);

impl Tile {
    /// Number of playing tile kinds.
    pub const COUNT: usize = 34;

    /// All 34 kinds in canonical order.
    pub const ALL: [Tile; 34] = {
        let mut all = [Tile(0); 34];
        let mut i = 0;
        while i < 34 {
            all[i] = Tile(i as u8);
            i += 1;
        }
        all
    };

    /// The thirteen major tiles of Thirteen Unique Wonders (Code §122(q)): ones, nines, honours.
    pub const THIRTEEN_MAJORS: [Tile; 13] = [
        Tile(0),
        Tile(8),
        Tile(9),
        Tile(17),
        Tile(18),
        Tile(26),
        Tile(27),
        Tile(28),
        Tile(29),
        Tile(30),
        Tile(31),
        Tile(32),
        Tile(33),
    ];

    /// The tile with canonical index `i`, if `i < 34`.
    pub const fn from_index(i: usize) -> Option<Tile> {
        if i < 34 {
            Some(Tile(i as u8))
        } else {
            None
        }
    }

    /// The suited tile `rank` of `suit`, if `rank` is 1–9.
    pub const fn suited(suit: Suit, rank: u8) -> Option<Tile> {
        if rank >= 1 && rank <= 9 {
            Some(Tile((suit.index() * 9) as u8 + rank - 1))
        } else {
            None
        }
    }

    /// The wind tile.
    pub const fn wind(w: Wind) -> Tile {
        Tile(27 + w as u8)
    }

    /// The dragon tile.
    pub const fn dragon(d: Dragon) -> Tile {
        Tile(31 + d as u8)
    }

    /// Canonical index 0..34.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// What this tile is.
    pub const fn kind(self) -> TileKind {
        match self.0 {
            0..=26 => TileKind::Suited {
                suit: Suit::ALL[(self.0 / 9) as usize],
                rank: self.0 % 9 + 1,
            },
            27..=30 => TileKind::Wind(Wind::ALL[(self.0 - 27) as usize]),
            _ => TileKind::Dragon(Dragon::ALL[(self.0 - 31) as usize]),
        }
    }

    /// The suit of a suited tile.
    pub const fn suit(self) -> Option<Suit> {
        match self.kind() {
            TileKind::Suited { suit, .. } => Some(suit),
            _ => None,
        }
    }

    /// The number 1–9 of a suited tile.
    pub const fn rank(self) -> Option<u8> {
        match self.kind() {
            TileKind::Suited { rank, .. } => Some(rank),
            _ => None,
        }
    }

    /// A suited tile (characters, circles or bamboo).
    pub const fn is_suited(self) -> bool {
        self.0 < 27
    }

    /// A honour: a Wind or a Dragon.
    pub const fn is_honour(self) -> bool {
        self.0 >= 27
    }

    /// A Wind tile.
    pub const fn is_wind(self) -> bool {
        self.0 >= 27 && self.0 <= 30
    }

    /// A Dragon tile.
    pub const fn is_dragon(self) -> bool {
        self.0 >= 31
    }

    /// A terminal: a one or a nine of a suit.
    pub const fn is_terminal(self) -> bool {
        matches!(self.rank(), Some(1 | 9))
    }

    /// A major tile: ones, nines and honours (Code §114(b); Babcock's "Ones, Nines, Winds and
    /// Dragons").
    pub const fn is_major(self) -> bool {
        self.is_honour() || self.is_terminal()
    }

    /// A minor tile: 2–8 of a suit.
    pub const fn is_minor(self) -> bool {
        !self.is_major()
    }

    /// One of the "all-green" tiles of the Imperial Jade (Code §122(m)): 2, 3, 4, 6, 8 bamboo
    /// and the Green dragon.
    pub const fn is_all_green(self) -> bool {
        matches!(self.0, 19 | 20 | 21 | 23 | 25 | 32)
    }

    /// The next tile in a sequence (same suit, rank + 1), if any.
    pub const fn succ(self) -> Option<Tile> {
        match self.kind() {
            TileKind::Suited { suit, rank } if rank < 9 => Tile::suited(suit, rank + 1),
            _ => None,
        }
    }
}

impl fmt::Display for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind() {
            TileKind::Suited { suit, rank } => write!(f, "{rank}{}", suit.letter()),
            TileKind::Wind(w) => write!(f, "{}", w.letter()),
            TileKind::Dragon(d) => write!(f, "{}", d.letter()),
        }
    }
}

impl fmt::Debug for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Tile({self})")
    }
}

/// A bonus tile: a flower or a season, numbered 1–4 and proper to the seat of that number
/// (Code §114(a) and §116(b); Babcock ch. X calls the seasons "Goofs").
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Bonus {
    /// Flower 1–4, written `1f`–`4f`.
    Flower(Wind),
    /// Season 1–4, written `1y`–`4y`.
    Season(Wind),
}

impl Bonus {
    /// All eight bonus tiles in canonical order (flowers, then seasons).
    pub const ALL: [Bonus; 8] = [
        Bonus::Flower(Wind::East),
        Bonus::Flower(Wind::South),
        Bonus::Flower(Wind::West),
        Bonus::Flower(Wind::North),
        Bonus::Season(Wind::East),
        Bonus::Season(Wind::South),
        Bonus::Season(Wind::West),
        Bonus::Season(Wind::North),
    ];

    /// The seat this bonus tile belongs to: 1 = East, 2 = South, 3 = West, 4 = North.
    pub const fn seat(self) -> Wind {
        match self {
            Bonus::Flower(w) | Bonus::Season(w) => w,
        }
    }

    /// The number 1–4 printed on the tile.
    pub const fn number(self) -> u8 {
        self.seat() as u8 + 1
    }

    /// Is this the seat's own flower or season?
    pub const fn is_own(self, seat: Wind) -> bool {
        self.seat() as u8 == seat as u8
    }

    /// A flower.
    pub const fn is_flower(self) -> bool {
        matches!(self, Bonus::Flower(_))
    }

    /// A season.
    pub const fn is_season(self) -> bool {
        matches!(self, Bonus::Season(_))
    }

    /// Index 0..8 in canonical order.
    pub const fn index(self) -> usize {
        match self {
            Bonus::Flower(w) => w as usize,
            Bonus::Season(w) => 4 + w as usize,
        }
    }
}

impl fmt::Display for Bonus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letter = if self.is_flower() { 'f' } else { 'y' };
        write!(f, "{}{letter}", self.number())
    }
}

/// Any physical tile: a playing tile or a bonus tile. This is what a token of the notation
/// denotes before context says whether a bonus tile is allowed there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AnyTile {
    Playing(Tile),
    Bonus(Bonus),
}

impl fmt::Display for AnyTile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyTile::Playing(t) => t.fmt(f),
            AnyTile::Bonus(b) => b.fmt(f),
        }
    }
}

macro_rules! serde_via_notation {
    ($ty:ty, $expect:literal) => {
        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }

        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<$ty, D::Error> {
                let s = String::deserialize(d)?;
                s.parse().map_err(|e| {
                    serde::de::Error::custom(format_args!("{e} (expected {})", $expect))
                })
            }
        }
    };
}

serde_via_notation!(Tile, "one playing tile such as `5p`, `E` or `R`");
serde_via_notation!(Bonus, "one bonus tile such as `1f` or `3y`");
serde_via_notation!(AnyTile, "one tile such as `5p`, `E` or `1f`");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_are_dense_and_canonical() {
        for (i, t) in Tile::ALL.iter().enumerate() {
            assert_eq!(t.index(), i);
        }
        assert_eq!(Tile::suited(Suit::Characters, 1).unwrap().index(), 0);
        assert_eq!(Tile::suited(Suit::Bamboo, 9).unwrap().index(), 26);
        assert_eq!(Tile::wind(Wind::East).index(), 27);
        assert_eq!(Tile::dragon(Dragon::White).index(), 33);
        assert_eq!(Tile::suited(Suit::Circles, 0), None);
        assert_eq!(Tile::suited(Suit::Circles, 10), None);
    }

    #[test]
    fn predicates_partition_the_set() {
        let majors = Tile::ALL.iter().filter(|t| t.is_major()).count();
        let minors = Tile::ALL.iter().filter(|t| t.is_minor()).count();
        assert_eq!((majors, minors), (13, 21));
        assert_eq!(Tile::ALL.iter().filter(|t| t.is_honour()).count(), 7);
        assert_eq!(Tile::ALL.iter().filter(|t| t.is_wind()).count(), 4);
        assert_eq!(Tile::ALL.iter().filter(|t| t.is_dragon()).count(), 3);
        assert_eq!(Tile::ALL.iter().filter(|t| t.is_terminal()).count(), 6);
        let majors: Vec<Tile> = Tile::ALL.iter().copied().filter(|t| t.is_major()).collect();
        assert_eq!(majors, Tile::THIRTEEN_MAJORS);
    }

    #[test]
    fn all_green_is_the_imperial_jade_set() {
        let green: Vec<String> = Tile::ALL
            .iter()
            .filter(|t| t.is_all_green())
            .map(|t| t.to_string())
            .collect();
        assert_eq!(green, ["2s", "3s", "4s", "6s", "8s", "G"]);
    }

    #[test]
    fn own_flower_and_season() {
        assert!(Bonus::Flower(Wind::West).is_own(Wind::West));
        assert!(!Bonus::Season(Wind::West).is_own(Wind::North));
        assert_eq!(Bonus::Season(Wind::North).to_string(), "4y");
        assert_eq!(Bonus::Flower(Wind::East).to_string(), "1f");
        for (i, b) in Bonus::ALL.iter().enumerate() {
            assert_eq!(b.index(), i);
        }
    }

    #[test]
    fn succ_stops_at_nine_and_honours() {
        assert_eq!(Tile::suited(Suit::Circles, 9).unwrap().succ(), None);
        assert_eq!(Tile::wind(Wind::North).succ(), None);
        assert_eq!(
            Tile::suited(Suit::Circles, 3).unwrap().succ(),
            Tile::suited(Suit::Circles, 4)
        );
    }

    #[test]
    fn serde_uses_the_notation_and_refuses_bad_tiles() {
        let t = Tile::suited(Suit::Bamboo, 7).unwrap();
        assert_eq!(serde_json::to_string(&t).unwrap(), "\"7s\"");
        assert_eq!(serde_json::from_str::<Tile>("\"7s\"").unwrap(), t);
        assert!(serde_json::from_str::<Tile>("\"0s\"").is_err());
        assert!(serde_json::from_str::<Tile>("\"1f\"").is_err());
        assert!(serde_json::from_str::<Tile>("\"55p\"").is_err());
        assert_eq!(serde_json::to_string(&Wind::South).unwrap(), "\"south\"");
        assert!(serde_json::from_str::<Wind>("\"up\"").is_err());
    }
}
