//! `ledger`: the append-only, tamper-evident event store of mahjong-referee, on SQLite.
//!
//! Every fact the service knows is an immutable [`Event`] in a stream (a tournament, a table,
//! or a hand). Nothing is updated or deleted — triggers in the database refuse it — and every
//! event is hashed into its stream's chain and into one global chain whose head can be
//! published (see [`hash`] for the canonical encoding). Projections — read models registered
//! through the [`Projection`] trait, such as the application's standings and hand records in
//! the `readmodel` crate — are maintained in the same transaction as the events and can be
//! rebuilt from them exactly; [`Ledger::audit`] re-verifies all of it.
//!
//! ```
//! use ledger::{event::WashOut, ExpectedVersion, Ledger, NewEvent, OfficialId, StreamId};
//!
//! let mut ledger = Ledger::open_in_memory()?;
//! let hand = StreamId::hand("t1-g1-h1")?;
//! let referee = OfficialId::new("ref-ann")?;
//! let wash_out = NewEvent::new(WashOut { reason: "wall exhausted".into() });
//! ledger.append(&hand, ExpectedVersion::Exact(0), vec![wash_out.clone()], &referee)?;
//!
//! // A retry of the same event is a no-op; a stale writer is refused.
//! assert!(ledger.append(&hand, ExpectedVersion::Exact(0), vec![wash_out], &referee)?.already_recorded);
//! let stale = NewEvent::new(WashOut { reason: "again".into() });
//! assert!(matches!(
//!     ledger.append(&hand, ExpectedVersion::Exact(0), vec![stale], &referee),
//!     Err(ledger::Error::Conflict { actual: 1, .. })
//! ));
//! assert!(ledger.audit()?.is_clean());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod accounts;
mod audit;
pub mod backup;
mod chain;
mod discrepancy;
mod error;
pub mod event;
pub mod hash;
mod head;
mod health;
mod ids;
mod jsonl;
pub mod lines;
pub mod lock;
mod open;
mod projector;
mod read;
mod rebuild;
mod record;
mod schema;
pub mod settlement;
pub mod signing;
mod snapshot;
mod store;

pub use audit::{AuditReport, StreamHead};

/// The file beside `path` whose name is `path`'s with `suffix` added (`club.db` → `club.db.key`,
/// `club.db-wal`): where a database's key, lock, log and copies-in-progress live.
pub fn beside(path: &std::path::Path, suffix: &str) -> std::path::PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    std::path::PathBuf::from(name)
}
pub use discrepancy::Discrepancy;
pub use error::{Error, Result, SqlContext};
pub use event::{Event, EventType, CATALOGUE};
pub use hash::Hash;
pub use head::{ChainHead, ExpectedVersion};
pub use ids::{IdError, OfficialId, PlayerId, StreamId, StreamKind, TableId, MAX_ID_LEN};
pub use jsonl::{read_export, read_export_signed, ExportedEvent, ImportReport, SignedBy};
pub use projector::{EventMeta, Fold, Projection, Projections, Target};
pub use read::ReplayStats;
pub use record::{parse_canonical_time, RecordedEvent, TIME_FORMAT};
pub use referee::BySeat;
pub use schema::SCHEMA_VERSION;
pub use settlement::Payment;
pub use snapshot::{ProjectionSnapshot, RowDifference};
pub use store::{Appended, Ledger, NewEvent};
