//! A seating plan: sessions, each of tables, each of players in chair order.

use std::fmt;

use serde::Serialize;

use super::{Layout, Meetings, Method};

/// A player of the event, numbered from 1 (the number on the command line and in JSON).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(transparent)]
pub struct Player(u16);

impl Player {
    /// The player numbered `number` (from 1).
    pub const fn new(number: u16) -> Option<Player> {
        if number == 0 {
            None
        } else {
            Some(Player(number))
        }
    }

    /// The player at `index` (from 0) of a layout's players.
    pub(crate) const fn from_index(index: usize) -> Player {
        Player(index as u16 + 1)
    }

    pub const fn number(self) -> u16 {
        self.0
    }

    /// Index from 0.
    pub const fn index(self) -> usize {
        self.0 as usize - 1
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A chair at a planned table: where a player sits for the table's first hand. A table lists
/// its players in chair order: East, South, West, North; at a table of five the fifth is the
/// Dreamer of the first hand (Code §124); at a table of three there is no North (the vacant
/// place is Dummy, Code §129).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Chair {
    East,
    South,
    West,
    North,
    Dreamer,
}

impl Chair {
    pub const ALL: [Chair; 5] = [
        Chair::East,
        Chair::South,
        Chair::West,
        Chair::North,
        Chair::Dreamer,
    ];

    /// The chair of the player listed at `position` of a table.
    pub const fn at(position: usize) -> Chair {
        Chair::ALL[position]
    }

    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn name(self) -> &'static str {
        match self {
            Chair::East => "East",
            Chair::South => "South",
            Chair::West => "West",
            Chair::North => "North",
            Chair::Dreamer => "Dreamer",
        }
    }

    /// One letter, for plain-text plans.
    pub const fn letter(self) -> char {
        match self {
            Chair::East => 'E',
            Chair::South => 'S',
            Chair::West => 'W',
            Chair::North => 'N',
            Chair::Dreamer => 'D',
        }
    }
}

/// One session: its tables in order (players in chair order) and who sits out.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Session {
    pub tables: Vec<Vec<Player>>,
    pub byes: Vec<Player>,
}

/// A seating plan, recorded with the method and seed that made it: the same method, layout,
/// seed (and results, for the methods that take them) give the same plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub(crate) layout: Layout,
    pub(crate) method: Method,
    pub(crate) seed: u64,
    pub(crate) sessions: Vec<Session>,
}

impl Plan {
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    pub fn method(&self) -> Method {
        self.method
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The sessions planned so far: all of them, or for a method that follows results, one
    /// more than the sessions whose results were given.
    pub fn sessions(&self) -> &[Session] {
        &self.sessions
    }

    /// Who met whom how often, and who sat in which chair.
    pub fn meetings(&self) -> Meetings {
        Meetings::of(&self.sessions, self.layout.players())
    }

    /// What is wrong with the plan as a seating of its layout (nothing, for every plan this
    /// module makes): each player once per session, tables of the layout's sizes, its byes.
    pub fn faults(&self) -> Vec<String> {
        let mut faults = Vec::new();
        let n = usize::from(self.layout.players());
        for (s, session) in self.sessions.iter().enumerate() {
            let sizes: Vec<u8> = session.tables.iter().map(|t| t.len() as u8).collect();
            if sizes != self.layout.tables() {
                faults.push(format!("session {}: tables of {sizes:?}", s + 1));
            }
            if session.byes.len() != usize::from(self.layout.byes()) {
                faults.push(format!("session {}: {} byes", s + 1, session.byes.len()));
            }
            let mut seen = vec![0u32; n];
            for p in session.tables.iter().flatten().chain(&session.byes) {
                match seen.get_mut(p.index()) {
                    Some(count) => *count += 1,
                    None => faults.push(format!("session {}: no player {p}", s + 1)),
                }
            }
            for (i, &count) in seen.iter().enumerate() {
                if count != 1 {
                    faults.push(format!(
                        "session {}: player {} placed {count} times",
                        s + 1,
                        i + 1
                    ));
                }
            }
        }
        faults
    }
}
