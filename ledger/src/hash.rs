//! The hash chain and its canonical encoding.
//!
//! Two links protect every event:
//!
//! * the **event hash** — SHA-256 over the canonical encoding of the envelope and payload,
//!   including the hash of the previous event *of the same stream*. It does not depend on where
//!   the event sits in this database, so an exported stream can be verified on its own and
//!   imported elsewhere with the same hashes;
//! * the **chain hash** — SHA-256(previous row's chain hash ‖ event hash), over the global order
//!   of recording. The last chain hash is the single value to publish: any edited, deleted,
//!   inserted or reordered row anywhere changes it.
//!
//! Canonical encoding of an event (all integers big-endian; `str(x)` is a 4-byte length followed
//! by the UTF-8 bytes):
//!
//! ```text
//! "mahjong-referee/ledger/event/v1"      domain separator, 31 bytes
//! str(stream)                            e.g. "hand:t1-g1-h1"
//! u64(version)
//! event_id                               16 raw UUID bytes
//! str(recorded_at)                       RFC 3339 UTC, six fractional digits, 'Z'
//! str(recorded_by)
//! str(event_type)                        the wire name, e.g. "tile_discarded"
//! u32(schema_version)
//! str(payload)                           the canonical JSON bytes exactly as stored
//! prev_hash                              32 bytes; zero for version 1
//! ```

use std::fmt;
use std::str::FromStr;

use sha2::{Digest, Sha256};

/// Domain separator that starts every event encoding.
pub const EVENT_DOMAIN: &[u8] = b"mahjong-referee/ledger/event/v1";

/// A SHA-256 digest.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Hash(pub [u8; 32]);

impl Hash {
    /// The previous hash of the first event of a stream, and the chain hash before the first row.
    pub const ZERO: Hash = Hash([0; 32]);

    pub fn from_slice(bytes: &[u8]) -> Option<Hash> {
        bytes.try_into().ok().map(Hash)
    }

    pub fn to_hex(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Hash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for b in self.0 {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Hash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Hash({self})")
    }
}

/// A hash that is not 64 hexadecimal digits.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a SHA-256 hash: expected 64 hexadecimal digits")]
pub struct ParseHashError(pub String);

impl FromStr for Hash {
    type Err = ParseHashError;
    fn from_str(s: &str) -> Result<Hash, ParseHashError> {
        let bad = || ParseHashError(s.to_owned());
        if s.len() != 64 || !s.is_ascii() {
            return Err(bad());
        }
        let mut out = [0u8; 32];
        for (i, byte) in out.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).map_err(|_| bad())?;
        }
        Ok(Hash(out))
    }
}

/// The fields of an event that its hash covers, borrowed from wherever they are.
#[derive(Clone, Copy, Debug)]
pub struct HashInput<'a> {
    pub stream: &'a str,
    pub version: u64,
    pub event_id: &'a [u8; 16],
    pub recorded_at: &'a str,
    pub recorded_by: &'a str,
    pub event_type: &'a str,
    pub schema_version: u32,
    pub payload: &'a [u8],
    pub prev_hash: &'a Hash,
}

fn put_str(h: &mut Sha256, s: &[u8]) {
    // Lengths beyond u32 cannot occur: SQLite's own limit on a value is 1e9 bytes.
    h.update((s.len() as u32).to_be_bytes());
    h.update(s);
}

impl HashInput<'_> {
    /// SHA-256 over the canonical encoding described in the module docs.
    pub fn hash(&self) -> Hash {
        let mut h = Sha256::new();
        h.update(EVENT_DOMAIN);
        put_str(&mut h, self.stream.as_bytes());
        h.update(self.version.to_be_bytes());
        h.update(self.event_id);
        put_str(&mut h, self.recorded_at.as_bytes());
        put_str(&mut h, self.recorded_by.as_bytes());
        put_str(&mut h, self.event_type.as_bytes());
        h.update(self.schema_version.to_be_bytes());
        put_str(&mut h, self.payload);
        h.update(self.prev_hash.0);
        Hash(h.finalize().into())
    }
}

/// The global chain link: SHA-256(previous chain hash ‖ event hash).
pub fn chain_hash(prev_chain: &Hash, event_hash: &Hash) -> Hash {
    let mut h = Sha256::new();
    h.update(prev_chain.0);
    h.update(event_hash.0);
    Hash(h.finalize().into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input<'a>(payload: &'a [u8], prev: &'a Hash) -> HashInput<'a> {
        HashInput {
            stream: "hand:h1",
            version: 1,
            event_id: &[7; 16],
            recorded_at: "2026-01-01T00:00:00.000000Z",
            recorded_by: "ref1",
            event_type: "wash_out",
            schema_version: 1,
            payload,
            prev_hash: prev,
        }
    }

    #[test]
    fn hex_round_trips() {
        let h = input(b"{}", &Hash::ZERO).hash();
        assert_eq!(h.to_hex().parse::<Hash>().unwrap(), h);
        assert!("zz".parse::<Hash>().is_err());
        assert!("é".repeat(32).parse::<Hash>().is_err());
    }

    #[test]
    fn length_prefixes_keep_fields_apart() {
        // Moving a byte from one field to the next must change the hash.
        let a = HashInput {
            recorded_by: "ref1",
            event_type: "wash_out",
            ..input(b"{}", &Hash::ZERO)
        };
        let b = HashInput {
            recorded_by: "ref1w",
            event_type: "ash_out",
            ..a
        };
        assert_ne!(a.hash(), b.hash());
    }

    #[test]
    fn every_field_is_covered() {
        let base = input(b"{}", &Hash::ZERO);
        let other_prev = Hash([1; 32]);
        let variants = [
            HashInput {
                stream: "hand:h2",
                ..base
            },
            HashInput { version: 2, ..base },
            HashInput {
                event_id: &[8; 16],
                ..base
            },
            HashInput {
                recorded_at: "2026-01-01T00:00:00.000001Z",
                ..base
            },
            HashInput {
                recorded_by: "ref2",
                ..base
            },
            HashInput {
                event_type: "game_ended",
                ..base
            },
            HashInput {
                schema_version: 2,
                ..base
            },
            HashInput {
                payload: b"{ }",
                ..base
            },
            HashInput {
                prev_hash: &other_prev,
                ..base
            },
        ];
        for v in variants {
            assert_ne!(v.hash(), base.hash(), "{v:?}");
        }
    }
}
