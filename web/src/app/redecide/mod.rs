//! Recorded events decided again, as the live service decides them: what an import must pass,
//! whatever stream it extends.
//!
//! The ledger proves that its events were not changed after they were written; it cannot prove
//! that they were ever decided. An export's hashes and links are as good for a made-up
//! correction as for a real one. So every event that arrives from outside is put through the
//! aggregates that decide live writes — the tournament ([`referee::tournament`]) and the table
//! with its hands ([`referee::table`]) — folded from the ledger as it stands, and each event
//! (or the events one command writes together) must be what deciding its command gives
//! ([`referee::table::Redecided`], [`referee::tournament::Tournament::redecide`]): the same
//! rotation, ruleset, limit, closed and voided tables, the end of a hand. Its recorder must be
//! an official who, at the event's date, was enabled and held a role that may give that command
//! ([`Action::permitted`], the one table of the policy); a ruling names the official who
//! recorded it.
//!
//! And nothing a signed checkpoint covers changes: a table or session closed, or a tournament,
//! table or player voided, before the ledger's last checkpoint takes no more events by import.
//!
//! The accounts and the checkpoints are the ledger's own and are never imported.

mod audit;

pub use audit::{audit, report, summary};

use std::collections::{BTreeMap, VecDeque};

use chrono::{DateTime, Utc};
use ledger::event::{AccountChange, AccountChanged, HandEvent, OfficialRole, TableEvent};
use ledger::{Event, OfficialId, StreamId, StreamKind, TableId};
use referee::event::TournamentEvent;
use referee::table::{Conditions, Decided, HandKey, Table, TableCommand};
use referee::tournament::{SessionNets, Tournament};
use uuid::Uuid;

use super::accounts::roles::{role_name, Action};
use super::accounts::store::COMMAND_LINE;
use super::table::conditions_of;

/// One recorded event, where it comes from (`at`: a line of an import, say) and who recorded it
/// when.
#[derive(Clone, Debug)]
pub struct Recorded {
    pub at: String,
    pub stream: StreamId,
    pub event_id: Uuid,
    pub recorded_at: DateTime<Utc>,
    pub recorded_by: OfficialId,
    pub event: Event,
}

impl From<ledger::RecordedEvent> for Recorded {
    /// A stored event, named by its stream and version.
    fn from(e: ledger::RecordedEvent) -> Recorded {
        Recorded {
            at: format!("{} version {}", e.stream, e.version),
            stream: e.stream,
            event_id: e.event_id,
            recorded_at: e.recorded_at,
            recorded_by: e.recorded_by,
            event: e.event,
        }
    }
}

/// The ledger's aggregates, folded from what it holds, ready to decide what comes next.
#[derive(Default)]
pub struct Redecider {
    /// Records by the command line ([`COMMAND_LINE`]) count as the administrator's: true for
    /// the audit of a ledger's own history, false for an import.
    command_line: bool,
    /// The accounts stream, by date: who was an official, with which role, when.
    accounts: Vec<(DateTime<Utc>, AccountChanged)>,
    tournaments: BTreeMap<String, Tournament>,
    tables: BTreeMap<TableId, TableAt>,
    /// Each hand stream's table and hand.
    hands: BTreeMap<StreamId, (TableId, HandKey)>,
    /// The position of the last checkpoint, and what it sealed: tournaments voided, tables
    /// closed or voided, sessions closed at or before it.
    checkpoint: Option<u64>,
    ended: BTreeMap<Ended, u64>,
}

/// Something ended (closed or voided) by an event at a position.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Ended {
    Tournament(String),
    /// A table closed.
    Table(TableId),
    /// A table voided (apart from its closing: undoing one leaves the other's seal).
    TableVoided(TableId),
    Session(String, u32),
}

struct TableAt {
    tournament: String,
    conditions: Conditions,
    state: Table,
}

impl Redecider {
    /// A re-decider for what is imported into a ledger: only its officials' records stand.
    pub fn for_import() -> Redecider {
        Redecider::default()
    }

