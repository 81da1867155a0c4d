//! The tournament as an aggregate: who takes part, its conditions, its tables and seats, its
//! sessions, and what was closed or voided — folded from the tournament's own stream and
//! decided here, as the table's hands are in [`crate::table`].
//!
//! A tournament's state ([`Tournament`]) is a fold of its events ([`TournamentEvent`]) by
//! [`Tournament::apply`]. A command ([`TournamentCommand`]) is decided against it by
//! [`Tournament::decide`] into new events, or refused ([`Refusal`]): something it names does
//! not exist, it conflicts with the state (a second open session, a player already withdrawn),
//! or its input is wrong, with every [`crate::Violation`] it commits. Nothing here reads or
//! writes storage: the web service loads the stream, decides, and appends what comes back.
//!
//! What is decided here (the README's "Running a club tournament" names the same rules):
//! - **Forming tables** (Code §15): four registered players, none listed twice, none voided or
//!   withdrawn, numbered from 1 to [`ranges::MAX_TABLE_NUMBER`]; the seats as listed, or drawn
//!   at random from a recorded seed ([`draw`]).
//! - **A player sits at one open table at a time.** A table is open from `TableFormed` until
//!   it is closed (its play is over) or voided; a player seated at one is refused at another,
//!   and is not voided while he sits there.
//! - **Sessions run one after another**, seated by the generator ([`crate::seating`]); closing
//!   one closes its open tables, and makes its results public ([`visibility`]).
//! - **Withdrawals and substitutes**: a withdrawn player keeps his results and is not seated
//!   again; a substitute fills a withdrawn player's place and takes none in the standings.
//! - **Voiding**: nothing more is written into a voided tournament, nothing at a voided table,
//!   and no voided player is seated.
//!
//! ```
//! use referee::event::RulesetRef;
//! use referee::tournament::{LoadedRuleset, NewPlayer, NewTournament, Tournament, TournamentCommand};
//!
//! let mut t = Tournament::new("spring");
//! let create = TournamentCommand::Create(NewTournament {
//!     id: Some("spring".into()),
//!     name: "Spring Open".into(),
//!     ruleset: Ok(LoadedRuleset {
//!         pinned: RulesetRef { name: "code-of-laws".into(), content_sha256: String::new() },
//!         title: "The Code of Laws".into(),
//!         house_ruleset: None,
//!         limit: Some(1000),
//!     }),
//!     limit: None,
//!     starting_chips: 2000,
//!     tie_break: None,
//!     officials: vec![],
//! });
//! for e in t.decide(&create).unwrap() {
//!     t.apply(&e).unwrap();
//! }
//! let register = TournamentCommand::RegisterPlayers {
//!     players: vec![NewPlayer { id: None, name: "Ann Lee".into(), substitute: false, different_person: false }],
//!     labels: vec![],
//! };
//! for e in t.decide(&register).unwrap() {
//!     t.apply(&e).unwrap();
//! }
//! assert_eq!(t.players[0].id.as_str(), "ann-lee");
//! ```

mod command;
pub mod draw;
pub mod ranges;
mod redecide;
mod register;
mod sessions;
mod tables;
#[cfg(test)]
mod tests;
mod undo;
#[cfg(test)]
mod undo_tests;
pub mod visibility;
mod voiding;

pub use register::same_name;
pub use voiding::reason as checked_reason;

pub use command::{
    LoadedRuleset, NewPlayer, NewTournament, Refusal, SeatDraw, TournamentCommand, VoidTarget,
};
pub use redecide::SessionNets;
pub use visibility::{Audience, Hidden};

use crate::event::{
    OfficialRegistered, SeatDrawSeeded, SessionSeating, TieBreak, TournamentConfigured,
    TournamentCreated, TournamentEvent,
};
use crate::ids::{PlayerId, TableId};
use crate::table::TableStatus;
use crate::BySeat;

/// A tournament as its stream has it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tournament {
    /// Its id (the stream is `tournament:<id>`); table ids are `<id>-t<number>`.
    pub id: String,
    /// Its name and ruleset, once created.
    pub created: Option<TournamentCreated>,
    /// Its playing conditions (the last configuration recorded).
    pub conditions: Option<TournamentConfigured>,
    /// How ties in the standings are broken, when chosen (else the default chain).
    pub tie_break: Option<TieBreak>,
    /// Why it was voided, if it was.
    pub voided: Option<String>,
    /// The players, in registration order.
    pub players: Vec<Player>,
    /// The officials registered in it, in order (as the accounts stood then).
    pub officials: Vec<OfficialRegistered>,
    /// The tables, in the order formed.
    pub tables: Vec<TableEntry>,
    /// The sessions, in order.
    pub sessions: Vec<Session>,
}

