//! The tables of one session: how many players sit at each, and how many sit out.
//!
//! Mah-Jongg is a game for four; a player count not divisible by four is seated by a stated
//! **remainder policy**, each using the books' own games for other numbers:
//!
//! - `fives`: tables of five, the five-handed game with its Dreamer (Code §123–128, Babcock
//!   p. 85), one for each player left over;
//! - `threes`: tables of three, the three-handed game with its Dummy (Code §129–132, Babcock
//!   pp. 83–84), as many as make the rest divisible by four;
//! - `fewest` (the default): the fewest tables not of four — one of five for one left over, two
//!   of five for two (two of three when there are too few players: six), one of three for
//!   three;
//! - `byes`: tables of four only; the players left over sit out the session, in turn.
//!
//! The odd tables come after the tables of four in a session.

use std::fmt;
use std::str::FromStr;

use super::{SeatingError, SeatingProblem};

/// What happens to players left over when the count is not divisible by four.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Remainder {
    Fewest,
    Fives,
    Threes,
    Byes,
}

impl Remainder {
    pub const ALL: [Remainder; 4] = [
        Remainder::Fewest,
        Remainder::Fives,
        Remainder::Threes,
        Remainder::Byes,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            Remainder::Fewest => "fewest",
            Remainder::Fives => "fives",
            Remainder::Threes => "threes",
            Remainder::Byes => "byes",
        }
    }
}

impl fmt::Display for Remainder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A remainder policy name that is not one of [`Remainder::ALL`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("no remainder policy `{0}` (fewest, fives, threes, byes)")]
pub struct ParseRemainderError(pub String);

impl FromStr for Remainder {
    type Err = ParseRemainderError;
    fn from_str(s: &str) -> Result<Remainder, ParseRemainderError> {
        Remainder::ALL
            .into_iter()
            .find(|r| r.name() == s)
            .ok_or_else(|| ParseRemainderError(s.to_owned()))
    }
}

/// A checked size of event: players, sessions, and the tables of every session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    players: u16,
    sessions: u16,
    remainder: Remainder,
    tables: Vec<u8>,
    byes: u16,
}

impl Layout {
    /// The most players one plan seats (500 tables).
    pub const MOST_PLAYERS: u64 = 2_000;
    /// The most sessions one plan holds.
    pub const MOST_SESSIONS: u64 = 100;

    /// Checks the request and lays out the tables; refuses with every problem.
    pub fn new(players: u64, sessions: u64, remainder: Remainder) -> Result<Layout, SeatingError> {
        let mut problems = Vec::new();
        let least = if remainder == Remainder::Byes { 4 } else { 3 };
        if players < least {
            problems.push(SeatingProblem::TooFewPlayers {
                players,
                least,
                remainder,
            });
        } else if players > Self::MOST_PLAYERS {
            problems.push(SeatingProblem::TooManyPlayers {
                players,
                most: Self::MOST_PLAYERS,
            });
        }
        if sessions == 0 {
            problems.push(SeatingProblem::NoSessions);
        } else if sessions > Self::MOST_SESSIONS {
            problems.push(SeatingProblem::TooManySessions {
                sessions,
                most: Self::MOST_SESSIONS,
            });
        }
        if !problems.is_empty() {
            return Err(SeatingError { problems });
        }
        match tables(players, remainder) {
            Ok((tables, byes)) => Ok(Layout {
                players: players as u16,
                sessions: sessions as u16,
                remainder,
                tables,
                byes,
            }),
            Err(why) => Err(SeatingError {
                problems: vec![SeatingProblem::NoTables {
                    players,
                    remainder,
                    why,
                }],
            }),
        }
    }

    pub fn players(&self) -> u16 {
        self.players
    }

    pub fn sessions(&self) -> u16 {
        self.sessions
    }

    pub fn remainder(&self) -> Remainder {
        self.remainder
    }

    /// The size of each table of a session, tables of four first.
    pub fn tables(&self) -> &[u8] {
        &self.tables
    }

    /// How many players sit out each session.
    pub fn byes(&self) -> u16 {
        self.byes
    }

    /// How many players sit at a table each session.
    pub fn seated(&self) -> u16 {
        self.players - self.byes
    }
}

