//! Names of things the ledger records: streams, players and officials.
//!
//! A stream is the unit of consistency: a tournament (registrations, tables, seat draws), a
//! table (games), or a hand (everything that happens between the deal and the settlement).
//! Its name is `kind:id`, e.g. `hand:t1-g2-h7`; ids are restricted to a small, printable
//! alphabet so a name can be typed on a command line and never needs quoting.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

pub use referee::ids::{check_id, IdError, OfficialId, PlayerId, TableId, MAX_ID_LEN};

/// What a stream is about; each event belongs to exactly one kind of stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum StreamKind {
    Tournament,
    Table,
    Hand,
    /// The officials' accounts: who could write, and when (`accounts:officials`).
    Accounts,
    /// The ledger's own records about itself: its signed checkpoints (`ledger:checkpoints`).
    Ledger,
}

impl StreamKind {
    /// A ledger's own records (its officials' accounts, its checkpoints): never exported with
    /// the play, never imported from another ledger — each ledger keeps its own.
    pub fn is_ledgers_own(self) -> bool {
        matches!(self, StreamKind::Accounts | StreamKind::Ledger)
    }

    pub const ALL: [StreamKind; 5] = [
        StreamKind::Tournament,
        StreamKind::Table,
        StreamKind::Hand,
        StreamKind::Accounts,
        StreamKind::Ledger,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            StreamKind::Tournament => "tournament",
            StreamKind::Table => "table",
            StreamKind::Hand => "hand",
            StreamKind::Accounts => "accounts",
            StreamKind::Ledger => "ledger",
        }
    }
}

impl fmt::Display for StreamKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A checked stream name `kind:id`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct StreamId {
    kind: StreamKind,
    name: String,
}

impl StreamId {
    pub fn new(kind: StreamKind, id: &str) -> Result<StreamId, IdError> {
        check_id(id)?;
        Ok(StreamId {
            kind,
            name: format!("{}:{id}", kind.name()),
        })
    }

    pub fn tournament(id: &str) -> Result<StreamId, IdError> {
        StreamId::new(StreamKind::Tournament, id)
    }

    pub fn table(id: &str) -> Result<StreamId, IdError> {
        StreamId::new(StreamKind::Table, id)
    }

    pub fn hand(id: &str) -> Result<StreamId, IdError> {
        StreamId::new(StreamKind::Hand, id)
    }

    pub fn kind(&self) -> StreamKind {
        self.kind
    }

    /// The part after `kind:`.
    pub fn id(&self) -> &str {
        &self.name[self.kind.name().len() + 1..]
    }

    /// The full name, `kind:id`, as stored.
    pub fn as_str(&self) -> &str {
        &self.name
    }
}

impl FromStr for StreamId {
    type Err = IdError;
    fn from_str(s: &str) -> Result<StreamId, IdError> {
        let (kind, id) = s
            .split_once(':')
            .ok_or_else(|| IdError::NotAStream(s.to_owned()))?;
        let kind = StreamKind::ALL
            .into_iter()
            .find(|k| k.name() == kind)
            .ok_or_else(|| IdError::NotAStream(s.to_owned()))?;
        StreamId::new(kind, id)
    }
}

impl fmt::Display for StreamId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

impl Serialize for StreamId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for StreamId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<StreamId, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stream_names_round_trip() {
        for s in ["tournament:spring-2026", "table:T1", "hand:t1.g2.h7"] {
            let id: StreamId = s.parse().unwrap();
            assert_eq!(id.to_string(), s);
        }
        let h = StreamId::hand("x_1").unwrap();
        assert_eq!((h.kind(), h.id()), (StreamKind::Hand, "x_1"));
    }

    #[test]
    fn bad_names_are_refused_with_the_reason() {
        assert!(matches!(
            "game:1".parse::<StreamId>(),
            Err(IdError::NotAStream(_))
        ));
        assert!(matches!(
            "hand".parse::<StreamId>(),
            Err(IdError::NotAStream(_))
        ));
        assert!(matches!(
            "hand:".parse::<StreamId>(),
            Err(IdError::BadLength { .. })
        ));
        assert!(matches!(
            "hand:a b".parse::<StreamId>(),
            Err(IdError::BadCharacter { bad: ' ', .. })
        ));
        assert!(PlayerId::new(&"x".repeat(MAX_ID_LEN + 1)).is_err());
    }
}