/// A registered player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    pub id: PlayerId,
    pub name: String,
    /// Fills a withdrawn player's place; takes none in the standings.
    pub substitute: bool,
    /// Why he withdrew, if he did.
    pub withdrawn: Option<String>,
    /// Why he was voided, if he was.
    pub voided: Option<String>,
}

/// A table of the tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableEntry {
    pub id: TableId,
    pub number: u32,
    /// The session it plays in, if any.
    pub session: Option<u32>,
    /// Who sits where, once the seats are drawn (Code §15).
    pub seats: Option<BySeat<PlayerId>>,
    /// The seed its seats were drawn with at random, if they were.
    pub draw: Option<SeatDrawSeeded>,
    /// Its play is over.
    pub closed: bool,
    /// Why it was voided, if it was.
    pub voided: Option<String>,
    /// Its play is open to the public while its session is in play.
    pub broadcast: bool,
}

impl TableEntry {
    /// Neither closed nor voided: its players may not sit elsewhere.
    pub fn is_open(&self) -> bool {
        !self.closed && self.voided.is_none()
    }

    /// Whether `player` sits at it.
    pub fn seats_player(&self, player: &PlayerId) -> bool {
        self.seats
            .as_ref()
            .is_some_and(|s| s.iter().any(|(_, p)| p == player))
    }
}

/// A session (round of play).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Session {
    pub number: u32,
    /// Its length in minutes, for its clock.
    pub minutes: Option<u32>,
    /// How the generator seated it, when it did.
    pub seating: Option<SessionSeating>,
    pub closed: bool,
}

/// Why a stored event cannot be folded into the tournament: the record contradicts itself.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ApplyError {
    #[error("tournament `{0}` was created twice")]
    CreatedTwice(String),
    #[error("an event of tournament `{0}` comes before it was created")]
    NotCreated(String),
    #[error("table `{0}` is not a table of this tournament")]
    NoSuchTable(TableId),
    #[error("table `{0}` was formed twice")]
    TableFormedTwice(TableId),
    #[error("player `{0}` is not registered in this tournament")]
    NoSuchPlayer(PlayerId),
    #[error("player `{0}` was registered twice")]
    RegisteredTwice(PlayerId),
    #[error("session {0} is not a session of this tournament")]
    NoSuchSession(u32),
}

impl Tournament {
    /// Decides a command into the events to record in the tournament's stream, or refuses it
    /// (nothing is recorded).
    pub fn decide(&self, command: &TournamentCommand) -> Result<Vec<TournamentEvent>, Refusal> {
        match command {
            TournamentCommand::Create(c) => self.decide_create(c),
            TournamentCommand::RegisterOfficial(o) => self.decide_official(o),
            TournamentCommand::RegisterPlayers { players, labels } => {
                self.decide_registration(players, labels)
            }
            TournamentCommand::Withdraw { player, reason } => {
                self.decide_withdrawal(player, reason)
            }
            TournamentCommand::FormTable {
                number,
                players,
                draw,
            } => self.decide_table(*number, players, *draw),
            TournamentCommand::OpenSession {
                method,
                seed,
                sessions,
                minutes,
                nets,
            } => self.decide_open_session(method, *seed, *sessions, *minutes, nets),
            TournamentCommand::CloseSession { session } => self.decide_close_session(*session),
            TournamentCommand::CloseTable { table } => self.decide_close_table(table),
            TournamentCommand::Broadcast { table, broadcast } => {
                self.decide_broadcast(table, *broadcast)
            }
            TournamentCommand::VoidTournament { reason } => self.decide_void(reason),
            TournamentCommand::VoidTable { table, reason } => self.decide_void_table(table, reason),
            TournamentCommand::VoidPlayer { player, reason } => {
                self.decide_void_player(player, reason)
            }
            TournamentCommand::ReopenTable { table, reason } => {
                self.decide_reopen_table(table, reason)
            }
            TournamentCommand::ReopenSession { session, reason } => {
                self.decide_reopen_session(*session, reason)
            }
            TournamentCommand::UndoVoid { target, reason } => self.decide_undo_void(target, reason),
        }
    }

