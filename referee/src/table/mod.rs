//! The table as an aggregate: its seats, games and hands, decided and folded here.
//!
//! A table's state ([`Table`]) is a fold of its events ([`TableEvent`] for its own stream,
//! [`HandEvent`]s for each hand's stream) by [`Table::apply`]. A command ([`TableCommand`]) is
//! decided against that state by [`Table::decide`] into new events, or refused with every
//! [`Violation`] it commits, each naming its field and rule (STYLE.md habit 7: decide, then
//! apply). Nothing here reads or writes storage: the ledger stores what `decide` returns, and
//! the web service only turns requests into commands and state into pages.
//!
//! What is decided here:
//! - who deals and which wind prevails, from the hands already played ([`Position`], Code
//!   §11–14 and the ruleset's [`crate::rules::RotationParams`]);
//! - that a reported hand is coherent across the four hands ([`HandReport::check`]);
//! - its score and settlement under the table's ruleset ([`HandFacts::score_and_settle`]);
//! - when a correction may be made: only to what was recorded, only if it changes something,
//!   and never so as to change who dealt a hand already recorded after it (Code §11).
//!
//! ```
//! use referee::table::{HandReport, Table, TableCommand, Conditions};
//! use referee::{BySeat, Ruleset, Seat, WinFrom};
//!
//! let conditions = Conditions::new(Ruleset::builtin("code-of-laws").unwrap(), 2000);
//! let mut table = Table::new("t1".parse().unwrap(), true, &conditions.ruleset);
//! let report = HandReport {
//!     hands: BySeat::new(
//!         Some("234m 567m 789p WW 12s".into()),
//!         Some("123m 456p 789s EE 45p =6p".into()),
//!         Some("345s 678s 111p NN 99m".into()),
//!         Some("SSS RRR GGG 234s 9p".into()),
//!     ),
//!     winner: Some(Seat::South),
//!     win_from: Some(WinFrom::Wall),
//!     ..HandReport::default()
//! };
//! let events = table
//!     .decide(&conditions, &TableCommand::RecordHand { report })
//!     .unwrap();
//! for e in &events {
//!     table.apply(uuid::Uuid::nil(), e).unwrap();
//! }
//! // South won: the deal passes from the East seat to the South seat (Code §11).
//! assert_eq!(table.next().east, Seat::South);
//! ```

mod apply;
mod count;
mod decide;
mod dice;
mod in_play;
mod record;
mod redecide;
mod ruling;

pub use crate::report::{count_tiles, HandFacts, HandReport, Settled, MAX_PENALTY};
pub use crate::rotation::{HandEnd, Position, Rotated};
pub use record::{Fact, ReachesBack, ResultRecord, Settlement, Standing};
pub use redecide::{NotDecided, Redecided};
pub use ruling::{Ruling, Rulings};

use std::collections::BTreeMap;

use uuid::Uuid;

use crate::adjudicate::Replay;
use crate::event::{Deal, RulingSuperseded, SettlementRecorded};
use crate::event::{DisputeRaised, HandEvent, HandExposed, RulesetRef, ScoreClaimed, TableEvent};
use crate::ids::TableId;
use crate::play::{Applied, PlayRules};
use crate::rules::{RotationParams, Ruleset};
use crate::seat::Seat;
use crate::violation::Violation;

/// The conditions a table plays under: its ruleset (with the tournament's limit applied) and
/// how it is pinned in the record, and the starting chips.
#[derive(Clone, Debug)]
pub struct Conditions {
    pub ruleset: Ruleset,
    pub ruleset_ref: RulesetRef,
    pub starting_chips: i64,
}

impl Conditions {
    /// Conditions for a built-in or already-loaded ruleset, pinned by name only.
    pub fn new(ruleset: Ruleset, starting_chips: i64) -> Conditions {
        let ruleset_ref = RulesetRef {
            name: ruleset.name.clone(),
            content_sha256: String::new(),
        };
        Conditions {
            ruleset,
            ruleset_ref,
            starting_chips,
        }
    }
}

/// A key of one hand at the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HandKey {
    pub game: u32,
    pub hand: u32,
}

impl From<&Position> for HandKey {
    fn from(p: &Position) -> HandKey {
        HandKey {
            game: p.game,
            hand: p.hand,
        }
    }
}

