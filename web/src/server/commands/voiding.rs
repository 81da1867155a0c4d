//! Voiding a mistaken tournament, table or player, and closing a table whose play is over.
//!
//! Each is one event appended to the tournament's stream at the version read, so it races
//! safely with other writes (a stale one is a 409). Nothing is deleted: the voided thing stays
//! in the ledger with the reason, visible to officials; public pages leave it out. Organisers
//! (and the administrator) void and close.

use ledger::event::{PlayerVoided, TableClosed, TableVoided, TournamentVoided};
use ledger::{ExpectedVersion, Ledger, NewEvent, PlayerId, StreamId, TableId};
use readmodel::{Reads, TableRow};
use serde::Deserialize;

use super::existing_tournament;
use crate::server::auth::Official;
use crate::server::error::AppError;
use crate::server::in_play::InPlay;
use crate::server::roles::Action;

/// The longest reason kept.
const MAX_REASON: usize = 500;

/// Void something: why.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Void {
    pub reason: String,
}

impl Void {
    fn reason(&self) -> Result<String, AppError> {
        let reason = self.reason.trim();
        if reason.is_empty() || reason.chars().count() > MAX_REASON {
            return Err(AppError::unprocessable(format!(
                "reason: say why, in 1 to {MAX_REASON} characters"
            )));
        }
        Ok(reason.to_owned())
    }
}

/// Close a table: nothing to say but that its play is over.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CloseTable {}

fn append(
    ledger: &mut Ledger,
    stream: &StreamId,
    version: u64,
    event: NewEvent,
    by: &Official,
) -> Result<(), AppError> {
    ledger.append(stream, ExpectedVersion::Exact(version), vec![event], &by.id)?;
    Ok(())
}

/// Voids a tournament.
pub fn void_tournament(
    ledger: &mut Ledger,
    tournament: &str,
    by: &Official,
    cmd: &Void,
) -> Result<(), AppError> {
    by.require_role(Action::Void)?;
    let stream = existing_tournament(ledger, tournament)?;
    let reason = cmd.reason()?;
    let version = ledger.stream_version(&stream)?;
    InPlay::load(ledger, &stream)?.require_tournament()?;
    append(
        ledger,
        &stream,
        version,
        NewEvent::new(TournamentVoided { reason }),
        by,
    )
}

/// A table and its tournament's stream, or 404.
fn existing_table(ledger: &Ledger, table: &str) -> Result<(TableId, TableRow), AppError> {
    let missing = || AppError::not_found(format!("no table `{table}`"));
    let id = TableId::new(table).map_err(|_| missing())?;
    let row = ledger.table(&id)?.ok_or_else(missing)?;
    Ok((id, row))
}

/// Voids a table: its hands stay in the ledger, its players are free to sit elsewhere.
pub fn void_table(
    ledger: &mut Ledger,
    table: &str,
    by: &Official,
    cmd: &Void,
) -> Result<(), AppError> {
    by.require_role(Action::Void)?;
    let (id, row) = existing_table(ledger, table)?;
    let reason = cmd.reason()?;
    let version = ledger.stream_version(&row.tournament)?;
    let in_play = InPlay::load(ledger, &row.tournament)?;
    in_play.require_tournament()?;
    if let Some(earlier) = in_play.table_voided(&id) {
        return Err(AppError::unprocessable(format!(
            "table `{id}` is already voided ({earlier})"
        )));
    }
    let event = NewEvent::new(TableVoided { table: id, reason });
    append(ledger, &row.tournament, version, event, by)
}

/// Closes a table whose play is over.
///
/// The end of a table's session of play is when a club publishes its head: with `key`, a
/// checkpoint of the chain head is signed and recorded straight after (`ledger::signing`).
pub fn close_table(
    ledger: &mut Ledger,
    table: &str,
    by: &Official,
    _cmd: &CloseTable,
    key: Option<&ledger::signing::LedgerKey>,
) -> Result<(), AppError> {
    by.require_role(Action::CloseTable)?;
    let (id, row) = existing_table(ledger, table)?;
    let version = ledger.stream_version(&row.tournament)?;
    let in_play = InPlay::load(ledger, &row.tournament)?;
    in_play.require_table_open(&id)?;
    let event = NewEvent::new(TableClosed { table: id });
    append(ledger, &row.tournament, version, event, by)?;
    if let Some(key) = key {
        ledger.sign_checkpoint(key, &by.id)?;
    }
    Ok(())
}

/// Voids a player. A player seated at an open table is refused: void or close that table first,
/// so no open table is left with a voided player in a seat.
pub fn void_player(
    ledger: &mut Ledger,
    tournament: &str,
    player: &str,
    by: &Official,
    cmd: &Void,
) -> Result<(), AppError> {
    by.require_role(Action::Void)?;
    let stream = existing_tournament(ledger, tournament)?;
    let missing = || AppError::not_found(format!("no player `{player}` in this tournament"));
    let id = PlayerId::new(player).map_err(|_| missing())?;
    let registered = ledger.players(&stream)?;
    let found = registered
        .iter()
        .find(|p| p.player == id)
        .ok_or_else(missing)?;
    let reason = cmd.reason()?;
    let version = ledger.stream_version(&stream)?;
    let in_play = InPlay::load(ledger, &stream)?;
    in_play.require_tournament()?;
    if let Some(earlier) = in_play.player_voided(&id) {
        return Err(AppError::unprocessable(format!(
            "{} is already voided ({earlier})",
            found.name
        )));
    }
    let seated = ledger.tables(&stream)?.into_iter().find(|t| {
        in_play.table_open(&t.table)
            && t.seats
                .as_ref()
                .is_some_and(|s| s.iter().any(|(_, p)| *p == id))
    });
    if let Some(t) = seated {
        return Err(AppError::unprocessable(format!(
            "{} sits at table {} (`{}`), which is open: close or void that table first",
            found.name, t.number, t.table
        )));
    }
    let event = NewEvent::new(PlayerVoided { player: id, reason });
    append(ledger, &stream, version, event, by)
}
