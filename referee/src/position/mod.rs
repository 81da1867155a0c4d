//! The position notation: a hand at one moment, on one line, as a referee called to the table
//! finds it ("FEN for Mah-Jongg"), with the act in dispute.
//!
//! Most clubs do not record every draw. A referee rules from what is in front of him: each
//! seat's exposed and declared sets and bonus tiles, the discards showing and who made each, the
//! tiles left in the live wall, what the player concerned holds (the others' concealed tiles
//! only counted), whose turn it is and what that player did just before, and the act disputed.
//!
//! ```text
//! g1 h1 dealer:E prevailing:E | E: ?13 | S: 12345m 668p 3889s EE 1f | W: ?13 | N: ?4 [222s] [444s] [777s] | E:9p S:1m W:R N:5m E:2p | live:69 box:16 | S:drew 3s | S:discard 8s, N:claim mahjongg 8s, N:grant mahjongg, N:mahjongg 8s
//! ```
//!
//! Nine fields separated by `|` (spaces around them are free); the ninth, the acts, may be left
//! off. Tiles, sets and hands are written in the tile notation ([`crate::notation`]) and the hand
//! notation ([`crate::hand`]); a seat is written `E`, `S`, `W` or `N` (or `east` …): the seat
//! as drawn ([`Seat`]), not the wind its player holds in this hand.
//!
//! | field | written | meaning |
//! |-------|---------|---------|
//! | 1 context | `g1 h1 dealer:E prevailing:E` | game and hand (from 1), the seat that is East this hand (the dealer), the prevailing wind; the four in any order |
//! | 2–5 seats | `E: ?13`, `S: 12345m 66p [111s] {EEEE} 1f OC` | one field per seat, East, South, West, North in that order, each labelled `E:` … `N:`; then its concealed tiles, known (`12345m 66p`) or only counted (`?13`), its exposed and declared sets (`[555p]` exposed, `[5555p]` annexed, `[555p+5p]` added to, `{EEEE}` declared concealed), its declared bonus tiles (`1f 3y`), and `OC` if it announced an Original Call (§55) |
//! | 6 discards | `E:9p S:1m N:5m>E` or `-` | every discard made, in the order made, with the seat that made it; `>E` marks one claimed (by East), now in that seat's set; `-` when none |
//! | 7 wall | `live:69 box:16` | tiles left in the live wall and in the kong box (`box:` may be left off: the rules of play then say how many) |
//! | 8 turn | `S:drew 3s` | the seat whose turn it is and where its turn stands (below) |
//! | 9 acts | `S:discard 8s, N:claim mahjongg 8s` | the acts in dispute, in order, separated by `,` (below) |
//!
//! A seat holding no concealed tile known writes none (`N: [111s] …`). A winning tile (`=5p`)
//! and concealed groups (`(123m)`) belong to a hand laid down after Mah-Jongg, not to a position.
//!
//! **The turn** is `<seat>:<stage>`:
//!
//! | stage | the seat … | it holds (§89) |
//! |-------|------------|----------------|
//! | `draw` | is to draw from the live wall; the discard before it was not claimed | 13 |
//! | `dealt` | is the dealer, with its fourteen dealt tiles, before the first discard | 14 |
//! | `drew 3s` | drew from the live wall (the tile, if seen) and is to discard | 14 |
//! | `loose 3s` | drew a loose tile after a kong and is to discard | 14 |
//! | `chow`, `pung` | claimed the last discard for chow or pung, laid the set down, and is to discard | 14 |
//! | `kong` | claimed the last discard for kong, laid the kong down, and is to draw its loose tile | 13 |
//!
//! counting each set as three (a kong's fourth tile is the one its loose tile replaced) and the
//! declared bonus tiles apart (§89(a) counts them in, one each, as they lie beside the hand). What
//! came before the discard matters: Mah-Jongg on a loose tile scores (§117(h)), and No Choice may
//! be pleaded only after a draw, never after claiming for chow or pung (§95(a)).
//!
//! **An act** is `<seat>:<verb> <arguments>`, each one a [`HandEvent`] ([`Act::event`]):
//!
//! | act | event |
//! |-----|-------|
//! | `S:draw`, `S:draw 5p` | [`TileDrawn`](crate::event::TileDrawn) |
//! | `S:loose`, `S:loose 5p` | [`LooseTileDrawn`](crate::event::LooseTileDrawn) |
//! | `S:bonus 2f` | [`BonusTileDeclared`](crate::event::BonusTileDeclared) |
//! | `S:discard 5p`, `S:discard 5p as 6p` (placed 5p, named 6p, §84) | [`TileDiscarded`](crate::event::TileDiscarded) |
//! | `W:claim pung 5p` (`chow`, `pung`, `kong`, `mahjongg`) | [`ClaimMade`](crate::event::ClaimMade) |
//! | `W:pass` | [`ClaimPassed`](crate::event::ClaimPassed) |
//! | `W:grant pung` (the discard granted to West's claim) | [`ClaimGranted`](crate::event::ClaimGranted) |
//! | `W:expose pung 5p`, `W:expose chow 3p` (from its lowest tile) | [`SetExposed`](crate::event::SetExposed) |
//! | `W:retract pung` | [`ClaimRetracted`](crate::event::ClaimRetracted) |
//! | `W:kong concealed 5p` (`annexed`, `added`; `W:kong concealed 5p unmarked`, a concealed kong left unmarked, §52) | [`KongDeclared`](crate::event::KongDeclared) |
//! | `W:rob S 5p` (West robs South's kong of 5p) | [`KongRobbed`](crate::event::KongRobbed) |
//! | `W:mahjongg 5p` (with a discard), `W:mahjongg self 5p` (on its own draw) | [`MahJonggDeclared`](crate::event::MahJonggDeclared) |
//! | `S:nochoice` | [`NoChoicePleaded`](crate::event::NoChoicePleaded) |
//! | `S:takeback 5p` | [`DiscardTakenBack`](crate::event::DiscardTakenBack) |
//! | `S:intohand 5p` | [`DiscardTakenIntoHand`](crate::event::DiscardTakenIntoHand) |
//! | `S:return 5p` (the discard South took into its hand goes back to the table, §81) | [`DiscardReturned`](crate::event::DiscardReturned) |
//! | `S:call` | [`OriginalCallAnnounced`](crate::event::OriginalCallAnnounced) |
//! | `W:show 11s 234s [222s] [444s] [777s] =5s` (a hand laid down, §104) | [`HandExposed`](crate::event::HandExposed) |
//! | `washout` | [`WashOut`](crate::event::WashOut) |
//!
//! A position has no claim open: a discard in dispute is written as its first act, so that its
//! danger is judged at the moment it was made, against what was on the table then (§90).
//!
//! Reading a line is in two steps, syntax apart from meaning, each listing *every* problem it
//! finds with its field and column: [`PositionSetup`] is what the line says (a
//! [`SyntaxError`] when it does not say anything), [`Position::new`] checks it into a position
//! that can exist (a [`Problem`]: a fifth copy of a tile, a set that is not one, a turn at odds
//! with the discards …). A seat holding more or fewer tiles than §89(a)'s count for its turn is
//! not a problem of the line: a referee finds such hands at tables, and the adjudication rules
//! them long or short (§89). [`Position`]'s `Display` writes the
//! canonical line, which reads back to the same position.
//!
//! The play (`play::Play::from_position`) takes a position as its event 0, and the
//! adjudication (`adjudicate::Replay::from_position`) plays its acts from there, so that its
//! findings rule on them as on a recorded hand; what the position leaves unsaid (the walls'
//! tiles, where a set's discard came from …) is taken as `play/from_position.rs` says. This
//! module is only the notation: it knows nothing of the play.
//!
//! ```
//! use referee::position::{Position, Stage};
//! use referee::Seat;
//!
//! let line = "g1 h1 dealer:E prevailing:E | E: ?13 | S: 12345m 668p 3889s EE 1f | W: ?13 \
//!             | N: ?4 [222s] [444s] [777s] | E:9p S:1m W:R N:5m E:2p | live:69 box:16 \
//!             | S:drew 3s | S:discard 8s, N:claim mahjongg 8s, N:grant mahjongg, N:mahjongg 8s";
//! let p: Position = line.parse().unwrap();
//! assert_eq!(p.to_move().seat, Seat::South);
//! assert_eq!(p.to_move().stage, Stage::Drew(Some("3s".parse().unwrap())));
//! assert_eq!(p.acts().len(), 4);
//! // The canonical line reads back to the same position.
//! assert_eq!(p.to_string().parse::<Position>().unwrap(), p);
//!
//! // Every problem at once: a set that is not one, and a fifth 2 bamboo discarded.
//! let bad = line.replace("[444s]", "[445s]").replace("W:R N:5m E:2p", "W:2s N:5m E:2s");
//! let err = bad.parse::<Position>().unwrap_err();
//! assert_eq!(err.problems().len(), 2, "{err}");
//! ```

