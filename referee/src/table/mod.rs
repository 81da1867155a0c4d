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

mod count;
mod position;
mod report;
mod ruling;

pub use position::{HandEnd, Position, Rotated};
pub use report::{count_tiles, HandFacts, HandReport, Settled, MAX_PENALTY};
pub use ruling::{Ruling, Rulings};

use std::collections::BTreeMap;

use uuid::Uuid;

use crate::event::{
    CorrectionRecorded, Deal, GameEnded, GameStarted, HandEvent, HandExposed, HandScored,
    HandStarted, MahJonggDeclared, RulesetRef, SettlementRecorded, TableEvent, WashOut,
};
use crate::event::{DisputeRaised, RulingSuperseded, ScoreClaimed};
use crate::ids::TableId;
use crate::play::{Play, PlayRules, Turn};
use crate::rules::{RotationParams, Ruleset};
use crate::seat::Seat;
use crate::violation::{Violation, Violations};
use crate::BySeat;

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

/// Why a stored event cannot be folded into the table: the record contradicts itself.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ApplyError {
    #[error("an event of hand g{}-h{} comes before that hand started", .0.game, .0.hand)]
    HandNotStarted(HandKey),
    #[error("hand g{}-h{} started twice", .0.game, .0.hand)]
    HandStartedTwice(HandKey),
    #[error("a correction of hand g{}-h{} supersedes {supersedes}, which is not the settlement in force", .hand.game, .hand.hand)]
    NothingInForce { hand: HandKey, supersedes: Uuid },
    #[error("an event of the play of hand g{}-h{} cannot be replayed: {why}", .hand.game, .hand.hand)]
    Play { hand: HandKey, why: String },
}

