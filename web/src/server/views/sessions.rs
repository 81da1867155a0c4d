//! A tournament's sessions: each with its clock, how it was seated, its tables, byes and
//! substitutes, and what the next session would seat. Serialized as is for the JSON API
//! (`GET /api/tournaments/<id>/sessions`).

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use ledger::{Ledger, SessionRow};
use serde::Serialize;

use super::common::{names, seats_view, tournament_row, SeatView};
use super::table::SessionClockView;
use super::tournament::{StandingRow, TournamentSummary};
use super::{signed, Audience};
use crate::server::error::AppError;
use crate::server::in_play::InPlay;

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
    tables: &[ledger::TableRow],
    in_play: &InPlay,
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

/// Every session of a tournament, and what the next would seat. The public sees no voided
/// tournament (404), and no voided table.
pub fn view(ledger: &Ledger, id: &str, audience: Audience) -> Result<SessionsView, AppError> {
    let (stream, row) = tournament_row(ledger, id)?;
    let in_play = InPlay::load(ledger, &stream)?;
    if audience == Audience::Public && in_play.tournament_voided().is_some() {
        return Err(AppError::not_found(format!("no tournament `{id}`")));
    }
    let names = names(ledger, &stream)?;
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
    let players = ledger.players(&stream)?;
    let free = |p: &&ledger::PlayerRow| {
        p.withdrawn.is_none() && in_play.player_voided(&p.player).is_none()
    };
    let last = rows.last().and_then(|s| s.seating.as_ref().map(|x| (s, x)));
    Ok(SessionsView {
        tournament: super::tournament::summary(&row),
        next: rows.last().map_or(1, |s| s.session.saturating_add(1)),
        open: rows.iter().find(|s| s.is_open()).map(|s| s.session),
        present: players
            .iter()
            .filter(free)
            .filter(|p| !p.substitute)
            .count(),
        substitutes: players.iter().filter(free).filter(|p| p.substitute).count(),
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
    let all = view(ledger, id, audience)?;
    let (stream, _) = tournament_row(ledger, id)?;
    let Some(session) = all.sessions.into_iter().find(|s| s.session == number) else {
        return Err(AppError::not_found(format!(
            "tournament `{id}` has no session {number}"
        )));
    };
    let results_hidden = session.open && audience == Audience::Public;
    let names = names(ledger, &stream)?;
    let in_play = InPlay::load(ledger, &stream)?;
    let rows = if results_hidden {
        Vec::new()
    } else {
        ledger
            .standings_in(&stream, ledger::StandingsScope::Session(number))?
            .into_iter()
            .filter(|s| {
                audience == Audience::Officials || in_play.player_voided(&s.player).is_none()
            })
            .map(|s| StandingRow {
                rank: s.rank,
                name: names.get(s.player.as_str()).cloned().unwrap_or_default(),
                player: s.player.as_str().to_owned(),
                net: s.net,
                net_text: signed(s.net),
                hands_played: s.hands_played,
                hands_won: s.hands_won,
                largest_hand: s.largest_hand,
                substitute: s.substitute,
                withdrawn: s.withdrawn,
            })
            .collect()
    };
    Ok(SessionStandingsView {
        tournament: all.tournament,
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
    use referee::seating::{plan, Method, PlanRequest, Remainder};
    let s = view(ledger, id, audience)?;
    let (stream, _) = tournament_row(ledger, id)?;
    let in_play = InPlay::load(ledger, &stream)?;
    let present: Vec<ledger::PlayerRow> = ledger
        .players(&stream)?
        .into_iter()
        .filter(|p| {
            !p.substitute && p.withdrawn.is_none() && in_play.player_voided(&p.player).is_none()
        })
        .collect();
    let mut out = PlanPreview {
        tournament: s.tournament,
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
        remainder: if n.is_multiple_of(4) {
            Remainder::Fewest
        } else {
            Remainder::Byes
        },
        ..PlanRequest::new(n, u64::from(sessions), method, seed)
    };
    match plan(&request) {
        Ok(p) => {
            let name = |q: &referee::seating::Player| present[q.index()].name.clone();
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
