//! Running a tournament in sessions: opening the next one, seated by the generator, and
//! closing it.
//!
//! The seating's rules — a plan kept session by session, substitutes in withdrawn players'
//! places, rebalancing by a new plan, byes — are [`crate::seating::session`]'s. The
//! tournament's own:
//! - **Sessions run one after another.** Session `k + 1` opens only when session `k` is
//!   closed, and no player may still sit at an open table formed by hand.
//! - Closing a session closes its open tables in the same append, and makes its results
//!   public ([`super::visibility`]).

use std::collections::BTreeMap;

use crate::event::{
    SeatsDrawn, SessionClosed, SessionOpened, TableClosed, TableFormed, TournamentEvent,
};
use crate::ids::PlayerId;
use crate::seating::session::{self as plan, Previous, Request, Run};
use crate::seating::{Method, SeatingError, SeatingProblem};
use crate::violation::{Violation, Violations};
use crate::BySeat;

use super::command::Refusal;
use super::ranges::{MAX_MINUTES, MAX_TABLE_NUMBER};
use super::Tournament;

/// The seating generator's refusal, each problem on the field that asked for it.
fn seating_refused(e: SeatingError) -> Refusal {
    let field = |p: &SeatingProblem| match p {
        SeatingProblem::EventTooShort { .. } | SeatingProblem::TooManySessions { .. } => "sessions",
        SeatingProblem::ProgressiveByes => "method",
        _ => "players",
    };
    Refusal::Invalid(Violations(
        e.problems
            .iter()
            .map(|p| Violation::new(field(p), p.to_string()))
            .collect(),
    ))
}

impl Tournament {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn decide_open_session(
        &self,
        method: &str,
        seed: u64,
        sessions: Option<u32>,
        minutes: Option<u32>,
        nets: &BTreeMap<u32, BTreeMap<PlayerId, i64>>,
    ) -> Result<Vec<TournamentEvent>, Refusal> {
        self.exists()?;
        self.not_voided()?;
        if let Some(open) = self.open_session() {
            return Err(Refusal::Conflict(format!(
                "session {} is still open: close it before opening the next",
                open.number
            )));
        }
        let mut problems = Violations::new();
        let method: Option<Method> = match method.trim().parse() {
            Ok(m) => Some(m),
            Err(e) => {
                problems.push(Violation::new("method", e.to_string()));
                None
            }
        };
        if let Some(m) = minutes.filter(|m| !(1..=MAX_MINUTES).contains(m)) {
            problems.push(Violation::new(
                "minutes",
                format!("{m} is out of range; allowed 1 to {MAX_MINUTES}"),
            ));
        }
        // Players seated at an open table would sit twice.
        let seated_elsewhere: Vec<String> = self
            .tables
            .iter()
            .filter(|t| t.is_open())
            .filter_map(|t| t.seats.as_ref().map(|s| (t, s)))
            .flat_map(|(t, s)| {
                s.iter()
                    .map(|(_, p)| format!("{} (table {})", self.name_of(p), t.number))
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
            return Err(problems.into());
        };
        let number = match self.sessions.last() {
            None => 1,
            Some(s) => s.number.checked_add(1).ok_or_else(|| {
                Refusal::Unprocessable(format!(
                    "session {} is the last this tournament can number",
                    s.number
                ))
            })?,
        };
        let roster = self.roster();
        let run = self.session_run(number, method, seed, sessions)?;
        let results = self.results(&run, nets);
        let seated = plan::seat(&run, &roster, results).map_err(seating_refused)?;
        let first = self.next_table_number();
        if u64::from(first) + seated.tables.len() as u64 > u64::from(MAX_TABLE_NUMBER) {
            return Err(Refusal::Unprocessable(format!(
                "tables are numbered up to {MAX_TABLE_NUMBER}: this session's tables would pass it"
            )));
        }
        let mut events = vec![TournamentEvent::SessionOpened(SessionOpened {
            session: number,
            minutes,
            seating: Some(seated.seating),
        })];
        for (i, four) in seated.tables.into_iter().enumerate() {
            let table_number = first + i as u32;
            let table = self.table_id(table_number)?;
            events.push(TournamentEvent::TableFormed(TableFormed {
                table: table.clone(),
                number: table_number,
                session: Some(number),
            }));
            let [east, south, west, north] = four;
            events.push(TournamentEvent::SeatsDrawn(SeatsDrawn {
                table,
                seats: BySeat::new(east, south, west, north),
            }));
        }
        Ok(events)
    }

    /// The run of a plan session `number` belongs to: the last session's plan continued, or a
    /// new one over the players present ([`plan::run`]).
    pub fn session_run(
        &self,
        number: u32,
        method: Method,
        seed: u64,
        sessions: Option<u32>,
    ) -> Result<Run, Refusal> {
        let request = Request {
            session: number,
            method,
            seed,
            event_sessions: sessions,
        };
        let previous = self.sessions.last().and_then(|s| {
            s.seating.as_ref().map(|seating| Previous {
                session: s.number,
                seating,
            })
        });
        plan::run(&request, previous, &self.roster()).map_err(seating_refused)
    }

    /// The results the run's method needs: each played session's nets, by numbered place (a
    /// substitute's net counts for the place he filled; a bye scores nothing).
    fn results(&self, run: &Run, nets: &BTreeMap<u32, BTreeMap<PlayerId, i64>>) -> Vec<Vec<i64>> {
        if !run.method.needs_results() {
            return Vec::new();
        }
        let none = BTreeMap::new();
        run.played
            .iter()
            .map(|number| {
                let nets = nets.get(number).unwrap_or(&none);
                let subs: Vec<(&PlayerId, &PlayerId)> = self
                    .sessions
                    .iter()
                    .filter(|s| s.number == *number)
                    .flat_map(|s| s.seating.iter())
                    .flat_map(|s| s.substitutions.iter())
                    .map(|s| (&s.withdrawn, &s.substitute))
                    .collect();
                run.players
                    .iter()
                    .map(|p| {
                        let sitter = subs.iter().find(|(w, _)| *w == p).map_or(p, |(_, s)| *s);
                        nets.get(sitter).copied().unwrap_or(0)
                    })
                    .collect()
            })
            .collect()
    }

    pub(super) fn decide_close_session(
        &self,
        session: u32,
    ) -> Result<Vec<TournamentEvent>, Refusal> {
        self.exists()?;
        self.not_voided()?;
        let Some(s) = self.sessions.iter().find(|s| s.number == session) else {
            return Err(Refusal::NotFound(format!(
                "tournament `{}` has no session {session}",
                self.id
            )));
        };
        if s.closed {
            return Err(Refusal::Conflict(format!(
                "session {session} is already closed"
            )));
        }
        let mut events: Vec<TournamentEvent> = self
            .tables
            .iter()
            .filter(|t| t.session == Some(session) && t.is_open())
            .map(|t| {
                TournamentEvent::TableClosed(TableClosed {
                    table: t.id.clone(),
                })
            })
            .collect();
        events.push(TournamentEvent::SessionClosed(SessionClosed { session }));
        Ok(events)
    }
}
