//! Copies of a ledger that is being written, and copies put back: SQLite's online backup.
//!
//! A ledger lives in a database file, its write-ahead log and their shared memory; a file copy
//! taken while the server appends can catch the three at different moments, and a copy of
//! the database file alone misses whatever the log has not handed back yet. SQLite's backup
//! API copies the pages as one read transaction sees them: one moment of the ledger, whole,
//! while the writer goes on appending to its log (a reader never blocks it).
//!
//! A copy is written beside its final name and renamed into place only when it is complete
//! and on disk, so a copy that exists is a whole one; it is left in rollback-journal mode,
//! one self-contained file with no log beside it to lose. Whether the copy is a sound ledger
//! is the audit's question, asked by the application after copying (`web::app::backup`).

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::backup::{Backup, StepResult};
use rusqlite::{Connection, OptionalExtension};

use crate::error::{Error, Result, SqlContext};
use crate::head::ChainHead;
use crate::store::Ledger;

/// How long a step waits when the source's lock is held (a checkpoint of its log) before
/// trying again, and how many times it tries.
const RETRY_PAUSE: Duration = Duration::from_millis(50);
const RETRIES: u32 = 200;

/// What a copy holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Copied {
    /// The chain head of the copy: every event up to it, none after.
    pub head: ChainHead,
    /// The copy's size in bytes.
    pub bytes: u64,
}

impl Ledger {
    /// Copies this ledger, as it stands at one moment, to the new file `out` (which must not
    /// exist, and is never replaced), while other connections go on writing. Returns what the
    /// copy holds.
    pub fn backup_to(&self, out: &Path) -> Result<Copied> {
        if out.exists() {
            return Err(copy_error(
                out,
                "already exists: a backup is never written over another file",
            ));
        }
        let partial = self.copy_to(&partial_path(out))?;
        let copied = partial.copied();
        partial.place(out)?;
        Ok(copied)
    }

    /// Whether this ledger's chain passes through `earlier` (the head of another copy of
    /// it): its events are all here, as they were, and maybe more after. The empty ledger's
    /// head (position 0) lies on every chain.
    pub fn passes_through(&self, earlier: ChainHead) -> Result<bool> {
        if earlier.position == 0 {
            return Ok(true);
        }
        let stored: Option<Vec<u8>> = self
            .conn
            .prepare_cached("SELECT chain_hash FROM events WHERE position = ?1")
            .ctx("reading a chain hash")?
            .query_row([earlier.position as i64], |r| r.get(0))
            .optional()
            .ctx("reading a chain hash")?;
        Ok(stored.is_some_and(|bytes| bytes == earlier.chain_hash.0))
    }

    /// Copies this ledger to the new file `partial` (readable by its owner only), to be
    /// checked and then put under its name with [`Partial::place`]; dropped unplaced, the file
    /// is removed. Refused when `partial` exists: another copy is being written there.
    pub fn copy_to(&self, partial: &Path) -> Result<Partial> {
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            // The ledger holds the officials' password hashes: its copy is its owner's alone.
            options.mode(0o600);
        }
        options.open(partial).map_err(|e| {
            if e.kind() == std::io::ErrorKind::AlreadyExists {
                copy_error(
                    partial,
                    "exists: another copy is being written there (if none is, it was left by one that stopped half-way: remove it)",
                )
            } else {
                copy_error(partial, e)
            }
        })?;
        let mut made = Partial {
            path: partial.to_owned(),
            copied: Copied {
                head: ChainHead {
                    position: 0,
                    chain_hash: crate::Hash::ZERO,
                },
                bytes: 0,
            },
            placed: false,
        };
        made.copied = self.copy_into(partial)?;
        Ok(made)
    }

    fn copy_into(&self, partial: &Path) -> Result<Copied> {
        let mut dst = Connection::open(partial).map_err(|e| copy_error(partial, e))?;
        {
            let backup = Backup::new(&self.conn, &mut dst).map_err(|e| copy_error(partial, e))?;
            // All pages in one step: one read transaction, so one moment of the ledger. (In
            // smaller steps SQLite starts again whenever another connection writes.)
            let mut tries = 0;
            loop {
                match backup.step(-1).map_err(|e| copy_error(partial, e))? {
                    StepResult::Done => break,
                    StepResult::More => {}
                    StepResult::Busy | StepResult::Locked if tries < RETRIES => {
                        tries += 1;
                        std::thread::sleep(RETRY_PAUSE);
                    }
                    _ => return Err(copy_error(
                        partial,
                        "the ledger stayed locked by another connection for ten seconds; try again",
                    )),
                }
            }
        }
        // One file, no log beside it: the copy is complete in itself.
        let mode: String = dst
            .query_row("PRAGMA journal_mode=DELETE", [], |r| r.get(0))
            .map_err(|e| copy_error(partial, e))?;
        if mode != "delete" {
            return Err(copy_error(
                partial,
                format!("SQLite kept the copy in `{mode}` journal mode"),
            ));
        }
        let head = crate::store::chain_head(&dst)?;
        drop(dst);
        let bytes = std::fs::metadata(partial)
            .map_err(|e| copy_error(partial, e))?
            .len();
        Ok(Copied { head, bytes })
    }
}

