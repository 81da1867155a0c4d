//! Faults of the database underneath: a lock held by another writer, a file that is not a
//! ledger, a database that cannot be written. Each is a typed error, found before anything is
//! written.

use std::path::Path;
use std::time::Duration;

use ledger::{Error, ExpectedVersion, Ledger};
use referee::Seat;

use crate::util::*;

/// The schema as SQLite lists it, to compare before and after.
fn schema(path: &Path) -> Vec<(String, String)> {
    let conn = rusqlite::Connection::open(path).unwrap();
    let mut stmt = conn
        .prepare("SELECT name, sql FROM sqlite_master ORDER BY name")
        .unwrap();
    let rows = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    rows
}

#[test]
fn a_lock_held_by_another_writer_is_busy_and_nothing_is_written() {
    let dir = TempDir::new("busy");
    let mut ledger = Ledger::open(dir.db()).unwrap();
    ledger.set_busy_timeout(Duration::from_millis(50)).unwrap();
    let other = rusqlite::Connection::open(dir.db()).unwrap();
    other.execute_batch("BEGIN EXCLUSIVE").unwrap();
    let err = ledger
        .append(
            &hand(1),
            ExpectedVersion::Exact(0),
            hand_events(1, Seat::East, 8),
            &referee(),
        )
        .expect_err("the lock is held");
    assert!(matches!(err, Error::Busy { .. }), "{err:?}");
    assert!(err.to_string().contains("retrying is safe"), "{err}");
    other.execute_batch("ROLLBACK").unwrap();
    assert_eq!(ledger.stream_version(&hand(1)).unwrap(), 0);
}

#[test]
fn a_foreign_sqlite_file_is_refused_untouched() {
    let dir = TempDir::new("foreign-open");
    let path = dir.path().join("other.db");
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('x')")
            .unwrap();
    }
    let before = schema(&path);
    let bytes = std::fs::read(&path).unwrap();
    let err = Ledger::open(&path).err().expect("not a ledger");
    assert!(matches!(err, Error::NotALedger(_)), "{err:?}");
    assert_eq!(schema(&path), before);
    assert_eq!(
        std::fs::read(&path).unwrap(),
        bytes,
        "the file must not change"
    );
}

#[test]
fn a_file_that_is_not_sqlite_is_refused_untouched() {
    let dir = TempDir::new("text-open");
    let path = dir.path().join("notes.txt");
    std::fs::write(&path, "not a database, only some notes\n".repeat(40)).unwrap();
    let err = Ledger::open(&path).err().expect("not a ledger");
    assert!(matches!(err, Error::NotALedger(_)), "{err:?}");
    assert!(std::fs::read_to_string(&path)
        .unwrap()
        .starts_with("not a database"));
}

#[test]
fn an_empty_file_or_database_becomes_a_new_ledger() {
    let dir = TempDir::new("empty-open");
    let empty = dir.path().join("empty.db");
    std::fs::write(&empty, b"").unwrap();
    drop(Ledger::open(&empty).unwrap());
    let blank = dir.path().join("blank.db");
    rusqlite::Connection::open(&blank)
        .unwrap()
        .execute_batch("PRAGMA user_version = 0; VACUUM")
        .unwrap();
    drop(Ledger::open(&blank).unwrap());
    assert!(Ledger::open_existing(&blank).is_ok());
}

#[test]
fn a_missing_directory_is_named() {
    let dir = TempDir::new("no-dir");
    let path = dir.path().join("nowhere").join("t.db");
    let err = Ledger::open(&path).err().expect("no directory");
    assert!(matches!(err, Error::Unwritable { .. }), "{err:?}");
    assert!(err.to_string().contains("does not exist"), "{err}");
    assert!(!dir.path().join("nowhere").exists());
}

/// Needs permissions that bind: skipped when the test can write a read-only file anyway (as
/// root).
#[test]
fn a_read_only_database_is_refused_at_open() {
    use std::os::unix::fs::PermissionsExt;
    let dir = TempDir::new("read-only");
    drop(Ledger::open(dir.db()).unwrap());
    std::fs::set_permissions(dir.db(), std::fs::Permissions::from_mode(0o444)).unwrap();
    if std::fs::OpenOptions::new()
        .write(true)
        .open(dir.db())
        .is_ok()
    {
        eprintln!("skipped: permissions do not bind for this user");
        return;
    }
    let err = Ledger::open(dir.db()).err().expect("read-only");
    assert!(matches!(err, Error::Unwritable { .. }), "{err:?}");
    assert!(
        err.to_string().contains("cannot write the database"),
        "{err}"
    );
}
