//! Reading a tournament's sessions: which are open, their clocks and how they were seated.
//! When a session opened and closed is the `recorded_at` of the events that did it, read from
//! the event log itself, so the clock is the ledger's and survives a restart.

use chrono::{DateTime, Utc};
use ledger::event::SessionSeating;
use ledger::{parse_canonical_time, Result, SqlContext, StreamId};
use rusqlite::Connection;

use crate::sql::from_json;

/// A session of a tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionRow {
    pub session: u32,
    /// How long it is to last, in minutes; `None` for no time set.
    pub minutes: Option<u32>,
    /// How the program seated it, if it did.
    pub seating: Option<SessionSeating>,
    pub opened_at: DateTime<Utc>,
    /// When it closed; `None` while it is open (its results seen by officials only).
    pub closed_at: Option<DateTime<Utc>>,
    /// The ledger position of its closing (the checkpoint signed after it seals it).
    pub closed_position: Option<u64>,
}

impl SessionRow {
    pub fn is_open(&self) -> bool {
        self.closed_at.is_none()
    }

    /// Whole minutes it has run at `now` (or ran, once closed).
    pub fn elapsed_minutes(&self, now: DateTime<Utc>) -> i64 {
        let end = self.closed_at.unwrap_or(now);
        (end - self.opened_at).num_minutes().max(0)
    }

    /// Minutes left of its length at `now`: negative when the time is up; `None` when no
    /// length was set.
    pub fn left_minutes(&self, now: DateTime<Utc>) -> Option<i64> {
        self.minutes
            .map(|m| i64::from(m) - self.elapsed_minutes(now))
    }
}

fn at(text: &str) -> rusqlite::Result<DateTime<Utc>> {
    parse_canonical_time(text).ok_or_else(|| {
        rusqlite::Error::FromSqlConversionFailure(
            0,
            rusqlite::types::Type::Text,
            format!("`{text}` is not a recorded time").into(),
        )
    })
}

/// A tournament's sessions in order.
pub(crate) fn sessions(conn: &Connection, tournament: &StreamId) -> Result<Vec<SessionRow>> {
    let mut stmt = conn
        .prepare_cached(
            "SELECT s.session, s.minutes, s.seating, o.recorded_at, c.recorded_at, s.closed_position \
             FROM proj_sessions s JOIN events o ON o.position = s.opened_position \
             LEFT JOIN events c ON c.position = s.closed_position \
             WHERE s.tournament = ?1 ORDER BY s.session",
        )
        .ctx("reading sessions")?;
    let rows = stmt
        .query_map([tournament.as_str()], |r| {
            Ok(SessionRow {
                session: r.get(0)?,
                minutes: r.get(1)?,
                seating: r
                    .get::<_, Option<String>>(2)?
                    .map(|s| from_json(&s))
                    .transpose()?,
                opened_at: at(&r.get::<_, String>(3)?)?,
                closed_at: r.get::<_, Option<String>>(4)?.map(|t| at(&t)).transpose()?,
                closed_position: r.get::<_, Option<i64>>(5)?.map(|p| p as u64),
            })
        })
        .ctx("reading sessions")?;
    rows.collect::<rusqlite::Result<_>>()
        .ctx("reading sessions")
}

/// The sessions of a tournament still open (their results hidden from the public).
pub(crate) fn open_sessions(conn: &Connection, tournament: &StreamId) -> Result<Vec<u32>> {
    let mut stmt = conn
        .prepare_cached(
            "SELECT session FROM proj_sessions WHERE tournament = ?1 AND closed_position IS NULL \
             ORDER BY session",
        )
        .ctx("reading open sessions")?;
    let rows = stmt
        .query_map([tournament.as_str()], |r| r.get(0))
        .ctx("reading open sessions")?;
    rows.collect::<rusqlite::Result<_>>()
        .ctx("reading open sessions")
}