    /// The tournament `id` before anything is recorded of it.
    pub fn new(id: &str) -> Tournament {
        Tournament {
            id: id.to_owned(),
            ..Tournament::default()
        }
    }

    /// Folds one event of its stream in.
    pub fn apply(&mut self, event: &TournamentEvent) -> Result<(), ApplyError> {
        let not_created = || ApplyError::NotCreated(self.id.clone());
        match event {
            TournamentEvent::TournamentCreated(c) => {
                if self.created.is_some() {
                    return Err(ApplyError::CreatedTwice(self.id.clone()));
                }
                self.created = Some(c.clone());
                return Ok(());
            }
            _ if self.created.is_none() => return Err(not_created()),
            TournamentEvent::TournamentConfigured(c) => self.conditions = Some(c.clone()),
            TournamentEvent::TieBreakChosen(t) => self.tie_break = Some(t.chain.clone()),
            TournamentEvent::OfficialRegistered(o) => self.officials.push(o.clone()),
            TournamentEvent::PlayerRegistered(p) => {
                if self.player(&p.player).is_some() {
                    return Err(ApplyError::RegisteredTwice(p.player.clone()));
                }
                self.players.push(Player {
                    id: p.player.clone(),
                    name: p.name.clone(),
                    substitute: p.substitute,
                    withdrawn: None,
                    voided: None,
                });
            }
            TournamentEvent::PlayerWithdrew(w) => {
                self.player_mut(&w.player)?.withdrawn = Some(w.reason.clone())
            }
            TournamentEvent::PlayerVoided(v) => {
                self.player_mut(&v.player)?.voided = Some(v.reason.clone())
            }
            TournamentEvent::TableFormed(f) => {
                if self.table(&f.table).is_some() {
                    return Err(ApplyError::TableFormedTwice(f.table.clone()));
                }
                self.tables.push(TableEntry {
                    id: f.table.clone(),
                    number: f.number,
                    session: f.session,
                    seats: None,
                    draw: None,
                    closed: false,
                    voided: None,
                    broadcast: false,
                });
            }
            TournamentEvent::SeatDrawSeeded(s) => self.table_mut(&s.table)?.draw = Some(s.clone()),
            TournamentEvent::SeatsDrawn(s) => {
                self.table_mut(&s.table)?.seats = Some(s.seats.clone())
            }
            TournamentEvent::TableClosed(c) => self.table_mut(&c.table)?.closed = true,
            TournamentEvent::TableBroadcast(b) => self.table_mut(&b.table)?.broadcast = b.broadcast,
            TournamentEvent::TableVoided(v) => {
                self.table_mut(&v.table)?.voided = Some(v.reason.clone())
            }
            TournamentEvent::TournamentVoided(v) => self.voided = Some(v.reason.clone()),
            TournamentEvent::SessionOpened(o) => self.sessions.push(Session {
                number: o.session,
                minutes: o.minutes,
                seating: o.seating.clone(),
                closed: false,
            }),
            TournamentEvent::SessionClosed(c) => {
                self.sessions
                    .iter_mut()
                    .find(|s| s.number == c.session)
                    .ok_or(ApplyError::NoSuchSession(c.session))?
                    .closed = true
            }
            TournamentEvent::SessionReopened(r) => {
                self.sessions
                    .iter_mut()
                    .find(|s| s.number == r.session)
                    .ok_or(ApplyError::NoSuchSession(r.session))?
                    .closed = false
            }
            TournamentEvent::TableReopened(r) => self.table_mut(&r.table)?.closed = false,
            TournamentEvent::VoidingUndone(u) => match (&u.table, &u.player) {
                (Some(table), _) => self.table_mut(table)?.voided = None,
                (None, Some(player)) => self.player_mut(player)?.voided = None,
                (None, None) => self.voided = None,
            },
        }
        Ok(())
    }

