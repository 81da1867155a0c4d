//! The tie-break chain a tournament chooses for its standings: the keys players are compared
//! on, in order (e.g. net chips, then hands won, then largest hand). Players equal on every key
//! share a rank; the page's order among them is by player id, so it never changes between
//! requests.
//!
//! Recorded as its own event (`TieBreakChosen`) rather than a new field of
//! `TournamentConfigured`, so no stored event changes shape; a tournament without one uses
//! [`TieBreak::default`].

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// One key of a tie-break chain. Each says which way is better.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TieBreakKey {
    /// More net chips is better.
    Net,
    /// More hands won is better.
    HandsWon,
    /// A larger best winning hand is better.
    LargestHand,
    /// Fewer hands played is better (the same result in fewer hands).
    FewestHandsPlayed,
}

impl TieBreakKey {
    pub const ALL: [TieBreakKey; 4] = [
        TieBreakKey::Net,
        TieBreakKey::HandsWon,
        TieBreakKey::LargestHand,
        TieBreakKey::FewestHandsPlayed,
    ];

    /// The wire name, as in the API (`"hands_won"`).
    pub const fn name(self) -> &'static str {
        match self {
            TieBreakKey::Net => "net",
            TieBreakKey::HandsWon => "hands_won",
            TieBreakKey::LargestHand => "largest_hand",
            TieBreakKey::FewestHandsPlayed => "fewest_hands_played",
        }
    }

    /// How a page says it.
    pub const fn title(self) -> &'static str {
        match self {
            TieBreakKey::Net => "net chips",
            TieBreakKey::HandsWon => "hands won",
            TieBreakKey::LargestHand => "largest hand",
            TieBreakKey::FewestHandsPlayed => "fewest hands played",
        }
    }

    /// Every wire name, for error messages.
    pub fn names() -> String {
        TieBreakKey::ALL.map(TieBreakKey::name).join(", ")
    }
}

impl fmt::Display for TieBreakKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a list of keys is not a tie-break chain.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TieBreakError {
    #[error("unknown tie-break key `{0}` (the keys are {keys})", keys = TieBreakKey::names())]
    UnknownKey(String),
    #[error("tie-break key `{0}` is listed twice")]
    Repeated(TieBreakKey),
    #[error("a tie-break chain needs at least one key (the keys are {keys})", keys = TieBreakKey::names())]
    Empty,
}

impl FromStr for TieBreakKey {
    type Err = TieBreakError;
    fn from_str(s: &str) -> Result<TieBreakKey, TieBreakError> {
        TieBreakKey::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| TieBreakError::UnknownKey(s.to_owned()))
    }
}

/// A checked tie-break chain: at least one key, none twice.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Vec<TieBreakKey>", into = "Vec<TieBreakKey>")]
pub struct TieBreak(Vec<TieBreakKey>);

impl TieBreak {
    pub fn new(keys: Vec<TieBreakKey>) -> Result<TieBreak, TieBreakError> {
        if keys.is_empty() {
            return Err(TieBreakError::Empty);
        }
        for (i, k) in keys.iter().enumerate() {
            if keys[..i].contains(k) {
                return Err(TieBreakError::Repeated(*k));
            }
        }
        Ok(TieBreak(keys))
    }

    /// Reads a chain from its wire names, as a form or the API gives them.
    pub fn parse<S: AsRef<str>>(names: &[S]) -> Result<TieBreak, TieBreakError> {
        let keys = names
            .iter()
            .map(|n| n.as_ref().trim().parse())
            .collect::<Result<Vec<_>, _>>()?;
        TieBreak::new(keys)
    }

    pub fn keys(&self) -> &[TieBreakKey] {
        &self.0
    }
}

impl Default for TieBreak {
    /// Net chips, then hands won, then largest hand.
    fn default() -> TieBreak {
        TieBreak(vec![
            TieBreakKey::Net,
            TieBreakKey::HandsWon,
            TieBreakKey::LargestHand,
        ])
    }
}

impl TryFrom<Vec<TieBreakKey>> for TieBreak {
    type Error = TieBreakError;
    fn try_from(keys: Vec<TieBreakKey>) -> Result<TieBreak, TieBreakError> {
        TieBreak::new(keys)
    }
}

impl From<TieBreak> for Vec<TieBreakKey> {
    fn from(t: TieBreak) -> Vec<TieBreakKey> {
        t.0
    }
}

impl fmt::Display for TieBreak {
    /// "net chips, then hands won, then largest hand".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, k) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", then ")?;
            }
            f.write_str(k.title())?;
        }
        Ok(())
    }
}

/// The tournament chose how ties in its standings are broken.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TieBreakChosen {
    pub chain: TieBreak,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_round_trip_through_their_names() {
        for k in TieBreakKey::ALL {
            assert_eq!(k.name().parse::<TieBreakKey>(), Ok(k));
            assert_eq!(
                serde_json::to_string(&k).unwrap(),
                format!("\"{}\"", k.name())
            );
        }
    }

    #[test]
    fn a_chain_is_checked() {
        assert_eq!(
            TieBreak::parse(&["net", "hands_won", "largest_hand"]),
            Ok(TieBreak::default())
        );
        let unknown = TieBreak::parse(&["net", "luck"]).unwrap_err();
        assert_eq!(
            unknown.to_string(),
            "unknown tie-break key `luck` (the keys are net, hands_won, largest_hand, fewest_hands_played)"
        );
        assert_eq!(
            TieBreak::parse(&["net", "net"]),
            Err(TieBreakError::Repeated(TieBreakKey::Net))
        );
        assert_eq!(TieBreak::parse::<&str>(&[]), Err(TieBreakError::Empty));
    }

    #[test]
    fn bad_chains_are_refused_at_the_serde_boundary() {
        let ok: TieBreakChosen =
            serde_json::from_str(r#"{"chain":["hands_won","fewest_hands_played"]}"#).unwrap();
        assert_eq!(
            ok.chain.keys(),
            [TieBreakKey::HandsWon, TieBreakKey::FewestHandsPlayed]
        );
        assert_eq!(
            serde_json::to_string(&ok).unwrap(),
            r#"{"chain":["hands_won","fewest_hands_played"]}"#
        );
        assert!(serde_json::from_str::<TieBreakChosen>(r#"{"chain":[]}"#).is_err());
        assert!(serde_json::from_str::<TieBreakChosen>(r#"{"chain":["net","net"]}"#).is_err());
        assert!(serde_json::from_str::<TieBreakChosen>(r#"{"chain":["luck"]}"#).is_err());
    }

    #[test]
    fn the_chain_reads_as_a_sentence() {
        assert_eq!(
            TieBreak::default().to_string(),
            "net chips, then hands won, then largest hand"
        );
    }
}
