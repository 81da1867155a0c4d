//! Running a tournament in sessions (issue 14): opening a session with a generated seating,
//! closing it, and withdrawing a player.
//!
//! The rules, stated here and in the README:
//! - **Sessions run one after another.** Session `k + 1` opens only when session `k` is
//!   closed; closing a session closes its open tables in the same append, and makes its
//!   results public.
//! - **A seating is a run of a plan.** The generator (`referee::seating`) plans the event from
//!   a method, a seed and the players numbered in registration order; each session takes the
//!   plan's next session, so a no-repeat plan made for five sessions is kept for all five, and
//!   Swiss and progressive seat each session from the results of the run's sessions so far.
//!   Every session records its method, seed, numbering and place in the plan
//!   (`SessionSeating`), so anyone can make the same seating again.
//! - **Withdrawals and substitutes.** A player who withdraws keeps his results and is not
//!   seated again. In a continuing plan, his place is taken for the session by a substitute —
//!   the first registered substitute not already seated, in registration order — so the other
//!   players' plan is untouched. When there are not enough substitutes, or players were
//!   registered since the plan was made, or the plan is used up, or another method is chosen,
//!   the tables are **rebalanced**: a new plan is made over the players present, for the
//!   sessions that remain.
//! - **Tables seat four** at a tournament (a table's seats are East, South, West and North), so
//!   a count not divisible by four is seated with byes: the players left over sit out the
//!   session, in turn. The five- and three-handed games of the books are planned by the
//!   `seating` command, not yet played at a tournament table.

use std::collections::HashMap;

use chrono::Utc;
use ledger::event::{
    SeatsDrawn, SessionClosed, SessionOpened, SessionSeating, Substitution, TableClosed,
    TableFormed,
};
use ledger::{
    BySeat, ExpectedVersion, Ledger, NewEvent, PlayerId, PlayerRow, SessionRow, StandingsScope,
    StreamId, TableId,
};
use referee::seating::{self, Method, PlanRequest, Remainder};
use referee::{Seat, Violation, Violations};
use serde::Deserialize;

use super::existing_tournament;
use super::ranges::MAX_TABLE_NUMBER;
use crate::server::auth::Official;
use crate::server::error::AppError;
use crate::server::in_play::InPlay;
use crate::server::roles::Action;

/// The longest session clock, in minutes (a day).
pub const MAX_MINUTES: u32 = 24 * 60;

/// Open the next session, seated by the generator.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpenSession {
    /// `no-repeat`, `swiss`, `progressive` or `random`.
    pub method: String,
    /// The seed of the plan; a fresh random one when absent (a continuing plan keeps its own).
    #[serde(default)]
    pub seed: Option<u64>,
    /// How many sessions the event has, counting this one and those before it; needed when a
    /// plan is made, else the plan's own.
    #[serde(default)]
    pub sessions: Option<u32>,
    /// The session's length in minutes, for its clock.
    #[serde(default)]
    pub minutes: Option<u32>,
}

/// Players of the tournament by what they may do now.
struct Roster {
    /// Players present (not substitutes, not voided, not withdrawn), in registration order.
    present: Vec<PlayerId>,
    /// Substitutes who may sit, in registration order.
    substitutes: Vec<PlayerId>,
    /// Everyone registered, for names.
    all: Vec<PlayerRow>,
}

impl Roster {
    fn load(ledger: &Ledger, stream: &StreamId, in_play: &InPlay) -> Result<Roster, AppError> {
        let all = ledger.players(stream)?;
        let free =
            |p: &&PlayerRow| p.withdrawn.is_none() && in_play.player_voided(&p.player).is_none();
        Ok(Roster {
            present: all
                .iter()
                .filter(free)
                .filter(|p| !p.substitute)
                .map(|p| p.player.clone())
                .collect(),
            substitutes: all
                .iter()
                .filter(free)
                .filter(|p| p.substitute)
                .map(|p| p.player.clone())
                .collect(),
            all,
        })
    }

