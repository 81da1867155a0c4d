//! `referee`: the pure rules engine of mahjong-referee — tiles, notation, hand shapes and waits.
//!
//! No I/O, no database, no async: everything here is a function of its arguments, so the ledger
//! and the web service can replay and adjudicate with the same code the tests exercise.
//!
//! ```
//! use referee::{parse_counts, standard_waits};
//!
//! // Three sets, a pair, and 4-5 of circles: calling 3 or 6 circles.
//! let hand = parse_counts("123m 456m 789s EE 45p", Some(13)).unwrap();
//! assert_eq!(standard_waits(&hand).to_tokens(), "3p 6p");
//! ```

pub mod adjudicate;
pub mod by_seat;
pub mod concealed;
pub mod counts;
pub mod event;
pub mod hand;
pub mod ids;
pub mod import;
pub mod notation;
pub mod play;
pub mod position;
pub mod report;
pub mod rotation;
pub mod rules;
pub mod score;
pub mod seat;
pub mod seating;
pub mod settle;
pub mod shape;
pub mod table;
pub mod tile;
pub mod tournament;
pub mod treasurer;
pub mod violation;
pub mod vocab;

pub use by_seat::{ByPlace, BySeat, ByWind, Place};
pub use counts::{parse_counts, FifthCopy, TileCounts, TileSet, TilesError};
pub use hand::{
    ConcealedGroup, Hand, HandError, HandProblem, HandSetup, HandSyntaxError, Meld, MeldForm,
    RawGroup,
};
pub use notation::{format_tiles, NotationError, ParseTileError, Style};
pub use rules::{Ruleset, RulesetError};
pub use score::{score, ScoreError, ScoreInput, ScoreSheet, Scorer, Win, WinFrom};
pub use seat::{ParseSeatError, Seat};
pub use shape::{
    arrangements, is_complete, standard_waits, Arrangement, Set, SetKind, SpecialShape,
};
pub use tile::{AnyTile, Bonus, Dragon, Suit, Tile, TileKind, Wind};
pub use violation::{Violation, Violations};
