//! Long lists read a page at a time (issue 14: a player's 301 hands made a 26,612-pixel phone
//! page), and what a page needs from the rows before it.
//!
//! Pages are cut in the query with `LIMIT`/`OFFSET` over the same indexed order the whole-list
//! reads use (`position`, or a table's number), rather than loading everything and slicing.
//! Offsets were chosen over keyset paging because the pages are numbered ("page 3 of 7") and
//! the lists are short enough (hundreds of rows, by index) that skipping rows costs nothing a
//! reader notices; a keyset would need the page's first row in the address. Running totals
//! that start on a later page are the sum of the rows before it, summed in SQL from
//! `proj_player_hands` (each seat's net of a hand in force, 0 for a hand that does not count).

use ledger::{PlayerId, Result, SqlContext, StreamId, TableId};
use referee::BySeat;
use rusqlite::{params, Connection};

use crate::hand_queries::PlayerHand;
use crate::hand_record::HandRecord;
use crate::queries::{table, TableRow};
use crate::sql::{from_json, parse};

/// Which rows of a list: at most `limit`, after skipping `offset`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slice {
    pub limit: u32,
    pub offset: u64,
}

impl Slice {
    /// Every row.
    pub const ALL: Slice = Slice {
        limit: u32::MAX,
        offset: 0,
    };

    fn sql(self) -> (i64, i64) {
        (
            i64::from(self.limit),
            i64::try_from(self.offset).unwrap_or(i64::MAX),
        )
    }
}

/// How many hands were started at a table.
pub(crate) fn table_hand_count(conn: &Connection, table: &TableId) -> Result<u64> {
    count(
        conn,
        "SELECT COUNT(*) FROM proj_hand_records WHERE table_id = ?1",
        params![table.as_str()],
        "counting a table's hands",
    )
}

/// A slice of a table's hands, in the order they started.
pub(crate) fn table_hands_slice(
    conn: &Connection,
    table: &TableId,
    slice: Slice,
) -> Result<Vec<HandRecord>> {
    let (limit, offset) = slice.sql();
    let what = "reading a page of a table's hands";
    let mut stmt = conn
        .prepare_cached(
            "SELECT record FROM proj_hand_records WHERE table_id = ?1 ORDER BY position \
             LIMIT ?2 OFFSET ?3",
        )
        .ctx(what)?;
    let rows = stmt
        .query_map(params![table.as_str(), limit, offset], |r| {
            from_json(&r.get::<_, String>(0)?)
        })
        .ctx(what)?;
    rows.collect::<rusqlite::Result<_>>().ctx(what)
}

/// Each seat's (as drawn) net over the first `hands` hands started at a table: where a
/// later page's running totals start.
pub(crate) fn table_nets_before(
    conn: &Connection,
    table: &TableId,
    hands: u64,
) -> Result<BySeat<i64>> {
    let what = "summing a table's earlier hands";
    let mut stmt = conn
        .prepare_cached(
            "SELECT p.seat, SUM(p.net) FROM proj_player_hands p JOIN \
               (SELECT stream FROM proj_hand_records WHERE table_id = ?1 ORDER BY position LIMIT ?2) h \
               ON h.stream = p.stream GROUP BY p.seat",
        )
        .ctx(what)?;
    let rows = stmt
        .query_map(
            params![table.as_str(), i64::try_from(hands).unwrap_or(i64::MAX)],
            |r| {
                Ok((
                    parse::<referee::Seat>(&r.get::<_, String>(0)?)?,
                    r.get::<_, i64>(1)?,
                ))
            },
        )
        .ctx(what)?;
    let mut nets = BySeat::<i64>::default();
    for row in rows {
        let (seat, net) = row.ctx(what)?;
        *nets.get_mut(seat) = net;
    }
    Ok(nets)
}

/// How many hands a player took part in.
pub(crate) fn player_hand_count(
    conn: &Connection,
    tournament: &StreamId,
    player: &PlayerId,
) -> Result<u64> {
    count(
        conn,
        "SELECT COUNT(*) FROM proj_player_hands WHERE tournament = ?1 AND player = ?2",
        params![tournament.as_str(), player.as_str()],
        "counting a player's hands",
    )
}

/// A slice of the hands a player took part in, in order; without the hands of sessions
/// still open when `hide_open_sessions` (the public's view).
pub(crate) fn player_hands_slice(
    conn: &Connection,
    tournament: &StreamId,
    player: &PlayerId,
    slice: Slice,
    hide_open_sessions: bool,
) -> Result<Vec<PlayerHand>> {
    let (limit, offset) = slice.sql();
    let what = "reading a page of a player's hands";
    let mut stmt = conn
        .prepare_cached(
            "SELECT p.seat, h.record FROM proj_player_hands p JOIN proj_hand_records h ON h.stream = p.stream \
             WHERE p.tournament = ?1 AND p.player = ?2 AND NOT (?5 AND p.session IN \
               (SELECT session FROM proj_sessions WHERE tournament = ?1 AND closed_position IS NULL)) \
             ORDER BY p.position, p.seat LIMIT ?3 OFFSET ?4",
        )
        .ctx(what)?;
    let rows = stmt
        .query_map(
            params![
                tournament.as_str(),
                player.as_str(),
                limit,
                offset,
                hide_open_sessions
            ],
            |r| {
                Ok(PlayerHand {
                    seat: parse(&r.get::<_, String>(0)?)?,
                    record: from_json(&r.get::<_, String>(1)?)?,
                })
            },
        )
        .ctx(what)?;
    rows.collect::<rusqlite::Result<_>>().ctx(what)
}

