//! Keeping each hand's record (its result folded by the referee's `ResultRecord`) and what
//! follows from it: the seats' shares
//! (`proj_player_hands`) and the standings (`proj_standings`), which are always the sums of
//! those shares. A hand's record changes; the shares are recomputed from it, and the standings
//! move by exactly the difference, so every fact about a hand is derived once, from its record.

use ledger::event::{Event, HandStarted};
use ledger::{Error, EventMeta, Result, SqlContext, Target};
use referee::{BySeat, Seat};
use rusqlite::{params, Connection, OptionalExtension};

use crate::hand_record::{Contribution, HandEvent, HandRecord, HandStart};
use crate::sql::json;

/// A hand started: its record begins, and each seated player gets a share (nothing yet).
pub(crate) fn hand_started(conn: &Connection, meta: &EventMeta<'_>, e: &HandStarted) -> Result<()> {
    let (tournament, session): (Option<String>, u32) = conn
        .prepare_cached(
            "SELECT tournament, COALESCE(session, 0) FROM proj_tables WHERE table_id = ?1",
        )
        .and_then(|mut s| {
            s.query_row([e.table.as_str()], |r| Ok((Some(r.get(0)?), r.get(1)?)))
                .optional()
        })
        .ctx("looking up a table")?
        .unwrap_or((None, 0));
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
    let record = HandRecord::start(HandStart {
        stream: meta.stream.to_string(),
        tournament: tournament.clone(),
        table: e.table.as_str().to_owned(),
        game: e.game,
        hand: e.hand,
        east: e.east,
        prevailing_wind: e.prevailing_wind,
        players: players.clone(),
        version: meta.version,
    });
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
    let Some(tournament) = tournament else {
        return Ok(());
    };
    let mut stmt = conn
        .prepare_cached(
            "INSERT OR REPLACE INTO proj_player_hands \
             (stream, seat, tournament, player, position, counted, net, won, score, session) \
             VALUES (?1, ?2, ?3, ?4, ?5, 0, 0, 0, 0, ?6)",
        )
        .ctx("recording who played a hand")?;
    for (seat, player) in players.iter() {
        if let Some(player) = player {
            stmt.execute(params![
                meta.stream.as_str(),
                seat.name(),
                tournament,
                player,
                meta.position as i64,
                session
            ])
            .ctx("recording who played a hand")?;
        }
    }
    Ok(())
}

/// A hand's record being folded across consecutive facts of its stream, written once when
/// something else comes (or the append ends) instead of once per fact: a hand played event by
/// event and laid down brings half a dozen facts in one append, and rewriting a record of a
/// few kilobytes after each was a tenth of an import's time. The seats' shares still follow
/// each fact (a share that does not change costs one read).
#[derive(Default)]
pub(crate) struct OpenRecord {
    open: Option<(String, HandRecord)>,
}

impl OpenRecord {
    /// Folds a fact of a hand into its record (or derives the record again when a correction
    /// withdraws a correction). Events of a hand never started have no record and are ignored.
    pub(crate) fn fact(
        &mut self,
        target: &Target<'_>,
        meta: &EventMeta<'_>,
        event: &Event,
    ) -> Result<()> {
        let conn = target.rows();
        let stream = meta.stream.as_str();
        if self.open.as_ref().is_some_and(|(s, _)| s != stream) {
            self.flush(conn)?;
        }
        if self.open.is_none() {
            let Some(record) = read_record(conn, meta)? else {
                return Ok(());
            };
            self.open = Some((stream.to_owned(), record));
        }
        let Some((_, record)) = &mut self.open else {
            return Ok(());
        };
        if record.fold(meta.version, meta.event_id, event).is_err() {
            // It reaches back into the hand's earlier facts.
            *record = rederive(target, meta, record)?;
        }
        // The shares follow each fact, as a replay event by event has them: when a player's
        // standing row first appears depends on it.
        shares(conn, record)
    }

    /// Writes the record being folded, if any.
    pub(crate) fn flush(&mut self, conn: &Connection) -> Result<()> {
        match self.open.take() {
            Some((_, record)) => store(conn, &record),
            None => Ok(()),
        }
    }
}

fn read_record(conn: &Connection, meta: &EventMeta<'_>) -> Result<Option<HandRecord>> {
    let stored: Option<String> = conn
        .prepare_cached("SELECT record FROM proj_hand_records WHERE stream = ?1")
        .and_then(|mut s| s.query_row([meta.stream.as_str()], |r| r.get(0)).optional())
        .ctx("reading a hand record")?;
    // Only a tampered database holds a record that does not parse; refuse loudly rather than
    // fold into a guess (the audit's replay into a fresh database still reports the rest).
    stored
        .map(|stored| serde_json::from_str(&stored).map_err(|e| corrupt_record(meta, e)))
        .transpose()
}

fn store(conn: &Connection, record: &HandRecord) -> Result<()> {
    conn.prepare_cached("UPDATE proj_hand_records SET record = ?2 WHERE stream = ?1")
        .and_then(|mut s| s.execute(params![record.stream.as_str(), json(record)]))
        .ctx("updating a hand record")
        .map(drop)
}

