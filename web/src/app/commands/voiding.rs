//! Voiding a mistaken tournament, table or player, and closing a table whose play is over.
//!
//! Each is one event appended to the tournament's stream at the version read, so it races
//! safely with other writes (a stale one is a 409). Nothing is deleted: the voided thing stays
//! in the ledger with the reason, visible to officials; public pages leave it out. Organisers
//! (and the administrator) void and close.

use ledger::{Ledger, TableId};
use readmodel::Reads;
use referee::tournament::TournamentCommand;
use serde::Deserialize;

use crate::app::accounts::roles::Action;
use crate::app::accounts::viewer::Official;
use crate::app::error::AppError;
use crate::app::tournament as loaded;

/// Void something: why.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Void {
    pub reason: String,
}

/// Close a table: nothing to say but that its play is over.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CloseTable {}

/// Voids a tournament.
pub fn void_tournament(
    ledger: &mut Ledger,
    tournament: &str,
    by: &Official,
    cmd: &Void,
) -> Result<(), AppError> {
    by.require_role(Action::Void)?;
    let t = loaded::existing(ledger, tournament)?;
    let command = TournamentCommand::VoidTournament {
        reason: cmd.reason.clone(),
    };
    t.run(ledger, &command, &by.id)?;
    Ok(())
}

/// The tournament a table belongs to, loaded; 404 for a table no tournament has.
pub(super) fn table_and_tournament(
    ledger: &Ledger,
    table: &str,
) -> Result<(TableId, loaded::Loaded), AppError> {
    let missing = || AppError::not_found(format!("no table `{table}`"));
    let id = TableId::new(table).map_err(|_| missing())?;
    let row = ledger.table(&id)?.ok_or_else(missing)?;
    Ok((id, loaded::load_stream(ledger, row.tournament)?))
}

/// Refuses (409) ending a table with a hand in play (`Table::may_end`).
pub(crate) fn no_hand_in_play(ledger: &Ledger, table: &str) -> Result<(), AppError> {
    let ctx = crate::app::table::TableContext::load(ledger, table)?;
    ctx.state
        .may_end()
        .map_err(|v| AppError::conflict(v.message))
}

/// Voids a table: its hands stay in the ledger, its players are free to sit elsewhere.
pub fn void_table(
    ledger: &mut Ledger,
    table: &str,
    by: &Official,
    cmd: &Void,
) -> Result<(), AppError> {
    by.require_role(Action::Void)?;
    let (id, t) = table_and_tournament(ledger, table)?;
    no_hand_in_play(ledger, table)?;
    let command = TournamentCommand::VoidTable {
        table: id,
        reason: cmd.reason.clone(),
    };
    t.run(ledger, &command, &by.id)?;
    Ok(())
}

/// Opens table `table`'s play to the public while its session is in play (`on`), or stops:
/// a featured table whose hands anyone may follow live.
pub fn broadcast(
    ledger: &mut Ledger,
    table: &str,
    by: &Official,
    on: bool,
) -> Result<(), AppError> {
    by.require_role(Action::FormTable)?;
    let (id, t) = table_and_tournament(ledger, table)?;
    let command = TournamentCommand::Broadcast {
        table: id,
        broadcast: on,
    };
    t.run(ledger, &command, &by.id)?;
    Ok(())
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
    let (id, t) = table_and_tournament(ledger, table)?;
    no_hand_in_play(ledger, table)?;
    t.run(ledger, &TournamentCommand::CloseTable { table: id }, &by.id)?;
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
    let t = loaded::existing(ledger, tournament)?;
    let command = TournamentCommand::VoidPlayer {
        player: player.to_owned(),
        reason: cmd.reason.clone(),
    };
    t.run(ledger, &command, &by.id)?;
    Ok(())
}
