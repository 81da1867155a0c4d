//! The one verifier of the hash chains: every place that reads events back and must trust them
//! (a verified replay, the audit, an export, an import's lines) feeds them here in order and
//! gets typed findings, so "what counts as a broken chain" is written once and is equally
//! strict everywhere.
//!
//! Two chains are checked (see the `hash` module for what is hashed):
//!
//! * **per stream** ([`StreamLinks`]): versions 1, 2, 3, … without gaps, each event's
//!   `prev_hash` equal to the hash of the version before it (zero for version 1);
//! * **globally** ([`ChainVerifier`], over stored rows in order of position): positions without
//!   gaps, each row's hash equal to the hash recomputed from its content, each stored chain
//!   hash equal to SHA-256(previous stored chain hash ‖ stored hash), and optionally chain
//!   heads published earlier lying on the chain recomputed from the rows' content.
//!
//! The verifier reports; it does not decide. The replay stops at the first finding, the audit
//! lists them all, the export refuses the stream.

use std::collections::HashMap;
use std::fmt;

use crate::hash::{chain_hash, Hash};
use crate::head::ChainHead;
use crate::record::RowRef;

/// One way the chain is broken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ChainBreak {
    /// Positions were skipped: rows between were deleted.
    PositionsMissing { expected: u64, found: u64 },
    /// A position at or before one already seen.
    PositionOutOfPlace { expected: u64, found: u64 },
    /// The hash cannot even be recomputed (a field of the wrong size or range).
    Unhashable(String),
    /// The stored hash is not 32 bytes.
    MalformedHash,
    /// The content does not hash to the stored hash: edited after recording.
    ContentEdited { stored: Hash, recomputed: Hash },
    /// The stored chain hash does not follow from the previous row's.
    ChainLinkBroken,
    /// A published head is not on the chain recomputed from the rows.
    PublishedHeadMismatch { published: Hash, recomputed: Hash },
    /// A head was published at a position the ledger no longer reaches.
    PublishedBeyondEnd { position: u64, last: u64 },
    /// Versions of the stream were skipped.
    VersionsMissing { last: u64, found: u64 },
    /// A version at or before one already seen in the stream.
    VersionOutOfOrder { last: u64 },
    /// The previous-hash link is not the hash of the version before.
    PrevHashMismatch { last: u64 },
}

impl fmt::Display for ChainBreak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ChainBreak::*;
        match self {
            PositionsMissing { expected, found } => write!(
                f,
                "expected position {expected} next: positions {expected}..{} are missing (rows deleted?)",
                found - 1
            ),
            PositionOutOfPlace { expected, found } => write!(
                f,
                "expected position {expected} next, found {found}: a row is out of place"
            ),
            Unhashable(why) => write!(f, "cannot recompute the hash: {why}"),
            MalformedHash => f.write_str("stored hash is not 32 bytes"),
            ContentEdited { stored, recomputed } => write!(
                f,
                "content does not match its hash (edited after recording): stored {stored}, recomputed {recomputed}"
            ),
            ChainLinkBroken => f.write_str(
                "global chain link broken: the previous row is not the one this row was chained to",
            ),
            PublishedHeadMismatch {
                published,
                recomputed,
            } => write!(
                f,
                "published chain head {published} is not this chain's hash here, {recomputed}"
            ),
            PublishedBeyondEnd { position, last } => write!(
                f,
                "a chain head was published at position {position} but the ledger ends at {last}"
            ),
            VersionsMissing { last, found } => write!(
                f,
                "follows version {last}: versions {}..{} are missing",
                last + 1,
                found - 1
            ),
            VersionOutOfOrder { last } => {
                write!(f, "out of order: follows version {last} of the same stream")
            }
            PrevHashMismatch { last } => write!(
                f,
                "previous-hash link does not match the hash of version {last}"
            ),
        }
    }
}

/// A row's own hash against its content, given the hash recomputed from it (or why it could
/// not be).
pub(crate) fn content_finding(
    r: &RowRef<'_>,
    recomputed: &Result<Hash, String>,
) -> Option<ChainBreak> {
    match (recomputed, Hash::from_slice(r.hash)) {
        (Err(why), _) => Some(ChainBreak::Unhashable(why.clone())),
        (Ok(_), None) => Some(ChainBreak::MalformedHash),
        (Ok(h), Some(s)) if *h != s => Some(ChainBreak::ContentEdited {
            stored: s,
            recomputed: *h,
        }),
        _ => None,
    }
}