/// A player's net of each hand they took part in, in order (0 for a hand that does not
/// count): their chips hand by hand, without reading the hands' records. Without the hands
/// of sessions still open when `hide_open_sessions` (the public's view).
pub(crate) fn player_nets(
    conn: &Connection,
    tournament: &StreamId,
    player: &PlayerId,
    hide_open_sessions: bool,
) -> Result<Vec<i64>> {
    Ok(
        player_nets_by_session(conn, tournament, player, hide_open_sessions)?
            .into_iter()
            .map(|(_, net)| net)
            .collect(),
    )
}

/// [`player_nets`] with each hand's session (0 for a table outside sessions): a
/// session's chips start where the hands before it left them.
pub(crate) fn player_nets_by_session(
    conn: &Connection,
    tournament: &StreamId,
    player: &PlayerId,
    hide_open_sessions: bool,
) -> Result<Vec<(u32, i64)>> {
    let what = "reading a player's nets";
    let mut stmt = conn
        .prepare_cached(
            "SELECT session, net FROM proj_player_hands WHERE tournament = ?1 AND player = ?2 \
             AND NOT (?3 AND session IN \
               (SELECT session FROM proj_sessions WHERE tournament = ?1 AND closed_position IS NULL)) \
             ORDER BY position, seat",
        )
        .ctx(what)?;
    let rows = stmt
        .query_map(
            params![tournament.as_str(), player.as_str(), hide_open_sessions],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .ctx(what)?;
    rows.collect::<rusqlite::Result<_>>().ctx(what)
}

/// How many tables a tournament has; without the voided ones when `voided` is false.
pub(crate) fn table_count(conn: &Connection, tournament: &StreamId, voided: bool) -> Result<u64> {
    count(conn,
        "SELECT COUNT(*) FROM proj_tables t WHERE t.tournament = ?1 AND (?2 OR NOT EXISTS \
           (SELECT 1 FROM proj_voided v WHERE v.tournament = t.tournament AND v.kind = 'table' AND v.id = t.table_id))",
        params![tournament.as_str(), voided],
        "counting tables",
    )
}

/// A slice of a tournament's tables by number; without the voided ones when `voided` is
/// false (so that a page of the public's list holds a full page of tables it may see).
pub(crate) fn tables_slice(
    conn: &Connection,
    tournament: &StreamId,
    voided: bool,
    slice: Slice,
) -> Result<Vec<TableRow>> {
    let (limit, offset) = slice.sql();
    let what = "reading a page of tables";
    let ids: Vec<String> = conn
        .prepare_cached(
            "SELECT t.table_id FROM proj_tables t WHERE t.tournament = ?1 AND (?2 OR NOT EXISTS \
               (SELECT 1 FROM proj_voided v WHERE v.tournament = t.tournament AND v.kind = 'table' AND v.id = t.table_id)) \
             ORDER BY t.number LIMIT ?3 OFFSET ?4",
        )
        .and_then(|mut s| {
            s.query_map(params![tournament.as_str(), voided, limit, offset], |r| {
                r.get(0)
            })?
            .collect()
        })
        .ctx(what)?;
    let mut out = Vec::with_capacity(ids.len());
    for id in ids {
        let id: TableId = parse(&id).ctx(what)?;
        out.extend(table(conn, &id)?);
    }
    Ok(out)
}

/// Every hand started in a tournament, in the order they started (so that a player's
/// running balance follows their play across tables): what the treasurer's books, exports
/// and score sheets read.
pub(crate) fn tournament_hands(
    conn: &Connection,
    tournament: &StreamId,
) -> Result<Vec<HandRecord>> {
    let what = "reading a tournament's hands";
    let mut stmt = conn
        .prepare_cached(
            "SELECT h.record FROM proj_hand_records h JOIN proj_tables t ON t.table_id = h.table_id \
             WHERE t.tournament = ?1 ORDER BY h.position",
        )
        .ctx(what)?;
    let rows = stmt
        .query_map([tournament.as_str()], |r| {
            from_json(&r.get::<_, String>(0)?)
        })
        .ctx(what)?;
    rows.collect::<rusqlite::Result<_>>().ctx(what)
}

fn count(
    conn: &Connection,
    sql: &str,
    keys: impl rusqlite::Params,
    what: &'static str,
) -> Result<u64> {
    let n: i64 = conn
        .prepare_cached(sql)
        .and_then(|mut s| s.query_row(keys, |r| r.get(0)))
        .ctx(what)?;
    Ok(u64::try_from(n).unwrap_or(0))
}
