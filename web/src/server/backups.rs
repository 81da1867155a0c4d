//! `serve --backup-dir DIR`: copies of the ledger on a schedule, off the request path.
//!
//! One thread of its own sleeps between copies and makes each one as `backup` does
//! ([`crate::app::backup::take`]: SQLite's online backup, audited before it takes its name,
//! the key beside it), with its own read connection: the server's writer is never held, so
//! the tables go on recording while a copy is made. Each good copy is named by its time and
//! the chain head it holds; when nothing was recorded since the newest, none is made (it
//! would be the same ledger), and only the newest `--backup-keep` good copies are kept — and
//! only after a good copy was made, so a ledger gone bad never pushes the good copies out. A
//! copy that does not audit clean is kept as `damaged-…`, logged as an error and counted
//! (`mahjong_backup_failures_total`), as is a copy that fails; the age of the newest good copy
//! is on `/metrics`, counted from the server's start until there is one.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use crate::app::backup::{self, KeyCopy, Target};

/// The schedule.
#[derive(Clone, Debug)]
pub struct Schedule {
    pub dir: PathBuf,
    pub every: Duration,
    pub keep: usize,
}

/// The newest good copy, as the scheduler last knew it.
pub struct Status {
    started: Instant,
    last: Mutex<Option<Good>>,
}

/// A good copy known to hold the ledger's head at `at`.
#[derive(Clone, Copy, Debug)]
pub struct Good {
    pub at: Instant,
    /// When it was made (its name's time), for the last-success timestamp.
    pub made: SystemTime,
    pub position: u64,
    pub bytes: u64,
}

impl Default for Status {
    fn default() -> Self {
        Status {
            started: Instant::now(),
            last: Mutex::new(None),
        }
    }
}

impl Status {
    /// How long since a good copy was last known to hold the ledger's head; before the first,
    /// how long the server has run without one.
    pub fn age(&self) -> Duration {
        match self.last() {
            Some(good) => good.at.elapsed(),
            None => self.started.elapsed(),
        }
    }

    /// The newest good copy.
    pub fn last(&self) -> Option<Good> {
        self.last.lock().ok().and_then(|g| *g)
    }

    fn current(&self, made: SystemTime, position: u64, bytes: u64) {
        if let Ok(mut last) = self.last.lock() {
            *last = Some(Good {
                at: Instant::now(),
                made,
                position,
                bytes,
            });
        }
    }
}

/// How old a partial copy must be to be taken for one a stopped copier left behind.
const STALE_PARTIAL: Duration = Duration::from_secs(3600);

/// Checks that `dir` can hold copies (made, for its owner only, when missing), and clears the
/// partial copies a stop in the middle of one left: before the server listens, so a wrong
/// folder is said at once rather than an hour later.
pub fn prepare(dir: &Path) -> anyhow::Result<()> {
    use anyhow::Context;
    if !dir.exists() {
        let mut builder = std::fs::DirBuilder::new();
        builder.recursive(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::DirBuilderExt;
            // The copies hold the officials' password hashes and the key.
            builder.mode(0o700);
        }
        builder
            .create(dir)
            .with_context(|| format!("--backup-dir {}: cannot create the folder", dir.display()))?;
    }
    let probe = dir.join(format!(
        ".mahjong-referee-write-test-{}",
        std::process::id()
    ));
    std::fs::write(&probe, b"")
        .and_then(|()| std::fs::remove_file(&probe))
        .with_context(|| format!("--backup-dir {}: cannot write in the folder", dir.display()))?;
    for entry in std::fs::read_dir(dir)?.flatten() {
        let path = entry.path();
        let partial = path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with("copying-") && n.ends_with(".partial"));
        let stale = entry
            .metadata()
            .and_then(|m| m.modified())
            .is_ok_and(|m| m.elapsed().unwrap_or_default() > STALE_PARTIAL);
        if partial && stale {
            let _ = std::fs::remove_file(&path);
        }
    }
    Ok(())
}

