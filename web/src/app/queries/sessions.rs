//! A tournament's sessions: each with its clock, how it was seated, its tables, byes and
//! substitutes, and what the next session would seat. Serialized as is for the JSON API
//! (`GET /api/tournaments/<id>/sessions`).

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use ledger::Ledger;
use readmodel::{Reads, SessionRow};
use serde::Serialize;

use super::common::{names, seats_view, tournament_row, SeatView};
use super::table::SessionClockView;
use super::tournament::{StandingRow, TournamentSummary};
use super::Audience;
use crate::app::error::AppError;
use referee::tournament::Tournament as TournamentState;

#[derive(Clone, Debug, Serialize)]
pub struct SessionTableView {
    pub id: String,
    pub number: u32,
    pub seats: Vec<SeatView>,
    pub closed: bool,
    pub voided: bool,
}

/// A player named on a session's page.
#[derive(Clone, Debug, Serialize)]
pub struct Named {
    pub player: String,
    pub name: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct SubstitutionView {
    pub withdrawn: Named,
    pub substitute: Named,
}

#[derive(Clone, Debug, Serialize)]
pub struct SessionView {
    pub session: u32,
    pub open: bool,
    pub opened_at: DateTime<Utc>,
    pub closed_at: Option<DateTime<Utc>>,
    pub minutes: Option<u32>,
    pub clock: SessionClockView,
    /// `no-repeat`, `swiss`, `progressive`, `random`; `None` when its tables were formed by hand.
    pub method: Option<String>,
    pub seed: Option<u64>,
    /// "session 2 of a plan for 5".
    pub plan: Option<String>,
    /// Repeated meetings in the whole plan, as reported when it was made.
    pub repeats: Option<u32>,
    pub tables: Vec<SessionTableView>,
    pub byes: Vec<Named>,
    pub substitutions: Vec<SubstitutionView>,
}

#[derive(Clone, Debug, Serialize)]
pub struct SessionsView {
    pub tournament: TournamentSummary,
    pub sessions: Vec<SessionView>,
    /// The next session's number.
    pub next: u32,
    /// A session is open: the next cannot open until it closes.
    pub open: Option<u32>,
    /// Players who would be seated (registered, not voided, not withdrawn, not substitutes).
    pub present: usize,
    /// Substitutes who may take a withdrawn player's place.
    pub substitutes: usize,
    /// The method and the event's length the last session used, for the form's defaults.
    pub last_method: String,
    pub event_sessions: Option<u32>,
}

fn named(p: &ledger::PlayerId, names: &HashMap<String, String>) -> Named {
    Named {
        player: p.as_str().to_owned(),
        name: names.get(p.as_str()).cloned().unwrap_or_default(),
    }
}

fn session_view(
    row: &SessionRow,
    tables: &[readmodel::TableRow],
    in_play: &TournamentState,
    names: &HashMap<String, String>,
    now: DateTime<Utc>,
) -> SessionView {
    let seating = row.seating.as_ref();
    SessionView {
        session: row.session,
        open: row.is_open(),
        opened_at: row.opened_at,
        closed_at: row.closed_at,
        minutes: row.minutes,
        clock: SessionClockView::of(row, now),
        method: seating.map(|s| s.method.clone()),
        seed: seating.map(|s| s.seed),
        plan: seating.map(|s| {
            format!(
                "session {} of a plan for {}",
                s.plan_session, s.plan_sessions
            )
        }),
        repeats: seating.map(|s| s.repeats),
        tables: tables
            .iter()
            .filter(|t| t.session == Some(row.session))
            .map(|t| SessionTableView {
                id: t.table.as_str().to_owned(),
                number: t.number,
                seats: seats_view(&t.seats, names),
                closed: in_play.table_closed(&t.table),
                voided: in_play.table_voided(&t.table).is_some(),
            })
            .collect(),
        byes: seating
            .map(|s| s.byes.iter().map(|p| named(p, names)).collect())
            .unwrap_or_default(),
        substitutions: seating
            .map(|s| {
                s.substitutions
                    .iter()
                    .map(|x| SubstitutionView {
                        withdrawn: named(&x.withdrawn, names),
                        substitute: named(&x.substitute, names),
                    })
                    .collect()
            })
            .unwrap_or_default(),
    }
}

/// A tournament as the sessions pages read it: 404 for the public when it is voided.
struct Tournament {
    stream: ledger::StreamId,
    row: readmodel::TournamentRow,
    in_play: TournamentState,
    names: HashMap<String, String>,
}

impl Tournament {
    fn load(ledger: &Ledger, id: &str, audience: Audience) -> Result<Tournament, AppError> {
        let (stream, row) = tournament_row(ledger, id)?;
        let in_play = crate::app::tournament::load_stream(ledger, stream.clone())?.state;
        if audience == Audience::Public && in_play.tournament_voided().is_some() {
            return Err(AppError::not_found(format!("no tournament `{id}`")));
        }
        Ok(Tournament {
            names: names(ledger, &stream)?,
            stream,
            row,
            in_play,
        })
    }
}

/// Every session of a tournament, and what the next would seat. The public sees no voided
/// tournament (404), and no voided table.
pub fn view(ledger: &Ledger, id: &str, audience: Audience) -> Result<SessionsView, AppError> {
    let Tournament {
        stream,
        row,
        in_play,
        names,
    } = Tournament::load(ledger, id, audience)?;
    let tables = ledger.tables(&stream)?;
    let rows = ledger.sessions(&stream)?;
    let now = Utc::now();
    let mut sessions: Vec<SessionView> = rows
        .iter()
        .map(|s| session_view(s, &tables, &in_play, &names, now))
        .collect();
    if audience == Audience::Public {
        for s in &mut sessions {
            s.tables.retain(|t| !t.voided);
        }
    }
    let roster = in_play.roster();
    let last = rows.last().and_then(|s| s.seating.as_ref().map(|x| (s, x)));
    Ok(SessionsView {
        tournament: super::tournament::summary(&row),
        next: rows.last().map_or(1, |s| s.session.saturating_add(1)),
        open: rows.iter().find(|s| s.is_open()).map(|s| s.session),
        present: roster.present.len(),
        substitutes: roster.substitutes.len(),
        last_method: last.map_or_else(|| "no-repeat".to_owned(), |(_, s)| s.method.clone()),
        event_sessions: last
            .map(|(r, s)| (r.session + s.plan_sessions).saturating_sub(s.plan_session)),
        sessions,
    })
}

/// One session's own standings: the end-of-session balances, players of the session only.
#[derive(Clone, Debug, Serialize)]
pub struct SessionStandingsView {
    pub tournament: TournamentSummary,
    pub session: SessionView,
    /// Hidden from the public while the session is open.
    pub results_hidden: bool,
    pub rows: Vec<StandingRow>,
}

pub fn session(
    ledger: &Ledger,
    id: &str,
    number: u32,
    audience: Audience,
) -> Result<SessionStandingsView, AppError> {
    let t = Tournament::load(ledger, id, audience)?;
    let Some(row) = ledger
        .sessions(&t.stream)?
        .into_iter()
        .find(|s| s.session == number)
    else {
        return Err(AppError::not_found(format!(
            "tournament `{id}` has no session {number}"
        )));
    };
    let mut session = session_view(
        &row,
        &ledger.tables(&t.stream)?,
        &t.in_play,
        &t.names,
        Utc::now(),
    );
    if audience == Audience::Public {
        session.tables.retain(|table| !table.voided);
    }
    let results_hidden = session.open && audience == Audience::Public;
    let rows = if results_hidden {
        Vec::new()
    } else {
        ledger
            .standings_in(&t.stream, readmodel::StandingsScope::Session(number))?
            .into_iter()
            .filter(|s| {
                audience == Audience::Officials || t.in_play.player_voided(&s.player).is_none()
            })
            .map(|s| StandingRow::of(&s, &t.names))
            .collect()
    };
    Ok(SessionStandingsView {
        tournament: super::tournament::summary(&t.row),
        session,
        results_hidden,
        rows,
    })
}

/// A seating plan for the players present, previewed before any session opens: what the
/// `seating` command prints, with names. Nothing is recorded.
#[derive(Clone, Debug, Serialize)]
pub struct PlanPreview {
    pub tournament: TournamentSummary,
    pub method: String,
    pub seed: u64,
    pub sessions: u32,
    /// Each planned session's tables (names in chair order, East first) and byes.
    pub plan: Vec<PlannedSession>,
    pub repeats: u32,
    pub most_meetings: u8,
    /// The fewest and most times a player sits East.
    pub east: (u16, u16),
    pub wind_spread: u16,
    /// Why no plan could be made (a bad request), every problem.
    pub problems: Vec<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct PlannedSession {
    pub tables: Vec<Vec<String>>,
    pub byes: Vec<String>,
}

/// Plans `sessions` sessions for the tournament's players present, by `method` and `seed`, as
/// opening sessions would (byes for a count not divisible by four).
pub fn preview(
    ledger: &Ledger,
    id: &str,
    method: &str,
    seed: u64,
    sessions: u32,
    audience: Audience,
) -> Result<PlanPreview, AppError> {
    use referee::seating::{plan, session::remainder_for, Method, PlanRequest};
    let t = Tournament::load(ledger, id, audience)?;
    let present = t.in_play.roster().present;
    let names = t.names;
    let mut out = PlanPreview {
        tournament: super::tournament::summary(&t.row),
        method: method.to_owned(),
        seed,
        sessions,
        plan: Vec::new(),
        repeats: 0,
        most_meetings: 0,
        east: (0, 0),
        wind_spread: 0,
        problems: Vec::new(),
    };
    let method: Method = match method.parse() {
        Ok(m) => m,
        Err(e) => {
            out.problems.push(e.to_string());
            return Ok(out);
        }
    };
    let n = present.len() as u64;
    let request = PlanRequest {
        remainder: remainder_for(n),
        ..PlanRequest::new(n, u64::from(sessions), method, seed)
    };
    match plan(&request) {
        Ok(p) => {
            let name = |q: &referee::seating::Player| {
                let p = present[q.index()].as_str();
                names.get(p).cloned().unwrap_or_else(|| p.to_owned())
            };
            out.plan = p
                .sessions()
                .iter()
                .map(|s| PlannedSession {
                    tables: s
                        .tables
                        .iter()
                        .map(|t| t.iter().map(name).collect())
                        .collect(),
                    byes: s.byes.iter().map(name).collect(),
                })
                .collect();
            let m = p.meetings();
            out.repeats = m.repeats;
            out.most_meetings = m.most;
            out.east = m.east();
            out.wind_spread = m.wind_spread();
        }
        Err(e) => out.problems = e.problems.iter().map(ToString::to_string).collect(),
    }
    Ok(out)
}
