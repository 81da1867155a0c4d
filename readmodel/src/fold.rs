//! Folding one event into the read model's tables: the tournament's bookkeeping here (who is
//! registered, which tables exist, who sits where, its sessions), what is out of play in
//! `status.rs`, the hands in `hands.rs`.

use ledger::event::{Event, SeatsDrawn, TableFormed};
use ledger::{EventMeta, Fold, Result, SqlContext, Target};
use rusqlite::{params, Connection};

use crate::hand_record::HandRecord;
use crate::hands::{hand_started, OpenRecord};
use crate::sql::json;
use crate::status;

/// Folds events, one at a time and in order, into the read model's tables. Events it does not
/// need are ignored. A hand's facts are folded in memory while they come one after another
/// ([`OpenRecord`]): [`Fold::finish`] writes the last one.
#[derive(Default)]
pub(crate) struct ReadModelFold {
    hand: OpenRecord,
}

impl Fold for ReadModelFold {
    fn apply(&mut self, target: &Target<'_>, meta: &EventMeta<'_>, event: &Event) -> Result<()> {
        if HandRecord::is_hand_fact(event) {
            return self.hand.fact(target, meta, event);
        }
        self.hand.flush(target.rows())?;
        apply_other(target.rows(), meta, event)
    }

    fn finish(&mut self, target: &Target<'_>) -> Result<()> {
        self.hand.flush(target.rows())
    }
}

/// Folds an event that is not a fact of a hand's record.
fn apply_other(conn: &Connection, meta: &EventMeta<'_>, event: &Event) -> Result<()> {
    status::apply(conn, meta, event)?;
    let stream = meta.stream.as_str();
    let position = meta.position as i64;
    let run = |sql: &str, params: &[&dyn rusqlite::ToSql], what: &'static str| {
        conn.prepare_cached(sql)
            .and_then(|mut s| s.execute(params))
            .ctx(what)
            .map(drop)
    };
    match event {
        Event::TournamentCreated(e) => run(
            "INSERT OR REPLACE INTO proj_tournaments (tournament, name, ruleset, config, tie_break, position) \
             VALUES (?1, ?2, ?3, NULL, NULL, ?4)",
            params![stream, e.name, e.ruleset, position],
            "recording a tournament",
        ),
        Event::TournamentConfigured(e) => run(
            "UPDATE proj_tournaments SET config = ?2 WHERE tournament = ?1",
            params![stream, json(e)],
            "recording a tournament's conditions",
        ),
        Event::TieBreakChosen(e) => run(
            "UPDATE proj_tournaments SET tie_break = ?2 WHERE tournament = ?1",
            params![stream, json(&e.chain)],
            "recording a tournament's tie-break chain",
        ),
        Event::PlayerRegistered(e) => run(
            "INSERT OR REPLACE INTO proj_players (tournament, player, name, position, substitute) \
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![stream, e.player.as_str(), e.name, position, e.substitute],
            "recording a player",
        ),
        Event::PlayerWithdrew(e) => run(
            "UPDATE proj_players SET withdrawn = ?3 WHERE tournament = ?1 AND player = ?2",
            params![stream, e.player.as_str(), e.reason],
            "recording a withdrawal",
        ),
        Event::SessionOpened(e) => run(
            "INSERT OR REPLACE INTO proj_sessions \
             (tournament, session, minutes, seating, opened_position, closed_position) \
             VALUES (?1, ?2, ?3, ?4, ?5, NULL)",
            params![
                stream,
                e.session,
                e.minutes,
                e.seating.as_ref().map(json),
                position
            ],
            "recording a session",
        ),
        Event::SessionClosed(e) => run(
            "UPDATE proj_sessions SET closed_position = ?3 WHERE tournament = ?1 AND session = ?2",
            params![stream, e.session, position],
            "closing a session",
        ),
        Event::SessionReopened(e) => run(
            "UPDATE proj_sessions SET closed_position = NULL WHERE tournament = ?1 AND session = ?2",
            params![stream, e.session],
            "reopening a session",
        ),
        Event::TableFormed(e) => table_formed(conn, stream, e),
        Event::SeatDrawSeeded(e) => run(
            // SQLite integers are signed: the seed is stored as its two's-complement bits.
            "UPDATE proj_tables SET draw_seed = ?2 WHERE table_id = ?1",
            params![e.table.as_str(), e.seed as i64],
            "recording a seat draw",
        ),
        Event::SeatsDrawn(e) => seats_drawn(conn, e),
        Event::HandStarted(e) => hand_started(conn, meta, e),
        _ => Ok(()),
    }
}

fn table_formed(conn: &Connection, tournament: &str, e: &TableFormed) -> Result<()> {
    conn.prepare_cached(
        "INSERT OR REPLACE INTO proj_tables (table_id, tournament, number, draw_seed, session) \
         VALUES (?1, ?2, ?3, NULL, ?4)",
    )
    .and_then(|mut s| s.execute(params![e.table.as_str(), tournament, e.number, e.session]))
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
