//! Versioned SQL migrations, embedded from the workspace's `migrations/` folder and applied at
//! start-up. The number of applied migrations is kept in `PRAGMA user_version`; a database whose
//! version is higher than this build knows was written by a newer build and is refused rather
//! than guessed at.

use std::path::Path;

use rusqlite::{Connection, TransactionBehavior};

use crate::error::{Error, Result, SqlContext};

/// One migration: its SQL (a file of `/migrations`) and what else it does.
pub struct Migration {
    pub sql: &'static str,
    /// The migration replaces projection tables: after it, they are rebuilt from the events in
    /// the same transaction (projections are derived, so nothing is lost).
    pub rebuilds_projections: bool,
}

const fn migration(sql: &'static str) -> Migration {
    Migration {
        sql,
        rebuilds_projections: false,
    }
}

/// The migrations in order; migration `i` (0-based) takes the schema to version `i + 1`.
pub const MIGRATIONS: &[Migration] = &[
    migration(include_str!("../../migrations/0001_events.sql")),
    migration(include_str!("../../migrations/0002_projections.sql")),
    migration(include_str!(
        "../../migrations/0003_service_projections.sql"
    )),
    migration(include_str!("../../migrations/0004_officials.sql")),
    Migration {
        rebuilds_projections: true,
        ..migration(include_str!("../../migrations/0005_one_read_model.sql"))
    },
    migration(include_str!("../../migrations/0006_token_expiry.sql")),
    migration(include_str!("../../migrations/0007_official_status.sql")),
    Migration {
        rebuilds_projections: true,
        ..migration(include_str!("../../migrations/0008_sessions.sql"))
    },
];

/// The projection tables' DDL alone, for building a fresh in-memory replay to compare with:
/// 0005 drops whatever projections came before and creates the whole current family, with what
/// is out of play (voided, closed) and how seats were drawn; 0008 adds sessions, withdrawals and
/// substitutes.
pub(crate) const PROJECTIONS_SQL: &[&str] = &[MIGRATIONS[4].sql, MIGRATIONS[7].sql];

/// The projection tables, in the order they are compared and rebuilt.
pub(crate) const PROJECTION_TABLES: &[&str] = &[
    "proj_tournaments",
    "proj_players",
    "proj_tables",
    "proj_seats",
    "proj_hand_records",
    "proj_player_hands",
    "proj_standings",
    "proj_voided",
    "proj_closed_tables",
    "proj_draw_methods",
    "proj_sessions",
    "proj_session_standings",
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
        let Some(m) = MIGRATIONS.get(found.max(0) as usize) else {
            return Ok(());
        };
        tx.execute_batch(m.sql).ctx("applying a migration")?;
        // The replay folds with this build's projector, which writes the newest projection
        // tables: it runs at the last migration that rebuilds, once every table it writes
        // exists (a crash between migrations leaves the rebuild to that one, still pending).
        let later_rebuild = MIGRATIONS[found.max(0) as usize + 1..]
            .iter()
            .any(|later| later.rebuilds_projections);
        if m.rebuilds_projections && !later_rebuild {
            for table in PROJECTION_TABLES {
                tx.execute(&format!("DELETE FROM {table}"), [])
                    .ctx("clearing a projection")?;
            }
            // Events that do not decode are left out here rather than refusing to open the
            // ledger: the audit, which must be able to open it, reports them.
            crate::projection::replay_into(&tx, &tx)?;
        }
        tx.pragma_update(None, "user_version", found + 1)
            .ctx("recording the schema version")?;
        tx.commit().ctx("committing a migration")?;
    }
}
