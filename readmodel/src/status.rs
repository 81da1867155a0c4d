//! What is out of play: voided tournaments, tables and players, closed tables, and how each
//! random seat draw was made.
//!
//! Kept apart from the other service projections because it is read for a different reason:
//! every write that seats a player or records a hand asks whether its tournament, table or
//! player is still in play, and pages ask what to leave out for the public. Folded from
//! `TournamentVoided`, `TableVoided`, `PlayerVoided`, `TableClosed` and `SeatDrawSeeded`, and
//! undone by `VoidingUndone` and `TableReopened`.

use rusqlite::{params, Connection, OptionalExtension};

use ledger::{Event, EventMeta, Result, SqlContext, StreamId, TableId};

/// What was voided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VoidedKind {
    Tournament,
    Table,
    Player,
}

impl VoidedKind {
    /// The name stored in `proj_voided.kind`.
    pub const fn name(self) -> &'static str {
        match self {
            VoidedKind::Tournament => "tournament",
            VoidedKind::Table => "table",
            VoidedKind::Player => "player",
        }
    }

    fn parse(s: &str) -> Option<VoidedKind> {
        [
            VoidedKind::Tournament,
            VoidedKind::Table,
            VoidedKind::Player,
        ]
        .into_iter()
        .find(|k| k.name() == s)
    }
}

/// A voided tournament, table or player, with the reason given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Voided {
    pub kind: VoidedKind,
    /// The tournament's, table's or player's id.
    pub id: String,
    pub reason: String,
}

fn void(
    conn: &Connection,
    meta: &EventMeta<'_>,
    kind: VoidedKind,
    id: &str,
    reason: &str,
) -> Result<()> {
    conn.prepare_cached(
        "INSERT OR REPLACE INTO proj_voided (tournament, kind, id, reason, position) VALUES (?1, ?2, ?3, ?4, ?5)",
    )
    .and_then(|mut s| {
        s.execute(params![meta.stream.as_str(), kind.name(), id, reason, meta.position as i64])
    })
    .ctx("recording a voiding")
    .map(drop)
}

/// Folds one event into the status tables; other events are ignored.
pub(crate) fn apply(conn: &Connection, meta: &EventMeta<'_>, event: &Event) -> Result<()> {
    match event {
        Event::TournamentVoided(e) => void(conn, meta, VoidedKind::Tournament, meta.stream.id(), &e.reason),
        Event::TableVoided(e) => void(conn, meta, VoidedKind::Table, e.table.as_str(), &e.reason),
        Event::PlayerVoided(e) => void(conn, meta, VoidedKind::Player, e.player.as_str(), &e.reason),
        Event::TableClosed(e) => conn
            .prepare_cached(
                "INSERT OR REPLACE INTO proj_closed_tables (table_id, tournament, position) VALUES (?1, ?2, ?3)",
            )
            .and_then(|mut s| {
                s.execute(params![e.table.as_str(), meta.stream.as_str(), meta.position as i64])
            })
            .ctx("recording a closed table")
            .map(drop),
        Event::VoidingUndone(e) => {
            let (kind, id) = match (&e.table, &e.player) {
                (Some(t), _) => (VoidedKind::Table, t.as_str()),
                (None, Some(p)) => (VoidedKind::Player, p.as_str()),
                (None, None) => (VoidedKind::Tournament, meta.stream.id()),
            };
            conn.prepare_cached(
                "DELETE FROM proj_voided WHERE tournament = ?1 AND kind = ?2 AND id = ?3",
            )
            .and_then(|mut s| s.execute(params![meta.stream.as_str(), kind.name(), id]))
            .ctx("undoing a voiding")
            .map(drop)
        }
        Event::TableReopened(e) => conn
            .prepare_cached("DELETE FROM proj_closed_tables WHERE table_id = ?1")
            .and_then(|mut s| s.execute(params![e.table.as_str()]))
            .ctx("reopening a table")
            .map(drop),
        Event::SeatDrawSeeded(e) => conn
            .prepare_cached("INSERT OR REPLACE INTO proj_draw_methods (table_id, method) VALUES (?1, ?2)")
            .and_then(|mut s| s.execute(params![e.table.as_str(), e.method]))
            .ctx("recording a seat draw's method")
            .map(drop),
        _ => Ok(()),
    }
}

/// Everything voided in a tournament (the tournament itself included), in the order voided.
pub(crate) fn voided(conn: &Connection, tournament: &StreamId) -> Result<Vec<Voided>> {
    let mut stmt = conn
        .prepare_cached(
            "SELECT kind, id, reason FROM proj_voided WHERE tournament = ?1 ORDER BY position",
        )
        .ctx("reading what is voided")?;
    let rows = stmt
        .query_map([tournament.as_str()], |r| {
            Ok((r.get::<_, String>(0)?, r.get(1)?, r.get(2)?))
        })
        .ctx("reading what is voided")?;
    let mut out = Vec::new();
    for row in rows {
        let (kind, id, reason) = row.ctx("reading what is voided")?;
        // A kind this build does not write can only come from tampering; the audit's replay
        // comparison reports the row.
        if let Some(kind) = VoidedKind::parse(&kind) {
            out.push(Voided { kind, id, reason });
        }
    }
    Ok(out)
}

/// The tables of a tournament whose play is over, in the order closed.
pub(crate) fn closed_tables(conn: &Connection, tournament: &StreamId) -> Result<Vec<TableId>> {
    let mut stmt = conn
        .prepare_cached(
            "SELECT table_id FROM proj_closed_tables WHERE tournament = ?1 ORDER BY position",
        )
        .ctx("reading closed tables")?;
    let rows = stmt
        .query_map([tournament.as_str()], |r| r.get::<_, String>(0))
        .ctx("reading closed tables")?;
    let mut out = Vec::new();
    for row in rows {
        let id = row.ctx("reading closed tables")?;
        if let Ok(id) = TableId::new(&id) {
            out.push(id);
        }
    }
    Ok(out)
}

/// How a table's random seat draw was made (`SeatDrawSeeded.method`), when it was random.
pub(crate) fn draw_method(conn: &Connection, table: &TableId) -> Result<Option<String>> {
    conn.prepare_cached("SELECT method FROM proj_draw_methods WHERE table_id = ?1")
        .and_then(|mut s| s.query_row([table.as_str()], |r| r.get(0)).optional())
        .ctx("reading a seat draw's method")
}
