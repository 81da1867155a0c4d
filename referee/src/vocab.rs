//! Closed vocabularies of ruleset files, each declared once.
//!
//! A ruleset file chooses among fixed words: which book's only-place rule (Code §115(c) or
//! Babcock's), which kongs may be robbed (Code §57–58), how a limit hand is valued with the roof
//! off (§121), which tiles an element counts, … Each such vocabulary is one [`choice!`]: the
//! enum with the docs of its values, each value's name in ruleset files, and what one value is
//! called in the loader's messages ("kind of kong robbing"). From that one declaration come
//! `ALL`, `name()`, `from_name()`, `Display` and `FromStr` (which round-trip), serde names equal
//! to `name()`, and the [`Choice`] trait the loader reads its lists from — so the words a file
//! may write, the words serde writes and the words the loader suggests cannot drift apart.
//!
//! This module is a leaf: it names nothing else in the crate, so any module may declare a
//! vocabulary with it.

use std::fmt;

/// A closed vocabulary declared by [`choice!`]: what generic readers (the ruleset loader, the
/// tests of the tables) need of it.
pub trait Choice: Copy + Eq + fmt::Debug + 'static {
    /// Every value, in declaration order (the order the loader lists them in).
    const ALL: &'static [Self];
    /// What one value is, without its article, as the loader's messages say it: "`kong_robbing`
    /// = "x" is not a kind of kong robbing".
    const WHAT: &'static str;
    /// The value's name in ruleset files, its `Display` and its serde name.
    fn name(self) -> &'static str;
}

/// "a" or "an" before `noun`, by its first letter (a backquoted noun by the letter inside).
pub(crate) fn article(noun: &str) -> &'static str {
    let vowel = noun
        .chars()
        .find(char::is_ascii_alphabetic)
        .is_some_and(|c| "aeiou".contains(c));
    if vowel {
        "an"
    } else {
        "a"
    }
}

/// A name that is not one of a vocabulary's: "`seven-pairs` is not a special shape (known:
/// thirteen-unique-wonders, …)".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownChoice {
    /// The name given.
    pub name: String,
    /// What a value of the vocabulary is ([`Choice::WHAT`]).
    pub what: &'static str,
    /// The vocabulary's names, in order.
    pub known: Vec<&'static str>,
}

impl UnknownChoice {
    /// `name` is not one of `T`'s.
    pub fn new<T: Choice>(name: &str) -> UnknownChoice {
        UnknownChoice {
            name: name.to_owned(),
            what: T::WHAT,
            known: T::ALL.iter().map(|t| t.name()).collect(),
        }
    }
}

impl fmt::Display for UnknownChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not {} {} (known: {})",
            self.name,
            article(self.what),
            self.what,
            self.known.join(", ")
        )
    }
}

impl std::error::Error for UnknownChoice {}

/// Declares a closed vocabulary of ruleset files, its names given once:
///
/// ```text
/// choice! {
///     /// doc of the type
///     #[derive(Clone, Copy, Debug, PartialEq, Eq)]
///     pub enum KongRobbing: "kind of kong robbing" {
///         /// doc of the value
///         AddedOrWonders = "added-or-wonders",
///         …
///     }
/// }
/// ```
///
/// The enum gets its docs and derives as written, plus serde's (each value renamed to its
/// name); then `ALL`, `name`, `from_name`, [`Choice`], `Display` and `FromStr` (erring with
/// [`UnknownChoice`]). The derives must include `Clone, Copy, Debug, PartialEq, Eq`.
macro_rules! choice {
    (
        $(#[$meta:meta])*
        pub enum $t:ident: $what:literal {
            $($(#[$vmeta:meta])* $variant:ident = $name:literal,)+
        }
    ) => {
        $(#[$meta])*
        #[derive(::serde::Serialize, ::serde::Deserialize)]
        pub enum $t {
            $($(#[$vmeta])* #[serde(rename = $name)] $variant,)+
        }

        impl $t {
            /// Every value, in declaration order.
            pub const ALL: [$t; [$($name),+].len()] = [$($t::$variant),+];

            /// The name used in ruleset files (and by serde).
            pub const fn name(self) -> &'static str {
                match self {
                    $($t::$variant => $name,)+
                }
            }

            /// The value a ruleset file names.
            pub fn from_name(name: &str) -> Option<$t> {
                Self::ALL.into_iter().find(|v| v.name() == name)
            }
        }

        impl $crate::vocab::Choice for $t {
            // The inherent array above, as a slice.
            const ALL: &'static [$t] = &$t::ALL;
            const WHAT: &'static str = $what;
            fn name(self) -> &'static str {
                $t::name(self)
            }
        }

        impl ::std::fmt::Display for $t {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl ::std::str::FromStr for $t {
            type Err = $crate::vocab::UnknownChoice;
            fn from_str(s: &str) -> Result<$t, Self::Err> {
                $t::from_name(s).ok_or_else(|| $crate::vocab::UnknownChoice::new::<$t>(s))
            }
        }
    };
}

pub(crate) use choice;

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Checks the table of one vocabulary: names are kebab-case and unique; each value's name
    /// round-trips through `FromStr` and `Display`, and is its serde name both ways; an unknown
    /// name is refused, saying what was expected.
    pub(crate) fn check_table<T>()
    where
        T: Choice
            + fmt::Display
            + std::str::FromStr<Err = UnknownChoice>
            + serde::Serialize
            + serde::de::DeserializeOwned,
    {
        let mut seen = std::collections::BTreeSet::new();
        assert!(!T::ALL.is_empty());
        for &v in T::ALL {
            let n = v.name();
            assert!(
                !n.is_empty()
                    && n.chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
                "{n} is not kebab-case"
            );
            assert!(seen.insert(n), "{n} twice in {}", T::WHAT);
            assert_eq!(v.to_string(), n);
            assert_eq!(n.parse::<T>(), Ok(v), "{n}");
            assert_eq!(serde_json::to_value(v).unwrap(), n, "serde name of {v:?}");
            assert_eq!(serde_json::from_value::<T>(n.into()).unwrap(), v, "{n}");
        }
        let e = "no-such-word".parse::<T>().unwrap_err();
        assert_eq!(e.what, T::WHAT);
        assert_eq!(e.known, T::ALL.iter().map(|t| t.name()).collect::<Vec<_>>());
        assert!(serde_json::from_value::<T>("no-such-word".into()).is_err());
    }

    #[test]
    fn the_article_goes_by_the_first_letter() {
        assert_eq!(article("exposure"), "an");
        assert_eq!(article("`applies` value"), "an");
        assert_eq!(article("kind of kong robbing"), "a");
    }

    #[test]
    fn an_unknown_name_lists_the_known_ones() {
        let e = UnknownChoice {
            name: "seven-pairs".into(),
            what: "special shape",
            known: vec!["seven-twins", "knitting"],
        };
        assert_eq!(
            e.to_string(),
            "`seven-pairs` is not a special shape (known: seven-twins, knitting)"
        );
    }
}
