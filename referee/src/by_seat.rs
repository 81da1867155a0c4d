//! `BySeat<T>`: one value per seat, named by wind rather than indexed by a number (STYLE.md
//! habit 4), serialized as an object `{"east": .., "south": .., "west": .., "north": ..}`.

use crate::tile::Wind;
use serde::{Deserialize, Serialize};

/// One value for each of the four seats.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BySeat<T> {
    pub east: T,
    pub south: T,
    pub west: T,
    pub north: T,
}

impl<T> BySeat<T> {
    /// Builds the map by calling `f` for each seat in the order East, South, West, North.
    pub fn from_fn(mut f: impl FnMut(Wind) -> T) -> BySeat<T> {
        BySeat {
            east: f(Wind::East),
            south: f(Wind::South),
            west: f(Wind::West),
            north: f(Wind::North),
        }
    }

    pub fn get(&self, seat: Wind) -> &T {
        match seat {
            Wind::East => &self.east,
            Wind::South => &self.south,
            Wind::West => &self.west,
            Wind::North => &self.north,
        }
    }

    pub fn get_mut(&mut self, seat: Wind) -> &mut T {
        match seat {
            Wind::East => &mut self.east,
            Wind::South => &mut self.south,
            Wind::West => &mut self.west,
            Wind::North => &mut self.north,
        }
    }

    /// The seats and their values, East first.
    pub fn iter(&self) -> impl Iterator<Item = (Wind, &T)> {
        Wind::ALL.into_iter().map(move |w| (w, self.get(w)))
    }

    pub fn map<U>(&self, mut f: impl FnMut(&T) -> U) -> BySeat<U> {
        BySeat::from_fn(|w| f(self.get(w)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serializes_as_an_object_named_by_wind() {
        let s = BySeat {
            east: 1,
            south: -2,
            west: 3,
            north: -2,
        };
        let json = serde_json::to_string(&s).unwrap();
        assert_eq!(json, r#"{"east":1,"south":-2,"west":3,"north":-2}"#);
        assert_eq!(serde_json::from_str::<BySeat<i64>>(&json).unwrap(), s);
    }

    #[test]
    fn refuses_a_fifth_seat() {
        let json = r#"{"east":1,"south":2,"west":3,"north":4,"centre":5}"#;
        assert!(serde_json::from_str::<BySeat<i64>>(json).is_err());
    }
}