/// Starts the scheduler's thread for the ledger at `db`.
pub fn start(db: PathBuf, schedule: Schedule, status: Arc<Status>) -> std::io::Result<()> {
    std::thread::Builder::new()
        .name("backups".into())
        .spawn(move || loop {
            let wait = due_in(&db, &schedule, &status);
            if !wait.is_zero() {
                std::thread::sleep(wait);
                continue;
            }
            copy_once(&db, &schedule, &status);
            std::thread::sleep(schedule.every);
        })
        .map(drop)
}

/// How long until the next copy is due: none now when the folder has no good copy, or its
/// newest is older than the interval (by the time in its name).
fn due_in(db: &Path, schedule: &Schedule, status: &Status) -> Duration {
    let Some(newest) = newest(&schedule.dir) else {
        return Duration::ZERO;
    };
    let Some(taken) = backup::taken_at(&newest) else {
        return Duration::ZERO;
    };
    confirm(db, &newest, status);
    let age = SystemTime::now()
        .duration_since(taken)
        .unwrap_or(Duration::ZERO);
    schedule.every.saturating_sub(age)
}

fn newest(dir: &Path) -> Option<PathBuf> {
    backup::scheduled_copies(dir).ok()?.pop()
}

/// Whether the copy's name says it holds the ledger's head now; if so, it is the newest good
/// copy as of now (made when its name says, of its size), and `status` says so.
fn confirm(db: &Path, copy: &Path, status: &Status) -> bool {
    let Some((position, hash)) = backup::named_head(copy) else {
        return false;
    };
    let Ok(head) = ledger::Ledger::open_reader(db).and_then(|l| l.head()) else {
        return false;
    };
    let holds = head.position == position && head.chain_hash.to_hex().starts_with(&hash);
    if holds {
        let made = backup::taken_at(copy).unwrap_or_else(SystemTime::now);
        let bytes = std::fs::metadata(copy).map_or(0, |m| m.len());
        status.current(made, position, bytes);
    }
    holds
}

/// Makes one copy (unless the newest good one already holds the head); after a good one,
/// keeps only the newest.
pub fn copy_once(db: &Path, schedule: &Schedule, status: &Status) {
    if let Some(newest) = newest(&schedule.dir).filter(|n| confirm(db, n, status)) {
        tracing::info!(copy = %newest.display(), "backup: nothing recorded since the newest copy; none made");
        return;
    }
    let started = Instant::now();
    match backup::take(
        db,
        Target::Folder(&schedule.dir),
        true,
        backup::Depth::Chain,
    ) {
        Ok(taken) if taken.audit.is_clean() => {
            tracing::info!(
                copy = %taken.path.display(),
                position = taken.copied.head.position,
                chain_hash = %taken.copied.head.chain_hash,
                bytes = taken.copied.bytes,
                seconds = started.elapsed().as_secs_f64(),
                "backup made and audited clean"
            );
            if let KeyCopy::Missing(_) = taken.key {
                tracing::warn!(copy = %taken.path.display(), "backup: {}", taken.key.describe());
            }
            status.current(
                SystemTime::now(),
                taken.copied.head.position,
                taken.copied.bytes,
            );
            prune(&schedule.dir, schedule.keep);
        }
        Ok(taken) => {
            super::metrics::backup_failed();
            tracing::error!(
                copy = %taken.path.display(),
                audit = %taken.audit.describe(),
                "backup made, but it does not audit clean: the ledger itself is damaged (run `mahjong-referee audit`); the copy is kept as damaged, and no good copy is removed"
            );
        }
        Err(e) => {
            super::metrics::backup_failed();
            tracing::error!(error = %e, dir = %schedule.dir.display(), "backup failed");
        }
    }
}

