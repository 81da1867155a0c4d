//! `Seat`: a place at the table as drawn, apart from the wind a player holds in a hand.
//!
//! Code §15: the players draw wind tiles for their seats; True East takes the East seat, "South
//! on East's right, and North on East's left", and "the players retain their relative positions
//! (though not their designations) until the game has been completed". So a seat is fixed for a
//! game, while the *wind* its player holds changes every time East passes the title (§11). The
//! two were one type once (`Wind`), and every conversion between them was a place to get it
//! wrong; now a seat is a [`Seat`], a hand's wind a [`Wind`], and the only way between them is
//! the dealer: [`Seat::wind`] and [`Seat::holding`].

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::tile::Wind;

/// A seat at the table, named by the wind tile drawn for it (Code §15).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Seat {
    East,
    South,
    West,
    North,
}

impl Seat {
    /// The seats in order of play: each is on the right of the one before (Code §15–16).
    pub const ALL: [Seat; 4] = [Seat::East, Seat::South, Seat::West, Seat::North];

    /// Index 0..4 in order of play.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The seat with index `i % 4`.
    pub const fn from_index(i: usize) -> Seat {
        Seat::ALL[i % 4]
    }

    /// The seat on this one's right: the next to play, and the next to deal (Code §11).
    pub const fn next(self) -> Seat {
        Seat::from_index(self.index() + 1)
    }

    /// The letter of the wind drawn for it, as the position notation writes a seat: `E S W N`.
    pub const fn letter(self) -> char {
        match self {
            Seat::East => 'E',
            Seat::South => 'S',
            Seat::West => 'W',
            Seat::North => 'N',
        }
    }

    /// The seat on this one's left: the one that plays before it, whose discard it may chow
    /// (Code §40).
    pub const fn previous(self) -> Seat {
        Seat::from_index(self.index() + 3)
    }

    /// Lower-case name, as in the wire format.
    pub const fn name(self) -> &'static str {
        match self {
            Seat::East => "east",
            Seat::South => "south",
            Seat::West => "west",
            Seat::North => "north",
        }
    }

    /// The wind this seat's player holds in a hand whose East (dealer) sits at `dealer`.
    pub const fn wind(self, dealer: Seat) -> Wind {
        Wind::from_index(self.index() + 4 - dealer.index())
    }

    /// The seat whose player holds `wind` in a hand whose East sits at `dealer`.
    pub const fn holding(wind: Wind, dealer: Seat) -> Seat {
        Seat::from_index(wind.index() + dealer.index())
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a seat name did not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a seat: expected east, south, west or north")]
pub struct ParseSeatError(pub String);

impl FromStr for Seat {
    type Err = ParseSeatError;

    fn from_str(s: &str) -> Result<Seat, ParseSeatError> {
        match s {
            "E" | "east" | "East" => Ok(Seat::East),
            "S" | "south" | "South" => Ok(Seat::South),
            "W" | "west" | "West" => Ok(Seat::West),
            "N" | "north" | "North" => Ok(Seat::North),
            _ => Err(ParseSeatError(s.to_owned())),
        }
    }
}

impl Serialize for Seat {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Seat {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Seat, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        match s.as_ref() {
            "east" => Ok(Seat::East),
            "south" => Ok(Seat::South),
            "west" => Ok(Seat::West),
            "north" => Ok(Seat::North),
            other => Err(serde::de::Error::invalid_value(
                serde::de::Unexpected::Str(other),
                &"one of east, south, west, north",
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dealer_holds_east_and_the_next_seat_south() {
        for dealer in Seat::ALL {
            assert_eq!(dealer.wind(dealer), Wind::East);
            assert_eq!(dealer.next().wind(dealer), Wind::South);
            for seat in Seat::ALL {
                assert_eq!(Seat::holding(seat.wind(dealer), dealer), seat);
            }
        }
        // Code §11: after the title passes from the East seat to the South seat, the player in
        // the East seat is North.
        assert_eq!(Seat::East.wind(Seat::South), Wind::North);
    }

    #[test]
    fn names_round_trip() {
        for s in Seat::ALL {
            assert_eq!(s.to_string().parse::<Seat>().unwrap(), s);
            let json = serde_json::to_string(&s).unwrap();
            assert_eq!(serde_json::from_str::<Seat>(&json).unwrap(), s);
        }
        assert!(serde_json::from_str::<Seat>("\"centre\"").is_err());
    }
}
