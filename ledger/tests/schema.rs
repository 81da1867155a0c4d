//! Migrations at start-up, and refusing a database written by a newer schema.

use ledger::{Error, ExpectedVersion, Ledger, SCHEMA_VERSION};
use referee::Seat;

use crate::util::*;

#[test]
fn reopening_keeps_the_data_and_applies_nothing_twice() {
    let dir = TempDir::new("reopen");
    {
        let mut ledger = Ledger::open(dir.db()).unwrap();
        ledger
            .append(
                &hand(1),
                ExpectedVersion::Exact(0),
                hand_events(1, Seat::East, 8),
                &referee(),
            )
            .unwrap();
    }
    let ledger = Ledger::open(dir.db()).unwrap();
    assert_eq!(ledger.stream_version(&hand(1)).unwrap(), 6);
    let raw = rusqlite::Connection::open(dir.db()).unwrap();
    let v: i64 = raw
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(v, SCHEMA_VERSION);
    let mode: String = raw
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
}

#[test]
fn a_database_from_a_newer_schema_is_refused_with_a_clear_message() {
    let dir = TempDir::new("newer");
    drop(Ledger::open(dir.db()).unwrap());
    let raw = rusqlite::Connection::open(dir.db()).unwrap();
    raw.pragma_update(None, "user_version", SCHEMA_VERSION + 1)
        .unwrap();
    drop(raw);
    let err = Ledger::open(dir.db())
        .err()
        .expect("a newer schema must be refused");
    assert!(matches!(err, Error::NewerSchema { found, .. } if found == SCHEMA_VERSION + 1));
    let msg = err.to_string();
    assert!(
        msg.contains(&format!("schema version {}", SCHEMA_VERSION + 1))
            && msg.contains("upgrade mahjong-referee"),
        "{msg}"
    );
}

#[test]
fn opening_an_existing_database_never_creates_one() {
    let dir = TempDir::new("missing");
    let err = Ledger::open_existing(dir.path().join("nope.db"))
        .err()
        .unwrap();
    assert!(matches!(err, Error::NotFound(_)));
    assert!(!dir.path().join("nope.db").exists());
}

#[test]
fn opening_a_foreign_sqlite_file_for_audit_changes_nothing() {
    let dir = TempDir::new("foreign");
    let path = dir.path().join("other.db");
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch("CREATE TABLE notes (body TEXT)")
            .unwrap();
    }
    let err = Ledger::open_existing(&path).err().unwrap();
    assert!(matches!(err, Error::NotALedger(_)), "{err}");
    assert!(err.to_string().contains("not a mahjong-referee ledger"));
    let conn = rusqlite::Connection::open(&path).unwrap();
    let tables: i64 = conn
        .query_row(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(tables, 1, "the audit must not add the ledger's tables");
}

/// A schema-6 database (officials without a status) opens, and its officials are active.
#[test]
fn migration_7_keeps_existing_officials_active() {
    let dir = TempDir::new("migrate-7");
    drop(Ledger::open(dir.db()).unwrap());
    let raw = rusqlite::Connection::open(dir.db()).unwrap();
    raw.execute_batch(
        "DROP TABLE ledger_projections;
         ALTER TABLE officials DROP COLUMN disabled_at;
         ALTER TABLE proj_tables DROP COLUMN session;
         ALTER TABLE proj_players DROP COLUMN substitute;
         ALTER TABLE proj_players DROP COLUMN withdrawn;
         DROP INDEX proj_player_hands_session;
         ALTER TABLE proj_player_hands DROP COLUMN session;
         DROP TABLE proj_sessions;
         DROP TABLE proj_session_standings;
         INSERT INTO officials (official, name, role, is_admin, password_hash, created_at)
         VALUES ('admin', 'Administrator', 'organiser', 1, 'x', 0);",
    )
    .unwrap();
    raw.pragma_update(None, "user_version", 6).unwrap();
    drop(raw);

    drop(Ledger::open(dir.db()).unwrap());
    let raw = rusqlite::Connection::open(dir.db()).unwrap();
    let disabled: Option<i64> = raw
        .query_row(
            "SELECT disabled_at FROM officials WHERE official = 'admin'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(disabled, None, "an existing official stays active");
    let v: i64 = raw
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(v, SCHEMA_VERSION);
}
