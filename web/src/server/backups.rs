//! `serve --backup-dir DIR`: copies of the ledger on a schedule, off the request path.
//!
//! One thread of its own sleeps between copies and makes each one as `backup` does
//! ([`crate::app::backup::take`]: SQLite's online backup, the key beside it, the copy
//! audited), with its own read connection: the server's writer is never held, so the tables
//! go on recording while a copy is made. Each copy is named by its time and chain head; when
//! nothing was recorded since the newest copy, none is made (it would be the same ledger), and
//! only the newest `--backup-keep` are kept. A copy that fails or does not audit clean is
//! logged as an error and counted (`mahjong_backup_failures_total`); the age of the newest
//! good copy is on `/metrics`.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use crate::app::backup;

/// The schedule.
#[derive(Clone, Debug)]
pub struct Schedule {
    pub dir: PathBuf,
    pub every: Duration,
    pub keep: usize,
}

/// The newest good copy, as the scheduler last knew it.
#[derive(Default)]
pub struct Status {
    /// When the newest copy was last known to hold the ledger's head (made, or found current).
    current_at: Mutex<Option<Instant>>,
}

impl Status {
    /// How long since the newest copy was known to hold the ledger's head; None before the
    /// first.
    pub fn age(&self) -> Option<Duration> {
        self.current_at
            .lock()
            .ok()
            .and_then(|at| at.map(|at| at.elapsed()))
    }

    fn current(&self) {
        if let Ok(mut at) = self.current_at.lock() {
            *at = Some(Instant::now());
        }
    }
}

/// Checks that `dir` can hold copies (made when missing), and clears the partial copies a
/// stop in the middle of one left: before the server listens, so a wrong folder is said at
/// once rather than an hour later.
pub fn prepare(dir: &Path) -> anyhow::Result<()> {
    use anyhow::Context;
    std::fs::create_dir_all(dir)
        .with_context(|| format!("--backup-dir {}: cannot create the folder", dir.display()))?;
    let probe = dir.join(".mahjong-referee-write-test");
    std::fs::write(&probe, b"")
        .and_then(|()| std::fs::remove_file(&probe))
        .with_context(|| format!("--backup-dir {}: cannot write in the folder", dir.display()))?;
    for entry in std::fs::read_dir(dir)?.flatten() {
        let path = entry.path();
        if path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with("ledger-") && n.ends_with(".partial"))
        {
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

/// How long until the next copy is due: none now when the folder has no copy, or its newest is
/// older than the interval (by the time in its name).
fn due_in(db: &Path, schedule: &Schedule, status: &Status) -> Duration {
    let newest = backup::scheduled_copies(&schedule.dir)
        .ok()
        .and_then(|copies| copies.last().cloned());
    let Some(newest) = newest else {
        return Duration::ZERO;
    };
    let Some(taken) = taken_at(&newest) else {
        return Duration::ZERO;
    };
    let age = SystemTime::now()
        .duration_since(taken)
        .unwrap_or(Duration::ZERO);
    if is_current(db, &newest) {
        status.current();
    }
    schedule.every.saturating_sub(age)
}

/// Whether the copy's name says it holds the ledger's head now.
fn is_current(db: &Path, copy: &Path) -> bool {
    let Some((position, hash)) = backup::named_head(copy) else {
        return false;
    };
    ledger::Ledger::open_reader(db)
        .and_then(|l| l.head())
        .is_ok_and(|head| head.position == position && head.chain_hash.to_hex().starts_with(&hash))
}

/// The time a scheduled copy's name says it was taken.
fn taken_at(copy: &Path) -> Option<SystemTime> {
    let name = copy.file_name()?.to_str()?;
    let stamp = name.strip_prefix("ledger-")?.get(..16)?;
    let at = chrono::NaiveDateTime::parse_from_str(stamp, "%Y%m%dT%H%M%SZ").ok()?;
    Some(SystemTime::from(at.and_utc()))
}

/// Makes one copy (unless the newest already holds the head), then keeps only the newest.
fn copy_once(db: &Path, schedule: &Schedule, status: &Status) {
    let newest = backup::scheduled_copies(&schedule.dir)
        .ok()
        .and_then(|copies| copies.last().cloned());
    if newest
        .as_deref()
        .is_some_and(|newest| is_current(db, newest))
    {
        tracing::info!(
            copy = %newest.as_deref().map(Path::display).map(|d| d.to_string()).unwrap_or_default(),
            "backup: nothing recorded since the newest copy; none made"
        );
        status.current();
        return;
    }
    let started = Instant::now();
    let made = ledger::Ledger::open_reader(db)
        .and_then(|l| l.head())
        .map(|head| {
            schedule
                .dir
                .join(backup::scheduled_name(chrono::Utc::now(), head))
        })
        .and_then(|out| backup::take(db, &out, true));
    match made {
        Ok(taken) if taken.audit.is_clean() => {
            tracing::info!(
                copy = %taken.path.display(),
                position = taken.copied.head.position,
                chain_hash = %taken.copied.head.chain_hash,
                bytes = taken.copied.bytes,
                seconds = started.elapsed().as_secs_f64(),
                "backup made and audited clean"
            );
            status.current();
        }
        Ok(taken) => {
            super::metrics::backup_failed();
            tracing::error!(
                copy = %taken.path.display(),
                audit = %taken.audit.describe(),
                "backup made, but it does not audit clean: the ledger itself is damaged; run `mahjong-referee audit`"
            );
        }
        Err(e) => {
            super::metrics::backup_failed();
            tracing::error!(error = %e, dir = %schedule.dir.display(), "backup failed");
        }
    }
    prune(&schedule.dir, schedule.keep);
}

/// Removes all but the newest `keep` copies (and their keys).
fn prune(dir: &Path, keep: usize) {
    let Ok(copies) = backup::scheduled_copies(dir) else {
        return;
    };
    let extra = copies.len().saturating_sub(keep);
    for old in &copies[..extra] {
        let key = ledger::signing::key_path(old);
        if let Err(e) = std::fs::remove_file(old) {
            tracing::warn!(copy = %old.display(), error = %e, "backup: cannot remove an old copy");
            continue;
        }
        let _ = std::fs::remove_file(key);
        tracing::info!(copy = %old.display(), "backup: old copy removed");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copys_name_gives_back_its_time_and_head() {
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
        assert_eq!(taken_at(&path), Some(SystemTime::from(at)));
        assert_eq!(backup::named_head(&path), Some((42, "abababab".to_owned())));
    }

    #[test]
    fn only_the_newest_copies_are_kept_with_their_keys() {
        let dir = tempfile::tempdir().unwrap();
        for hour in 10..15 {
            let name = format!("ledger-20261128T{hour}0000Z-p{hour}-00000000.db");
            std::fs::write(dir.path().join(&name), b"").unwrap();
            std::fs::write(dir.path().join(format!("{name}.key")), b"").unwrap();
        }
        std::fs::write(dir.path().join("notes.txt"), b"").unwrap();
        prune(dir.path(), 2);
        let mut left: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        assert_eq!(
            left,
            [
                "ledger-20261128T130000Z-p13-00000000.db",
                "ledger-20261128T130000Z-p13-00000000.db.key",
                "ledger-20261128T140000Z-p14-00000000.db",
                "ledger-20261128T140000Z-p14-00000000.db.key",
                "notes.txt"
            ]
        );
    }
}