/// Each stream's last version and hash, by stream name.
pub(crate) type StreamHeads = HashMap<String, (u64, Hash)>;

/// The per-stream chains: each stream's last version and hash so far.
#[derive(Debug, Default)]
pub(crate) struct StreamLinks {
    heads: StreamHeads,
    /// When set, a stream not seen before may start at any version (its earlier versions are
    /// elsewhere, e.g. already in the ledger an import continues); version 1 still links to zero.
    resuming: bool,
}

impl StreamLinks {
    /// Every stream must start at version 1.
    pub fn new() -> StreamLinks {
        StreamLinks::default()
    }

    /// A stream may start at any version (see the field's docs).
    pub fn resuming() -> StreamLinks {
        StreamLinks {
            resuming: true,
            ..StreamLinks::default()
        }
    }

    /// Checks that `version` of `stream`, whose stored previous hash is `prev_hash` (`None`
    /// when malformed), follows what came before, then records `hash` as the stream's head.
    pub fn link(
        &mut self,
        stream: &str,
        version: u64,
        prev_hash: Option<Hash>,
        hash: Hash,
    ) -> Option<ChainBreak> {
        let known = self.heads.get(stream).copied();
        let (last_version, last_hash) = match known {
            None if self.resuming && version > 1 => (version - 1, prev_hash.unwrap_or(Hash::ZERO)),
            None => (0, Hash::ZERO),
            Some(head) => head,
        };
        let finding = if version > last_version + 1 {
            Some(ChainBreak::VersionsMissing {
                last: last_version,
                found: version,
            })
        } else if version <= last_version {
            Some(ChainBreak::VersionOutOfOrder { last: last_version })
        } else if prev_hash != Some(last_hash) {
            Some(ChainBreak::PrevHashMismatch { last: last_version })
        } else {
            None
        };
        let head = if version > last_version {
            (version, hash)
        } else {
            (last_version, last_hash)
        };
        match self.heads.get_mut(stream) {
            Some(h) => *h = head,
            None => {
                self.heads.insert(stream.to_owned(), head);
            }
        }
        finding
    }

    /// Every stream's last version and hash.
    pub fn into_heads(self) -> StreamHeads {
        self.heads
    }
}

/// Verifies stored rows fed in order of position: both chains, and published heads.
#[derive(Debug)]
pub(crate) struct ChainVerifier<'p> {
    expected_position: u64,
    stored_chain: Hash,
    recomputed_chain: Hash,
    streams: StreamLinks,
    published: &'p [ChainHead],
}