    /// Folds one event the ledger holds (at `position`), without deciding it.
    pub fn fold(&mut self, position: u64, e: &Recorded) -> Result<(), String> {
        match &e.event {
            Event::AccountChanged(a) => self.accounts.push((e.recorded_at, a.clone())),
            Event::CheckpointSigned(_) => self.checkpoint = Some(position),
            _ => {}
        }
        match e.stream.kind() {
            StreamKind::Tournament => {
                let event = TournamentEvent::try_from(e.event.clone())
                    .map_err(|_| "not an event of a tournament".to_owned())?;
                self.note_ended(e.stream.id(), &event, position);
                self.tournament_mut(e.stream.id())
                    .apply(&event)
                    .map_err(|w| w.to_string())
            }
            StreamKind::Table => {
                let event = TableEvent::try_from(e.event.clone())
                    .map_err(|_| "not an event of a table".to_owned())?;
                let id = TableId::new(e.stream.id()).map_err(|w| w.to_string())?;
                let t = self.table_mut(&id)?;
                t.state
                    .apply(e.event_id, &Decided::Table(event))
                    .map_err(|w| w.to_string())
            }
            StreamKind::Hand => {
                let event = HandEvent::try_from(e.event.clone())
                    .map_err(|_| "not an event of a hand".to_owned())?;
                let (table, key) = self.hand_of(&e.stream, &event)?;
                let t = self.table_mut(&table)?;
                t.state
                    .apply(e.event_id, &Decided::Hand(key, event))
                    .map_err(|w| w.to_string())
            }
            StreamKind::Accounts | StreamKind::Ledger => Ok(()),
        }
    }

    /// Decides `fresh` (in the order recorded) against what is folded, folding in each event
    /// that stands: every problem, each as "<at>: why". The events a command writes together
    /// are decided together; after a stream's first refusal its later events are not decided
    /// (they would only repeat it).
    pub fn decide(&mut self, fresh: &[Recorded]) -> Vec<String> {
        let mut problems = Vec::new();
        // The table's own events (a game ended, a game started) come with the hand that
        // brings them, wherever the record lists them.
        let mut table_events: BTreeMap<TableId, VecDeque<&Recorded>> = BTreeMap::new();
        let mut by_stream: BTreeMap<&StreamId, VecDeque<usize>> = BTreeMap::new();
        for (i, e) in fresh.iter().enumerate() {
            match e.stream.kind() {
                StreamKind::Table => match TableId::new(e.stream.id()) {
                    Ok(id) => table_events.entry(id).or_default().push_back(e),
                    Err(w) => problems.push(format!("{}: {w}", e.at)),
                },
                StreamKind::Accounts | StreamKind::Ledger => problems.push(format!(
                    "{}: `{}` is this ledger's own record (its officials, its checkpoints): it is not imported",
                    e.at,
                    e.event.event_type()
                )),
                _ => by_stream.entry(&e.stream).or_default().push_back(i),
            }
        }
        let mut refused: Vec<&StreamId> = Vec::new();
        let mut done = vec![false; fresh.len()];
        for (i, e) in fresh.iter().enumerate() {
            if done[i] || !matches!(e.stream.kind(), StreamKind::Tournament | StreamKind::Hand) {
                continue;
            }
            if refused.contains(&&e.stream) {
                continue;
            }
            let Some(queue) = by_stream.get_mut(&e.stream) else {
                continue;
            };
            // One command's events are written in one append: at one time, by one official.
            let next: Vec<usize> = queue
                .iter()
                .copied()
                .take_while(|&j| {
                    fresh[j].recorded_at == e.recorded_at && fresh[j].recorded_by == e.recorded_by
                })
                .collect();
            let run: Vec<&Recorded> = next.iter().map(|&j| &fresh[j]).collect();
            let outcome = match e.stream.kind() {
                StreamKind::Tournament => self.decide_tournament(&run),
                _ => self.decide_hand(&run, &mut table_events),
            };
            match outcome {
                Ok(n) => {
                    for j in queue.drain(..n) {
                        done[j] = true;
                    }
                }
                Err(Refused { at, why }) => {
                    let at = run.get(at).map_or(&e.at, |r| &r.at);
                    problems.push(format!("{at}: {why}"));
                    refused.push(&e.stream);
                    // Its later events are not decided (they would only repeat the refusal),
                    // but folded as recorded, so that what depends on them (a table of the
                    // tournament, a hand's table) is decided on its own merits.
                    for j in queue.drain(..) {
                        done[j] = true;
                        let _ = self.fold(u64::MAX, &fresh[j]);
                    }
                }
            }
        }
        for (table, left) in table_events {
            if let Some(e) = left.front() {
                problems.push(format!(
                    "{}: `{}` of table `{table}` comes with no hand that brings it (a game starts with its first hand, and ends with its last)",
                    e.at,
                    e.event.event_type()
                ));
            }
        }
        problems
    }