/// The table sizes and byes of a session for `players` (at least 3, or 4 with byes).
fn tables(players: u64, remainder: Remainder) -> Result<(Vec<u8>, u16), String> {
    let fours = players / 4;
    let left = players % 4;
    let with = |four: u64, five: u64, three: u64| {
        let mut sizes = vec![4u8; four as usize];
        sizes.extend(std::iter::repeat_n(5u8, five as usize));
        sizes.extend(std::iter::repeat_n(3u8, three as usize));
        sizes
    };
    let fives = || {
        if fours >= left {
            Ok((with(fours - left, left, 0), 0))
        } else {
            Err(format!("{left} tables of five take {} players", 5 * left))
        }
    };
    let threes = || {
        let three = (4 - left) % 4;
        if players >= 3 * three {
            Ok((with((players - 3 * three) / 4, 0, three), 0))
        } else {
            Err(format!(
                "{three} tables of three take {} players",
                3 * three
            ))
        }
    };
    match (left, remainder) {
        (0, _) => Ok((with(fours, 0, 0), 0)),
        (_, Remainder::Byes) => Ok((with(fours, 0, 0), left as u16)),
        (_, Remainder::Fives) => fives(),
        (_, Remainder::Threes) => threes(),
        (1, Remainder::Fewest) => fives(),
        (2, Remainder::Fewest) if fours >= 2 => fives(),
        (_, Remainder::Fewest) => threes(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sizes(players: u64, remainder: Remainder) -> Option<(Vec<u8>, u16)> {
        Layout::new(players, 1, remainder)
            .ok()
            .map(|l| (l.tables().to_vec(), l.byes()))
    }

    #[test]
    fn fewest_uses_the_fewest_tables_not_of_four() {
        use Remainder::Fewest;
        assert_eq!(sizes(3, Fewest), Some((vec![3], 0)));
        assert_eq!(sizes(5, Fewest), Some((vec![5], 0)));
        assert_eq!(sizes(6, Fewest), Some((vec![3, 3], 0)));
        assert_eq!(sizes(7, Fewest), Some((vec![4, 3], 0)));
        assert_eq!(sizes(9, Fewest), Some((vec![4, 5], 0)));
        assert_eq!(sizes(10, Fewest), Some((vec![5, 5], 0)));
        assert_eq!(sizes(16, Fewest), Some((vec![4, 4, 4, 4], 0)));
        assert_eq!(sizes(19, Fewest), Some((vec![4, 4, 4, 4, 3], 0)));
    }

    #[test]
    fn each_policy_seats_everyone_or_says_why() {
        for players in 3..=60 {
            for remainder in Remainder::ALL {
                match Layout::new(players, 1, remainder) {
                    Ok(layout) => {
                        let seated: u64 = layout.tables().iter().map(|&s| u64::from(s)).sum();
                        assert_eq!(seated + u64::from(layout.byes()), players);
                        assert!(layout.byes() < 4);
                        assert!(layout.tables().iter().all(|s| (3..=5).contains(s)));
                    }
                    Err(e) => assert!(
                        matches!(
                            e.problems[..],
                            [SeatingProblem::NoTables { .. }]
                                | [SeatingProblem::TooFewPlayers { .. }]
                        ),
                        "{players} {remainder}: {e}"
                    ),
                }
            }
        }
        assert_eq!(sizes(6, Remainder::Fives), None);
        assert_eq!(sizes(5, Remainder::Threes), None);
        assert_eq!(sizes(9, Remainder::Threes), Some((vec![3, 3, 3], 0)));
        assert_eq!(sizes(7, Remainder::Byes), Some((vec![4], 3)));
    }

    #[test]
    fn every_problem_is_listed() {
        let e = Layout::new(0, 0, Remainder::Fewest).unwrap_err();
        assert_eq!(e.problems.len(), 2, "{e}");
        let e = Layout::new(5000, 1000, Remainder::Byes).unwrap_err();
        assert_eq!(e.problems.len(), 2, "{e}");
        assert!(Layout::new(3, 1, Remainder::Byes).is_err());
    }

    #[test]
    fn names_round_trip() {
        for r in Remainder::ALL {
            assert_eq!(r.name().parse::<Remainder>(), Ok(r));
        }
    }
}