mod act;
mod check;
mod error;
mod parse;
mod print;
#[cfg(test)]
mod tests;

pub use act::Act;
pub use error::{Field, PositionError, Problem, ProblemKind, SyntaxError, SyntaxKind};
pub use parse::{ActSyntaxError, PositionSetup, SeatSetup, Spanned};

use crate::by_seat::BySeat;
use crate::concealed::Concealed;
use crate::event::HandEvent;
use crate::hand::Meld;
use crate::seat::Seat;
use crate::tile::{Bonus, Tile, Wind};

/// A position that can exist: built only by [`Position::new`] (or by parsing a line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    game: u32,
    hand: u32,
    dealer: Seat,
    prevailing: Wind,
    seats: BySeat<SeatPosition>,
    discards: Vec<ShownDiscard>,
    wall: WallCount,
    to_move: ToMove,
    acts: Vec<Act>,
}

/// What is known of one seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatPosition {
    /// Its concealed playing tiles: known, or only counted.
    pub concealed: Concealed,
    /// Its exposed and declared sets, in the order written.
    pub melds: Vec<Meld>,
    /// Its declared bonus tiles.
    pub bonus: Vec<Bonus>,
    /// It announced an Original Call (§55).
    pub original_call: bool,
}

/// A discard, and who claimed it if anyone did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShownDiscard {
    pub seat: Seat,
    pub tile: Tile,
    /// The seat that claimed it: the tile is then in that seat's set, not among the discards.
    pub claimed_by: Option<Seat>,
}