    /// Decides the tournament events `run` (the stream's next ones): how many one command makes.
    fn decide_tournament(&mut self, run: &[&Recorded]) -> Result<usize, Refused> {
        let first = run[0];
        let id = first.stream.id().to_owned();
        let events: Vec<TournamentEvent> = run
            .iter()
            .map_while(|e| TournamentEvent::try_from(e.event.clone()).ok())
            .collect();
        let official = self.official_at(first)?;
        if let Some(by) = self.sealed_tournament(&id) {
            return Err(by.into());
        }
        // An undoing of what a signed checkpoint sealed would change what it covers.
        let sealed = match events.first() {
            Some(TournamentEvent::TableReopened(r)) => self.sealed_table(&r.table),
            Some(TournamentEvent::VoidingUndone(u)) => {
                u.table.as_ref().and_then(|t| self.sealed_table(t))
            }
            Some(TournamentEvent::SessionReopened(r)) => self
                .sealed(&Ended::Session(id.clone(), r.session))
                .map(|p| {
                    format!("session {} was closed at position {p}, under a signed checkpoint: nothing it covers changes", r.session)
                }),
            _ => None,
        };
        if let Some(why) = sealed {
            return Err(why.into());
        }
        let nets = self.session_nets(&id);
        let (command, n) = self
            .tournament_mut(&id)
            .redecide(&events, &nets)
            .map_err(|r| r.message())?;
        may(first, official, Action::for_tournament(&command))?;
        for (e, r) in events[..n].iter().zip(run) {
            self.note_ended(&id, e, u64::MAX);
            self.tournament_mut(&id)
                .apply(e)
                .map_err(|w| format!("{}: {w}", r.at))?;
        }
        Ok(n)
    }

    /// Decides the hand events `run` (the stream's next ones): how many one command makes.
    fn decide_hand(
        &mut self,
        run: &[&Recorded],
        table_events: &mut BTreeMap<TableId, VecDeque<&Recorded>>,
    ) -> Result<usize, Refused> {
        let first = run[0];
        let events: Vec<HandEvent> = run
            .iter()
            .map_while(|e| HandEvent::try_from(e.event.clone()).ok())
            .collect();
        let Some(head) = events.first() else {
            return Err(format!("`{}` is not an event of a hand", first.event.event_type()).into());
        };
        let official = self.official_at(first)?;
        let (table, key) = self.hand_of(&first.stream, head)?;
        if let Some(by) = self.sealed_table(&table) {
            return Err(by.into());
        }
        let t = self.table_mut(&table)?;
        let redecided = t
            .state
            .redecide(&t.conditions, key, &events)
            .map_err(|r| Refused {
                at: r.event,
                why: r.violations.to_string(),
            })?;
        let n = redecided.hand_events;
        may(first, official, Action::for_table(&redecided.command))?;
        if let TableCommand::Rule { ruling, .. }
        | TableCommand::Appeal {
            replacement: Some(ruling),
            ..
        } = &redecided.command
        {
            if ruling.official != first.recorded_by.as_str() {
                return Err(format!(
                    "the ruling names `{}` as the official who ruled, but `{}` recorded it",
                    ruling.official, first.recorded_by
                )
                .into());
            }
        }
        let mut ids = Vec::with_capacity(redecided.decision.events.len());
        let mut hand = run.iter();
        for d in &redecided.decision.events {
            match d {
                Decided::Hand(..) => ids.push(hand.next().map_or(Uuid::nil(), |e| e.event_id)),
                Decided::Table(decided) => {
                    let queued = table_events.get_mut(&table).and_then(VecDeque::pop_front);
                    let Some(recorded) = queued.filter(|q| {
                        TableEvent::try_from(q.event.clone()).ok().as_ref() == Some(decided)
                    }) else {
                        return Err(format!(
                            "the table's stream does not record {decided:?}, which this hand brings"
                        )
                        .into());
                    };
                    ids.push(recorded.event_id);
                }
            }
        }
        let t = self.table_mut(&table)?;
        t.state
            .apply_decision(&ids, redecided.decision)
            .map_err(|w| w.to_string())?;
        Ok(n)
    }

