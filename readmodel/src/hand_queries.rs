//! Reading hands: a hand's record, the hands of a table or a player, and what is derived from
//! a record (its settlements, its summary).

use ledger::{PlayerId, Result, SqlContext, StreamId, TableId};
use referee::{BySeat, Seat};
use rusqlite::{params, Connection, OptionalExtension};
use uuid::Uuid;

use referee::table::Settlement;

use crate::hand_record::{nets_of, HandRecord};
use crate::sql::{from_json, parse};

/// Where a hand stood and how it ended, as the rotation needs it (`Reads::game_positions`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
pub struct HandPosition {
    /// The hand stream, `hand:<id>`.
    pub stream: String,
    pub game: u32,
    pub hand: u32,
    pub east: Seat,
    pub prevailing_wind: referee::Wind,
    pub winner: Option<Seat>,
    pub washed_out: bool,
    /// A settlement is in force: the hand's result is recorded (a hand without one is still
    /// being played, or its result was taken off by a correction under way).
    pub settled: bool,
    /// The penalties in force: one that abandoned the hand says who is East next (§82).
    #[serde(default)]
    pub penalties: Option<Vec<referee::settle::Penalty<Seat>>>,
}

impl HandPosition {
    /// How the hand ended, as the rotation needs it; `None` while it has no result.
    pub fn end(&self) -> Option<referee::table::HandEnd> {
        let penalties = self.penalties.as_deref().unwrap_or_default();
        referee::table::HandEnd::of(self.winner, self.washed_out, penalties, self.east)
    }
}

/// A hand a player took part in, and the seat they sat in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerHand {
    pub seat: Seat,
    pub record: HandRecord,
}

/// One recorded settlement of a hand, superseded or not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettlementRow {
    pub event_id: Uuid,
    pub winner: Option<Seat>,
    pub scores: BySeat<i64>,
    /// Each seat's net, re-derived from the payments ([`nets_of`]).
    pub nets: BySeat<i64>,
    /// Whether it counts: the hand's one settlement in force.
    pub in_force: bool,
    /// The correction that took it out; `None` while it counts, or when a later settlement
    /// recorded without a correction replaced it.
    pub superseded_by: Option<Uuid>,
}

impl From<&Settlement> for SettlementRow {
    fn from(s: &Settlement) -> SettlementRow {
        SettlementRow {
            event_id: s.id,
            winner: s.recorded.winner,
            scores: s.recorded.scores,
            nets: nets_of(&s.recorded),
            in_force: s.standing == referee::table::Standing::InForce,
            superseded_by: s.superseded_by(),
        }
    }
}

/// A hand at a glance: a view of its record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandSummary {
    pub stream: StreamId,
    pub tournament: Option<StreamId>,
    pub table: String,
    pub game: u32,
    pub hand: u32,
    pub east: Seat,
    pub prevailing_wind: referee::Wind,
    pub players: BySeat<Option<PlayerId>>,
    pub washed_out: bool,
    /// Every settlement recorded for the hand, oldest first; at most one is in force.
    pub settlements: Vec<SettlementRow>,
}

impl HandSummary {
    /// The settlement that counts, if any.
    pub fn current_settlement(&self) -> Option<&SettlementRow> {
        self.settlements.iter().find(|s| s.in_force)
    }

    fn of(stream: &StreamId, r: &HandRecord) -> HandSummary {
        HandSummary {
            stream: stream.clone(),
            tournament: r.tournament.as_deref().and_then(|t| t.parse().ok()),
            table: r.table.clone(),
            game: r.game,
            hand: r.hand,
            east: r.east,
            prevailing_wind: r.prevailing_wind,
            players: r
                .players
                .as_ref()
                .map(|p| p.as_deref().and_then(|p| PlayerId::new(p).ok())),
            washed_out: r.result.washed_out(),
            settlements: r
                .result
                .settlements()
                .iter()
                .map(SettlementRow::from)
                .collect(),
        }
    }
}

/// Every settlement recorded in a hand stream, oldest first (none before it started).
pub(crate) fn settlements(conn: &Connection, hand: &StreamId) -> Result<Vec<SettlementRow>> {
    Ok(hand_record(conn, hand)?
        .map(|r| {
            r.result
                .settlements()
                .iter()
                .map(SettlementRow::from)
                .collect()
        })
        .unwrap_or_default())
}

/// The summary of a hand stream, once its `HandStarted` is recorded.
pub(crate) fn hand_summary(conn: &Connection, hand: &StreamId) -> Result<Option<HandSummary>> {
    Ok(hand_record(conn, hand)?.map(|r| HandSummary::of(hand, &r)))
}