/// The tiles left to draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WallCount {
    pub live: u32,
    /// The kong box, when given; else what the rules of play leave for it.
    pub kong_box: Option<u32>,
}

/// Whose turn it is, and where it stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ToMove {
    pub seat: Seat,
    pub stage: Stage,
}

/// Where a turn stands: what the seat did last, and so what it does next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// To draw from the live wall.
    Draw,
    /// The dealer, before the first discard, with its fourteen dealt tiles.
    Dealt,
    /// Drew from the live wall (the tile, when seen), to discard.
    Drew(Option<Tile>),
    /// Drew a loose tile after a kong (the tile, when seen), to discard.
    Loose(Option<Tile>),
    /// Claimed the last discard for chow and laid the chow down, to discard.
    Chowed,
    /// Claimed the last discard for pung and laid the pung down, to discard.
    Punged,
    /// Claimed the last discard for kong and laid the kong down, to draw its loose tile.
    Konged,
}

impl Stage {
    /// The seat holds a full hand and is to discard (§89: one tile more).
    pub const fn to_discard(self) -> bool {
        !matches!(self, Stage::Draw | Stage::Konged)
    }

    /// The word the notation writes.
    pub const fn word(self) -> &'static str {
        match self {
            Stage::Draw => "draw",
            Stage::Dealt => "dealt",
            Stage::Drew(_) => "drew",
            Stage::Loose(_) => "loose",
            Stage::Chowed => "chow",
            Stage::Punged => "pung",
            Stage::Konged => "kong",
        }
    }

    /// The tile it names, if any.
    pub const fn tile(self) -> Option<Tile> {
        match self {
            Stage::Drew(t) | Stage::Loose(t) => t,
            _ => None,
        }
    }
}

impl Position {
    /// The game, counted from 1.
    pub fn game(&self) -> u32 {
        self.game
    }

    /// The hand within the game, counted from 1.
    pub fn hand(&self) -> u32 {
        self.hand
    }

    /// The seat that is East (the dealer) in this hand.
    pub fn dealer(&self) -> Seat {
        self.dealer
    }

    /// The prevailing wind.
    pub fn prevailing(&self) -> Wind {
        self.prevailing
    }

    /// What is known of each seat.
    pub fn seats(&self) -> &BySeat<SeatPosition> {
        &self.seats
    }

    /// Every discard, in the order made.
    pub fn discards(&self) -> &[ShownDiscard] {
        &self.discards
    }

    /// The tiles left to draw.
    pub fn wall(&self) -> WallCount {
        self.wall
    }

    /// Whose turn it is, and where it stands.
    pub fn to_move(&self) -> ToMove {
        self.to_move
    }

    /// The acts in dispute, in order.
    pub fn acts(&self) -> &[Act] {
        &self.acts
    }

    /// The acts in dispute as the events a replay applies.
    pub fn events(&self) -> Vec<HandEvent> {
        self.acts.iter().map(Act::event).collect()
    }

    /// The same position with other acts in dispute.
    pub fn with_acts(self, acts: Vec<Act>) -> Position {
        Position { acts, ..self }
    }
}