    /// The tournament folded from `events`, in order.
    pub fn fold<'a>(
        id: &str,
        events: impl IntoIterator<Item = &'a TournamentEvent>,
    ) -> Result<Tournament, ApplyError> {
        let mut t = Tournament::new(id);
        for e in events {
            t.apply(e)?;
        }
        Ok(t)
    }

    /// The player `id`, if registered.
    pub fn player(&self, id: &PlayerId) -> Option<&Player> {
        self.players.iter().find(|p| &p.id == id)
    }

    fn player_mut(&mut self, id: &PlayerId) -> Result<&mut Player, ApplyError> {
        self.players
            .iter_mut()
            .find(|p| &p.id == id)
            .ok_or_else(|| ApplyError::NoSuchPlayer(id.clone()))
    }

    /// The table `id`, if it is one of this tournament's.
    pub fn table(&self, id: &TableId) -> Option<&TableEntry> {
        self.tables.iter().find(|t| &t.id == id)
    }

    fn table_mut(&mut self, id: &TableId) -> Result<&mut TableEntry, ApplyError> {
        self.tables
            .iter_mut()
            .find(|t| &t.id == id)
            .ok_or_else(|| ApplyError::NoSuchTable(id.clone()))
    }

    /// Why the tournament was voided, if it was.
    pub fn tournament_voided(&self) -> Option<&str> {
        self.voided.as_deref()
    }

    /// Why table `id` was voided, if it was.
    pub fn table_voided(&self, id: &TableId) -> Option<&str> {
        self.table(id)?.voided.as_deref()
    }

    /// Whether table `id`'s play is over.
    pub fn table_closed(&self, id: &TableId) -> bool {
        self.table(id).is_some_and(|t| t.closed)
    }

    /// Why player `id` was voided, if he was.
    pub fn player_voided(&self, id: &PlayerId) -> Option<&str> {
        self.player(id)?.voided.as_deref()
    }

    /// The open table `player` sits at, if any.
    pub fn seated_at_open_table(&self, player: &PlayerId) -> Option<&TableEntry> {
        self.tables
            .iter()
            .find(|t| t.is_open() && t.seats_player(player))
    }

    /// The session now open, if one is.
    pub fn open_session(&self) -> Option<&Session> {
        self.sessions.iter().find(|s| !s.closed)
    }

    /// The next free table number: one above the highest.
    pub fn next_table_number(&self) -> u32 {
        let highest = self.tables.iter().map(|t| t.number).max().unwrap_or(0);
        highest.saturating_add(1)
    }

    /// Whether hands may be recorded at table `id`: open, closed (corrections only), or voided
    /// — with its tournament's voiding. `None` when it is no table of this tournament.
    pub fn table_status(&self, id: &TableId) -> Option<TableStatus> {
        let table = self.table(id)?;
        Some(match (&self.voided, &table.voided) {
            (Some(reason), _) => TableStatus::Voided {
                reason: format!("its tournament is voided: {reason}"),
            },
            (None, Some(reason)) => TableStatus::Voided {
                reason: reason.clone(),
            },
            (None, None) if table.closed => TableStatus::Closed,
            (None, None) => TableStatus::Open,
        })
    }

    /// Who the seating may seat: players neither voided nor withdrawn, players and substitutes
    /// apart, each in registration order.
    pub fn roster(&self) -> crate::seating::session::Roster {
        let ids = |substitute: bool| {
            self.players
                .iter()
                .filter(|p| p.substitute == substitute)
                .filter(|p| p.withdrawn.is_none() && p.voided.is_none())
                .map(|p| p.id.clone())
                .collect()
        };
        crate::seating::session::Roster {
            present: ids(false),
            substitutes: ids(true),
        }
    }

    /// The registered players' ids, in registration order (the order a random draw shuffles).
    pub fn registration_order(&self) -> Vec<PlayerId> {
        self.players.iter().map(|p| p.id.clone()).collect()
    }

    /// How a random seat draw at `table` checks against its seed, when its seats were drawn at
    /// random ([`draw::verify`]).
    pub fn draw_check(&self, table: &TableId) -> Option<draw::DrawCheck> {
        let t = self.table(table)?;
        let (drawn, seats) = (t.draw.as_ref()?, t.seats.as_ref()?);
        let seated = seats.clone().into_array();
        let order = draw::registration_order(seated.clone(), &self.registration_order());
        Some(draw::verify(&drawn.method, drawn.seed, order, &seated))
    }

    /// The name of `player`, or his id when he is not registered.
    pub fn name_of(&self, player: &PlayerId) -> String {
        self.player(player)
            .map_or_else(|| player.to_string(), |p| p.name.clone())
    }
}

/// Makes an id from a name: lower case letters and digits, other runs become `-`; at most 60
/// characters; `fallback` when nothing is left.
pub fn slug(name: &str, fallback: &str) -> String {
    let mut out = String::new();
    for c in name.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    let out: String = out.trim_end_matches('-').chars().take(60).collect();
    if out.is_empty() {
        fallback.to_owned()
    } else {
        out
    }
}
