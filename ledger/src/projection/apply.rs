//! Folding one event into the projection tables.

use rusqlite::{params, Connection, OptionalExtension};
use uuid::Uuid;

use crate::error::{Result, SqlContext};
use crate::event::{CorrectionRecorded, HandStarted, SeatsDrawn, SettlementRecorded, TableFormed};
use crate::settlement::derive_nets;
use crate::{BySeat, Event, StreamId};

/// Where an event sits, for the projections that record it.
pub(crate) struct EventMeta<'a> {
    pub position: u64,
    pub stream: &'a StreamId,
    pub version: u64,
    pub event_id: Uuid,
}

/// Folds one event into the projections. Events that no projection needs are ignored.
pub(crate) fn apply(conn: &Connection, meta: &EventMeta<'_>, event: &Event) -> Result<()> {
    super::service::apply(conn, meta, event)?;
    super::status::apply(conn, meta, event)?;
    match event {
        Event::TableFormed(e) => table_formed(conn, meta, e),
        Event::SeatsDrawn(e) => seats_drawn(conn, e),
        Event::HandStarted(e) => hand_started(conn, meta, e),
        Event::WashOut(_) => conn
            .prepare_cached("UPDATE proj_hands SET washed_out = 1 WHERE stream = ?1")
            .and_then(|mut s| s.execute([meta.stream.as_str()]))
            .ctx("recording a wash-out")
            .map(drop),
        Event::SettlementRecorded(e) => settlement_recorded(conn, meta, e),
        Event::CorrectionRecorded(e) => correction_recorded(conn, meta, e),
        _ => Ok(()),
    }
}

fn table_formed(conn: &Connection, meta: &EventMeta<'_>, e: &TableFormed) -> Result<()> {
    conn.prepare_cached("INSERT OR REPLACE INTO proj_tables (table_id, tournament) VALUES (?1, ?2)")
        .and_then(|mut s| s.execute(params![e.table.as_str(), meta.stream.as_str()]))
        .ctx("recording a table")
        .map(drop)
}

fn seats_drawn(conn: &Connection, e: &SeatsDrawn) -> Result<()> {
    let mut stmt = conn
        .prepare_cached(
            "INSERT OR REPLACE INTO proj_seats (table_id, seat, player) VALUES (?1, ?2, ?3)",
        )
        .ctx("recording seats")?;
    for (seat, player) in e.seats.iter() {
        stmt.execute(params![e.table.as_str(), seat.name(), player.as_str()])
            .ctx("recording seats")?;
    }
    Ok(())
}

fn hand_started(conn: &Connection, meta: &EventMeta<'_>, e: &HandStarted) -> Result<()> {
    let tournament: Option<String> = conn
        .prepare_cached("SELECT tournament FROM proj_tables WHERE table_id = ?1")
        .and_then(|mut s| s.query_row([e.table.as_str()], |r| r.get(0)).optional())
        .ctx("looking up a table")?;
    let mut stmt = conn
        .prepare_cached("SELECT player FROM proj_seats WHERE table_id = ?1 AND seat = ?2")
        .ctx("looking up seats")?;
    let mut players = BySeat::<Option<String>>::default();
    for seat in referee::Seat::ALL {
        *players.get_mut(seat) = stmt
            .query_row(params![e.table.as_str(), seat.name()], |r| r.get(0))
            .optional()
            .ctx("looking up seats")?;
    }
    conn.prepare_cached(
        "INSERT OR REPLACE INTO proj_hands (stream, tournament, table_id, game, hand, east, prevailing, players, washed_out) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 0)",
    )
    .and_then(|mut s| {
        s.execute(params![
            meta.stream.as_str(),
            tournament,
            e.table.as_str(),
            e.game,
            e.hand,
            e.east.name(),
            e.prevailing_wind.name(),
            json(&players),
        ])
    })
    .ctx("recording a hand")
    .map(drop)
}

fn json<T: serde::Serialize>(v: &T) -> String {
    // Maps of strings and integers always serialize.
    serde_json::to_string(v).unwrap_or_default()
}

/// Who sat where in a hand and which tournament it counts for, when both are known.
fn hand_players(
    conn: &Connection,
    stream: &str,
) -> Result<Option<(String, BySeat<Option<String>>)>> {
    let row: Option<(Option<String>, String)> = conn
        .prepare_cached("SELECT tournament, players FROM proj_hands WHERE stream = ?1")
        .and_then(|mut s| {
            s.query_row([stream], |r| Ok((r.get(0)?, r.get(1)?)))
                .optional()
        })
        .ctx("looking up a hand")?;
    Ok(row.and_then(|(t, p)| Some((t?, serde_json::from_str(&p).ok()?))))
}