    /// The role (and administrator flag) of `e`'s recorder on its date; refused when he was
    /// no official then, or disabled; `None` for the command line where it counts as the
    /// administrator.
    fn official_at(&self, e: &Recorded) -> Result<Option<(OfficialRole, bool)>, String> {
        let who = e.recorded_by.as_str();
        if self.command_line && COMMAND_LINE.contains(&who) {
            return Ok(None);
        }
        let mut state: Option<(OfficialRole, bool, bool)> = None;
        for (_, change) in self
            .accounts
            .iter()
            .take_while(|(at, _)| *at <= e.recorded_at)
        {
            if change.official.as_str() != who {
                continue;
            }
            match (&change.change, &mut state) {
                (AccountChange::Created { role, admin, .. }, _) => {
                    state = Some((*role, *admin, false))
                }
                (AccountChange::RoleSet { role, admin }, Some(s)) => (s.0, s.1) = (*role, *admin),
                (AccountChange::Disabled, Some(s)) => s.2 = true,
                (AccountChange::Enabled, Some(s)) => s.2 = false,
                _ => {}
            }
        }
        match state {
            None if self
                .accounts
                .iter()
                .any(|(_, c)| c.official.as_str() == who) =>
            {
                Err(format!(
                    "recorded by `{who}`, who was not yet an official of this ledger on {}",
                    e.recorded_at.to_rfc3339()
                ))
            }
            None => Err(format!(
                "recorded by `{who}`, who is not an official of this ledger"
            )),
            Some((_, _, true)) => Err(format!(
                "recorded by `{who}`, whose account was disabled on {}",
                e.recorded_at.to_rfc3339()
            )),
            Some((role, admin, false)) => Ok(Some((role, admin))),
        }
    }

    fn tournament_mut(&mut self, id: &str) -> &mut Tournament {
        self.tournaments
            .entry(id.to_owned())
            .or_insert_with(|| Tournament::new(id))
    }

    /// The table `id`, created (from its tournament's conditions) at its first event.
    fn table_mut(&mut self, id: &TableId) -> Result<&mut TableAt, String> {
        let tournament = match self.tables.get(id) {
            Some(at) => at.tournament.clone(),
            None => {
                let tournament = self
                    .tournaments
                    .iter()
                    .find(|(_, t)| t.table(id).is_some())
                    .map(|(tid, _)| tid.clone())
                    .ok_or_else(|| {
                        format!("table `{id}` is no table of a tournament this ledger holds")
                    })?;
                let conditions =
                    conditions_of(&self.tournaments[&tournament]).map_err(|e| e.message.clone())?;
                let state = Table::new(id.clone(), false, &conditions.ruleset);
                self.tables.insert(
                    id.clone(),
                    TableAt {
                        tournament: tournament.clone(),
                        conditions,
                        state,
                    },
                );
                tournament
            }
        };
        // Its seats and status are the tournament's, as it stands now.
        let t = &self.tournaments[&tournament];
        let seats_drawn = t.table(id).is_some_and(|e| e.seats.is_some());
        let status = t.table_status(id).unwrap_or_default();
        let at = self
            .tables
            .get_mut(id)
            .ok_or_else(|| format!("table `{id}`"))?;
        at.state.seats_drawn = seats_drawn;
        at.state.status = status;
        Ok(at)
    }

    /// The table and hand of a hand stream: recorded with its start.
    fn hand_of(&mut self, stream: &StreamId, e: &HandEvent) -> Result<(TableId, HandKey), String> {
        if let Some(known) = self.hands.get(stream) {
            return Ok(known.clone());
        }
        let HandEvent::HandStarted(s) = e else {
            return Err("a hand's stream begins with `hand_started`".into());
        };
        let known = (
            s.table.clone(),
            HandKey {
                game: s.game,
                hand: s.hand,
            },
        );
        self.hands.insert(stream.clone(), known.clone());
        Ok(known)
    }

