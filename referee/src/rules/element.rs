//! One line of a ruleset's score table: a condition, its value, and where the book says so.

use serde::{Deserialize, Serialize};

use super::condition::{Applies, Condition, Exposure, TileFilter};
use crate::shape::SpecialShape;

/// What an element is worth when its condition holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Value {
    /// Basic points, per occurrence.
    Points(u32),
    /// Doublings, per occurrence.
    Doubles(u32),
    /// The hand is a limit hand worth this share of the limit.
    Limit(LimitShare),
}

/// The share of the limit a limit hand is worth: a fraction in lowest terms, at most the
/// whole limit. The books use the limit, half and a third (Babcock p. 36); clubs pay other
/// fractions (two-fifths, a fifth), so any is allowed. Written in ruleset files as `"full"`,
/// `"half"`, `"third"`, a fraction `"2/5"` or a decimal `0.4`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LimitShare {
    num: u32,
    den: u32,
}

/// Why a written share is not one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a share of the limit: write \"full\", \"half\", \"third\", a fraction such as \"2/5\", or a decimal such as 0.4, more than 0 and at most 1")]
pub struct ParseShareError(pub String);

impl LimitShare {
    /// The whole limit.
    pub const FULL: LimitShare = LimitShare { num: 1, den: 1 };
    /// Half the limit.
    pub const HALF: LimitShare = LimitShare { num: 1, den: 2 };
    /// A third of the limit.
    pub const THIRD: LimitShare = LimitShare { num: 1, den: 3 };
    /// The largest denominator a share may have (a decimal is read to three places).
    pub const MAX_DEN: u32 = 1000;

    /// `num / den` in lowest terms; `None` unless `0 < num / den <= 1` and `den <=`
    /// [`LimitShare::MAX_DEN`].
    pub const fn new(num: u32, den: u32) -> Option<LimitShare> {
        if num == 0 || den == 0 || num > den || den > Self::MAX_DEN {
            return None;
        }
        let (mut a, mut b) = (num, den);
        while b != 0 {
            (a, b) = (b, a % b);
        }
        Some(LimitShare {
            num: num / a,
            den: den / a,
        })
    }

    /// A decimal share (`0.4`), read to three places; `None` unless it is exact to three
    /// places and in `(0, 1]`.
    pub fn from_decimal(x: f64) -> Option<LimitShare> {
        if !(x > 0.0 && x <= 1.0) {
            return None;
        }
        let thousandths = (x * 1000.0).round();
        if (thousandths / 1000.0 - x).abs() > 1e-9 {
            return None;
        }
        LimitShare::new(thousandths as u32, 1000)
    }

    /// This share of `other` (a share of a share: two-fifths of half the limit is a fifth).
    pub const fn times(self, other: LimitShare) -> LimitShare {
        let (num, den) = (
            self.num as u64 * other.num as u64,
            self.den as u64 * other.den as u64,
        );
        let (mut a, mut b) = (num, den);
        while b != 0 {
            (a, b) = (b, a % b);
        }
        // Both factors are at most 1 with denominators at most 1000, so this fits.
        LimitShare {
            num: (num / a) as u32,
            den: (den / a) as u32,
        }
    }

    pub const fn numerator(self) -> u32 {
        self.num
    }

    pub const fn denominator(self) -> u32 {
        self.den
    }

    /// This share of `limit`, rounded down.
    pub const fn of(self, limit: u64) -> u64 {
        ((limit as u128 * self.num as u128) / self.den as u128) as u64
    }

    /// The word or fraction used in ruleset files and records.
    pub fn name(self) -> String {
        match (self.num, self.den) {
            (1, 1) => "full".into(),
            (1, 2) => "half".into(),
            (1, 3) => "third".into(),
            (n, d) => format!("{n}/{d}"),
        }
    }

    /// How a score sheet says it: "the limit", "half the limit", "2/5 of the limit".
    pub fn describe(self) -> String {
        match (self.num, self.den) {
            (1, 1) => "the limit".into(),
            (1, 2) => "half the limit".into(),
            (1, 3) => "a third of the limit".into(),
            (n, d) => format!("{n}/{d} of the limit"),
        }
    }
}

impl PartialOrd for LimitShare {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for LimitShare {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (u64::from(self.num) * u64::from(other.den))
            .cmp(&(u64::from(other.num) * u64::from(self.den)))
    }
}

impl std::str::FromStr for LimitShare {
    type Err = ParseShareError;
    fn from_str(s: &str) -> Result<LimitShare, ParseShareError> {
        let bad = || ParseShareError(s.to_owned());
        let t = s.trim();
        match t {
            "full" => return Ok(LimitShare::FULL),
            "half" => return Ok(LimitShare::HALF),
            "third" => return Ok(LimitShare::THIRD),
            _ => {}
        }
        if let Some((n, d)) = t.split_once('/') {
            let n: u32 = n.trim().parse().map_err(|_| bad())?;
            let d: u32 = d.trim().parse().map_err(|_| bad())?;
            return LimitShare::new(n, d).ok_or_else(bad);
        }
        let x: f64 = t.parse().map_err(|_| bad())?;
        LimitShare::from_decimal(x).ok_or_else(bad)
    }
}

impl std::fmt::Display for LimitShare {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

impl Serialize for LimitShare {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.name())
    }
}

impl<'de> Deserialize<'de> for LimitShare {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<LimitShare, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// A scoring element.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Element {
    /// Stable id, unique in the ruleset (house rulesets override by it).
    pub id: String,
    /// How the score sheet names it ("Pung of major tiles, concealed").
    pub name: String,
    pub condition: Condition,
    /// Further conditions that must all hold too (`when = ["clear-suit", "no-chows"]`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<Condition>,
    #[serde(skip_serializing_if = "is_default")]
    pub tiles: TileFilter,
    #[serde(skip_serializing_if = "is_default")]
    pub exposure: Exposure,
    /// For [`Condition::Special`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shape: Option<SpecialShape>,
    /// For [`Condition::EastConsecutiveWins`].
    #[serde(skip_serializing_if = "is_default")]
    pub at_least: u32,
    /// For [`Condition::NothingButGame`]: ids of point elements that do not spoil it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub except: Vec<String>,
    pub value: Value,
    /// A limit hand that, with the roof off, counts this many doubles instead (Babcock p. 52:
    /// the Hand from Heaven "doubles three times" when there is no limit).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unlimited_doubles: Option<u32>,
    pub applies: Applies,
    /// Where the rule is: "Code §114(b)", "Babcock p. 34".
    pub cite: String,
    /// How an ambiguous or contradictory text was read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interpretation: Option<String>,
    /// The named option that switches it on; `None` when always in force.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub option: Option<String>,
    /// Ids of elements that do not score when this one does (e.g. a clear suit's three
    /// doubles replace the one-suit double).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub excludes: Vec<String>,
    /// Off in this ruleset (a house ruleset may disable a built-in element).
    pub enabled: bool,
}

fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}
