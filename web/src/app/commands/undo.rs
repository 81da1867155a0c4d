//! Undoing the night's one-tap actions: a table or a session reopened, a voiding undone — by
//! an organiser, with why, each a fact of its own (the tournament's aggregate decides it; see
//! `referee::tournament` and its `undo` module).
//!
//! The service's own policy on top: an undo comes **within the evening** — no later than
//! [`UNDO_HOURS`] after what it undoes was recorded. The next day the night's record stands,
//! and a mistake found then is a referee's correction, not an undo.

use chrono::{DateTime, Utc};
use ledger::{Ledger, StreamId};
use referee::event::TournamentEvent;
use referee::tournament::{TournamentCommand, VoidTarget};
use serde::Deserialize;

use crate::app::accounts::roles::Action;
use crate::app::accounts::viewer::Official;
use crate::app::error::AppError;
use crate::app::tournament as loaded;

use super::voiding::table_and_tournament;

/// How long after an action it may be undone: an evening.
pub const UNDO_HOURS: i64 = 12;

/// Undo something: why.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Undo {
    pub reason: String,
}

/// When the last event of `stream` that `undone` picks was recorded.
fn recorded_at(
    ledger: &Ledger,
    stream: &StreamId,
    undone: impl Fn(&TournamentEvent) -> bool,
) -> Result<Option<DateTime<Utc>>, AppError> {
    Ok(ledger
        .read_stream(stream, 1)?
        .into_iter()
        .filter(|e| TournamentEvent::try_from(e.event.clone()).is_ok_and(|t| undone(&t)))
        .map(|e| e.recorded_at)
        .next_back())
}

/// Refuses an undo that comes after the evening of what it undoes.
fn within_the_evening(
    ledger: &Ledger,
    stream: &StreamId,
    what: &str,
    undone: impl Fn(&TournamentEvent) -> bool,
) -> Result<(), AppError> {
    let Some(at) = recorded_at(ledger, stream, undone)? else {
        // Nothing to undo: the aggregate says so, in its words.
        return Ok(());
    };
    let hours = (Utc::now() - at).num_hours();
    if hours >= UNDO_HOURS {
        return Err(AppError::conflict(format!(
            "{what} was recorded {hours} hours ago: an undo comes within the evening ({UNDO_HOURS} hours); the night's record now stands, and a mistake in it is a referee's correction"
        )));
    }
    Ok(())
}

/// Opens a closed table again.
pub fn reopen_table(
    ledger: &mut Ledger,
    table: &str,
    by: &Official,
    cmd: &Undo,
) -> Result<(), AppError> {
    by.require_role(Action::CloseTable)?;
    let (id, t) = table_and_tournament(ledger, table)?;
    within_the_evening(
        ledger,
        &t.stream,
        "the table's closing",
        |e| matches!(e, TournamentEvent::TableClosed(c) if c.table == id),
    )?;
    let command = TournamentCommand::ReopenTable {
        table: id,
        reason: cmd.reason.clone(),
    };
    t.run(ledger, &command, &by.id)?;
    Ok(())
}

/// Opens a closed session again: its results are hidden from the public until it closes.
pub fn reopen_session(
    ledger: &mut Ledger,
    tournament: &str,
    session: u32,
    by: &Official,
    cmd: &Undo,
) -> Result<(), AppError> {
    by.require_role(Action::CloseTable)?;
    let t = loaded::existing(ledger, tournament)?;
    within_the_evening(
        ledger,
        &t.stream,
        "the session's closing",
        |e| matches!(e, TournamentEvent::SessionClosed(c) if c.session == session),
    )?;
    let command = TournamentCommand::ReopenSession {
        session,
        reason: cmd.reason.clone(),
    };
    t.run(ledger, &command, &by.id)?;
    Ok(())
}

/// Undoes the voiding of the tournament, of one of its tables, or of one of its players.
pub fn undo_void(
    ledger: &mut Ledger,
    tournament: &str,
    target: VoidTarget,
    by: &Official,
    cmd: &Undo,
) -> Result<(), AppError> {
    by.require_role(Action::Void)?;
    let t = loaded::existing(ledger, tournament)?;
    let picks = |e: &TournamentEvent| match (e, &target) {
        (TournamentEvent::TournamentVoided(_), VoidTarget::Tournament) => true,
        (TournamentEvent::TableVoided(v), VoidTarget::Table(id)) => &v.table == id,
        (TournamentEvent::PlayerVoided(v), VoidTarget::Player(p)) => v.player.as_str() == p,
        _ => false,
    };
    within_the_evening(ledger, &t.stream, "the voiding", picks)?;
    let command = TournamentCommand::UndoVoid {
        target,
        reason: cmd.reason.clone(),
    };
    t.run(ledger, &command, &by.id)?;
    Ok(())
}

/// Undoes the voiding of a table, found by its id.
pub fn undo_void_table(
    ledger: &mut Ledger,
    table: &str,
    by: &Official,
    cmd: &Undo,
) -> Result<(), AppError> {
    let (id, t) = table_and_tournament(ledger, table)?;
    let tournament = t.stream.id().to_owned();
    undo_void(ledger, &tournament, VoidTarget::Table(id), by, cmd)
}