/// One recorded hand as it now stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandState {
    pub position: Position,
    /// The play replayed so far, while the hand is being recorded event by event; `None` once
    /// its result is recorded.
    play: Option<Box<Play>>,
    /// The facts in force (none while a correction is being applied, or before any).
    pub facts: Option<HandFacts>,
    /// The settlement in force and its event.
    pub settlement: Option<(Uuid, SettlementRecorded)>,
    hands: BySeat<Option<crate::Hand>>,
    winner: Option<Seat>,
    washed_out: bool,
    /// For a hand restored without its facts: how it ended.
    restored: Option<HandEnd>,
    /// Its disputes and rulings.
    pub rulings: Rulings,
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
        let penalties = self.facts.as_ref().map_or(&[][..], |f| &f.penalties[..]);
        HandEnd::of(self.winner, self.washed_out, penalties, self.position.east)
    }

    /// The play replayed so far, while the hand is in play.
    pub fn play(&self) -> Option<&Play> {
        self.play.as_deref()
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
    pub fn in_play(&self) -> Option<(HandKey, &Play)> {
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

    /// The id of the next hand at this table.
    pub fn next_hand_id(&self) -> String {
        self.next().hand_id(self.id.as_str())
    }

    /// Decides a command into events, or lists every violation.
    pub fn decide(
        &self,
        conditions: &Conditions,
        command: &TableCommand,
    ) -> Result<Vec<Decided>, Violations> {
        match command {
            TableCommand::RecordHand { report } => {
                self.decide_record(conditions, Recording::Report(report))
            }
            TableCommand::RecordPlayedHand {
                dice,
                deal,
                events,
                east,
            } => self.decide_record(
                conditions,
                Recording::Play {
                    dice,
                    deal,
                    events,
                    east: *east,
                },
            ),
            TableCommand::StartHand { dice, deal } => self.decide_start(conditions, dice, deal),
            TableCommand::Play {
                hand,
                event,
                laid_down,
            } => self.decide_play(conditions, *hand, event, laid_down),
            TableCommand::CorrectHand {
                hand,
                reason,
                report,
            } => self.decide_correct(conditions, *hand, reason, report),
            TableCommand::RaiseDispute { hand, dispute } => self.decide_dispute(*hand, dispute),
            TableCommand::Rule { hand, ruling } => self.decide_ruling(conditions, *hand, ruling),
            TableCommand::Count { hand, count } => self.decide_count(conditions, *hand, count),
            TableCommand::Appeal {
                hand,
                superseded,
                replacement,
            } => self.decide_appeal(conditions, *hand, superseded, replacement.as_ref()),
        }
    }

    /// Refuses new facts for hand `key` whose end would change who deals the hand already
    /// recorded after it (Code §11: correct the later hands first, from the last). East's run
    /// of wins may change: it matters only to §122(r), and the later hands keep their records.
    fn keeps_later_deals(
        &self,
        key: HandKey,
        hand: &HandState,
        f: &HandFacts,
    ) -> Option<Violation> {
        let (later_key, later_hand) = self.hands.range(key..).nth(1)?;
        let end = HandEnd::of(
            f.win.as_ref().map(|w| w.winner),
            true,
            &f.penalties,
            hand.position.east,
        )
        .unwrap_or(HandEnd::WashOut);
        let next = hand.position.after(end, &self.rotation).next;
        let recorded = later_hand.position;
        let same = |p: &Position| (p.game, p.hand, p.east, p.prevailing);
        (same(&next) != same(&recorded)).then(|| {
            Violation::rule(
                "winner",
                self.rotation.cite.clone(),
                format!(
                    "this would change who deals hand g{}-h{}, already recorded with the {} seat dealing: correct the later hands first, from the last",
                    later_key.game, later_key.hand, later_hand.position.east
                ),
            )
        })
    }

    /// Nothing is written at a voided table; a closed one still takes corrections and rulings.
    fn not_voided(&self) -> Violations {
        let mut v = Violations::new();
        if let TableStatus::Voided { reason } = &self.status {
            v.push(Violation::new(
                "",
                format!(
                    "table `{}` is voided ({reason}): nothing is recorded there",
                    self.id
                ),
            ));
        }
        v
    }

    /// Whether anything may be recorded at this table: its seats drawn, and neither closed nor
    /// voided.
    fn writable(&self) -> Violations {
        let mut v = Violations::new();
        if !self.seats_drawn {
            v.push(Violation::rule(
                "",
                "Code §15",
                "the seats at this table have not been drawn",
            ));
        }
        match &self.status {
            TableStatus::Open => {}
            TableStatus::Closed => v.push(Violation::new(
                "",
                format!(
                    "table `{}` is closed (its play is over): no hand is recorded there",
                    self.id
                ),
            )),
            TableStatus::Voided { reason } => v.push(Violation::new(
                "",
                format!(
                    "table `{}` is voided ({reason}): nothing is recorded there",
                    self.id
                ),
            )),
        }
        v
    }

    /// The hand that starts at `next`, with `dice` and `deal`.
    fn started(&self, next: &Position, dice: &[u8], deal: &Deal) -> HandStarted {
        HandStarted {
            table: self.id.clone(),
            game: next.game,
            hand: next.hand,
            east: next.east,
            prevailing_wind: next.prevailing,
            dice: dice.to_vec(),
            deal: deal.clone(),
        }
    }

    /// The table's own events a new hand at `rotated` brings: the game before ended, and a new
    /// one started.
    fn opening(&self, conditions: &Conditions, rotated: &Rotated) -> Vec<Decided> {
        let Rotated { next, game_ended } = rotated;
        let mut out = Vec::new();
        if next.game > self.games_started {
            if *game_ended && self.games_started > 0 {
                out.push(Decided::Table(TableEvent::GameEnded(GameEnded {
                    game: self.games_started,
                    final_chips: None,
                    reason: format!(
                        "{} rounds completed ({})",
                        conditions.ruleset.rotation.rounds_per_game,
                        conditions.ruleset.rotation.cite
                    ),
                })));
            }
            let mut options = BTreeMap::new();
            if let Some(limit) = conditions.ruleset.params.limit {
                options.insert("limit".to_owned(), limit.to_string());
            }
            out.push(Decided::Table(TableEvent::GameStarted(GameStarted {
                game: next.game,
                ruleset: conditions.ruleset_ref.clone(),
                options,
                starting_chips: conditions.starting_chips,
            })));
        }
        out
    }

    fn decide_start(
        &self,
        conditions: &Conditions,
        dice: &[u8],
        deal: &Deal,
    ) -> Result<Vec<Decided>, Violations> {
        let mut v = self.writable();
        if let Some((key, _)) = self.in_play() {
            v.push(Violation::new(
                "",
                format!(
                    "hand g{}-h{} is still being played: record its play to the end (or its result) before the next hand starts",
                    key.game, key.hand
                ),
            ));
            return Err(v);
        }
        let rotated = self.rotated();
        let started = self.started(&rotated.next, dice, deal);
        if let Err(e) = Play::start(self.play_rules.clone(), &started) {
            v.push(Violation::new("deal", e.kind.to_string()));
        }
        if !v.is_empty() {
            return Err(v);
        }
        let mut out = self.opening(conditions, &rotated);
        out.push(Decided::Hand(
            HandKey::from(&rotated.next),
            HandEvent::HandStarted(started),
        ));
        Ok(out)
    }

    fn decide_play(
        &self,
        conditions: &Conditions,
        key: HandKey,
        event: &HandEvent,
        laid_down: &[HandExposed],
    ) -> Result<Vec<Decided>, Violations> {
        let mut v = self.writable();
        let Some(hand) = self.hands.get(&key) else {
            return Err(no_such_hand(v));
        };
        let Some(play) = hand.play() else {
            v.push(Violation::new(
                "hand",
                format!(
                    "hand g{}-h{} is not in play: its result is recorded (correct it instead)",
                    key.game, key.hand
                ),
            ));
            return Err(v);
        };
        if !event.is_play() {
            v.push(Violation::new(
                "event",
                "a start, a result or a ruling is not an event of the play: the hands laid down, the score and the settlement follow from the play when it ends",
            ));
        }
        if !v.is_empty() {
            return Err(v);
        }
        let mut after = play.clone();
        if let Err(e) = after.apply(event) {
            return Err(Violation::new("event", format!("event {}: {}", e.event, e.kind)).into());
        }
        let mut out = vec![Decided::Hand(key, event.clone())];
        let over = matches!(after.state().turn, Turn::Over(_));
        if !laid_down.is_empty() && !over {
            return Err(Violation::rule(
                "laid_down",
                "Code §104",
                "the hands are laid down when the hand is over, with the event that ends it",
            )
            .into());
        }
        for (i, x) in laid_down.iter().enumerate() {
            let e = HandEvent::HandExposed(x.clone());
            if let Err(err) = after.apply(&e) {
                return Err(Violation::new(format!("laid_down.{i}"), err.kind.to_string()).into());
            }
            out.push(Decided::Hand(key, e));
        }
        if over {
            let rules = &conditions.ruleset;
            let Some(report) = after.result(rules) else {
                if after.false_call(rules).is_some() {
                    // §82: the false caller may take up his hand until another lays down tiles;
                    // the hand waits for one or the other.
                    return Ok(out);
                }
                return Err(Violation::new(
                    "event",
                    "the hand is over, but a seat's tiles were never seen, so its hand cannot be scored: record its result with a report instead",
                )
                .into());
            };
            let facts = checked(&report, &mut v).map(|f| hand.rulings.applied_to(&f));
            let (facts, settled) = settled(facts, &conditions.ruleset, &hand.position, v)?;
            let laid = &after.state().laid_down;
            out.extend(
                after_play(result_events(conditions, &facts, settled), laid)
                    .map(|e| Decided::Hand(key, e)),
            );
        }
        Ok(out)
    }

    /// The hand in play finished from a report of how it ended.
    fn decide_finish(
        &self,
        conditions: &Conditions,
        key: HandKey,
        report: &HandReport,
        mut v: Violations,
    ) -> Result<Vec<Decided>, Violations> {
        let Some(hand) = self.hands.get(&key) else {
            return Err(no_such_hand(Violations::new()));
        };
        let facts = checked(report, &mut v).map(|f| hand.rulings.applied_to(&f));
        let (facts, settled) = settled(facts, &conditions.ruleset, &hand.position, v)?;
        Ok(result_events(conditions, &facts, settled)
            .into_iter()
            .map(|e| Decided::Hand(key, e))
            .collect())
    }

    fn decide_record(
        &self,
        conditions: &Conditions,
        recording: Recording,
    ) -> Result<Vec<Decided>, Violations> {
        let mut v = self.writable();
        if let Some((key, _)) = self.in_play() {
            if let Recording::Report(report) = recording {
                return self.decide_finish(conditions, key, report, v);
            }
            v.push(Violation::new(
                "",
                format!(
                    "hand g{}-h{} is being recorded play by play: record its play to the end (or its result) first",
                    key.game, key.hand
                ),
            ));
            return Err(v);
        }
        let rotated = self.rotated();
        let next = rotated.next;
        // A hand played event by event is replayed to its end, and its final state reported.
        let (started, played, facts) = match recording {
            Recording::Report(report) => (
                self.started(&next, &[], &Deal::Unknown),
                Vec::new(),
                checked(report, &mut v),
            ),
            Recording::Play {
                dice,
                deal,
                events,
                east,
            } => {
                if let Some(east) = east.filter(|&e| e != next.east) {
                    v.push(Violation::rule(
                        "east",
                        self.rotation.cite.clone(),
                        format!(
                            "the record has the {east} seat dealing, but the deal is the {} seat's: a hand is missing before this one, or the hands are out of order",
                            next.east
                        ),
                    ));
                    // Its deal and play are for another seat's hand: replaying them would
                    // only add noise.
                    return Err(v);
                }
                let started = self.started(&next, dice, deal);
                let report = replayed(&self.play_rules, &started, events, &mut v);
                let facts = report.and_then(|r| checked(&r, &mut v));
                (started, events.to_vec(), facts)
            }
        };
        let (facts, settled) = settled(facts, &conditions.ruleset, &next, v)?;
        let key = HandKey::from(&next);
        let mut out = self.opening(conditions, &rotated);
        out.push(Decided::Hand(key, HandEvent::HandStarted(started)));
        let results = result_events(conditions, &facts, settled);
        if played.is_empty() {
            out.extend(results.into_iter().map(|e| Decided::Hand(key, e)));
        } else {
            let mut laid = BySeat::from_fn(|_| None);
            for e in &played {
                if let HandEvent::HandExposed(x) = e {
                    laid[x.seat] = Some(x.hand.clone());
                }
            }
            out.extend(played.into_iter().map(|e| Decided::Hand(key, e)));
            out.extend(after_play(results, &laid).map(|e| Decided::Hand(key, e)));
        }
        Ok(out)
    }

    fn decide_correct(
        &self,
        conditions: &Conditions,
        key: HandKey,
        reason: &str,
        report: &HandReport,
    ) -> Result<Vec<Decided>, Violations> {
        let Some(hand) = self.hands.get(&key) else {
            return Err(no_such_hand(Violations::new()));
        };
        let mut v = Violations::new();
        if let TableStatus::Voided { reason } = &self.status {
            v.push(Violation::new(
                "",
                format!(
                    "table `{}` is voided ({reason}): nothing is recorded there",
                    self.id
                ),
            ));
        }
        if reason.trim().is_empty() {
            v.push(Violation::new(
                "reason",
                "say why the hand is corrected (the reason is recorded)",
            ));
        }
        let Some((settlement_id, _)) = &hand.settlement else {
            v.push(Violation::new(
                "hand",
                "the hand has no settlement in force to correct",
            ));
            return Err(v);
        };
        let facts = checked(report, &mut v);
        if let Some(f) = &facts {
            if hand.facts.as_ref() == Some(f) {
                v.push(Violation::new(
                    "",
                    "the correction changes nothing that was recorded: change a hand, the winner, how it was won, the discarder or a penalty",
                ));
            }
            if let Some(x) = self.keeps_later_deals(key, hand, f) {
                v.push(x);
            }
        }
        let (facts, settled) = settled(facts, &conditions.ruleset, &hand.position, v)?;
        let mut out = vec![HandEvent::CorrectionRecorded(CorrectionRecorded {
            supersedes: *settlement_id,
            reason: reason.trim().to_owned(),
        })];
        out.extend(result_events(conditions, &facts, settled));
        Ok(out.into_iter().map(|e| Decided::Hand(key, e)).collect())
    }

    /// Folds one event (with its id) into the state.
    pub fn apply(&mut self, id: Uuid, event: &Decided) -> Result<(), ApplyError> {
        match event {
            Decided::Table(TableEvent::GameStarted(g)) => {
                self.games_started = self.games_started.max(g.game);
            }
            Decided::Table(TableEvent::GameEnded(_)) => {}
            Decided::Hand(key, HandEvent::HandStarted(h)) => {
                if self.hands.contains_key(key) {
                    return Err(ApplyError::HandStartedTwice(*key));
                }
                let position = self.position_of(h);
                let play =
                    Play::start(self.play_rules.clone(), h).map_err(|e| ApplyError::Play {
                        hand: *key,
                        why: e.to_string(),
                    })?;
                self.hands.insert(
                    *key,
                    HandState {
                        position,
                        play: Some(Box::new(play)),
                        facts: None,
                        settlement: None,
                        hands: BySeat::default(),
                        winner: None,
                        washed_out: false,
                        restored: None,
                        rulings: Rulings::default(),
                        seen: crate::TileCounts::EMPTY,
                    },
                );
            }
            Decided::Hand(key, e) => {
                let hand = self
                    .hands
                    .get_mut(key)
                    .ok_or(ApplyError::HandNotStarted(*key))?;
                if let HandEvent::CorrectionRecorded(c) = e {
                    // This table corrects only the settlement in force; anything else in a
                    // stored stream is refused loudly rather than folded differently.
                    if hand.settlement.as_ref().map(|(id, _)| *id) != Some(c.supersedes) {
                        return Err(ApplyError::NothingInForce {
                            hand: *key,
                            supersedes: c.supersedes,
                        });
                    }
                }
                if let Some(play) = &mut hand.play {
                    let over = matches!(play.state().turn, Turn::Over(_));
                    if e.is_result() || (matches!(e, HandEvent::HandExposed(_)) && !over) {
                        // The result, or the hands of a hand reported at its end (or finished
                        // from a report): the play is over.
                        if over {
                            hand.seen = left_on_the_table(play.state());
                        }
                        hand.play = None;
                    } else if e.is_play() {
                        play.apply(e).map_err(|err| ApplyError::Play {
                            hand: *key,
                            why: err.to_string(),
                        })?;
                    }
                }
                fold_hand(hand, id, e);
            }
        }
        Ok(())
    }

    /// Restores a hand known only by its start and how it ended (from a read model), without
    /// its facts: enough for the rotation of the hands after it. A hand restored this way can
    /// be neither corrected nor shown in detail; fold its events for that.
    pub fn restore(
        &mut self,
        key: HandKey,
        started: &HandStarted,
        end: Option<HandEnd>,
    ) -> Result<(), ApplyError> {
        if self.hands.contains_key(&key) {
            return Err(ApplyError::HandStartedTwice(key));
        }
        let position = self.position_of(started);
        self.hands.insert(
            key,
            HandState {
                position,
                play: None,
                facts: None,
                settlement: None,
                hands: BySeat::default(),
                winner: match end {
                    Some(HandEnd::Won(w)) => Some(w),
                    _ => None,
                },
                washed_out: end == Some(HandEnd::WashOut),
                restored: end,
                rulings: Rulings::default(),
                seen: crate::TileCounts::EMPTY,
            },
        );
        Ok(())
    }

    /// The position a started hand holds, carrying East's run from the hand before.
    fn position_of(&self, h: &HandStarted) -> Position {
        let before = self.next();
        let same_deal = before.game == h.game && before.east == h.east;
        Position {
            game: h.game,
            hand: h.hand,
            east: h.east,
            prevailing: h.prevailing_wind,
            east_wins: if same_deal { before.east_wins } else { 0 },
            passes: if before.game == h.game && before.prevailing == h.prevailing_wind {
                before.passes
            } else {
                0
            },
        }
    }
}

/// The report checked, its problems added to `v`.
/// What a hand is recorded from.
enum Recording<'a> {
    /// The report of the hand after it ended.
    Report(&'a HandReport),
    /// The deal and every event of the play (and the seat the record says dealt).
    Play {
        dice: &'a [u8],
        deal: &'a Deal,
        events: &'a [HandEvent],
        east: Option<Seat>,
    },
}

/// The play replayed from `started` (`referee::play`), and its final state as a report; every
/// event that cannot be applied, or a play that does not end, is a violation.
fn replayed(
    rules: &PlayRules,
    started: &HandStarted,
    events: &[HandEvent],
    v: &mut Violations,
) -> Option<HandReport> {
    let mut play = match Play::start(rules.clone(), started) {
        Ok(p) => p,
        Err(e) => {
            v.push(Violation::new("deal", e.kind.to_string()));
            return None;
        }
    };
    for (i, e) in events.iter().enumerate() {
        if !e.is_play() {
            v.push(Violation::new(
                format!("events.{i}"),
                "the play ends with Mah-Jongg or a wash-out (and the hands laid down): the score and the settlement follow from it",
            ));
            return None;
        }
        if let Err(err) = play.apply(e) {
            v.push(Violation::new(format!("events.{i}"), err.kind.to_string()));
            return None;
        }
    }
    let state = play.state();
    if !matches!(state.turn, Turn::Over(_)) {
        v.push(Violation::new(
            "events",
            format!(
                "the play does not reach the end of the hand ({})",
                state.turn
            ),
        ));
        return None;
    }
    let report = play.report();
    if report.is_none() {
        v.push(Violation::new(
            "events",
            "a seat's tiles were never seen, so its hand cannot be scored",
        ));
    }
    report
}

/// The result events that follow a play: its Mah-Jongg or wash-out is already in it, and so
/// are the hands the players laid down (`laid`).
fn after_play(
    results: Vec<HandEvent>,
    laid: &BySeat<Option<crate::Hand>>,
) -> impl Iterator<Item = HandEvent> + '_ {
    results.into_iter().filter(move |e| match e {
        HandEvent::HandExposed(x) => laid[x.seat].is_none(),
        e => !e.ends_play(),
    })
}

