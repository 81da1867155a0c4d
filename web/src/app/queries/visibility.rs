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
use referee::tournament::Audience as Viewing;

use super::Audience;
use crate::app::error::AppError;
use crate::app::tournament as loaded;

/// The referee's audience for a page's.
fn viewing(audience: Audience) -> Viewing {
    match audience {
        Audience::Public => Viewing::Public,
        Audience::Officials => Viewing::Officials,
    }
}

/// The tournament `table` belongs to, loaded, with the table's id; `None` for no such table.
fn tournament_of(
    ledger: &Ledger,
    table: &str,
) -> Result<Option<(TableId, loaded::Loaded)>, AppError> {
    let Ok(id) = TableId::new(table) else {
        return Ok(None);
    };
    let Some(row) = ledger.table(&id)? else {
        return Ok(None);
    };
    Ok(Some((id, loaded::load_stream(ledger, row.tournament)?)))
}

/// Why a table is out of public view (it or its tournament is voided), if it is.
pub fn table_voided(ledger: &Ledger, table: &str) -> Result<Option<String>, AppError> {
    Ok(tournament_of(ledger, table)?.and_then(|(id, t)| {
        t.state
            .table_hidden(Viewing::Public, &id)
            .map(|h| h.to_string())
    }))
}

/// Why a hand is out of public view (its table or tournament is voided, or its table's session
/// is still open and the table not broadcast), if it is.
pub fn hand_hidden(ledger: &Ledger, hand: &str) -> Result<Option<String>, AppError> {
    let Ok(stream) = StreamId::hand(hand) else {
        return Ok(None);
    };
    let Some(record) = ledger.hand_record(&stream)? else {
        return Ok(None);
    };
    Ok(tournament_of(ledger, &record.table)?.and_then(|(id, t)| {
        t.state
            .play_hidden(Viewing::Public, &id)
            .map(|h| h.to_string())
    }))
}

/// Whether the public may follow table `table`'s play while its session is in play (an
/// organiser broadcasts it).
pub fn broadcast(ledger: &Ledger, table: &str) -> Result<bool, AppError> {
    Ok(tournament_of(ledger, table)?
        .is_some_and(|(id, t)| t.state.table(&id).is_some_and(|e| e.broadcast)))
}

/// The session of a table, when that session is still open (its results hidden).
pub fn open_session_of(ledger: &Ledger, table: &str) -> Result<Option<u32>, AppError> {
    Ok(tournament_of(ledger, table)?.and_then(|(id, t)| t.state.open_session_of(&id)))
}

/// The tables of a tournament whose results `audience` does not see yet (their sessions are
/// open): for pages that list hands across tables.
pub fn tables_in_open_sessions(
    tournament: &referee::tournament::Tournament,
    audience: Audience,
) -> HashSet<String> {
    tournament
        .tables_with_hidden_results(viewing(audience))
        .into_iter()
        .map(|t| t.as_str().to_owned())
        .collect()
}

/// Whether a player is out of public view (voided, or the tournament is).
pub fn player_voided(
    ledger: &Ledger,
    tournament: &StreamId,
    player: &str,
) -> Result<bool, AppError> {
    let t = loaded::load_stream(ledger, tournament.clone())?;
    Ok(t.state.hidden(Viewing::Public).is_some()
        || PlayerId::new(player)
            .is_ok_and(|p| t.state.player_hidden(Viewing::Public, &p).is_some()))
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
    let t = loaded::load(ledger, &id).map_err(|_| missing())?;
    if t.state.hidden(Viewing::Public).is_some() {
        return Err(missing());
    }
    standings.rows.retain(|r| {
        PlayerId::new(&r.player).map_or(true, |p| {
            t.state.player_hidden(Viewing::Public, &p).is_none()
        })
    });
    Ok(standings)
}
