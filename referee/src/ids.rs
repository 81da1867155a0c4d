//! Names of the people and places the rules speak of: players, officials and tables.
//!
//! Ids are restricted to a small, printable alphabet so a name can be typed on a command line
//! and never needs quoting; the ledger builds its stream names (`table:<id>`) from them.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The longest id accepted in a stream, player or official name.
pub const MAX_ID_LEN: usize = 128;

/// Why a name was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IdError {
    #[error("`{0}` is not a stream name: expected `tournament:<id>`, `table:<id>` or `hand:<id>`")]
    NotAStream(String),
    #[error("id `{id}` is empty or longer than {MAX_ID_LEN} characters")]
    BadLength { id: String },
    #[error(
        "id `{id}` contains `{bad}`: only ASCII letters, digits, `-`, `_` and `.` are allowed"
    )]
    BadCharacter { id: String, bad: char },
    #[error("id `{id}` is only dots: in an address it would read as a folder, not a name")]
    OnlyDots { id: String },
}

/// Checks an id's length and alphabet (and that it is not `.` or `..`).
pub fn check_id(id: &str) -> Result<(), IdError> {
    if id.is_empty() || id.len() > MAX_ID_LEN {
        return Err(IdError::BadLength { id: id.to_owned() });
    }
    match id
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')))
    {
        Some(bad) => Err(IdError::BadCharacter {
            id: id.to_owned(),
            bad,
        }),
        None if id.bytes().all(|b| b == b'.') => Err(IdError::OnlyDots { id: id.to_owned() }),
        None => Ok(()),
    }
}

/// Why a person's or a tournament's name (free text, shown on pages and sheets) is refused:
/// a control character (a line break, a tab, an escape), named by its code, or bytes that were
/// not UTF-8 (replaced by U+FFFD on the way in).
pub fn name_problem(name: &str) -> Option<String> {
    // A form or file not in UTF-8 reaches us with its unreadable bytes replaced.
    if name.contains('\u{FFFD}') {
        return Some(
            "the name holds a character that could not be read (U+FFFD): send it as UTF-8".into(),
        );
    }
    name.chars().find(|c| c.is_control()).map(|c| {
        format!(
            "the name contains a control character (U+{:04X}): names are one line of printable text",
            u32::from(c)
        )
    })
}

macro_rules! checked_name {
    ($(#[$doc:meta])* $ty:ident) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $ty(String);

        impl $ty {
            pub fn new(id: &str) -> Result<$ty, IdError> {
                check_id(id)?;
                Ok($ty(id.to_owned()))
            }

            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl FromStr for $ty {
            type Err = IdError;
            fn from_str(s: &str) -> Result<$ty, IdError> {
                $ty::new(s)
            }
        }

        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }
    };
}

checked_name!(
    /// A registered player's id (PlayerRegistered).
    PlayerId
);
checked_name!(
    /// A registered official's id (OfficialRegistered); every event is recorded by one.
    OfficialId
);
checked_name!(
    /// A table's id within a tournament (TableFormed); the table's stream is `table:<id>`.
    TableId
);

macro_rules! serde_via_str {
    ($($ty:ty),*) => {$(
        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<$ty, D::Error> {
                let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
                s.parse().map_err(serde::de::Error::custom)
            }
        }
    )*};
}

serde_via_str!(PlayerId, OfficialId, TableId);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_checked() {
        assert!(PlayerId::new(&"x".repeat(MAX_ID_LEN + 1)).is_err());
        assert!(matches!(
            TableId::new("a b"),
            Err(IdError::BadCharacter { bad: ' ', .. })
        ));
        assert_eq!("t-1".parse::<TableId>().unwrap().as_str(), "t-1");
        for dots in [".", "..", "..."] {
            assert!(matches!(PlayerId::new(dots), Err(IdError::OnlyDots { .. })));
        }
        assert!(PlayerId::new("a.b").is_ok());
    }

    #[test]
    fn names_are_one_line_of_printable_text() {
        assert_eq!(name_problem("Ann Lee"), None);
        assert_eq!(name_problem("Zoë Ōta"), None);
        assert!(name_problem("Ann\u{FFFD}").unwrap().contains("UTF-8"));
        for bad in ["Ann\nLee", "tab\there", "esc\u{1b}[31m", "nul\0"] {
            assert!(
                name_problem(bad).unwrap().contains("control character"),
                "{bad:?}"
            );
        }
    }
}
