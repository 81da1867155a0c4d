//! The writes the service offers, shared by the pages and the JSON API.
//!
//! Each command is decided against what the ledger holds and turned into events, then appended
//! with an expected version, so a write based on a stale view is refused with a conflict and
//! nothing is written. Input is parsed into checked types first and every problem is reported
//! at once (STYLE.md habits 1–2).

pub mod count;
pub mod hand;
pub mod play;
pub mod ruling;
pub mod session;
pub mod tournament;
pub mod undo;
pub mod voiding;

/// The ranges a tournament's numbers must lie in, the tournament aggregate's.
pub use referee::tournament::ranges;

use ledger::{Ledger, StreamId};
use readmodel::Reads;

use super::error::AppError;

/// The tournament stream for an id, or 404 when it does not exist.
pub fn existing_tournament(ledger: &Ledger, id: &str) -> Result<StreamId, AppError> {
    let stream = StreamId::tournament(id)
        .map_err(|_| AppError::not_found(format!("no tournament `{id}`")))?;
    if ledger.tournament(&stream)?.is_none() {
        return Err(AppError::not_found(format!("no tournament `{id}`")));
    }
    Ok(stream)
}
