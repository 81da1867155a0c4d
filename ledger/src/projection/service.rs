//! The projections the web service's pages read: tournaments with their playing conditions,
//! players, numbered tables, and each hand's *current record* — the hands laid down, the
//! result, the itemized score sheets and the settlement that count — so that a page is one
//! indexed read, never a replay.
//!
//! A hand's record is a small value ([`HandRecord`]) folded event by event and stored as JSON.
//! A correction (`CorrectionRecorded`) that supersedes the settlement in force takes it and its
//! score sheets out of the record; the replacement events recorded with it (new `HandExposed`,
//! `MahJonggDeclared` or `WashOut`, `HandScored`, `SettlementRecorded`) fill it again. The
//! superseded events stay in the stream, where the hand's history shows them.

use referee::{Hand, Seat};
use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::apply::EventMeta;
use crate::error::{Result, SqlContext};
use crate::event::{HandScored, HandStarted};
use crate::settlement::Payment;
use crate::{BySeat, Event};

/// The settlement in force for a hand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedSettlement {
    pub event_id: Uuid,
    pub version: u64,
    pub scores: BySeat<i64>,
    pub payments: Vec<Payment>,
    pub nets: BySeat<i64>,
}

/// A hand as it currently stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandRecord {
    /// The hand stream, `hand:<id>`.
    pub stream: String,
    pub tournament: Option<String>,
    pub table: String,
    pub game: u32,
    pub hand: u32,
    /// The seat (as drawn) that is East in this hand.
    pub east: Seat,
    pub prevailing_wind: referee::Wind,
    /// The players in each seat (as drawn) when the hand started.
    pub players: BySeat<Option<String>>,
    /// Each seat's hand as laid down (the latest `HandExposed`).
    pub hands: BySeat<Option<Hand>>,
    pub winner: Option<Seat>,
    pub washed_out: bool,
    /// The score sheets in force.
    pub scored: Option<HandScored>,
    /// The settlement in force.
    pub settlement: Option<RecordedSettlement>,
    /// How many corrections were recorded in the hand.
    pub corrections: u32,
    /// The stream's version after the last event folded.
    pub version: u64,
}

impl HandRecord {
    /// The hand's id (the part of the stream name after `hand:`).
    pub fn id(&self) -> &str {
        self.stream.strip_prefix("hand:").unwrap_or(&self.stream)
    }
}

fn json<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

/// Folds one event into the service projections.
pub(crate) fn apply(conn: &Connection, meta: &EventMeta<'_>, event: &Event) -> Result<()> {
    let stream = meta.stream.as_str();
    match event {
        Event::TournamentCreated(e) => conn
            .prepare_cached(
                "INSERT OR REPLACE INTO proj_tournaments (tournament, name, ruleset, config, position) \
                 VALUES (?1, ?2, ?3, NULL, ?4)",
            )
            .and_then(|mut s| s.execute(params![stream, e.name, e.ruleset, meta.position as i64]))
            .ctx("recording a tournament")
            .map(drop),
        Event::TournamentConfigured(e) => conn
            .prepare_cached("UPDATE proj_tournaments SET config = ?2 WHERE tournament = ?1")
            .and_then(|mut s| s.execute(params![stream, json(e)]))
            .ctx("recording a tournament's conditions")
            .map(drop),
        Event::PlayerRegistered(e) => conn
            .prepare_cached(
                "INSERT OR REPLACE INTO proj_players (tournament, player, name, position) VALUES (?1, ?2, ?3, ?4)",
            )
            .and_then(|mut s| {
                s.execute(params![stream, e.player.as_str(), e.name, meta.position as i64])
            })
            .ctx("recording a player")
            .map(drop),
        Event::TableFormed(e) => conn
            .prepare_cached(
                "INSERT OR REPLACE INTO proj_table_numbers (table_id, tournament, number, draw_seed) \
                 VALUES (?1, ?2, ?3, NULL)",
            )
            .and_then(|mut s| s.execute(params![e.table.as_str(), stream, e.number]))
            .ctx("recording a table")
            .map(drop),
        Event::SeatDrawSeeded(e) => conn
            .prepare_cached("UPDATE proj_table_numbers SET draw_seed = ?2 WHERE table_id = ?1")
            // SQLite integers are signed: the seed is stored as its two's-complement bits.
            .and_then(|mut s| s.execute(params![e.table.as_str(), e.seed as i64]))
            .ctx("recording a seat draw")
            .map(drop),
        Event::HandStarted(e) => hand_started(conn, meta, e),
        _ => update_record(conn, meta, event),
    }
}

