//! Versioned SQL migrations, embedded from the workspace's `migrations/` folder and applied at
//! start-up. The number of applied migrations is kept in `PRAGMA user_version`; a database whose
//! version is higher than this build knows was written by a newer build and is refused rather
//! than guessed at.

use std::path::Path;

use rusqlite::{Connection, TransactionBehavior};

use crate::error::{Error, Result, SqlContext};

/// The migrations in order; migration `i` (0-based) takes the schema to version `i + 1`.
pub const MIGRATIONS: &[(&str, &str)] = &[
    (
        "0001_events.sql",
        include_str!("../../migrations/0001_events.sql"),
    ),
    (
        "0002_projections.sql",
        include_str!("../../migrations/0002_projections.sql"),
    ),
    (
        "0003_service_projections.sql",
        include_str!("../../migrations/0003_service_projections.sql"),
    ),
    (
        "0004_officials.sql",
        include_str!("../../migrations/0004_officials.sql"),
    ),
    (
        "0005_table_status.sql",
        include_str!("../../migrations/0005_table_status.sql"),
    ),
];

/// The projection tables' DDL alone, for building a fresh in-memory replay to compare with.
pub(crate) const PROJECTIONS_SQL: &[&str] = &[MIGRATIONS[1].1, MIGRATIONS[2].1, MIGRATIONS[4].1];

/// The projection tables, in the order they are compared and rebuilt.
pub(crate) const PROJECTION_TABLES: &[&str] = &[
    "proj_tables",
    "proj_seats",
    "proj_hands",
    "proj_settlements",
    "proj_standings",
    "proj_tournaments",
    "proj_players",
    "proj_table_numbers",
    "proj_hand_records",
    "proj_player_hands",
    "proj_voided",
    "proj_closed_tables",
    "proj_draw_methods",
];

/// The schema version this build writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// Brings the database up to [`SCHEMA_VERSION`], each migration in its own transaction. The
/// version is re-read under the write lock, so two processes opening a new file at once do not
/// both apply the same migration.
pub(crate) fn migrate(conn: &mut Connection, path: &Path) -> Result<()> {
    loop {
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .ctx("starting a migration")?;
        let found: i64 = tx
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .ctx("reading the schema version")?;
        if found > SCHEMA_VERSION {
            return Err(Error::NewerSchema {
                path: path.to_owned(),
                found,
                supported: SCHEMA_VERSION,
            });
        }
        let Some((_, sql)) = MIGRATIONS.get(found.max(0) as usize) else {
            return Ok(());
        };
        tx.execute_batch(sql).ctx("applying a migration")?;
        tx.pragma_update(None, "user_version", found + 1)
            .ctx("recording the schema version")?;
        tx.commit().ctx("committing a migration")?;
    }
}
