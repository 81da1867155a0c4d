//! The itemized score sheet: what the scorer prints and the settlement uses.

use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::rules::{LimitShare, Value};

/// One line of the sheet: an element that scored, how often, and where the rule is.
///
/// The element's id, name and citation are shared with the prepared ruleset ([`Arc`]): a sheet
/// is made for every hand scored, and copying three strings per line was most of the work.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SheetLine {
    /// The element's id in the ruleset.
    pub element: Arc<str>,
    /// The element's name.
    pub name: Arc<str>,
    /// The tiles it scored for, when it is a set or pair ("EEE").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tiles: Option<String>,
    pub cite: Arc<str>,
    /// Points (per occurrence × count), or doubles, or the limit share.
    #[serde(flatten)]
    pub value: LineValue,
}

impl SheetLine {
    /// The element's name, with the tiles it scored for: "Pung of major tiles (EEE)".
    pub fn label(&self) -> String {
        match &self.tiles {
            Some(t) => format!("{} ({t})", self.name),
            None => self.name.to_string(),
        }
    }
}

/// The value of a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LineValue {
    Points(u64),
    Doubles(u32),
    Limit(LimitShare),
}

impl LineValue {
    pub(crate) fn times(v: Value, count: u32) -> LineValue {
        match v {
            Value::Points(p) => LineValue::Points(u64::from(p) * u64::from(count)),
            Value::Doubles(d) => LineValue::Doubles(d.saturating_mul(count)),
            Value::Limit(s) => LineValue::Limit(s),
        }
    }
}

impl fmt::Display for LineValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            LineValue::Points(1) => write!(f, "1 point"),
            LineValue::Points(p) => write!(f, "{p} points"),
            LineValue::Doubles(1) => write!(f, "1 double"),
            LineValue::Doubles(d) => write!(f, "{d} doubles"),
            LineValue::Limit(share) => f.write_str(&share.describe()),
        }
    }
}

/// A scored hand.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoreSheet {
    /// The ruleset it was scored under.
    pub ruleset: String,
    pub mahjong: bool,
    /// How the tiles were grouped for this score ("[555p] 123m 789s EE =5p" style).
    pub arrangement: String,
    pub lines: Vec<SheetLine>,
    /// Points before doubling.
    pub basic: u64,
    /// Number of doublings.
    pub doubles: u32,
    /// `basic × 2^doubles`, saturating.
    pub raw: u64,
    /// The limit (or a share of it) decided the score.
    pub limited: bool,
    /// The hand's score.
    pub total: u64,
    /// The largest limit share among the lines, when a limit hand.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit_hand: Option<LimitShare>,
}

impl ScoreSheet {
    /// Was this a limit hand (by a special hand, not merely by reaching the limit)?
    pub fn is_limit_hand(&self) -> bool {
        self.limit_hand.is_some()
    }
}

impl fmt::Display for ScoreSheet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} hand, scored under {}",
            if self.mahjong { "Mah-Jongg" } else { "Losing" },
            self.ruleset
        )?;
        writeln!(f, "  arranged as {}", self.arrangement)?;
        let width = self
            .lines
            .iter()
            .map(|l| l.label().chars().count())
            .max()
            .unwrap_or(0);
        for l in &self.lines {
            let label = l.label();
            writeln!(
                f,
                "  {label:<width$}  {:>18}   {}",
                l.value.to_string(),
                l.cite
            )?;
        }
        writeln!(
            f,
            "  basic points {}, doubles {}, raw score {}",
            self.basic, self.doubles, self.raw
        )?;
        if self.limited {
            writeln!(f, "  limit applies: score {}", self.total)
        } else {
            writeln!(f, "  score {}", self.total)
        }
    }
}
