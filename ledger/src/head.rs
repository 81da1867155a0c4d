//! Where a stream or the whole chain stands: the version a writer expects a stream to be at,
//! and the head of the global chain (the value to publish).
//!
//! A leaf of the crate: errors name an expected version, the chain verifier and the signed
//! checkpoints name a chain head, and none of them needs the store to do so.

use std::fmt;

use crate::hash::Hash;

/// What the writer believes the stream's version to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExpectedVersion {
    /// Append whatever the version (no concurrency check).
    Any,
    /// The stream must be at exactly this version; `Exact(0)` means it must not exist yet.
    Exact(u64),
}

impl fmt::Display for ExpectedVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExpectedVersion::Any => f.write_str("any version"),
            ExpectedVersion::Exact(0) => f.write_str("a new stream"),
            ExpectedVersion::Exact(v) => write!(f, "version {v}"),
        }
    }
}

/// The head of the global chain: the value to publish.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChainHead {
    /// Number of events recorded (the last position).
    pub position: u64,
    pub chain_hash: Hash,
}

impl fmt::Display for ChainHead {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "position {} chain hash {}",
            self.position, self.chain_hash
        )
    }
}