/// `v` with the refusal of a hand the table does not have.
fn no_such_hand(mut v: Violations) -> Violations {
    v.push(Violation::new(
        "hand",
        "there is no such hand at this table",
    ));
    v
}

fn checked(report: &HandReport, v: &mut Violations) -> Option<HandFacts> {
    report.check().map_err(|e| v.extend_under("", e)).ok()
}

/// The facts scored and settled at `position` — when nothing so far is wrong, for a score of a
/// refused report would only add noise to its violations.
fn settled(
    facts: Option<HandFacts>,
    rules: &Ruleset,
    position: &Position,
    mut v: Violations,
) -> Result<(HandFacts, Settled), Violations> {
    match facts {
        Some(f) if v.is_empty() => {
            let s = f.score_and_settle(rules, position)?;
            Ok((f, s))
        }
        _ => {
            if v.is_empty() {
                v.push(Violation::new("", "the report states no facts"));
            }
            Err(v)
        }
    }
}

/// The events that state a hand's result: the hands laid down, Mah-Jongg or the wash-out, the
/// sheets, the settlement.
fn result_events(conditions: &Conditions, facts: &HandFacts, settled: Settled) -> Vec<HandEvent> {
    let mut out: Vec<HandEvent> = facts
        .hands
        .iter()
        .filter_map(|(seat, hand)| {
            hand.as_ref().map(|hand| {
                HandEvent::HandExposed(HandExposed {
                    seat,
                    hand: hand.clone(),
                })
            })
        })
        .collect();
    out.push(match &facts.win {
        Some(w) => HandEvent::MahJonggDeclared(MahJonggDeclared {
            seat: w.winner,
            winning_tile: w.tile,
            self_drawn: w.from.is_drawn(),
        }),
        None => HandEvent::WashOut(WashOut {
            reason: abandoned_because(&facts.penalties)
                .unwrap_or("no Mah-Jongg before the wall was exhausted (Code §97)")
                .to_owned(),
        }),
    });
    let scores = settled
        .sheets
        .as_ref()
        .map(|s| i64::try_from(s.total).unwrap_or(i64::MAX));
    out.push(HandEvent::HandScored(HandScored {
        ruleset: conditions.ruleset_ref.clone(),
        win: facts.win.clone(),
        penalties: facts.penalties.clone(),
        sheets: Box::new(settled.sheets),
    }));
    out.push(HandEvent::SettlementRecorded(SettlementRecorded {
        winner: facts.win.as_ref().map(|w| w.winner),
        scores,
        payments: settled.payments,
        nets: settled.nets,
    }));
    out
}