/// A command to the table.
#[allow(clippy::large_enum_variant)] // as `HandEvent`: decided once and dropped
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableCommand {
    /// Record the next hand, as reported after it ended — or finish the hand being recorded
    /// play by play from a report of how it ended (its play so far stays in the record).
    RecordHand { report: HandReport },
    /// Start the next hand play by play: the dice and what is known of the deal. Its events
    /// follow one at a time ([`TableCommand::Play`]).
    StartHand { dice: Vec<u8>, deal: Deal },
    /// Record one event of the play of the hand in play. The event that ends the hand brings
    /// the score and the settlement of its replayed final state, with the hands as the
    /// players laid them down (`laid_down`, §104–105; a seat not in it lays its hand down as
    /// it lies).
    Play {
        hand: HandKey,
        event: HandEvent,
        laid_down: Vec<HandExposed>,
    },
    /// Record the next hand play by play: its deal and every event of its play to the end
    /// (`referee::play`); it is scored and settled from the replayed final state.
    RecordPlayedHand {
        dice: Vec<u8>,
        deal: Deal,
        events: Vec<HandEvent>,
        /// The seat the record says dealt (an imported game names it): refused when the
        /// table's rotation gives the deal to another seat.
        east: Option<Seat>,
    },
    /// Correct a recorded hand: the report states every fact again (start it from
    /// [`HandReport::from_facts`] of what was recorded).
    CorrectHand {
        hand: HandKey,
        reason: String,
        report: HandReport,
    },
    /// Raise a dispute about a hand ([`DisputeRaised`]).
    RaiseDispute {
        hand: HandKey,
        dispute: DisputeRaised,
    },
    /// Rule on a dispute: the ruling and the settlement it brings.
    Rule { hand: HandKey, ruling: Ruling },
    /// A player's own count of his hand, once it is settled, and the settlement it brings
    /// (Code §110).
    Count { hand: HandKey, count: ScoreClaimed },
    /// An appeal: a ruling no longer stands, replaced by another if given; the settlement
    /// is recomputed.
    Appeal {
        hand: HandKey,
        superseded: RulingSuperseded,
        replacement: Option<Ruling>,
    },
}

/// An event the table decided, with the stream it belongs to: the table's own, or a hand's.
#[allow(clippy::large_enum_variant)] // as `HandEvent`
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decided {
    Table(TableEvent),
    Hand(HandKey, HandEvent),
}

/// What deciding a command came to ([`Table::decision`]): the events to record and, for an event
/// of the play or a hand recorded play by play to its end, the replay as they leave it — so
/// that the caller answers with it and keeps it ([`Table::apply_decision`]) without replaying
/// the play again.
#[derive(Clone, Debug)]
pub struct Decision {
    pub events: Vec<Decided>,
    pub played: Option<Played>,
}

/// The play decided: its hand, the replay after its events (and after the hands laid down with
/// them), and how its last event applied.
#[derive(Clone, Debug)]
pub struct Played {
    pub hand: HandKey,
    pub replay: Box<Replay>,
    pub applied: Applied,
}

/// Why a stored event cannot be folded into the table: the record contradicts itself.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ApplyError {
    #[error("an event of hand g{}-h{} comes before that hand started", .0.game, .0.hand)]
    HandNotStarted(HandKey),
    #[error("hand g{}-h{} started twice", .0.game, .0.hand)]
    HandStartedTwice(HandKey),
    #[error("an event of the play of hand g{}-h{} cannot be replayed: {why}", .hand.game, .hand.hand)]
    Play { hand: HandKey, why: String },
}

/// One recorded hand as it now stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandState {
    pub position: Position,
    /// The play replayed so far (with the adjudication's watchers), while the hand is being
    /// recorded event by event; `None` once its result is recorded.
    play: Option<Box<in_play::InPlay>>,
    /// Its result as recorded: the hands laid down, the end, the sheets, the settlements, the
    /// corrections, the disputes and rulings.
    record: ResultRecord,
    /// The hand's facts folded into `record`, in order: a correction that withdraws another
    /// reaches back, and the record is derived again from them.
    history: Vec<(Uuid, HandEvent)>,
    /// For a hand restored without its facts: how it ended.
    restored: Option<HandEnd>,
    /// The discards its play left on the table, tiles seen for "the only place" (Code
    /// §115(c)): kept with its facts, so that settling it again scores it as it was scored.
    seen: crate::TileCounts,
}