/// A copy written and not yet under its name ([`Ledger::copy_to`]).
#[derive(Debug)]
pub struct Partial {
    path: PathBuf,
    copied: Copied,
    placed: bool,
}

impl Partial {
    /// Where the copy is being kept until it is placed.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// What the copy holds.
    pub fn copied(&self) -> Copied {
        self.copied
    }

    /// Puts the copy on disk under `out`: its bytes synced, then its name linked in the folder
    /// (a link, which never replaces a file that is there: refused if `out` exists), then
    /// the folder synced.
    pub fn place(mut self, out: &Path) -> Result<()> {
        std::fs::File::open(&self.path)
            .and_then(|f| f.sync_all())
            .map_err(|e| copy_error(&self.path, e))?;
        std::fs::hard_link(&self.path, out).map_err(|e| {
            if e.kind() == std::io::ErrorKind::AlreadyExists {
                copy_error(
                    out,
                    "already exists: a backup is never written over another file",
                )
            } else {
                copy_error(out, e)
            }
        })?;
        self.placed = true;
        let _ = std::fs::remove_file(&self.path);
        if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
            // A folder's entry survives a power cut only once the folder is synced (Unix).
            if let Ok(d) = std::fs::File::open(dir) {
                let _ = d.sync_all();
            }
        }
        Ok(())
    }
}

