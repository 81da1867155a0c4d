//! Reading an mj-server hand history (`hand-NN.mjs`) as a hand recorded play by play.
//!
//! J. C. Bradfield's `mj-server` (Debian `mah-jong`) referees the Code of Laws and writes every
//! hand that ends in Mah-Jong as a `.mjs` file: the players, the game options, the whole wall,
//! then every protocol message of the hand (`../shared/mj-server.md` in the workspace describes
//! it). This module turns that text into our vocabulary: a [`HandStarted`] with the wall, and
//! the [`HandEvent`]s of the play, each with the line it came from. Reading is pure: the caller
//! reads the file.
//!
//! Players are numbered 1–4 by the server in the order they joined, and player 1 is the first
//! East; they are mapped to the seats as drawn in that order (player 1 the East seat, 2 South,
//! 3 West, 4 North). Who is East in the hand is `NewHand`'s first number.
//!
//! What the server writes after Mah-Jong (how each player grouped its tiles, `HandScore`,
//! `Settlement`) is kept as it is written, for the comparison of scores.

mod check;
mod end;
mod log;
mod play;
mod read;
mod setup;

pub use check::{cross_check, east_wins_before, CrossCheck};
pub use log::read_log;

use std::collections::BTreeMap;
use std::fmt;
use std::str::SplitAsciiWhitespace;

use crate::by_seat::BySeat;
use crate::event::{HandEvent, HandStarted};
use crate::ids::TableId;
use crate::seat::Seat;
use crate::tile::{AnyTile, Bonus, Dragon, Suit, Tile, Wind};

use end::LaidGroups;

/// A problem reading an `.mjs` file, with its line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {what}")]
pub struct MjsError {
    /// 1-based line of the file.
    pub line: usize,
    pub what: String,
}

/// One hand read from an `.mjs` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MjsHand {
    /// Player names by id (1–4).
    pub players: BTreeMap<u8, String>,
    /// `GameOption` values by name, as written.
    pub options: BTreeMap<String, String>,
    pub started: HandStarted,
    /// The play, each event with its line in the file.
    pub events: Vec<(usize, HandEvent)>,
    /// What each seat laid down after Mah-Jong, message by message (`PlayerFormsClosedPung 2 5D`).
    pub laid_down: Vec<(Seat, String)>,
    /// `HandScore` per seat: the score and the server's explanation.
    pub scores: Vec<(Seat, i64, String)>,
    /// `Settlement`: each wind's change (East first), and the explanation.
    pub settlement: Option<([i64; 4], String)>,
    /// The server's `DangerousDiscard` rulings (a cannon, Code §90–96).
    pub dangerous: Vec<ServerCannon>,
}

impl MjsHand {
    /// The seat player `id` sits in.
    pub fn seat_of(id: u8) -> Option<Seat> {
        (1..=4)
            .contains(&id)
            .then(|| Seat::from_index(usize::from(id - 1)))
    }
}

/// The tile an mj-server code names: `5D`, `EW`, `RD`, `2F`, `3S`.
pub fn tile_code(code: &str) -> Option<AnyTile> {
    let b = code.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let (x, y) = (b[0], b[1]);
    let wind = |c: u8| match c {
        b'E' => Some(Wind::East),
        b'S' => Some(Wind::South),
        b'W' => Some(Wind::West),
        b'N' => Some(Wind::North),
        _ => None,
    };
    let number = (b'1'..=b'9').contains(&x).then(|| x - b'0');
    Some(match (number, y) {
        (Some(n), b'C') => AnyTile::Playing(Tile::suited(Suit::Characters, n)?),
        (Some(n), b'D') => AnyTile::Playing(Tile::suited(Suit::Circles, n)?),
        (Some(n), b'B') => AnyTile::Playing(Tile::suited(Suit::Bamboo, n)?),
        (Some(n @ 1..=4), b'F') => AnyTile::Bonus(Bonus::Flower(Wind::ALL[usize::from(n - 1)])),
        (Some(n @ 1..=4), b'S') => AnyTile::Bonus(Bonus::Season(Wind::ALL[usize::from(n - 1)])),
        (None, b'W') => AnyTile::Playing(Tile::wind(wind(x)?)),
        (None, b'D') => AnyTile::Playing(Tile::dragon(match x {
            b'R' => Dragon::Red,
            b'G' => Dragon::Green,
            b'W' => Dragon::White,
            _ => return None,
        })),
        _ => return None,
    })
}

