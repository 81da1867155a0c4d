//! A tournament loaded for a decision: its aggregate (`referee::tournament`) folded from its
//! stream, and the version it was folded at, so that what it decides is appended at that
//! version (a write decided on a stale view is refused with a conflict, and nothing is written).

use ledger::{ExpectedVersion, Ledger, NewEvent, OfficialId, StreamId};
use referee::event::TournamentEvent;
use referee::tournament::{Refusal, Tournament, TournamentCommand};

use crate::app::error::AppError;

/// A tournament as its stream stands.
#[derive(Clone)]
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
///
/// A season's stream holds thousands of events (every table formed and closed, every session),
/// and every hand page asks its tournament whether the hand may be shown: folding it afresh
/// each time cost a hand page some 20 ms. Folds are kept ([`Kept`]) and reused while the
/// stream's event at the kept version still has the hash it was folded with — the events
/// recorded since are folded onto it; anything else (a restore, another database at the same
/// path) is folded afresh.
pub fn load_stream(ledger: &Ledger, stream: StreamId) -> Result<Loaded, AppError> {
    let key = (ledger.path().to_owned(), stream.clone());
    let kept = Kept::get(&key);
    let current = ledger.stream_version(&stream)?;
    let reusable = match kept {
        Some((loaded, hash)) if loaded.version > 0 && loaded.version <= current => {
            (ledger.stream_hash_at(&stream, loaded.version)? == hash).then_some((loaded, hash))
        }
        _ => None,
    };
    let (mut loaded, mut hash) = reusable.unwrap_or_else(|| {
        (
            Loaded {
                stream: stream.clone(),
                state: Tournament::new(stream.id()),
                version: 0,
            },
            ledger::Hash::ZERO,
        )
    });
    if loaded.version < current {
        for e in ledger.read_stream(&stream, loaded.version + 1)? {
            let event = TournamentEvent::try_from(e.event).map_err(|_| {
                AppError::internal(format!(
                    "{stream} version {}: not an event of a tournament",
                    e.version
                ))
            })?;
            loaded.state.apply(&event).map_err(|why| {
                AppError::internal(format!("{stream} version {}: {why}", e.version))
            })?;
            loaded.version = e.version;
            hash = e.hash;
        }
        Kept::put(key, &loaded, hash);
    }
    Ok(loaded)
}

/// Tournaments folded, by database and stream, with the hash of the last event folded.
struct Kept;

type KeptMap = std::collections::HashMap<(std::path::PathBuf, StreamId), (Loaded, ledger::Hash)>;

static KEPT: std::sync::LazyLock<std::sync::Mutex<KeptMap>> =
    std::sync::LazyLock::new(Default::default);

/// How many folds are kept: a club's seasons, many times over; past it, all are let go.
const MAX_KEPT: usize = 256;

impl Kept {
    fn get(key: &(std::path::PathBuf, StreamId)) -> Option<(Loaded, ledger::Hash)> {
        if key.0.as_os_str() == ":memory:" {
            return None;
        }
        KEPT.lock().ok()?.get(key).cloned()
    }

    fn put(key: (std::path::PathBuf, StreamId), loaded: &Loaded, hash: ledger::Hash) {
        if key.0.as_os_str() == ":memory:" {
            return;
        }
        if let Ok(mut kept) = KEPT.lock() {
            if kept.len() >= MAX_KEPT && !kept.contains_key(&key) {
                kept.clear();
            }
            kept.insert(key, (loaded.clone(), hash));
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::fixture::spring as ledger_with;

    fn names(db: &std::path::Path) -> Vec<String> {
        let ledger = readmodel::open_reader(db).unwrap();
        let loaded = load(&ledger, "spring").unwrap();
        loaded
            .state
            .players
            .iter()
            .map(|p| p.name.clone())
            .collect()
    }

    #[test]
    fn a_kept_fold_takes_the_events_since_and_never_outlives_its_history() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("club.db");
        ledger_with(&db, &["Ann", "Bob"]);
        assert_eq!(names(&db), ["Ann", "Bob"]);
        // Recorded since: folded onto the kept one.
        ledger_with(&db, &["Cy"]);
        assert_eq!(names(&db), ["Ann", "Bob", "Cy"]);
        // Another history at the same path, as long as the first: folded afresh.
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
        }
        ledger_with(&db, &["Dee", "Eve", "Fay"]);
        assert_eq!(names(&db), ["Dee", "Eve", "Fay"]);
    }
}
