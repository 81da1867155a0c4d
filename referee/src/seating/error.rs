//! What can be wrong with a seating request. A refusal lists every problem at once (STYLE.md
//! habit 2): a request for 0 players and 0 sessions hears about both.

use std::fmt;

use super::{Method, Remainder};

/// One reason a plan cannot be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SeatingProblem {
    #[error("{players} players: a plan needs at least {least} (with {remainder})")]
    TooFewPlayers {
        players: u64,
        least: u64,
        remainder: Remainder,
    },
    #[error("{players} players: one plan seats at most {most}")]
    TooManyPlayers { players: u64, most: u64 },
    #[error("0 sessions: a plan needs at least one")]
    NoSessions,
    #[error("{sessions} sessions: one plan holds at most {most}")]
    TooManySessions { sessions: u64, most: u64 },
    #[error("{players} players cannot be seated with {remainder}: {why}")]
    NoTables {
        players: u64,
        remainder: Remainder,
        why: String,
    },
    #[error("results of session {session}: {found} nets for {expected} players")]
    ResultsLength {
        session: usize,
        found: usize,
        expected: u64,
    },
    #[error("results of {results} sessions for a plan of {sessions}")]
    TooManyResults { results: usize, sessions: u64 },
    #[error("method {method} seats every session in advance and takes no results (results are for swiss and progressive)")]
    ResultsUnused { method: Method },
    #[error("Babcock's progressive game moves whole tables (p. 86): byes do not fit it; use the remainder policy fewest, fives or threes")]
    ProgressiveByes,
    #[error("the event has {sessions} sessions, but this is session {session}: say how many sessions the event has")]
    EventTooShort { sessions: u32, session: u32 },
    #[error("{player} has withdrawn and no substitute is free to take the place")]
    NoSubstitute { player: crate::ids::PlayerId },
}

/// Every problem with a seating request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatingError {
    pub problems: Vec<SeatingProblem>,
}

impl fmt::Display for SeatingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, problem) in self.problems.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{problem}")?;
        }
        Ok(())
    }
}

impl std::error::Error for SeatingError {}