fn hand_started(conn: &Connection, meta: &EventMeta<'_>, e: &HandStarted) -> Result<()> {
    let tournament: Option<String> = conn
        .prepare_cached("SELECT tournament FROM proj_tables WHERE table_id = ?1")
        .and_then(|mut s| s.query_row([e.table.as_str()], |r| r.get(0)).optional())
        .ctx("looking up a table")?;
    let mut players = BySeat::<Option<String>>::default();
    {
        let mut stmt = conn
            .prepare_cached("SELECT player FROM proj_seats WHERE table_id = ?1 AND seat = ?2")
            .ctx("looking up seats")?;
        for seat in Seat::ALL {
            *players.get_mut(seat) = stmt
                .query_row(params![e.table.as_str(), seat.name()], |r| r.get(0))
                .optional()
                .ctx("looking up seats")?;
        }
    }
    let record = HandRecord {
        stream: meta.stream.to_string(),
        tournament: tournament.clone(),
        table: e.table.as_str().to_owned(),
        game: e.game,
        hand: e.hand,
        east: e.east,
        prevailing_wind: e.prevailing_wind,
        players: players.clone(),
        hands: BySeat::default(),
        winner: None,
        washed_out: false,
        scored: None,
        settlement: None,
        corrections: 0,
        version: meta.version,
    };
    conn.prepare_cached(
        "INSERT OR REPLACE INTO proj_hand_records (stream, tournament, table_id, game, hand, position, record) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )
    .and_then(|mut s| {
        s.execute(params![
            meta.stream.as_str(),
            tournament,
            e.table.as_str(),
            e.game,
            e.hand,
            meta.position as i64,
            json(&record)
        ])
    })
    .ctx("recording a hand")?;
    if let Some(tournament) = tournament {
        let mut stmt = conn
            .prepare_cached(
                "INSERT OR REPLACE INTO proj_player_hands (tournament, player, stream, seat, position) \
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )
            .ctx("recording who played a hand")?;
        for (seat, player) in players.iter() {
            if let Some(player) = player {
                stmt.execute(params![
                    tournament,
                    player,
                    meta.stream.as_str(),
                    seat.name(),
                    meta.position as i64
                ])
                .ctx("recording who played a hand")?;
            }
        }
    }
    Ok(())
}

/// Folds a hand event into the hand's record (events of hands never started are ignored).
fn update_record(conn: &Connection, meta: &EventMeta<'_>, event: &Event) -> Result<()> {
    let relevant = matches!(
        event,
        Event::HandExposed(_)
            | Event::MahJonggDeclared(_)
            | Event::WashOut(_)
            | Event::HandScored(_)
            | Event::SettlementRecorded(_)
            | Event::CorrectionRecorded(_)
    );
    if !relevant {
        return Ok(());
    }
    let stored: Option<String> = conn
        .prepare_cached("SELECT record FROM proj_hand_records WHERE stream = ?1")
        .and_then(|mut s| s.query_row([meta.stream.as_str()], |r| r.get(0)).optional())
        .ctx("reading a hand record")?;
    // A record that does not parse can only come from tampering; the audit reports it.
    let Some(mut record) = stored.and_then(|s| serde_json::from_str::<HandRecord>(&s).ok()) else {
        return Ok(());
    };
    fold(&mut record, meta, event);
    conn.prepare_cached("UPDATE proj_hand_records SET record = ?2 WHERE stream = ?1")
        .and_then(|mut s| s.execute(params![meta.stream.as_str(), json(&record)]))
        .ctx("updating a hand record")
        .map(drop)
}

/// The pure part: one event's effect on a hand's record.
fn fold(record: &mut HandRecord, meta: &EventMeta<'_>, event: &Event) {
    record.version = meta.version;
    match event {
        Event::HandExposed(e) => *record.hands.get_mut(e.seat) = Some(e.hand.clone()),
        Event::MahJonggDeclared(e) => {
            record.winner = Some(e.seat);
            record.washed_out = false;
        }
        Event::WashOut(_) => {
            record.winner = None;
            record.washed_out = true;
        }
        Event::HandScored(e) => record.scored = Some(e.clone()),
        Event::SettlementRecorded(e) => {
            record.settlement = Some(RecordedSettlement {
                event_id: meta.event_id,
                version: meta.version,
                scores: e.scores,
                payments: e.payments.clone(),
                nets: e.nets,
            })
        }
        Event::CorrectionRecorded(e) => {
            record.corrections += 1;
            if record.settlement.as_ref().map(|s| s.event_id) == Some(e.supersedes) {
                record.settlement = None;
                record.scored = None;
            }
        }
        _ => {}
    }
}