/// Brings each seat's share of the hand, and the standings, in line with its record.
fn shares(conn: &Connection, record: &HandRecord) -> Result<()> {
    let stream = record.stream.as_str();
    if let Some(tournament) = &record.tournament {
        for (seat, player) in record.players.iter() {
            if let Some(player) = player {
                share(
                    conn,
                    stream,
                    seat,
                    tournament,
                    player,
                    record.contribution(seat),
                )?;
            }
        }
    }
    Ok(())
}

fn corrupt_record(meta: &EventMeta<'_>, e: serde_json::Error) -> Error {
    Error::Corrupt {
        position: meta.position,
        stream: meta.stream.to_string(),
        version: meta.version,
        what: format!("the stored hand record does not parse ({e}); rebuild the projections"),
    }
}

/// The record derived again from the hand's facts recorded up to this event.
fn rederive(target: &Target<'_>, meta: &EventMeta<'_>, record: &HandRecord) -> Result<HandRecord> {
    let facts: Vec<HandEvent> = target
        .stream_until(meta.stream, meta.position)?
        .into_iter()
        .filter(|e| HandRecord::is_hand_fact(&e.event))
        .map(|e| HandEvent {
            version: e.version,
            event_id: e.event_id,
            event: e.event,
        })
        .collect();
    let start = HandStart {
        stream: record.stream.clone(),
        tournament: record.tournament.clone(),
        table: record.table.clone(),
        game: record.game,
        hand: record.hand,
        east: record.east,
        prevailing_wind: record.prevailing_wind,
        players: record.players.clone(),
        version: record.version,
    };
    Ok(HandRecord::derive(start, &facts))
}

/// Brings one seat's share in line with the record, and the player's standing by the
/// difference.
fn share(
    conn: &Connection,
    stream: &str,
    seat: Seat,
    tournament: &str,
    player: &str,
    now: Contribution,
) -> Result<()> {
    let before: Option<(bool, i64, bool, i64, u32)> = conn
        .prepare_cached(
            "SELECT counted, net, won, score, session FROM proj_player_hands WHERE stream = ?1 AND seat = ?2",
        )
        .and_then(|mut s| {
            s.query_row(params![stream, seat.name()], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
            })
            .optional()
        })
        .ctx("reading a player's share of a hand")?;
    let Some((counted, net, won, score, session)) = before else {
        return Ok(());
    };
    let before = Contribution {
        counted,
        net,
        won,
        score,
    };
    if before == now {
        return Ok(());
    }
    conn.prepare_cached(
        "UPDATE proj_player_hands SET counted = ?3, net = ?4, won = ?5, score = ?6 \
         WHERE stream = ?1 AND seat = ?2",
    )
    .and_then(|mut s| {
        s.execute(params![
            stream,
            seat.name(),
            now.counted,
            now.net,
            now.won,
            now.score
        ])
    })
    .ctx("updating a player's share of a hand")?;
    let largest: i64 = conn
        .prepare_cached(
            "SELECT COALESCE(MAX(score), 0) FROM proj_player_hands WHERE tournament = ?1 AND player = ?2",
        )
        .and_then(|mut s| s.query_row(params![tournament, player], |r| r.get(0)))
        .ctx("finding a player's largest hand")?;
    let largest_in_session: i64 = conn
        .prepare_cached(
            "SELECT COALESCE(MAX(score), 0) FROM proj_player_hands \
             WHERE tournament = ?1 AND player = ?2 AND session = ?3",
        )
        .and_then(|mut s| s.query_row(params![tournament, player, session], |r| r.get(0)))
        .ctx("finding a player's largest hand")?;
    let diff = |a: bool, b: bool| i64::from(a) - i64::from(b);
    let (net, played, won) = (
        now.net - before.net,
        diff(now.counted, before.counted),
        diff(now.won, before.won),
    );
    conn.prepare_cached(
        "INSERT INTO proj_standings (tournament, player, net, hands_played, hands_won, largest_hand) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6) \
         ON CONFLICT (tournament, player) DO UPDATE SET net = net + excluded.net, \
         hands_played = hands_played + excluded.hands_played, \
         hands_won = hands_won + excluded.hands_won, largest_hand = excluded.largest_hand",
    )
    .and_then(|mut s| s.execute(params![tournament, player, net, played, won, largest]))
    .ctx("updating standings")?;
    conn.prepare_cached(
        "INSERT INTO proj_session_standings \
         (tournament, session, player, net, hands_played, hands_won, largest_hand) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) \
         ON CONFLICT (tournament, player, session) DO UPDATE SET net = net + excluded.net, \
         hands_played = hands_played + excluded.hands_played, \
         hands_won = hands_won + excluded.hands_won, largest_hand = excluded.largest_hand",
    )
    .and_then(|mut s| {
        s.execute(params![
            tournament,
            session,
            player,
            net,
            played,
            won,
            largest_in_session
        ])
    })
    .ctx("updating a session's standings")
    .map(drop)
}
