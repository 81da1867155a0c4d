//! Running a tournament in sessions (issue 14): opening a session with a generated seating,
//! and closing it.
//!
//! The seating's rules — a plan kept session by session, substitutes in withdrawn players'
//! places, rebalancing by a new plan, byes — are the domain's (`referee::seating::session`);
//! here the ledger is read for them and what they decide is recorded. The service's own rules:
//! - **Sessions run one after another.** Session `k + 1` opens only when session `k` is
//!   closed, and no player may still sit at an open table formed by hand; closing a session
//!   closes its open tables in the same append, and makes its results public.

use std::collections::HashMap;

use ledger::event::{SeatsDrawn, SessionClosed, SessionOpened, TableClosed, TableFormed};
use ledger::{BySeat, ExpectedVersion, Ledger, NewEvent, PlayerId, StreamId, TableId};
use readmodel::{Reads, SessionRow, StandingsScope};
use referee::seating::{self, Method, SeatingError, SeatingProblem};
use referee::{Violation, Violations};
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

fn seating_refused(e: SeatingError) -> AppError {
    let field = |p: &SeatingProblem| match p {
        SeatingProblem::EventTooShort { .. } | SeatingProblem::TooManySessions { .. } => "sessions",
        SeatingProblem::ProgressiveByes => "method",
        _ => "players",
    };
    AppError::violations(Violations(
        e.problems
            .iter()
            .map(|p| Violation::new(field(p), p.to_string()))
            .collect(),
    ))
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
    let players = ledger.players(&stream)?;
    let roster = in_play.roster(&players);
    if let Some(open) = sessions.iter().find(|s| s.is_open()) {
        return Err(AppError::conflict(format!(
            "session {} is still open: close it before opening the next",
            open.session
        )));
    }
    let mut problems = Violations::new();
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
    // Players seated at an open table would sit twice.
    let name = |p: &PlayerId| {
        players
            .iter()
            .find(|r| &r.player == p)
            .map_or_else(|| p.to_string(), |r| r.name.clone())
    };
    let seated_elsewhere: Vec<String> = tables
        .iter()
        .filter(|t| in_play.table_open(&t.table))
        .filter_map(|t| t.seats.as_ref().map(|s| (t, s)))
        .flat_map(|(t, s)| {
            s.iter()
                .map(|(_, p)| format!("{} (table {})", name(p), t.number))
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
    let number = match sessions.last() {
        None => 1,
        Some(s) => s.session.checked_add(1).ok_or_else(|| {
            AppError::unprocessable(format!(
                "session {} is the last this tournament can number",
                s.session
            ))
        })?,
    };
    let request = seating::session::Request {
        session: number,
        method,
        seed: cmd.seed.unwrap_or_else(rand::random),
        event_sessions: cmd.sessions,
    };
    let previous = sessions.last().and_then(|s| {
        s.seating
            .as_ref()
            .map(|seating| seating::session::Previous {
                session: s.session,
                seating,
            })
    });
    let run = seating::session::run(&request, previous, &roster).map_err(seating_refused)?;
    let results = results(ledger, &stream, &sessions, &run)?;
    let seated = seating::session::seat(&run, &roster, results).map_err(seating_refused)?;
    let first = tables
        .iter()
        .map(|t| t.number)
        .max()
        .unwrap_or(0)
        .saturating_add(1);
    if u64::from(first) + seated.tables.len() as u64 > u64::from(MAX_TABLE_NUMBER) {
        return Err(AppError::unprocessable(format!(
            "tables are numbered up to {MAX_TABLE_NUMBER}: this session's tables would pass it"
        )));
    }
    let mut events = vec![NewEvent::new(SessionOpened {
        session: number,
        minutes: cmd.minutes,
        seating: Some(seated.seating),
    })];
    for (i, four) in seated.tables.into_iter().enumerate() {
        let table_number = first + i as u32;
        let table = TableId::new(&format!("{}-t{table_number}", stream.id()))
            .map_err(|e| AppError::unprocessable(e.to_string()))?;
        events.push(NewEvent::new(TableFormed {
            table: table.clone(),
            number: table_number,
            session: Some(number),
        }));
        let [east, south, west, north] = four;
        events.push(NewEvent::new(SeatsDrawn {
            table,
            seats: BySeat::new(east, south, west, north),
        }));
    }
    ledger.append(&stream, ExpectedVersion::Exact(version), events, &by.id)?;
    Ok(number)
}

/// The results the run's method needs: each played session's nets, by numbered place (a
/// substitute's net counts for the place he filled; a bye scores nothing).
fn results(
    ledger: &Ledger,
    stream: &StreamId,
    sessions: &[SessionRow],
    run: &seating::session::Run,
) -> Result<Vec<Vec<i64>>, AppError> {
    if !run.method.needs_results() {
        return Ok(Vec::new());
    }
    let mut out = Vec::with_capacity(run.played.len());
    for &number in &run.played {
        let nets: HashMap<PlayerId, i64> = ledger
            .standings_in(stream, StandingsScope::Session(number))?
            .into_iter()
            .map(|s| (s.player, s.net))
            .collect();
        let subs: HashMap<&PlayerId, &PlayerId> = sessions
            .iter()
            .filter(|s| s.session == number)
            .flat_map(|s| s.seating.iter())
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