fn settlement_recorded(
    conn: &Connection,
    meta: &EventMeta<'_>,
    e: &SettlementRecorded,
) -> Result<()> {
    // The nets are re-derived from the payments; the append refused any settlement where they
    // differ, so this only matters when replaying a tampered database (the audit reports it).
    let nets = derive_nets(&e.payments).unwrap_or(e.nets);
    let counted = hand_players(conn, meta.stream.as_str())?;
    conn.prepare_cached(
        "INSERT INTO proj_settlements (event_id, stream, version, tournament, winner, scores, nets, players, superseded_by) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, NULL)",
    )
    .and_then(|mut s| {
        s.execute(params![
            meta.event_id.as_bytes().as_slice(),
            meta.stream.as_str(),
            meta.version as i64,
            counted.as_ref().map(|c| &c.0),
            e.winner.map(|w| w.name()),
            json(&e.scores),
            json(&nets),
            counted.as_ref().map(|c| json(&c.1)),
        ])
    })
    .ctx("recording a settlement")?;
    if let Some((tournament, players)) = counted {
        let mut stmt = conn
            .prepare_cached(
                "INSERT INTO proj_standings (tournament, player, net, hands_played, hands_won, largest_hand) \
                 VALUES (?1, ?2, ?3, 1, ?4, ?5) \
                 ON CONFLICT (tournament, player) DO UPDATE SET net = net + excluded.net, \
                 hands_played = hands_played + 1, hands_won = hands_won + excluded.hands_won, \
                 largest_hand = MAX(largest_hand, excluded.largest_hand)",
            )
            .ctx("updating standings")?;
        for (seat, player) in players.iter() {
            let Some(player) = player else { continue };
            let won = e.winner == Some(seat);
            let largest = if won { *e.scores.get(seat) } else { 0 };
            stmt.execute(params![
                tournament,
                player,
                nets.get(seat),
                i64::from(won),
                largest
            ])
            .ctx("updating standings")?;
        }
    }
    Ok(())
}

fn correction_recorded(
    conn: &Connection,
    meta: &EventMeta<'_>,
    e: &CorrectionRecorded,
) -> Result<()> {
    type Row = (Option<String>, Option<String>, String, Option<String>);
    let row: Option<Row> = conn
        .prepare_cached(
            "SELECT tournament, winner, nets, players FROM proj_settlements \
             WHERE event_id = ?1 AND superseded_by IS NULL",
        )
        .and_then(|mut s| {
            s.query_row([e.supersedes.as_bytes().as_slice()], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
            })
            .optional()
        })
        .ctx("looking up a superseded settlement")?;
    // Only settlements still counting are affected; superseding anything else is recorded in
    // the event log but changes no projection.
    let Some((tournament, winner, nets, players)) = row else {
        return Ok(());
    };
    conn.prepare_cached("UPDATE proj_settlements SET superseded_by = ?1 WHERE event_id = ?2")
        .and_then(|mut s| {
            s.execute(params![
                meta.event_id.as_bytes().as_slice(),
                e.supersedes.as_bytes().as_slice()
            ])
        })
        .ctx("marking a settlement superseded")?;
    let (Some(tournament), Some(players)) = (tournament, players) else {
        return Ok(());
    };
    let nets: BySeat<i64> = serde_json::from_str(&nets).unwrap_or_default();
    let players: BySeat<Option<String>> = serde_json::from_str(&players).unwrap_or_default();
    for (seat, player) in players.iter() {
        let Some(player) = player else { continue };
        let won = winner.as_deref() == Some(seat.name());
        conn.prepare_cached(
            "UPDATE proj_standings SET net = net - ?3, hands_played = hands_played - 1, \
             hands_won = hands_won - ?4 WHERE tournament = ?1 AND player = ?2",
        )
        .and_then(|mut s| s.execute(params![tournament, player, nets.get(seat), i64::from(won)]))
        .ctx("updating standings")?;
        let largest = largest_hand(conn, &tournament, player)?;
        conn.prepare_cached(
            "UPDATE proj_standings SET largest_hand = ?3 WHERE tournament = ?1 AND player = ?2",
        )
        .and_then(|mut s| s.execute(params![tournament, player, largest]))
        .ctx("updating standings")?;
    }
    Ok(())
}

/// The player's largest winning score over the settlements that still count.
fn largest_hand(conn: &Connection, tournament: &str, player: &str) -> Result<i64> {
    let mut stmt = conn
        .prepare_cached(
            "SELECT winner, scores, players FROM proj_settlements \
             WHERE tournament = ?1 AND superseded_by IS NULL AND winner IS NOT NULL",
        )
        .ctx("recomputing the largest hand")?;
    let mut rows = stmt
        .query([tournament])
        .ctx("recomputing the largest hand")?;
    let mut largest = 0;
    while let Some(r) = rows.next().ctx("recomputing the largest hand")? {
        let (winner, scores, players): (String, String, Option<String>) = (
            r.get(0).ctx("recomputing the largest hand")?,
            r.get(1).ctx("recomputing the largest hand")?,
            r.get(2).ctx("recomputing the largest hand")?,
        );
        let (Ok(winner), Ok(scores), Some(Ok(players))) = (
            winner.parse::<referee::Seat>(),
            serde_json::from_str::<BySeat<i64>>(&scores),
            players.map(|p| serde_json::from_str::<BySeat<Option<String>>>(&p)),
        ) else {
            continue;
        };
        if players.get(winner).as_deref() == Some(player) {
            largest = largest.max(*scores.get(winner));
        }
    }
    Ok(largest)
}
