//! Opening a ledger with the read model registered: the one way every program that reads or
//! writes the application's data opens its database. A writer builds the read model when the
//! database does not keep it at its version (a new database, or one from before it was a
//! projection of its own); a reader refuses a database where it is not built yet.

use std::path::Path;
use std::sync::LazyLock;

use ledger::{Ledger, Projections, Result};

use crate::projection::ReadModel;

static PROJECTIONS: LazyLock<Projections> = LazyLock::new(|| Projections::one(ReadModel));

/// The projections the application keeps: the read model.
pub fn projections() -> Projections {
    PROJECTIONS.clone()
}

/// [`Ledger::open_with`] the read model: opens (creating and migrating) the database at `path`.
pub fn open(path: impl AsRef<Path>) -> Result<Ledger> {
    Ledger::open_with(path, &PROJECTIONS)
}

/// [`Ledger::open_existing_with`] the read model: never creates a database.
pub fn open_existing(path: impl AsRef<Path>) -> Result<Ledger> {
    Ledger::open_existing_with(path, &PROJECTIONS)
}

/// [`Ledger::open_reader_with`] the read model: a server's reader beside its one writer.
pub fn open_reader(path: impl AsRef<Path>) -> Result<Ledger> {
    Ledger::open_reader_with(path, &PROJECTIONS)
}

/// [`Ledger::open_in_memory_with`] the read model, for tests and tools.
pub fn open_in_memory() -> Result<Ledger> {
    Ledger::open_in_memory_with(&PROJECTIONS)
}
