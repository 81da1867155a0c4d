//! The payload of the ledger's own stream (`ledger:checkpoints`): a signed checkpoint of the
//! chain head. Signing and checking one is the `signing` module's; the catalogue only names
//! the fact.

use serde::{Deserialize, Serialize};

/// A signed checkpoint of a ledger's chain head: what a club publishes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Checkpoint {
    /// The ledger's public key (hex).
    pub ledger: String,
    pub position: u64,
    pub chain_hash: String,
    /// When it was signed (RFC 3339, UTC).
    pub signed_at: String,
    /// Ed25519 over the checkpoint's message (`Checkpoint::message`), hex.
    pub signature: String,
}

/// A checkpoint recorded in the ledger.
pub type CheckpointSigned = Checkpoint;
