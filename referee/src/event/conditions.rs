//! Events of a tournament stream that fix its playing conditions: the ruleset, limit and
//! starting chips, and the seed of a random seat draw.

use serde::{Deserialize, Serialize};

use crate::event::RulesetRef;
use crate::ids::TableId;

/// A tournament's playing conditions: the ruleset (a built-in or a house ruleset whose text is
/// recorded here, so the tournament can always be re-scored), the limit and the starting chips.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentConfigured {
    pub ruleset: RulesetRef,
    pub title: String,
    /// The text of an uploaded house ruleset; `None` for a built-in.
    pub house_ruleset: Option<String>,
    /// The limit on one hand's score; `None` for no limit.
    pub limit: Option<u64>,
    pub starting_chips: i64,
}

/// The seats at a table were drawn at random by the program with this seed (recorded just
/// before the `SeatsDrawn` it produced, so the draw can be reproduced and checked).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatDrawSeeded {
    pub table: TableId,
    pub seed: u64,
    /// How the seed became seats, e.g. "rand 0.9 StdRng shuffle of players in registration order".
    pub method: String,
}