/// Why a hand with no winner was abandoned, when a penalty finished it.
fn abandoned_because(penalties: &[crate::settle::Penalty<Seat>]) -> Option<&'static str> {
    penalties.iter().find_map(|p| match p {
        crate::settle::Penalty::FalseMahJongg { .. } => {
            Some("abandoned: a false call of Mah-Jongg after others laid down tiles (Code §82–83)")
        }
        crate::settle::Penalty::FalseNaming { .. } if p.abandons_hand(Seat::East).is_some() => {
            Some("abandoned: a falsely named discard claimed for Mah-Jongg (Code §87)")
        }
        _ => None,
    })
}

/// The discards a play left on the table, as tiles seen.
fn left_on_the_table(state: &crate::play::PlayState) -> crate::TileCounts {
    let mut seen = crate::TileCounts::EMPTY;
    for t in state.on_the_table() {
        // A set holds at most four of a tile: the play refused more.
        let _ = seen.try_add(t);
    }
    seen
}

/// Folds a hand-stream event into the hand's state.
fn fold_hand(hand: &mut HandState, id: Uuid, e: &HandEvent) {
    match e {
        HandEvent::HandExposed(x) => hand.hands[x.seat] = Some(x.hand.clone()),
        HandEvent::MahJonggDeclared(m) => {
            hand.winner = Some(m.seat);
            hand.washed_out = false;
        }
        HandEvent::WashOut(_) => {
            hand.winner = None;
            hand.washed_out = true;
        }
        // §82: the caller took up his hand; play goes on.
        HandEvent::ClaimRetracted(r)
            if r.claim == crate::event::ClaimKind::MahJongg && hand.winner == Some(r.seat) =>
        {
            hand.winner = None;
        }
        HandEvent::HandScored(s) => {
            // The scored facts say who won: none, whatever call ended the play, for a hand
            // abandoned (§82) or washed out; the winner again, when an appeal restores a win.
            match &s.win {
                None => {
                    hand.winner = None;
                    hand.washed_out = true;
                }
                Some(w) => {
                    hand.winner = Some(w.winner);
                    hand.washed_out = false;
                }
            }
            let facts = HandFacts {
                hands: hand.hands.clone(),
                win: s.win.clone(),
                penalties: s.penalties.clone(),
                discards: hand.seen,
            };
            hand.facts = Some(facts);
        }
        HandEvent::DisputeRaised(_)
        | HandEvent::RulingIssued(_)
        | HandEvent::RulingSuperseded(_) => hand.rulings.fold(id, e),
        HandEvent::SettlementRecorded(s) => hand.settlement = Some((id, s.clone())),
        // A correction takes the facts in force off the record (apply checked that it
        // supersedes them); its own follow.
        HandEvent::CorrectionRecorded(_) => {
            hand.settlement = None;
            hand.facts = None;
            hand.hands = BySeat::default();
        }
        _ => {}
    }
}

#[cfg(test)]
mod count_tests;
#[cfg(test)]
mod ruling_tests;
#[cfg(test)]
mod tests;