    fn name(&self, p: &PlayerId) -> String {
        self.all
            .iter()
            .find(|r| &r.player == p)
            .map_or_else(|| p.to_string(), |r| r.name.clone())
    }
}

/// How the next session's seating follows from the last one: the run it continues, if any.
struct Run {
    method: Method,
    seed: u64,
    players: Vec<PlayerId>,
    plan_sessions: u32,
    /// This session's place in the plan, from 1.
    plan_session: u32,
    /// The sessions of this run already played, oldest first (for the results).
    played: Vec<SessionRow>,
}

/// Opens the next session: plans its seating, forms its tables and seats them, in one append.
/// Returns the session's number.
pub fn open(
    ledger: &mut Ledger,
    tournament: &str,
    by: &Official,
    cmd: &OpenSession,
) -> Result<u32, AppError> {
    by.require_role(Action::FormTable)?;
    let stream = existing_tournament(ledger, tournament)?;
    let version = ledger.stream_version(&stream)?;
    let in_play = InPlay::load(ledger, &stream)?;
    in_play.require_tournament()?;
    let sessions = ledger.sessions(&stream)?;
    let tables = ledger.tables(&stream)?;
    let roster = Roster::load(ledger, &stream, &in_play)?;
    let mut problems = Violations::new();
    if let Some(open) = sessions.iter().find(|s| s.is_open()) {
        return Err(AppError::conflict(format!(
            "session {} is still open: close it before opening the next",
            open.session
        )));
    }
    let number = sessions.last().map_or(1, |s| s.session + 1);
    let method: Option<Method> = match cmd.method.trim().parse() {
        Ok(m) => Some(m),
        Err(e) => {
            problems.push(Violation::new("method", e.to_string()));
            None
        }
    };
    if let Some(m) = cmd.minutes {
        if !(1..=MAX_MINUTES).contains(&m) {
            problems.push(Violation::new(
                "minutes",
                format!("{m} is out of range; allowed 1 to {MAX_MINUTES}"),
            ));
        }
    }
    // Players seated at an open table outside this session's tables would sit twice.
    let seated_elsewhere: Vec<String> = tables
        .iter()
        .filter(|t| in_play.table_open(&t.table))
        .filter_map(|t| t.seats.as_ref().map(|s| (t, s)))
        .flat_map(|(t, s)| {
            s.iter()
                .map(|(_, p)| format!("{} (table {})", roster.name(p), t.number))
                .collect::<Vec<_>>()
        })
        .collect();
    if !seated_elsewhere.is_empty() {
        problems.push(Violation::new(
            "players",
            format!(
                "close or void the open tables first; still seated: {}",
                seated_elsewhere.join(", ")
            ),
        ));
    }
    let Some(method) = method.filter(|_| problems.is_empty()) else {
        return Err(AppError::violations(problems));
    };
    let previous = sessions
        .last()
        .and_then(|s| s.seating.as_ref().map(|x| (s, x)));
    let continuing =
        previous.and_then(|(row, seating)| continuation(&sessions, row, seating, method, &roster));
    let run = match continuing {
        Some(run) => run,
        None => {
            let total = match (cmd.sessions, previous) {
                (Some(total), _) => total,
                (None, Some((row, s))) => row.session - s.plan_session + s.plan_sessions,
                (None, None) => 1,
            };
            if total < number {
                return Err(AppError::violations(Violations(vec![Violation::new(
                    "sessions",
                    format!(
                        "the event has {total} sessions, but this is session {number}: give how many sessions the event has"
                    ),
                )])));
            }
            if total > 100 {
                return Err(AppError::violations(Violations(vec![Violation::new(
                    "sessions",
                    format!("{total} is out of range; allowed up to 100"),
                )])));
            }
            Run {
                method,
                seed: cmd.seed.unwrap_or_else(rand::random),
                players: roster.present.clone(),
                plan_sessions: total - number + 1,
                plan_session: 1,
                played: Vec::new(),
            }
        }
    };
    let n = run.players.len() as u64;
    let remainder = if n.is_multiple_of(4) {
        Remainder::Fewest
    } else {
        Remainder::Byes
    };
    if n < 4 {
        return Err(AppError::violations(Violations(vec![Violation::rule(
            "players",
            "Code §15",
            format!("a table seats four players; {n} are present"),
        )])));
    }
    if run.method == Method::Progressive && !n.is_multiple_of(4) {
        return Err(AppError::violations(Violations(vec![Violation::new(
            "method",
            format!(
                "the progressive game moves two players on from every table and has no byes; {n} players do not make full tables of four (register or withdraw players, or choose another method)"
            ),
        )])));
    }
    let results = results(ledger, &stream, &run)?;
    let request = PlanRequest {
        players: n,
        sessions: u64::from(run.plan_sessions),
        method: run.method,
        remainder,
        seed: run.seed,
        results,
    };
    let plan = seating::plan(&request).map_err(|e| {
        AppError::violations(Violations(
            e.problems
                .iter()
                .map(|p| Violation::new("seating", p.to_string()))
                .collect(),
        ))
    })?;
    let Some(planned) = plan.sessions().get(run.plan_session as usize - 1) else {
        return Err(AppError::internal(format!(
            "the plan has no session {}",
            run.plan_session
        )));
    };
    // Who sits in each numbered place this session: the player, or a substitute for one who
    // withdrew since the plan was made.
    let mut substitutes = roster.substitutes.iter();
    let mut substitutions = Vec::new();
    let mut seat_of = HashMap::new();
    for p in &run.players {
        let sitter = if roster.present.contains(p) {
            p.clone()
        } else {
            let Some(sub) = substitutes.next() else {
                return Err(AppError::internal("a substitute went missing"));
            };
            substitutions.push(Substitution {
                withdrawn: p.clone(),
                substitute: sub.clone(),
            });
            sub.clone()
        };
        seat_of.insert(p.clone(), sitter);
    }
    let place = |player: seating::Player| -> PlayerId {
        let numbered = &run.players[player.index()];
        seat_of[numbered].clone()
    };
    let first = tables.iter().map(|t| t.number).max().unwrap_or(0) + 1;
    if u64::from(first) + planned.tables.len() as u64 > u64::from(MAX_TABLE_NUMBER) {
        return Err(AppError::unprocessable(format!(
            "tables are numbered up to {MAX_TABLE_NUMBER}: this session's tables would pass it"
        )));
    }
    let mut events = vec![NewEvent::new(SessionOpened {
        session: number,
        minutes: cmd.minutes,
        seating: Some(SessionSeating {
            method: run.method.name().to_owned(),
            seed: run.seed,
            remainder: remainder.name().to_owned(),
            players: run.players.clone(),
            plan_sessions: run.plan_sessions,
            plan_session: run.plan_session,
            repeats: plan.meetings().repeats,
            byes: planned.byes.iter().map(|&p| place(p)).collect(),
            substitutions,
        }),
    })];
    for (i, players) in planned.tables.iter().enumerate() {
        let table_number = first + i as u32;
        let table = TableId::new(&format!("{}-t{table_number}", stream.id()))
            .map_err(|e| AppError::unprocessable(e.to_string()))?;
        events.push(NewEvent::new(TableFormed {
            table: table.clone(),
            number: table_number,
            session: Some(number),
        }));
        let seats = BySeat::from_fn(|s: Seat| place(players[s.index()]));
        events.push(NewEvent::new(SeatsDrawn { table, seats }));
    }
    ledger.append(&stream, ExpectedVersion::Exact(version), events, &by.id)?;
    Ok(number)
}

