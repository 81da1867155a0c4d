//! The ways of seating a tournament, by name.

use std::fmt;
use std::str::FromStr;

/// How the players are seated, session after session.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// Every session planned in advance so that as few pairs as possible meet twice, with the
    /// chairs balanced ([`super::no_repeat`]).
    NoRepeat,
    /// Each session seats players of similar standing together ([`super::swiss`]).
    Swiss,
    /// Babcock's progressive game: the two best at each table move on ([`super::progressive`]).
    Progressive,
    /// Each session an independent seeded shuffle: the baseline the others are measured against.
    Random,
}

impl Method {
    pub const ALL: [Method; 4] = [
        Method::NoRepeat,
        Method::Swiss,
        Method::Progressive,
        Method::Random,
    ];

    /// The name on the command line and in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Method::NoRepeat => "no-repeat",
            Method::Swiss => "swiss",
            Method::Progressive => "progressive",
            Method::Random => "random",
        }
    }

    /// Whether later sessions follow from the results of earlier ones (so a plan made before
    /// play holds only the first session).
    pub const fn needs_results(self) -> bool {
        matches!(self, Method::Swiss | Method::Progressive)
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A method name that is not one of [`Method::ALL`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("no seating method `{0}` (no-repeat, swiss, progressive, random)")]
pub struct ParseMethodError(pub String);

impl FromStr for Method {
    type Err = ParseMethodError;
    fn from_str(s: &str) -> Result<Method, ParseMethodError> {
        Method::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| ParseMethodError(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for method in Method::ALL {
            assert_eq!(method.name().parse::<Method>(), Ok(method));
        }
        assert!("norepeat".parse::<Method>().is_err());
    }
}
