//! What the public does not see: a voided tournament, a voided table, their hands, and a voided
//! player; and the results of a session still in play — its hands, and their part of the
//! standings — until the session is closed (issue 14: so that no one plays to the standings).
//! Officials see everything, marked (the ledger keeps everything).
//!
//! The table and hand pages (and their API reads) ask here before rendering, so that the rule
//! lives in one place rather than in every handler.

use std::collections::HashSet;

use ledger::{Ledger, PlayerId, StreamId, TableId};
use readmodel::Reads;

use super::Audience;
use crate::server::error::AppError;
use crate::server::in_play::InPlay;

/// Why a table is out of public view (it or its tournament is voided), if it is.
pub fn table_voided(ledger: &Ledger, table: &str) -> Result<Option<String>, AppError> {
    let Ok(id) = TableId::new(table) else {
        return Ok(None);
    };
    let Some(row) = ledger.table(&id)? else {
        return Ok(None);
    };
    let in_play = InPlay::load(ledger, &row.tournament)?;
    Ok(in_play
        .tournament_voided()
        .map(|r| format!("its tournament is voided: {r}"))
        .or_else(|| in_play.table_voided(&id).map(|r| format!("voided: {r}"))))
}

/// Why a hand is out of public view (its table or tournament is voided, or its table's session
/// is still open), if it is.
pub fn hand_hidden(ledger: &Ledger, hand: &str) -> Result<Option<String>, AppError> {
    let Ok(stream) = StreamId::hand(hand) else {
        return Ok(None);
    };
    let Some(record) = ledger.hand_record(&stream)? else {
        return Ok(None);
    };
    if let Some(voided) = table_voided(ledger, &record.table)? {
        return Ok(Some(voided));
    }
    Ok(open_session_of(ledger, &record.table)?
        .map(|n| format!("its session {n} is still in play: results are shown when it closes")))
}

/// The session of a table, when that session is still open (its results hidden).
pub fn open_session_of(ledger: &Ledger, table: &str) -> Result<Option<u32>, AppError> {
    let Ok(id) = TableId::new(table) else {
        return Ok(None);
    };
    let Some(row) = ledger.table(&id)? else {
        return Ok(None);
    };
    let Some(session) = row.session else {
        return Ok(None);
    };
    Ok(ledger
        .open_sessions(&row.tournament)?
        .contains(&session)
        .then_some(session))
}

/// The tables of a tournament whose results the public does not see yet (their sessions are
/// open): for pages that list hands across tables.
pub fn tables_in_open_sessions(
    ledger: &Ledger,
    tournament: &StreamId,
) -> Result<HashSet<String>, AppError> {
    let open = ledger.open_sessions(tournament)?;
    if open.is_empty() {
        return Ok(HashSet::new());
    }
    Ok(ledger
        .tables(tournament)?
        .into_iter()
        .filter(|t| t.session.is_some_and(|s| open.contains(&s)))
        .map(|t| t.table.as_str().to_owned())
        .collect())
}

/// Whether a player is out of public view (voided, or the tournament is).
pub fn player_voided(
    ledger: &Ledger,
    tournament: &StreamId,
    player: &str,
) -> Result<bool, AppError> {
    let in_play = InPlay::load(ledger, tournament)?;
    Ok(in_play.tournament_voided().is_some()
        || PlayerId::new(player).is_ok_and(|p| in_play.player_voided(&p).is_some()))
}

/// 404 for the public when `hidden` says the thing is voided; officials pass.
pub fn require_visible(
    audience: Audience,
    hidden: Option<String>,
    what: impl FnOnce() -> String,
) -> Result<(), AppError> {
    match (audience, hidden) {
        (Audience::Public, Some(_)) => Err(AppError::not_found(what())),
        _ => Ok(()),
    }
}

/// The standings as the public may see them: not at all for a voided tournament (404), and
/// without voided players' rows. Officials see every row. (Hands at a voided table still count
/// in the standings projection; leaving them out belongs to the standings themselves.)
pub fn standings_for(
    ledger: &Ledger,
    mut standings: super::tournament::StandingsView,
    audience: Audience,
) -> Result<super::tournament::StandingsView, AppError> {
    if audience == Audience::Officials {
        return Ok(standings);
    }
    let id = standings.tournament.id.clone();
    let missing = || AppError::not_found(format!("no tournament `{id}`"));
    let stream = StreamId::tournament(&id).map_err(|_| missing())?;
    let in_play = InPlay::load(ledger, &stream)?;
    if in_play.tournament_voided().is_some() {
        return Err(missing());
    }
    standings
        .rows
        .retain(|r| PlayerId::new(&r.player).map_or(true, |p| in_play.player_voided(&p).is_none()));
    Ok(standings)
}