/// The run the last session's seating continues into this session, if it can: the same
/// method, the plan not used up, no player registered since, and a substitute for every
/// numbered player who withdrew.
fn continuation(
    sessions: &[SessionRow],
    last: &SessionRow,
    seating: &SessionSeating,
    method: Method,
    roster: &Roster,
) -> Option<Run> {
    let same_method = seating.method.parse::<Method>().ok()? == method;
    let room = seating.plan_session < seating.plan_sessions;
    let newcomers = roster.present.iter().any(|p| !seating.players.contains(p));
    let missing = seating
        .players
        .iter()
        .filter(|p| !roster.present.contains(p))
        .count();
    if !same_method || !room || newcomers || missing > roster.substitutes.len() {
        return None;
    }
    let start = last.session + 1 - seating.plan_session;
    let played = sessions
        .iter()
        .filter(|s| s.session >= start && s.session <= last.session)
        .cloned()
        .collect();
    Some(Run {
        method,
        seed: seating.seed,
        players: seating.players.clone(),
        plan_sessions: seating.plan_sessions,
        plan_session: seating.plan_session + 1,
        played,
    })
}

/// The results the run's method needs: each played session's nets, by numbered place (a
/// substitute's net counts for the place he filled; a bye scores nothing).
fn results(ledger: &Ledger, stream: &StreamId, run: &Run) -> Result<Vec<Vec<i64>>, AppError> {
    if !run.method.needs_results() {
        return Ok(Vec::new());
    }
    let mut out = Vec::with_capacity(run.played.len());
    for session in &run.played {
        let nets: HashMap<PlayerId, i64> = ledger
            .standings_in(stream, StandingsScope::Session(session.session))?
            .into_iter()
            .map(|s| (s.player, s.net))
            .collect();
        let subs: HashMap<&PlayerId, &PlayerId> = session
            .seating
            .iter()
            .flat_map(|s| s.substitutions.iter())
            .map(|s| (&s.withdrawn, &s.substitute))
            .collect();
        out.push(
            run.players
                .iter()
                .map(|p| {
                    let sitter = subs.get(p).copied().unwrap_or(p);
                    nets.get(sitter).copied().unwrap_or(0)
                })
                .collect(),
        );
    }
    Ok(out)
}