impl HandState {
    /// How the hand ended, as the rotation needs it; `None` while it has no result.
    pub fn end(&self) -> Option<HandEnd> {
        if self.play.is_some() {
            return None;
        }
        if self.restored.is_some() {
            return self.restored;
        }
        let r = &self.record;
        let penalties = r.scored().map_or(&[][..], |s| &s.penalties[..]);
        HandEnd::of(r.winner(), r.washed_out(), penalties, self.position.east)
    }

    /// The play replayed so far, while the hand is in play.
    pub fn play(&self) -> Option<&Replay> {
        self.play.as_deref().map(|p| &p.replay)
    }

    /// The entries of the play standing, while the hand is in play (entry 1 first; the start
    /// is entry 0): a scorer's strike takes the last back out.
    pub fn entries(&self) -> &[HandEvent] {
        self.play.as_deref().map_or(&[], |p| p.entries())
    }

    /// Its result as recorded.
    pub fn record(&self) -> &ResultRecord {
        &self.record
    }

    /// The facts in force (none while a correction is being applied, or before any).
    pub fn facts(&self) -> Option<HandFacts> {
        self.record.facts(self.seen)
    }

    /// The settlement in force and its event.
    pub fn settlement(&self) -> Option<(Uuid, &SettlementRecorded)> {
        self.record.settlement()
    }

    /// Its disputes and rulings.
    pub fn rulings(&self) -> &Rulings {
        self.record.rulings()
    }
}

/// Whether play may still be recorded at a table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum TableStatus {
    /// Hands are recorded and corrected.
    #[default]
    Open,
    /// Its play is over: recorded hands may still be corrected, no new hand is recorded.
    Closed,
    /// The table (or its tournament) was entered by mistake: nothing more is written.
    Voided { reason: String },
}

/// A table: its id, whether seats are drawn, and every hand recorded at it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    pub id: TableId,
    /// The seats have been drawn (Code §15); no hand is recorded before.
    pub seats_drawn: bool,
    /// Open, closed or voided (the tournament's stream says; folded by the caller).
    pub status: TableStatus,
    /// The highest game started.
    pub games_started: u32,
    pub hands: BTreeMap<HandKey, HandState>,
    /// How the deal goes round at this table (its ruleset's).
    pub rotation: RotationParams,
    /// How play runs at this table (its ruleset's), for the hand recorded play by play.
    pub play_rules: PlayRules,
}

impl Table {
    /// A table with no hand recorded, playing under `rules`.
    pub fn new(id: TableId, seats_drawn: bool, rules: &Ruleset) -> Table {
        Table {
            id,
            seats_drawn,
            status: TableStatus::Open,
            games_started: 0,
            hands: BTreeMap::new(),
            rotation: rules.rotation.clone(),
            play_rules: PlayRules::of(rules),
        }
    }

    /// The hand being recorded play by play, if one is.
    pub fn in_play(&self) -> Option<(HandKey, &Replay)> {
        let (key, last) = self.hands.iter().next_back()?;
        last.play().map(|p| (*key, p))
    }

    /// The position of the next hand to play.
    pub fn next(&self) -> Position {
        self.rotated().next
    }

    /// The next position, and whether the last hand ended its game.
    fn rotated(&self) -> Rotated {
        let rotation = &self.rotation;
        match self.hands.values().next_back() {
            None => Rotated {
                next: Position::FIRST,
                game_ended: false,
            },
            Some(last) => match last.end() {
                Some(end) => last.position.after(end, rotation),
                // An unfinished hand: it is still the one to play.
                None => Rotated {
                    next: last.position,
                    game_ended: false,
                },
            },
        }
    }

    /// Refuses to close or void the table while a hand is being recorded at it play by play: the
    /// hand would be left unfinishable. Its play is recorded to the end, or its result reported
    /// (a wash-out, a ruling that abandons it), first.
    pub fn may_end(&self) -> Result<(), Violation> {
        match self.in_play() {
            None => Ok(()),
            Some((key, _)) => Err(Violation::new(
                "",
                format!(
                    "table `{}` has hand g{}-h{} in play: record its play to the end, or its result (a report, a wash-out, a ruling that abandons it), before the table is closed or voided",
                    self.id, key.game, key.hand
                ),
            )),
        }
    }

    /// The id of the next hand at this table.
    pub fn next_hand_id(&self) -> String {
        self.next().hand_id(self.id.as_str())
    }
}

#[cfg(test)]
mod count_tests;
#[cfg(test)]
mod record_tests;
#[cfg(test)]
mod ruling_tests;
#[cfg(test)]
mod tests;
