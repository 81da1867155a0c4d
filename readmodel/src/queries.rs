//! Reading the tournament's bookkeeping: tournaments, players, tables. One indexed query per
//! page, never a replay.

use ledger::event::{TieBreak, TournamentConfigured};
use ledger::{PlayerId, Result, SqlContext, StreamId, TableId};
use referee::BySeat;
use rusqlite::{Connection, OptionalExtension};

use crate::sql::{from_json, parse};

/// A tournament and its playing conditions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentRow {
    pub stream: StreamId,
    pub name: String,
    pub ruleset: String,
    pub config: Option<TournamentConfigured>,
    /// How ties in the standings are broken (the default chain unless one was chosen).
    pub tie_break: TieBreak,
}

/// A registered player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRow {
    pub player: PlayerId,
    pub name: String,
    /// Registered as a substitute: plays, and is kept out of the places.
    pub substitute: bool,
    /// Why the player withdrew, if he did: he is not seated again.
    pub withdrawn: Option<String>,
}

/// A table of a tournament, its seats as last drawn and the seed of a random draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableRow {
    pub table: TableId,
    pub tournament: StreamId,
    pub number: u32,
    pub draw_seed: Option<u64>,
    pub seats: Option<BySeat<PlayerId>>,
    /// The session the table was formed in, if it was formed in one.
    pub session: Option<u32>,
}

fn tournament_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<TournamentRow> {
    Ok(TournamentRow {
        stream: parse(&r.get::<_, String>(0)?)?,
        name: r.get(1)?,
        ruleset: r.get(2)?,
        config: r
            .get::<_, Option<String>>(3)?
            .map(|c| from_json(&c))
            .transpose()?,
        tie_break: r
            .get::<_, Option<String>>(4)?
            .map(|c| from_json(&c))
            .transpose()?
            .unwrap_or_default(),
    })
}

/// Every tournament, newest first.
pub(crate) fn tournaments(conn: &Connection) -> Result<Vec<TournamentRow>> {
    let mut stmt = conn
        .prepare_cached(
            "SELECT tournament, name, ruleset, config, tie_break FROM proj_tournaments ORDER BY position DESC",
        )
        .ctx("reading tournaments")?;
    let rows = stmt
        .query_map([], tournament_row)
        .ctx("reading tournaments")?;
    rows.collect::<rusqlite::Result<_>>()
        .ctx("reading tournaments")
}

/// One tournament.
pub(crate) fn tournament(conn: &Connection, stream: &StreamId) -> Result<Option<TournamentRow>> {
    conn
        .prepare_cached(
            "SELECT tournament, name, ruleset, config, tie_break FROM proj_tournaments WHERE tournament = ?1",
        )
        .and_then(|mut s| s.query_row([stream.as_str()], tournament_row).optional())
        .ctx("reading a tournament")
}

/// A tournament's players in order of registration.
pub(crate) fn players(conn: &Connection, tournament: &StreamId) -> Result<Vec<PlayerRow>> {
    let mut stmt = conn
        .prepare_cached(
            "SELECT player, name, substitute, withdrawn FROM proj_players WHERE tournament = ?1 ORDER BY position",
        )
        .ctx("reading players")?;
    let rows = stmt
        .query_map([tournament.as_str()], |r| {
            Ok(PlayerRow {
                player: parse(&r.get::<_, String>(0)?)?,
                name: r.get(1)?,
                substitute: r.get(2)?,
                withdrawn: r.get(3)?,
            })
        })
        .ctx("reading players")?;
    rows.collect::<rusqlite::Result<_>>().ctx("reading players")
}

fn seats(conn: &Connection, table: &str) -> Result<Option<BySeat<PlayerId>>> {
    let mut stmt = conn
        .prepare_cached("SELECT seat, player FROM proj_seats WHERE table_id = ?1")
        .ctx("reading seats")?;
    let rows = stmt
        .query_map([table], |r| {
            Ok((
                parse::<referee::Seat>(&r.get::<_, String>(0)?)?,
                parse::<PlayerId>(&r.get::<_, String>(1)?)?,
            ))
        })
        .ctx("reading seats")?;
    let mut seats = BySeat::<Option<PlayerId>>::default();
    for row in rows {
        let (seat, player) = row.ctx("reading seats")?;
        *seats.get_mut(seat) = Some(player);
    }
    Ok(seats.transpose())
}

fn table_rows(conn: &Connection, sql: &str, key: &str) -> Result<Vec<TableRow>> {
    let mut stmt = conn.prepare_cached(sql).ctx("reading tables")?;
    type Row = (String, String, u32, Option<i64>, Option<u32>);
    let rows: Vec<Row> = stmt
        .query_map([key], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
        })
        .ctx("reading tables")?
        .collect::<rusqlite::Result<_>>()
        .ctx("reading tables")?;
    let mut out = Vec::with_capacity(rows.len());
    for (table, tournament, number, seed, session) in rows {
        let seats = seats(conn, &table)?;
        out.push(TableRow {
            table: parse(&table).ctx("reading tables")?,
            tournament: parse(&tournament).ctx("reading tables")?,
            number,
            draw_seed: seed.map(|s| s as u64),
            seats,
            session,
        });
    }
    Ok(out)
}

/// A tournament's tables by number.
pub(crate) fn tables(conn: &Connection, tournament: &StreamId) -> Result<Vec<TableRow>> {
    table_rows(
        conn,
        "SELECT table_id, tournament, number, draw_seed, session FROM proj_tables \
         WHERE tournament = ?1 ORDER BY number",
        tournament.as_str(),
    )
}

/// One table.
pub(crate) fn table(conn: &Connection, table: &TableId) -> Result<Option<TableRow>> {
    Ok(table_rows(
        conn,
        "SELECT table_id, tournament, number, draw_seed, session FROM proj_tables \
             WHERE table_id = ?1",
        table.as_str(),
    )?
    .pop())
}
