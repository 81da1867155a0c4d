//! Versioned SQL migrations of the store itself, embedded from the workspace's `migrations/`
//! folder and applied at start-up. The number of applied migrations is kept in
//! `PRAGMA user_version`; a database whose version is higher than this build knows was written
//! by a newer build and is refused rather than guessed at.
//!
//! Migrations only run SQL. The projections' tables are not theirs to fill: since migration 9
//! each projection brings its own schema and is built from the events when it is registered and
//! the database does not keep it at its version (the `projector` module). Migrations 2, 3, 5 and
//! 8 created the read model's tables before that; they stay as written, so that a database's
//! `user_version` means what it always meant.

use std::path::Path;

use rusqlite::{Connection, TransactionBehavior};

use crate::error::{Error, Result, SqlContext};

/// The migrations in order; migration `i` (0-based) takes the schema to version `i + 1`.
pub const MIGRATIONS: &[&str] = &[
    include_str!("../../migrations/0001_events.sql"),
    include_str!("../../migrations/0002_projections.sql"),
    include_str!("../../migrations/0003_service_projections.sql"),
    include_str!("../../migrations/0004_officials.sql"),
    include_str!("../../migrations/0005_one_read_model.sql"),
    include_str!("../../migrations/0006_token_expiry.sql"),
    include_str!("../../migrations/0007_official_status.sql"),
    include_str!("../../migrations/0008_sessions.sql"),
    include_str!("../../migrations/0009_projection_versions.sql"),
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
        let Some(sql) = MIGRATIONS.get(found.max(0) as usize) else {
            return Ok(());
        };
        tx.execute_batch(sql).ctx("applying a migration")?;
        tx.pragma_update(None, "user_version", found + 1)
            .ctx("recording the schema version")?;
        tx.commit().ctx("committing a migration")?;
    }
}