    /// Notes when `e` ends something (at `position`; `u64::MAX` for what is being decided,
    /// which no checkpoint covers yet).
    fn note_ended(&mut self, tournament: &str, e: &TournamentEvent, position: u64) {
        // An undoing opens again what was ended: it is ended (and sealed) anew when it ends.
        let reopened = match e {
            TournamentEvent::TableReopened(r) => Some(Ended::Table(r.table.clone())),
            TournamentEvent::SessionReopened(r) => {
                Some(Ended::Session(tournament.to_owned(), r.session))
            }
            TournamentEvent::VoidingUndone(u) => match (&u.table, &u.player) {
                (Some(t), _) => Some(Ended::TableVoided(t.clone())),
                (None, None) => Some(Ended::Tournament(tournament.to_owned())),
                (None, Some(_)) => None,
            },
            _ => None,
        };
        if let Some(what) = reopened {
            self.ended.remove(&what);
            return;
        }
        let ended = match e {
            TournamentEvent::TournamentVoided(_) => Ended::Tournament(tournament.to_owned()),
            TournamentEvent::TableClosed(c) => Ended::Table(c.table.clone()),
            TournamentEvent::TableVoided(v) => Ended::TableVoided(v.table.clone()),
            TournamentEvent::SessionClosed(s) => Ended::Session(tournament.to_owned(), s.session),
            _ => return,
        };
        self.ended.entry(ended).or_insert(position);
    }

    /// Why nothing more may be imported into `what`, when a checkpoint covers its end.
    fn sealed(&self, what: &Ended) -> Option<u64> {
        let checkpoint = self.checkpoint?;
        self.ended.get(what).copied().filter(|&p| p <= checkpoint)
    }

    fn sealed_tournament(&self, id: &str) -> Option<String> {
        self.sealed(&Ended::Tournament(id.to_owned())).map(|p| {
            format!("tournament `{id}` was voided at position {p}, under a signed checkpoint: nothing it covers changes")
        })
    }

    fn sealed_table(&self, table: &TableId) -> Option<String> {
        let at = self.tables.get(table)?;
        if let Some(why) = self.sealed_tournament(&at.tournament) {
            return Some(why);
        }
        let closed = self.sealed(&Ended::Table(table.clone()));
        let voided = self.sealed(&Ended::TableVoided(table.clone()));
        if let Some(p) = closed.or(voided) {
            return Some(format!(
                "table `{table}` was closed or voided at position {p}, under a signed checkpoint: nothing it covers changes"
            ));
        }
        let session = self
            .tournaments
            .get(&at.tournament)?
            .table(table)?
            .session?;
        self.sealed(&Ended::Session(at.tournament.clone(), session)).map(|p| {
            format!("session {session} of table `{table}` was closed at position {p}, under a signed checkpoint: nothing it covers changes")
        })
    }

    /// Each session's nets by player, from the settlements in force at its tables.
    fn session_nets(&self, tournament: &str) -> SessionNets {
        let mut out = SessionNets::new();
        let Some(t) = self.tournaments.get(tournament) else {
            return out;
        };
        for entry in &t.tables {
            let (Some(session), Some(seats)) = (entry.session, &entry.seats) else {
                continue;
            };
            if entry.voided.is_some() {
                continue;
            }
            let nets = out.entry(session).or_default();
            for (_, player) in seats.iter() {
                nets.entry(player.clone()).or_insert(0);
            }
            let Some(at) = self.tables.get(&entry.id) else {
                continue;
            };
            for hand in at.state.hands.values() {
                if let Some((_, s)) = hand.settlement() {
                    for (seat, net) in s.nets.iter() {
                        *nets.entry(seats[seat].clone()).or_insert(0) += net;
                    }
                }
            }
        }
        out
    }
}

/// Refuses an event whose recorder, `official` on its date ([`Redecider::official_at`]; `None`
/// for the command line), could not have given `action`.
fn may(e: &Recorded, official: Option<(OfficialRole, bool)>, action: Action) -> Result<(), String> {
    match official {
        Some((role, admin)) if !(admin || action.permitted(role)) => Err(format!(
            "recorded by `{}`, a {} then: only {} may {}",
            e.recorded_by,
            role_name(role),
            action.who(),
            action.describe()
        )),
        _ => Ok(()),
    }
}

/// Why a run of recorded events does not stand, and at which of them (counted from the run's
/// first).
struct Refused {
    at: usize,
    why: String,
}

impl From<String> for Refused {
    fn from(why: String) -> Refused {
        Refused { at: 0, why }
    }
}
