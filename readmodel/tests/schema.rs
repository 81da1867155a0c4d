//! Databases written before the read model was a projection of its own open and keep it: the
//! schema it brings is the one migrations 5 and 8 left, and a file from any earlier schema gets
//! it rebuilt from its events when first opened with it.

use ledger::{Ledger, Projection};
use readmodel::{ReadModel, Reads};

use crate::util::*;

/// Migration 0005 replaced the two projection families with one: a ledger written before it
/// (schema 4, the old projection tables) gets the new tables rebuilt from its events when it
/// is opened, identical to a fresh replay.
#[test]
fn migration_5_rebuilds_the_one_read_model_from_the_events() {
    let dir = TempDir::new("migrate-5");
    let expected = {
        let mut ledger = readmodel::open(dir.db()).unwrap();
        small_history(&mut ledger, 3);
        (
            ledger.projection_snapshot().unwrap(),
            ledger.standings(&tournament()).unwrap(),
        )
    };
    // Put the file back as schema 4 left it: the old projection tables, empty, no new ones,
    // API tokens without an expiry (migration 6), officials without a status (migration 7) and
    // no record of the projections kept (migration 9).
    let raw = rusqlite::Connection::open(dir.db()).unwrap();
    raw.execute_batch(
        "DROP TABLE ledger_projections; DROP TABLE proj_tournaments; DROP TABLE proj_players; DROP TABLE proj_tables;
         DROP TABLE proj_seats; DROP TABLE proj_hand_records; DROP TABLE proj_player_hands;
         DROP TABLE proj_standings; ALTER TABLE api_tokens DROP COLUMN expires_at;
         ALTER TABLE officials DROP COLUMN disabled_at;",
    )
    .unwrap();
    raw.execute_batch(include_str!("../../migrations/0002_projections.sql"))
        .unwrap();
    raw.execute_batch(include_str!(
        "../../migrations/0003_service_projections.sql"
    ))
    .unwrap();
    raw.pragma_update(None, "user_version", 4).unwrap();
    drop(raw);

    let ledger = readmodel::open(dir.db()).unwrap();
    assert_eq!(ledger.projection_snapshot().unwrap(), expected.0);
    assert_eq!(ledger.standings(&tournament()).unwrap(), expected.1);
    let report = ledger.audit().unwrap();
    assert!(report.is_clean(), "{report}");
    let raw = rusqlite::Connection::open(dir.db()).unwrap();
    let old: i64 = raw
        .query_row(
            "SELECT count(*) FROM sqlite_master WHERE name IN ('proj_hands', 'proj_settlements', 'proj_table_numbers')",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(old, 0, "the old family is gone");
}

/// The read model's own schema and the migrations that created its tables before agree column
/// for column (name, type, default, key, order) and index for index: a database whose tables
/// the migrations made compares equal, row by row, with a replay into the schema's.
#[test]
fn the_read_models_schema_gives_the_tables_migrations_5_and_8_gave() {
    let migrated = Ledger::open_in_memory().unwrap();
    let fresh = rusqlite::Connection::open_in_memory().unwrap();
    fresh.execute_batch(ReadModel.schema()).unwrap();
    for table in ReadModel.tables() {
        let made = shape(migrated.connection(), table);
        assert!(!made.is_empty(), "{table}");
        assert_eq!(made, shape(&fresh, table), "{table}");
    }
}

/// A table's columns and indexes, as text, sorted.
fn shape(conn: &rusqlite::Connection, table: &str) -> Vec<String> {
    let rows = |sql: &str| -> Vec<String> {
        let mut stmt = conn.prepare(sql).unwrap();
        let n = stmt.column_count();
        let rows = stmt
            .query_map([table], |r| {
                (0..n)
                    .map(|i| r.get::<_, rusqlite::types::Value>(i))
                    .collect::<rusqlite::Result<Vec<_>>>()
            })
            .unwrap();
        let mut out: Vec<String> = rows.map(|r| format!("{:?}", r.unwrap())).collect();
        out.sort();
        out
    };
    let mut out = rows("SELECT * FROM pragma_table_xinfo(?1)");
    out.extend(rows(
        "SELECT l.name, l.\"unique\", l.origin, l.partial, i.seqno, i.name \
         FROM pragma_index_list(?1) l, pragma_index_info(l.name) i",
    ));
    out
}

/// A database as the build before the registry left it (schema 8, its read model's tables full,
/// no record of the projections kept) opens, rebuilds its read model once, and is clean.
#[test]
fn a_schema_8_database_keeps_its_read_model() {
    let dir = TempDir::new("migrate-9");
    let expected = {
        let mut ledger = readmodel::open(dir.db()).unwrap();
        small_history(&mut ledger, 3);
        (
            ledger.projection_snapshot().unwrap(),
            ledger.standings(&tournament()).unwrap(),
        )
    };
    let raw = rusqlite::Connection::open(dir.db()).unwrap();
    raw.execute_batch("DROP TABLE ledger_projections; PRAGMA user_version = 8;")
        .unwrap();
    drop(raw);
    let mut ledger = readmodel::open(dir.db()).unwrap();
    assert_eq!(ledger.projection_snapshot().unwrap(), expected.0);
    assert_eq!(ledger.standings(&tournament()).unwrap(), expected.1);
    assert!(ledger.audit().unwrap().is_clean());
    // And it is written to as before.
    let more = hand_events(4, referee::Seat::South, 8);
    ledger
        .append(
            &hand(4),
            ledger::ExpectedVersion::Exact(0),
            more,
            &referee(),
        )
        .unwrap();
    assert!(ledger.audit().unwrap().is_clean());
}
