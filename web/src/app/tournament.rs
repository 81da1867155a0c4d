//! A tournament loaded for a decision: its aggregate (`referee::tournament`) folded from its
//! stream, and the version it was folded at, so that what it decides is appended at that
//! version (a write decided on a stale view is refused with a conflict, and nothing is written).

use ledger::{ExpectedVersion, Ledger, NewEvent, OfficialId, StreamId};
use referee::event::TournamentEvent;
use referee::tournament::{Refusal, Tournament, TournamentCommand};

use crate::app::error::AppError;

/// A tournament as its stream stands.
pub struct Loaded {
    pub stream: StreamId,
    pub state: Tournament,
    pub version: u64,
}

/// The tournament `id` folded from its stream: empty (never created) when it has no events;
/// 404 for an id no tournament can have.
pub fn load(ledger: &Ledger, id: &str) -> Result<Loaded, AppError> {
    let stream = StreamId::tournament(id)
        .map_err(|_| AppError::not_found(format!("no tournament `{id}`")))?;
    load_stream(ledger, stream)
}

/// The tournament of `stream`, folded.
pub fn load_stream(ledger: &Ledger, stream: StreamId) -> Result<Loaded, AppError> {
    let mut state = Tournament::new(stream.id());
    let mut version = 0;
    for e in ledger.read_stream(&stream, 1)? {
        version = e.version;
        let event = TournamentEvent::try_from(e.event).map_err(|_| {
            AppError::internal(format!(
                "{stream} version {}: not an event of a tournament",
                e.version
            ))
        })?;
        state
            .apply(&event)
            .map_err(|why| AppError::internal(format!("{stream} version {}: {why}", e.version)))?;
    }
    Ok(Loaded {
        stream,
        state,
        version,
    })
}

/// The tournament `id`, which must exist (404 otherwise).
pub fn existing(ledger: &Ledger, id: &str) -> Result<Loaded, AppError> {
    let loaded = load(ledger, id)?;
    if loaded.state.created.is_none() {
        return Err(AppError::not_found(format!("no tournament `{id}`")));
    }
    Ok(loaded)
}

impl From<Refusal> for AppError {
    fn from(r: Refusal) -> AppError {
        match r {
            Refusal::NotFound(m) => AppError::not_found(m),
            Refusal::Conflict(m) => AppError::conflict(m),
            Refusal::Unprocessable(m) => AppError::unprocessable(m),
            Refusal::Invalid(v) => AppError::violations(v),
        }
    }
}

impl Loaded {
    /// Decides `command` and appends what it decides at the version it was decided on;
    /// returns the events recorded.
    pub fn run(
        &self,
        ledger: &mut Ledger,
        command: &TournamentCommand,
        by: &OfficialId,
    ) -> Result<Vec<TournamentEvent>, AppError> {
        let events = self.state.decide(command)?;
        let new = events.iter().cloned().map(NewEvent::new).collect();
        ledger.append(&self.stream, ExpectedVersion::Exact(self.version), new, by)?;
        Ok(events)
    }
}