/// The hands played at a table, in the order they started.
pub(crate) fn table_hands(conn: &Connection, table: &TableId) -> Result<Vec<HandRecord>> {
    let mut stmt = conn
        .prepare_cached(
            "SELECT record FROM proj_hand_records WHERE table_id = ?1 ORDER BY position",
        )
        .ctx("reading a table's hands")?;
    let rows = stmt
        .query_map([table.as_str()], |r| from_json(&r.get::<_, String>(0)?))
        .ctx("reading a table's hands")?;
    rows.collect::<rusqlite::Result<_>>()
        .ctx("reading a table's hands")
}

/// Where each hand of `game` at `table` stood and how it ended (and, with `and_next`, the
/// first hand of the game after): what the rotation needs, without reading the hands'
/// sheets and settlements.
pub(crate) fn game_positions(
    conn: &Connection,
    table: &TableId,
    game: u32,
    and_next: bool,
) -> Result<Vec<HandPosition>> {
    let last_game = if and_next { game + 1 } else { game };
    // Each record's text is parsed once, into JSONB (a materialized CTE is not flattened, so
    // the parse is not repeated for every field read from it): the records hold the hands'
    // sheets and are long, and this runs for every write at a table.
    let mut stmt = conn
        .prepare_cached(
            "WITH h AS MATERIALIZED (SELECT stream, game, hand, position, jsonb(record) AS j \
               FROM proj_hand_records WHERE table_id = ?1 AND game BETWEEN ?2 AND ?3) \
             SELECT game, json_object('stream', stream, 'game', game, 'hand', hand, \
               'east', json_extract(j, '$.east'), \
               'prevailing_wind', json_extract(j, '$.prevailing_wind'), \
               'winner', json_extract(j, '$.result.winner'), \
               'washed_out', json(CASE WHEN json_extract(j, '$.result.washed_out') THEN 'true' ELSE 'false' END), \
               'settled', json(CASE WHEN EXISTS (SELECT 1 FROM json_each(j, '$.result.settlements') \
                   WHERE json_extract(value, '$.standing') = 'in_force') THEN 'true' ELSE 'false' END), \
               'penalties', json(json_extract(j, '$.result.scored[1].penalties'))) \
             FROM h ORDER BY position",
        )
        .ctx("reading a game's hands")?;
    let rows = stmt
        .query_map(params![table.as_str(), game, last_game], |r| {
            Ok((r.get::<_, u32>(0)?, r.get::<_, String>(1)?))
        })
        .ctx("reading a game's hands")?;
    let mut out = Vec::new();
    let mut next_seen = false;
    for row in rows {
        let (g, json) = row.ctx("reading a game's hands")?;
        if g != game {
            if next_seen {
                continue;
            }
            next_seen = true;
        }
        out.push(from_json(&json).ctx("reading a game's hands")?);
    }
    Ok(out)
}

/// The last hand started at a table.
pub(crate) fn last_hand(conn: &Connection, table: &TableId) -> Result<Option<HandRecord>> {
    conn.prepare_cached(
        "SELECT record FROM proj_hand_records WHERE table_id = ?1 ORDER BY position DESC LIMIT 1",
    )
    .and_then(|mut s| {
        s.query_row([table.as_str()], |r| from_json(&r.get::<_, String>(0)?))
            .optional()
    })
    .ctx("reading a table's last hand")
}

/// A hand's current record.
pub(crate) fn hand_record(conn: &Connection, hand: &StreamId) -> Result<Option<HandRecord>> {
    conn.prepare_cached("SELECT record FROM proj_hand_records WHERE stream = ?1")
        .and_then(|mut s| {
            s.query_row([hand.as_str()], |r| from_json(&r.get::<_, String>(0)?))
                .optional()
        })
        .ctx("reading a hand record")
}

/// The hands a player took part in, in order.
pub(crate) fn player_hands(
    conn: &Connection,
    tournament: &StreamId,
    player: &PlayerId,
) -> Result<Vec<PlayerHand>> {
    let mut stmt = conn
        .prepare_cached(
            "SELECT p.seat, h.record FROM proj_player_hands p JOIN proj_hand_records h ON h.stream = p.stream \
             WHERE p.tournament = ?1 AND p.player = ?2 ORDER BY p.position, p.seat",
        )
        .ctx("reading a player's hands")?;
    let rows = stmt
        .query_map(params![tournament.as_str(), player.as_str()], |r| {
            Ok(PlayerHand {
                seat: parse(&r.get::<_, String>(0)?)?,
                record: from_json(&r.get::<_, String>(1)?)?,
            })
        })
        .ctx("reading a player's hands")?;
    rows.collect::<rusqlite::Result<_>>()
        .ctx("reading a player's hands")
}
