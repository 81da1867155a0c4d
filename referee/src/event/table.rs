//! Events of a table stream (`table:<id>`): games starting and ending.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::BySeat;

/// Which ruleset, pinned by content so a later edit of the file cannot change a past game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesetRef {
    pub name: String,
    /// SHA-256 of the ruleset file's bytes, 64 hexadecimal digits.
    pub content_sha256: String,
}

/// A game started at the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameStarted {
    pub game: u32,
    pub ruleset: RulesetRef,
    /// Named options of the ruleset and their values, as written in the ruleset file.
    pub options: BTreeMap<String, String>,
    pub starting_chips: i64,
}

/// A game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameEnded {
    pub game: u32,
    /// Each seat's chips at the end, when counted.
    pub final_chips: Option<BySeat<i64>>,
    pub reason: String,
}
