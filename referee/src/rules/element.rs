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

/// The share of the limit a limit hand is worth (Babcock p. 36: the limit, half, a third).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LimitShare {
    Third,
    Half,
    Full,
}

impl LimitShare {
    /// This share of `limit`.
    pub const fn of(self, limit: u64) -> u64 {
        match self {
            LimitShare::Full => limit,
            LimitShare::Half => limit / 2,
            LimitShare::Third => limit / 3,
        }
    }

    /// The word used in ruleset files.
    pub const fn name(self) -> &'static str {
        match self {
            LimitShare::Full => "full",
            LimitShare::Half => "half",
            LimitShare::Third => "third",
        }
    }

    pub(crate) fn parse(s: &str) -> Option<LimitShare> {
        match s {
            "full" => Some(LimitShare::Full),
            "half" => Some(LimitShare::Half),
            "third" => Some(LimitShare::Third),
            _ => None,
        }
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
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "ser_shape")]
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

fn ser_shape<S: serde::Serializer>(s: &Option<SpecialShape>, ser: S) -> Result<S::Ok, S::Error> {
    match s {
        Some(shape) => ser.serialize_str(shape.name()),
        None => ser.serialize_none(),
    }
}