impl Drop for Partial {
    fn drop(&mut self) {
        if !self.placed {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// The head of the ledger at `db`, read without opening it as a ledger (no migration, any
/// schema this program ever wrote): what a restore checks the backup continues.
pub fn head_of(db: &Path) -> Result<ChainHead> {
    let conn = Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
        .map_err(|e| copy_error(db, e))?;
    crate::store::chain_head(&conn)
}

/// Puts the ledger copied at `backup` in the place of the database at `db` (created when
/// missing), page by page under SQLite's lock, so a reader of `db` sees the old ledger or the
/// new one, never half of each. Whether it should (the old ledger's chain is a prefix of the
/// copy's, nobody is writing it) is the caller's to decide first, holding
/// [`crate::lock::exclusive`].
pub fn restore(backup: &Path, db: &Path) -> Result<Copied> {
    let mut dst = Connection::open(db).map_err(|e| copy_error(db, e))?;
    dst.busy_timeout(Duration::from_secs(10))
        .map_err(|e| copy_error(db, e))?;
    dst.restore(
        rusqlite::MAIN_DB,
        backup,
        None::<fn(rusqlite::backup::Progress)>,
    )
    .map_err(|e| copy_error(db, format!("restoring from {}: {e}", backup.display())))?;
    let head = crate::store::chain_head(&dst)?;
    drop(dst);
    let bytes = std::fs::metadata(db).map_err(|e| copy_error(db, e))?.len();
    Ok(Copied { head, bytes })
}

/// Where a copy to `out` is written until it is complete: `<out>.partial`.
pub fn partial_path(out: &Path) -> PathBuf {
    crate::beside(out, ".partial")
}

fn copy_error(path: &Path, why: impl std::fmt::Display) -> Error {
    Error::Copy {
        path: path.to_owned(),
        why: why.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::WashOut;
    use crate::{ExpectedVersion, NewEvent, OfficialId, StreamId};

    fn wash_out(ledger: &mut Ledger, hand: &str) {
        let stream = StreamId::hand(hand).unwrap();
        let referee = OfficialId::new("ref-ann").unwrap();
        let event = NewEvent::new(WashOut {
            reason: "wall exhausted".into(),
        });
        ledger
            .append(&stream, ExpectedVersion::Exact(0), vec![event], &referee)
            .unwrap();
    }

    #[test]
    fn a_backup_is_one_whole_file_with_the_ledgers_head_and_never_overwrites() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("club.db");
        let mut ledger = Ledger::open(&db).unwrap();
        wash_out(&mut ledger, "t1-g1-h1");
        wash_out(&mut ledger, "t1-g1-h2");
        let out = dir.path().join("copy.db");
        let copied = ledger.backup_to(&out).unwrap();
        assert_eq!(copied.head, ledger.head().unwrap());
        assert_eq!(copied.bytes, std::fs::metadata(&out).unwrap().len());
        assert!(!partial_path(&out).exists());
        assert!(!dir.path().join("copy.db-wal").exists());
        let copy = Ledger::open_existing(&out).unwrap();
        assert_eq!(copy.head().unwrap(), copied.head);
        assert!(copy.audit().unwrap().is_clean());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&out).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600, "the copy is its owner's alone");
        }
        // A copy already being written to a place is not disturbed by a second one.
        let busy = dir.path().join("busy.db");
        let first = ledger.copy_to(&partial_path(&busy)).unwrap();
        let second = ledger.copy_to(&partial_path(&busy)).unwrap_err();
        assert!(
            second.to_string().contains("another copy is being written"),
            "{second}"
        );
        let held = first.copied();
        first.place(&busy).unwrap();
        assert_eq!(
            Ledger::open_existing(&busy).unwrap().head().unwrap(),
            held.head
        );
        // Dropped unplaced, a copy leaves nothing.
        drop(ledger.copy_to(&dir.path().join("dropped.partial")).unwrap());
        assert!(!dir.path().join("dropped.partial").exists());
        // Written again: refused, and the first copy is untouched.
        wash_out(&mut ledger, "t1-g1-h3");
        let again = ledger.backup_to(&out).unwrap_err();
        assert!(again.to_string().contains("already exists"), "{again}");
        assert_eq!(
            Ledger::open_existing(&out).unwrap().head().unwrap(),
            copied.head
        );
    }

    #[test]
    fn a_restore_puts_the_copy_in_place_of_an_older_ledger() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("club.db");
        let mut ledger = Ledger::open(&db).unwrap();
        wash_out(&mut ledger, "t1-g1-h1");
        let out = dir.path().join("copy.db");
        let copied = {
            wash_out(&mut ledger, "t1-g1-h2");
            ledger.backup_to(&out).unwrap()
        };
        drop(ledger);
        let older = dir.path().join("older.db");
        wash_out(&mut Ledger::open(&older).unwrap(), "t1-g1-h1");
        let restored = restore(&out, &older).unwrap();
        assert_eq!(restored.head, copied.head);
        let back = Ledger::open_existing(&older).unwrap();
        assert_eq!(back.head().unwrap(), copied.head);
        assert!(back.audit().unwrap().is_clean());
    }

    #[test]
    fn a_ledger_passes_through_its_own_earlier_heads_and_no_other() {
        let dir = tempfile::tempdir().unwrap();
        let mut ledger = Ledger::open(dir.path().join("a.db")).unwrap();
        let empty = ledger.head().unwrap();
        wash_out(&mut ledger, "t1-g1-h1");
        let first = ledger.head().unwrap();
        wash_out(&mut ledger, "t1-g1-h2");
        assert!(ledger.passes_through(empty).unwrap());
        assert!(ledger.passes_through(first).unwrap());
        assert!(ledger.passes_through(ledger.head().unwrap()).unwrap());
        let mut other = Ledger::open(dir.path().join("b.db")).unwrap();
        wash_out(&mut other, "t9-g1-h1");
        assert!(!ledger.passes_through(other.head().unwrap()).unwrap());
        let beyond = ChainHead {
            position: 3,
            ..first
        };
        assert!(!ledger.passes_through(beyond).unwrap());
    }
}
