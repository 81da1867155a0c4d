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
pub mod voiding;

/// The ranges a tournament's numbers must lie in, the tournament aggregate's.
pub use referee::tournament::ranges;

use ledger::{Ledger, StreamId};
use readmodel::Reads;

use super::error::AppError;

/// Makes an id from a name: lower case letters and digits, other runs become `-`.
pub fn slug(name: &str, fallback: &str) -> String {
    let mut out = String::new();
    for c in name.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    let out: String = out.trim_end_matches('-').chars().take(60).collect();
    if out.is_empty() {
        fallback.to_owned()
    } else {
        out
    }
}

/// The tournament stream for an id, or 404 when it does not exist.
pub fn existing_tournament(ledger: &Ledger, id: &str) -> Result<StreamId, AppError> {
    let stream = StreamId::tournament(id)
        .map_err(|_| AppError::not_found(format!("no tournament `{id}`")))?;
    if ledger.tournament(&stream)?.is_none() {
        return Err(AppError::not_found(format!("no tournament `{id}`")));
    }
    Ok(stream)
}

#[cfg(test)]
mod tests {
    #[test]
    fn slugs() {
        assert_eq!(super::slug("Spring Open 2026!", "t"), "spring-open-2026");
        assert_eq!(super::slug("  ", "t"), "t");
        assert_eq!(super::slug("Zoë", "t"), "zo");
    }
}
