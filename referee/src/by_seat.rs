//! `BySeat<T>` and `ByWind<T>`: one value for each of four places, named rather than indexed by
//! a number (STYLE.md habit 4), serialized as an object `{"east": .., "south": .., "west": ..,
//! "north": ..}`.
//!
//! Both are [`ByPlace`] with a different key, so a map keyed by the seats as drawn cannot be
//! read with a hand's wind by mistake: `scores[Seat::East]` compiles on a `BySeat`, not on a
//! `ByWind`. Going from one to the other takes the dealer ([`ByPlace::to_winds`],
//! [`ByPlace::to_seats`]). The API follows shakmaty's `ByColor`: owned `map`, `as_ref`,
//! `zip`, indexing by key, `transpose` of options.

use std::fmt;
use std::marker::PhantomData;
use std::ops::{Index, IndexMut};

use serde::{Deserialize, Serialize};

use crate::seat::Seat;
use crate::tile::Wind;

/// A key of a [`ByPlace`]: a seat as drawn, or a wind of a hand.
pub trait Place: Copy + Eq + Ord + fmt::Display + 'static {
    /// The four keys in order of play.
    const ALL: [Self; 4];
    /// Index 0..4 in order of play.
    fn index(self) -> usize;
    /// Lower-case name, as in the wire format.
    fn name(self) -> &'static str;
}

impl Place for Seat {
    const ALL: [Seat; 4] = Seat::ALL;
    fn index(self) -> usize {
        Seat::index(self)
    }
    fn name(self) -> &'static str {
        Seat::name(self)
    }
}

impl Place for Wind {
    const ALL: [Wind; 4] = Wind::ALL;
    fn index(self) -> usize {
        Wind::index(self)
    }
    fn name(self) -> &'static str {
        Wind::name(self)
    }
}

/// One value for each of four places.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ByPlace<K, T> {
    pub east: T,
    pub south: T,
    pub west: T,
    pub north: T,
    #[serde(skip)]
    key: PhantomData<fn() -> K>,
}

/// One value for each seat as drawn at the table.
pub type BySeat<T> = ByPlace<Seat, T>;

/// One value for each wind of a hand (East is the dealer).
pub type ByWind<T> = ByPlace<Wind, T>;

impl<K: Place, T> ByPlace<K, T> {
    /// The map from its four values, in order of play.
    pub const fn new(east: T, south: T, west: T, north: T) -> ByPlace<K, T> {
        ByPlace {
            east,
            south,
            west,
            north,
            key: PhantomData,
        }
    }

    /// Builds the map by calling `f` for each key in order of play.
    pub fn from_fn(mut f: impl FnMut(K) -> T) -> ByPlace<K, T> {
        let [e, s, w, n] = K::ALL;
        ByPlace::new(f(e), f(s), f(w), f(n))
    }

    pub fn get(&self, key: K) -> &T {
        match key.index() {
            0 => &self.east,
            1 => &self.south,
            2 => &self.west,
            _ => &self.north,
        }
    }

    pub fn get_mut(&mut self, key: K) -> &mut T {
        match key.index() {
            0 => &mut self.east,
            1 => &mut self.south,
            2 => &mut self.west,
            _ => &mut self.north,
        }
    }

    /// The keys and their values, in order of play.
    pub fn iter(&self) -> impl Iterator<Item = (K, &T)> {
        K::ALL.into_iter().map(move |k| (k, self.get(k)))
    }

    /// The values, in order of play.
    pub fn values(&self) -> impl Iterator<Item = &T> {
        [&self.east, &self.south, &self.west, &self.north].into_iter()
    }

    /// The map with `f` applied to each value (taken by value).
    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> ByPlace<K, U> {
        ByPlace::new(f(self.east), f(self.south), f(self.west), f(self.north))
    }

    /// The map with `f` applied to each key and value.
    pub fn map_with_key<U>(self, mut f: impl FnMut(K, T) -> U) -> ByPlace<K, U> {
        let [e, s, w, n] = K::ALL;
        ByPlace::new(
            f(e, self.east),
            f(s, self.south),
            f(w, self.west),
            f(n, self.north),
        )
    }

    pub fn as_ref(&self) -> ByPlace<K, &T> {
        ByPlace::new(&self.east, &self.south, &self.west, &self.north)
    }

    pub fn as_mut(&mut self) -> ByPlace<K, &mut T> {
        ByPlace::new(
            &mut self.east,
            &mut self.south,
            &mut self.west,
            &mut self.north,
        )
    }

    /// Pairs each value with the other map's value for the same key.
    pub fn zip<U>(self, other: ByPlace<K, U>) -> ByPlace<K, (T, U)> {
        ByPlace::new(
            (self.east, other.east),
            (self.south, other.south),
            (self.west, other.west),
            (self.north, other.north),
        )
    }

    /// The values, in order of play.
    pub fn into_array(self) -> [T; 4] {
        [self.east, self.south, self.west, self.north]
    }
}

impl<K: Place, T> ByPlace<K, Option<T>> {
    /// `Some` map when every value is `Some`.
    pub fn transpose(self) -> Option<ByPlace<K, T>> {
        Some(ByPlace::new(
            self.east?,
            self.south?,
            self.west?,
            self.north?,
        ))
    }
}