impl<'p> ChainVerifier<'p> {
    /// A verifier of a whole ledger, from position 1.
    pub fn new() -> ChainVerifier<'static> {
        ChainVerifier::with_published(&[])
    }

    /// A verifier that also checks the chain passes through heads published earlier.
    pub fn with_published(published: &'p [ChainHead]) -> ChainVerifier<'p> {
        ChainVerifier {
            expected_position: 1,
            stored_chain: Hash::ZERO,
            recomputed_chain: Hash::ZERO,
            streams: StreamLinks::new(),
            published,
        }
    }

    /// Checks the next row; every finding about it, in the order a reader would want them
    /// (position, content, global link, published heads, stream link).
    pub fn row(&mut self, r: &RowRef<'_>) -> Vec<ChainBreak> {
        let mut found = Vec::new();
        let position = r.position_u64();
        if position > self.expected_position {
            found.push(ChainBreak::PositionsMissing {
                expected: self.expected_position,
                found: position,
            });
        } else if position < self.expected_position {
            found.push(ChainBreak::PositionOutOfPlace {
                expected: self.expected_position,
                found: position,
            });
        }
        self.expected_position = position.saturating_add(1);

        let recomputed = r.recompute_hash();
        found.extend(content_finding(r, &recomputed));
        let stored_hash = Hash::from_slice(r.hash).unwrap_or(Hash::ZERO);
        let stored_chain = Hash::from_slice(r.chain_hash).unwrap_or(Hash::ZERO);
        let linked = chain_hash(&self.stored_chain, &stored_hash);
        if stored_chain != linked {
            found.push(ChainBreak::ChainLinkBroken);
        }
        let recomputed_hash = recomputed.as_ref().unwrap_or(&stored_hash);
        // While the stored chain and the content agree, the recomputed chain is the one just
        // computed; only after a discrepancy does it need its own hash.
        self.recomputed_chain =
            if self.recomputed_chain == self.stored_chain && *recomputed_hash == stored_hash {
                linked
            } else {
                chain_hash(&self.recomputed_chain, recomputed_hash)
            };
        self.stored_chain = stored_chain;
        for p in self.published.iter().filter(|p| p.position == position) {
            if p.chain_hash != self.recomputed_chain {
                found.push(ChainBreak::PublishedHeadMismatch {
                    published: p.chain_hash,
                    recomputed: self.recomputed_chain,
                });
            }
        }
        let prev = Hash::from_slice(r.prev_hash);
        found.extend(
            self.streams
                .link(r.stream_text(), r.version_u64(), prev, stored_hash),
        );
        found
    }

    /// The chain head recomputed from the rows' content so far: the value to publish.
    pub fn head(&self) -> ChainHead {
        ChainHead {
            position: self.expected_position - 1,
            chain_hash: self.recomputed_chain,
        }
    }

    /// After the last row: the published heads the ledger no longer reaches, each with the
    /// position it was published at.
    pub fn finish(self) -> (Vec<(u64, ChainBreak)>, StreamHeads) {
        let last = self.expected_position - 1;
        let beyond = self
            .published
            .iter()
            .filter(|p| p.position > last)
            .map(|p| {
                (
                    p.position,
                    ChainBreak::PublishedBeyondEnd {
                        position: p.position,
                        last,
                    },
                )
            })
            .collect();
        (beyond, self.streams.into_heads())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(n: u8) -> Hash {
        Hash([n; 32])
    }

    #[test]
    fn a_stream_starts_at_version_1_linked_to_zero() {
        let mut links = StreamLinks::new();
        assert_eq!(links.link("hand:a", 1, Some(Hash::ZERO), h(1)), None);
        assert_eq!(links.link("hand:a", 2, Some(h(1)), h(2)), None);
        assert_eq!(
            links.link("hand:b", 1, Some(h(9)), h(3)),
            Some(ChainBreak::PrevHashMismatch { last: 0 })
        );
        assert_eq!(
            links.link("hand:c", 2, Some(Hash::ZERO), h(4)),
            Some(ChainBreak::VersionsMissing { last: 0, found: 2 })
        );
        assert_eq!(
            links.link("hand:a", 2, Some(h(1)), h(5)),
            Some(ChainBreak::VersionOutOfOrder { last: 2 })
        );
        assert_eq!(
            links.link("hand:a", 3, None, h(6)),
            Some(ChainBreak::PrevHashMismatch { last: 2 })
        );
        assert_eq!(links.into_heads()["hand:a"], (3, h(6)));
    }

    #[test]
    fn a_resumed_stream_may_start_later_but_then_must_link() {
        let mut links = StreamLinks::resuming();
        assert_eq!(links.link("hand:a", 5, Some(h(4)), h(5)), None);
        assert_eq!(
            links.link("hand:a", 6, Some(h(4)), h(6)),
            Some(ChainBreak::PrevHashMismatch { last: 5 })
        );
        assert_eq!(
            links.link("hand:b", 1, Some(h(1)), h(7)),
            Some(ChainBreak::PrevHashMismatch { last: 0 })
        );
    }

    #[test]
    fn findings_read_as_the_audit_prints_them() {
        let gap = ChainBreak::PositionsMissing {
            expected: 3,
            found: 5,
        };
        assert_eq!(
            gap.to_string(),
            "expected position 3 next: positions 3..4 are missing (rows deleted?)"
        );
        let versions = ChainBreak::VersionsMissing { last: 2, found: 4 };
        assert_eq!(
            versions.to_string(),
            "follows version 2: versions 3..3 are missing"
        );
    }
}
