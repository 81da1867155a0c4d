//! Running a tournament in sessions: opening a session with a generated seating, and closing
//! it. The rules — sessions one after another, the seating's plan, substitutes and byes — are
//! the tournament aggregate's (`referee::tournament`, with `referee::seating::session`); here
//! the ledger is read for them (the standings of the sessions a Swiss or progressive plan seats
//! from), a fresh seed drawn when none is given, and what they decide recorded.

use std::collections::BTreeMap;

use ledger::{Ledger, PlayerId};
use readmodel::{Reads, StandingsScope};
use referee::seating::Method;
use referee::tournament::TournamentCommand;
use serde::Deserialize;

use crate::app::accounts::roles::Action;
use crate::app::accounts::viewer::Official;
use crate::app::error::AppError;
use crate::app::tournament as loaded;

pub use referee::tournament::ranges::MAX_MINUTES;

/// Open the next session, seated by the generator.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpenSession {
    /// `no-repeat`, `swiss`, `progressive` or `random`.
    pub method: String,
    /// The seed of the plan; a fresh random one when absent (a continuing plan keeps its own).
    #[serde(default)]
    pub seed: Option<u64>,
    /// How many sessions the event has, counting this one and those before it; needed when a
    /// plan is made, else the plan's own.
    #[serde(default)]
    pub sessions: Option<u32>,
    /// The session's length in minutes, for its clock.
    #[serde(default)]
    pub minutes: Option<u32>,
}

/// Opens the next session: plans its seating, forms its tables and seats them, in one append.
/// Returns the session's number.
pub fn open(
    ledger: &mut Ledger,
    tournament: &str,
    by: &Official,
    cmd: &OpenSession,
) -> Result<u32, AppError> {
    by.require_role(Action::FormTable)?;
    let t = loaded::existing(ledger, tournament)?;
    let seed = cmd.seed.unwrap_or_else(rand::random);
    let nets = nets(ledger, &t, cmd, seed)?;
    let command = TournamentCommand::OpenSession {
        method: cmd.method.clone(),
        seed,
        sessions: cmd.sessions,
        minutes: cmd.minutes,
        nets,
    };
    t.run(ledger, &command, &by.id)?
        .into_iter()
        .find_map(|e| match e {
            ledger::event::TournamentEvent::SessionOpened(o) => Some(o.session),
            _ => None,
        })
        .ok_or_else(|| AppError::internal("a session opened no session"))
}

/// The nets of each session a Swiss or progressive plan seats the next from, by player (from
/// the standings of each session); none for the other methods, or a command the aggregate will
/// refuse anyway.
fn nets(
    ledger: &Ledger,
    t: &loaded::Loaded,
    cmd: &OpenSession,
    seed: u64,
) -> Result<BTreeMap<u32, BTreeMap<PlayerId, i64>>, AppError> {
    let Ok(method) = cmd.method.trim().parse::<Method>() else {
        return Ok(BTreeMap::new());
    };
    if !method.needs_results() {
        return Ok(BTreeMap::new());
    }
    let number = t
        .state
        .sessions
        .last()
        .map_or(1, |s| s.number.saturating_add(1));
    let Ok(run) = t.state.session_run(number, method, seed, cmd.sessions) else {
        return Ok(BTreeMap::new());
    };
    let mut out = BTreeMap::new();
    for &session in &run.played {
        let nets = ledger
            .standings_in(&t.stream, StandingsScope::Session(session))?
            .into_iter()
            .map(|s| (s.player, s.net))
            .collect();
        out.insert(session, nets);
    }
    Ok(out)
}

/// Closes an open session: its open tables are closed and the session's results made public,
/// in one append; with `key`, a checkpoint of the chain head is signed straight after (the end
/// of a session of play is when a club publishes its head).
pub fn close(
    ledger: &mut Ledger,
    tournament: &str,
    session: u32,
    by: &Official,
    key: Option<&ledger::signing::LedgerKey>,
) -> Result<(), AppError> {
    by.require_role(Action::CloseTable)?;
    let t = loaded::existing(ledger, tournament)?;
    // Closing a session closes its open tables: none may have a hand in play.
    for table in t
        .state
        .tables
        .iter()
        .filter(|e| e.session == Some(session) && e.is_open() && e.seats.is_some())
    {
        super::voiding::no_hand_in_play(ledger, table.id.as_str())?;
    }
    t.run(ledger, &TournamentCommand::CloseSession { session }, &by.id)?;
    if let Some(key) = key {
        ledger.sign_checkpoint(key, &by.id)?;
    }
    Ok(())
}