/// The records of the file: CRLF ends a record, a bare LF stays inside it (a `HandScore`'s
/// text), a line ending in `\` continues on the next. Each with its first line number.
pub(super) fn records(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut start = 1;
    let mut line = 1;
    for piece in text.split("\r\n") {
        let continued = piece.ends_with('\\');
        current.push_str(piece.strip_suffix('\\').unwrap_or(piece));
        let lines_here = 1 + piece.matches('\n').count();
        if !continued {
            if !current.trim().is_empty() {
                out.push((start, std::mem::take(&mut current)));
            }
            current.clear();
            start = line + lines_here;
        }
        line += lines_here;
    }
    if !current.trim().is_empty() {
        out.push((start, current));
    }
    out
}

pub(super) struct Reader {
    pub(super) line: usize,
}

impl Reader {
    pub(super) fn err(&self, what: impl fmt::Display) -> MjsError {
        MjsError {
            line: self.line,
            what: what.to_string(),
        }
    }

    pub(super) fn seat(&self, word: Option<&str>) -> Result<Seat, MjsError> {
        let word = word.ok_or_else(|| self.err("a player id is missing"))?;
        word.parse::<u8>()
            .ok()
            .and_then(MjsHand::seat_of)
            .ok_or_else(|| self.err(format!("`{word}` is not a player id 1–4")))
    }

    pub(super) fn any_tile(&self, word: Option<&str>) -> Result<AnyTile, MjsError> {
        let word = word.ok_or_else(|| self.err("a tile is missing"))?;
        tile_code(word).ok_or_else(|| self.err(format!("`{word}` is not a tile code")))
    }

    pub(super) fn tile(&self, word: Option<&str>) -> Result<Tile, MjsError> {
        match self.any_tile(word)? {
            AnyTile::Playing(t) => Ok(t),
            AnyTile::Bonus(b) => {
                Err(self.err(format!("`{b}` is a bonus tile, not a playing tile")))
            }
        }
    }

    pub(super) fn number(&self, word: Option<&str>) -> Result<u32, MjsError> {
        let word = word.ok_or_else(|| self.err("a number is missing"))?;
        word.parse()
            .map_err(|_| self.err(format!("`{word}` is not a number")))
    }
}

/// What a discard or kong serial number refers to.
#[derive(Clone, Copy)]
pub(super) enum Serial {
    Discard { tile: Tile, event: usize },
    Kong { event: usize },
}

impl Serial {
    /// The event (the start is event 0) that made the discard or kong.
    pub(super) fn event(self) -> usize {
        match self {
            Serial::Discard { event, .. } | Serial::Kong { event } => event,
        }
    }
}

/// The server's ruling that a discard (or a tile added to a kong) let off a cannon (Code
/// §90–96): `DangerousDiscard discarder serial nochoice`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerCannon {
    /// The line of the ruling.
    pub line: usize,
    pub discarder: Seat,
    /// The event that made the discard or kong its serial names (the start is event 0).
    pub event: usize,
    /// The server excused the discarder: No Choice (§95).
    pub no_choice: bool,
}

/// Reads one `.mjs` hand history as table `table`'s hand `hand` of game `game`.
pub fn read(text: &str, table: TableId, game: u32, hand: u32) -> Result<MjsHand, MjsError> {
    Reading::read(text, table, game, hand)
}

/// What the reading of one hand history knows so far.
pub(super) struct Reading {
    pub(super) r: Reader,
    pub(super) table: TableId,
    pub(super) game: u32,
    pub(super) hand: u32,
    pub(super) players: BTreeMap<u8, String>,
    pub(super) options: BTreeMap<String, String>,
    pub(super) wall: Option<Vec<AnyTile>>,
    pub(super) wall_known: bool,
    pub(super) prevailing: Wind,
    pub(super) started: Option<HandStarted>,
    /// The deal: who takes each of the first 53 `PlayerDraws`, and the tile when the wall
    /// gives it.
    pub(super) deal: Vec<(Seat, Option<AnyTile>)>,
    pub(super) dealt: usize,
    pub(super) events: Vec<(usize, HandEvent)>,
    pub(super) serials: BTreeMap<u32, Serial>,
    pub(super) last_added_kong: Option<Seat>,
    pub(super) laid_down: Vec<(Seat, String)>,
    /// Each seat's laid-down groups, with the line of its first laying-down message and the
    /// group a winning discard was placed in.
    pub(super) groups: BySeat<Option<LaidGroups>>,
    pub(super) scores: Vec<(Seat, i64, String)>,
    pub(super) settlement: Option<([i64; 4], String)>,
    pub(super) dangerous: Vec<ServerCannon>,
    pub(super) mahjong_seat: Option<Seat>,
    /// Who claimed the last discard for Mah-Jong: two may (the server then grants the nearer).
    pub(super) claimed_mahjong: Vec<Seat>,
    pub(super) last_discard: Option<Tile>,
}

/// The words of a record after its first.
pub(super) type Words<'a> = SplitAsciiWhitespace<'a>;