/// Removes all but the newest `keep` good copies (and their keys).
fn prune(dir: &Path, keep: usize) {
    let Ok(copies) = backup::scheduled_copies(dir) else {
        return;
    };
    let extra = copies.len().saturating_sub(keep);
    for old in &copies[..extra] {
        if let Err(e) = std::fs::remove_file(old) {
            tracing::warn!(copy = %old.display(), error = %e, "backup: cannot remove an old copy");
            continue;
        }
        let _ = std::fs::remove_file(ledger::signing::key_path(old));
        tracing::info!(copy = %old.display(), "backup: old copy removed");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copys_name_gives_back_its_time_and_head_and_others_are_not_copies() {
        let head = ledger::ChainHead {
            position: 42,
            chain_hash: ledger::Hash([0xab; 32]),
        };
        let at = chrono::DateTime::parse_from_rfc3339("2026-11-28T19:00:05Z")
            .unwrap()
            .to_utc();
        let name = backup::scheduled_name(at, head);
        assert_eq!(name, "ledger-20261128T190005Z-p42-abababab.db");
        let path = Path::new("/backups").join(&name);
        assert_eq!(backup::taken_at(&path), Some(SystemTime::from(at)));
        assert_eq!(backup::named_head(&path), Some((42, "abababab".to_owned())));
        for other in [
            "ledger-old.db",
            "damaged-ledger-20261128T190005Z-p42-abababab.db",
            "ledger-20261128T190005Z-p42-abababab.db.key",
            "ledger-20261128T190005Z-p42-abababab-mine.db",
        ] {
            assert_eq!(backup::named_head(Path::new(other)), None, "{other}");
        }
    }

    #[test]
    fn only_the_newest_good_copies_are_kept_with_their_keys() {
        let dir = tempfile::tempdir().unwrap();
        for hour in 10..15 {
            let name = format!("ledger-20261128T{hour}0000Z-p{hour}-00000000.db");
            std::fs::write(dir.path().join(&name), b"").unwrap();
            std::fs::write(dir.path().join(format!("{name}.key")), b"").unwrap();
        }
        for other in [
            "notes.txt",
            "ledger-old.db",
            "damaged-ledger-20261128T090000Z-p9-00000000.db",
        ] {
            std::fs::write(dir.path().join(other), b"").unwrap();
        }
        prune(dir.path(), 2);
        let mut left: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        assert_eq!(
            left,
            [
                "damaged-ledger-20261128T090000Z-p9-00000000.db",
                "ledger-20261128T130000Z-p13-00000000.db",
                "ledger-20261128T130000Z-p13-00000000.db.key",
                "ledger-20261128T140000Z-p14-00000000.db",
                "ledger-20261128T140000Z-p14-00000000.db.key",
                "ledger-old.db",
                "notes.txt"
            ]
        );
    }

    #[test]
    fn a_copy_is_made_only_when_something_was_recorded_since_the_newest() {
        use crate::app::fixture::spring;
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("club.db");
        let copies = dir.path().join("copies");
        prepare(&copies).unwrap();
        spring(&db, &[]);
        let schedule = Schedule {
            dir: copies.clone(),
            every: Duration::from_secs(3600),
            keep: 2,
        };
        let status = Status::default();
        assert!(status.last().is_none());
        copy_once(&db, &schedule, &status);
        let first = backup::scheduled_copies(&copies).unwrap();
        assert_eq!(first.len(), 1);
        assert!(
            ledger::signing::key_path(&first[0]).exists()
                || !ledger::signing::key_path(&db).exists()
        );
        let made = status.last().unwrap();
        copy_once(&db, &schedule, &status);
        assert_eq!(
            backup::scheduled_copies(&copies).unwrap(),
            first,
            "nothing new: no copy"
        );
        assert!(status.last().unwrap().at >= made.at);
        spring(&db, &["Ann"]);
        // A second later, so that the new copy's name sorts after the first.
        std::thread::sleep(Duration::from_millis(1100));
        copy_once(&db, &schedule, &status);
        let second = backup::scheduled_copies(&copies).unwrap();
        assert_eq!(second.len(), 2);
        let head = ledger::Ledger::open_reader(&db).unwrap().head().unwrap();
        assert_eq!(backup::named_head(&second[1]).unwrap().0, head.position);
        assert_eq!(status.last().unwrap().position, head.position);
    }
}
