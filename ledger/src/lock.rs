//! Who is writing a ledger: a lock beside the database (`<db>.lock`) that every writer holds
//! shared for as long as it has the ledger open, and a restore holds alone.
//!
//! SQLite keeps two writers from writing at once, but not a restore from replacing a ledger
//! under a server that is writing it (the server's folded tables would then describe a ledger
//! that is gone), nor a command's appends from landing between a restore's check that the old
//! ledger is a prefix of the backup and the copy that replaces it. Each writer
//! ([`Ledger::open`] and its kin: `serve`, `import`, `checkpoint` …) takes the lock shared, so
//! any number write side by side as before; `restore` takes it exclusively, and is refused
//! while anyone writes, and they while it restores. Readers take nothing.
//!
//! The lock file is never removed (removing it would race with the next one to take it); the
//! locks themselves (`flock`) go with the processes that hold them, however they end.

use std::fs::{File, TryLockError};
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// Where a database's lock lives: beside it, `<db>.lock`.
pub fn lock_path(db: &Path) -> PathBuf {
    crate::beside(db, ".lock")
}

fn open(db: &Path) -> Result<(PathBuf, File)> {
    // One lock for one database, however it is named (a link, a relative path).
    let db = std::fs::canonicalize(db).unwrap_or_else(|_| db.to_owned());
    let path = lock_path(&db);
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .map_err(|e| Error::Unwritable {
            path: path.clone(),
            why: format!("the ledger's lock file cannot be opened: {e}"),
        })?;
    Ok((path, file))
}

/// The writer's share of `db`'s lock, held as long as the file is. Refused while a restore
/// replaces the ledger.
pub(crate) fn shared(db: &Path) -> Result<File> {
    take(
        db,
        File::try_lock_shared,
        "a restore is replacing this ledger: open it again when the restore has finished",
    )
}

/// `db`'s lock held alone (a restore), as long as the file is: refused while anyone has the
/// ledger open for writing.
pub fn exclusive(db: &Path) -> Result<File> {
    take(db, File::try_lock, "another program has it open for writing (a server, or a command such as import or checkpoint): stop it first; nothing was changed")
}

fn take(
    db: &Path,
    lock: fn(&File) -> std::result::Result<(), TryLockError>,
    held_by_another: &str,
) -> Result<File> {
    let (path, file) = open(db)?;
    match lock(&file) {
        Ok(()) => Ok(file),
        Err(TryLockError::WouldBlock) => Err(Error::InUse {
            path: db.to_owned(),
            why: held_by_another.to_owned(),
        }),
        Err(TryLockError::Error(e)) => Err(Error::Unwritable {
            path,
            why: format!("the ledger's lock cannot be taken: {e}"),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Ledger;

    #[test]
    fn writers_share_the_ledger_and_a_restore_has_it_alone() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("club.db");
        let first = Ledger::open(&db).unwrap();
        let second = Ledger::open(&db).unwrap();
        let refused = exclusive(&db).unwrap_err();
        assert!(
            refused.to_string().contains("open for writing"),
            "{refused}"
        );
        drop((first, second));
        let alone = exclusive(&db).unwrap();
        let Err(refused) = Ledger::open(&db) else {
            panic!("a writer opened the ledger during a restore");
        };
        assert!(
            refused.to_string().contains("a restore is replacing"),
            "{refused}"
        );
        // Readers take nothing.
        Ledger::open_reader(&db).unwrap();
        drop(alone);
        Ledger::open(&db).unwrap();
    }
}