impl<K: Place, T, E> ByPlace<K, Result<T, E>> {
    /// The map of values when every value is `Ok`, else the first error in order of play.
    pub fn transpose_result(self) -> Result<ByPlace<K, T>, E> {
        Ok(ByPlace::new(
            self.east?,
            self.south?,
            self.west?,
            self.north?,
        ))
    }
}

impl<T> ByPlace<Seat, T> {
    /// The same values keyed by the wind each seat holds when `dealer` is East.
    pub fn to_winds(self, dealer: Seat) -> ByWind<T> {
        let mut values = self.into_array().map(Some);
        ByWind::from_fn(|w| {
            values[Seat::holding(w, dealer).index()]
                .take()
                .expect("each seat holds exactly one wind")
        })
    }
}

impl<T> ByPlace<Wind, T> {
    /// The same values keyed by the seat holding each wind when `dealer` is East.
    pub fn to_seats(self, dealer: Seat) -> BySeat<T> {
        let mut values = self.into_array().map(Some);
        BySeat::from_fn(|s| {
            values[s.wind(dealer).index()]
                .take()
                .expect("each wind is held by exactly one seat")
        })
    }
}

impl<K: Place, T> From<[T; 4]> for ByPlace<K, T> {
    /// From values in order of play.
    fn from([east, south, west, north]: [T; 4]) -> ByPlace<K, T> {
        ByPlace::new(east, south, west, north)
    }
}

impl<K: Place, T> Index<K> for ByPlace<K, T> {
    type Output = T;
    fn index(&self, key: K) -> &T {
        self.get(key)
    }
}

impl<K: Place, T> IndexMut<K> for ByPlace<K, T> {
    fn index_mut(&mut self, key: K) -> &mut T {
        self.get_mut(key)
    }
}

impl<K: Place, T> IntoIterator for ByPlace<K, T> {
    type Item = (K, T);
    type IntoIter = std::iter::Zip<std::array::IntoIter<K, 4>, std::array::IntoIter<T, 4>>;
    fn into_iter(self) -> Self::IntoIter {
        K::ALL.into_iter().zip(self.into_array())
    }
}

// The derives would demand `K: Clone` and friends of the marker; these impls ask only of `T`.
impl<K, T: Clone> Clone for ByPlace<K, T> {
    fn clone(&self) -> Self {
        ByPlace {
            east: self.east.clone(),
            south: self.south.clone(),
            west: self.west.clone(),
            north: self.north.clone(),
            key: PhantomData,
        }
    }
}

impl<K, T: Copy> Copy for ByPlace<K, T> {}

impl<K, T: Default> Default for ByPlace<K, T> {
    fn default() -> Self {
        ByPlace {
            east: T::default(),
            south: T::default(),
            west: T::default(),
            north: T::default(),
            key: PhantomData,
        }
    }
}

impl<K, T: PartialEq> PartialEq for ByPlace<K, T> {
    fn eq(&self, o: &Self) -> bool {
        self.east == o.east && self.south == o.south && self.west == o.west && self.north == o.north
    }
}

impl<K, T: Eq> Eq for ByPlace<K, T> {}

impl<K, T: std::hash::Hash> std::hash::Hash for ByPlace<K, T> {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.east.hash(h);
        self.south.hash(h);
        self.west.hash(h);
        self.north.hash(h);
    }
}

impl<K, T: fmt::Debug> fmt::Debug for ByPlace<K, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ByPlace")
            .field("east", &self.east)
            .field("south", &self.south)
            .field("west", &self.west)
            .field("north", &self.north)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serializes_as_an_object_named_by_place() {
        let s: BySeat<i64> = BySeat::new(1, -2, 3, -2);
        let json = serde_json::to_string(&s).unwrap();
        assert_eq!(json, r#"{"east":1,"south":-2,"west":3,"north":-2}"#);
        assert_eq!(serde_json::from_str::<BySeat<i64>>(&json).unwrap(), s);
    }

    #[test]
    fn refuses_a_fifth_seat() {
        let json = r#"{"east":1,"south":2,"west":3,"north":4,"centre":5}"#;
        assert!(serde_json::from_str::<BySeat<i64>>(json).is_err());
    }

    #[test]
    fn indexing_zip_transpose() {
        let mut s = BySeat::from_fn(|seat| seat.index() as i64);
        s[Seat::West] += 10;
        assert_eq!(s[Seat::West], 12);
        let z = s.zip(BySeat::new('e', 's', 'w', 'n'));
        assert_eq!(z[Seat::North], (3, 'n'));
        let some: BySeat<Option<u8>> = BySeat::new(Some(1), Some(2), Some(3), Some(4));
        assert_eq!(some.transpose(), Some(BySeat::new(1, 2, 3, 4)));
        let gap: BySeat<Option<u8>> = BySeat::new(Some(1), None, Some(3), Some(4));
        assert_eq!(gap.transpose(), None);
        assert_eq!(s.as_ref().map(|v| v * 2)[Seat::South], 2);
    }

    #[test]
    fn seats_and_winds_convert_through_the_dealer() {
        let seats = BySeat::new("a", "b", "c", "d");
        // The South seat deals: its player is East; the East seat's player is North.
        let winds = seats.to_winds(Seat::South);
        assert_eq!(winds, ByWind::new("b", "c", "d", "a"));
        assert_eq!(winds.to_seats(Seat::South), seats);
        for dealer in Seat::ALL {
            assert_eq!(seats.to_winds(dealer).to_seats(dealer), seats);
            assert_eq!(seats.to_winds(dealer)[Wind::East], seats[dealer]);
        }
    }
}
