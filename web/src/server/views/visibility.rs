//! What the public does not see: a voided tournament, a voided table, their hands, and a voided
//! player. Officials see them, marked voided (the ledger keeps everything).
//!
//! The table and hand pages (and their API reads) ask here before rendering, so that the rule
//! lives in one place rather than in every handler.

use ledger::{Ledger, PlayerId, StreamId, TableId};

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

/// Why a hand is out of public view (its table or tournament is voided), if it is.
pub fn hand_voided(ledger: &Ledger, hand: &str) -> Result<Option<String>, AppError> {
    let Ok(stream) = StreamId::hand(hand) else {
        return Ok(None);
    };
    match ledger.hand_record(&stream)? {
        Some(record) => table_voided(ledger, &record.table),
        None => Ok(None),
    }
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