/// Closes an open session: its open tables are closed and the session's results made public,
/// in one append; with `key`, a checkpoint of the chain head is signed straight after (the end
/// of a session of play is when a club publishes its head).
pub fn close(
    ledger: &mut Ledger,
    tournament: &str,
    session: u32,
    by: &Official,
    key: Option<&ledger::signing::LedgerKey>,
) -> Result<(), AppError> {
    by.require_role(Action::CloseTable)?;
    let stream = existing_tournament(ledger, tournament)?;
    let version = ledger.stream_version(&stream)?;
    let in_play = InPlay::load(ledger, &stream)?;
    in_play.require_tournament()?;
    let Some(row) = ledger
        .sessions(&stream)?
        .into_iter()
        .find(|s| s.session == session)
    else {
        return Err(AppError::not_found(format!(
            "tournament `{tournament}` has no session {session}"
        )));
    };
    if !row.is_open() {
        return Err(AppError::conflict(format!(
            "session {session} is already closed"
        )));
    }
    let mut events: Vec<NewEvent> = ledger
        .tables(&stream)?
        .into_iter()
        .filter(|t| t.session == Some(session) && in_play.table_open(&t.table))
        .map(|t| NewEvent::new(TableClosed { table: t.table }))
        .collect();
    events.push(NewEvent::new(SessionClosed { session }));
    ledger.append(&stream, ExpectedVersion::Exact(version), events, &by.id)?;
    if let Some(key) = key {
        ledger.sign_checkpoint(key, &by.id)?;
    }
    Ok(())
}

/// How long a session has run and how long it has left, at `now`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    pub elapsed_minutes: i64,
    /// `None` when no length was set; negative when the time is up.
    pub left_minutes: Option<i64>,
}

impl Clock {
    pub fn of(session: &SessionRow, now: chrono::DateTime<Utc>) -> Clock {
        let end = session.closed_at.unwrap_or(now);
        let elapsed_minutes = (end - session.opened_at).num_minutes().max(0);
        Clock {
            elapsed_minutes,
            left_minutes: session.minutes.map(|m| i64::from(m) - elapsed_minutes),
        }
    }
}
