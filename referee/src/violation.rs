//! Violations: why a command was refused, every reason at once (STYLE.md habit 2).
//!
//! A refused command lists each problem with the field of the command it concerns (so a form
//! can show it beside that field, and a program can act on it) and the rule section it rests on
//! (so the official can check it in the book). A problem that no section of the rules governs —
//! a missing field, a number out of range — names no rule.

use std::fmt;

use serde::Serialize;

/// One reason a command was refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Violation {
    /// The field of the command it concerns, as named on the wire (`hands.south`,
    /// `penalties[1].amount`, `winner`); empty when it concerns the command as a whole.
    pub field: String,
    /// The rule section it rests on ("Code §11"), when a rule of the game is broken.
    pub rule: Option<String>,
    /// What is wrong, in plain words, for the person who sent the command.
    pub message: String,
}

impl Violation {
    /// A problem with `field` that breaks no rule of the game (a missing or malformed value).
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Violation {
        Violation {
            field: field.into(),
            rule: None,
            message: message.into(),
        }
    }

    /// A problem with `field` that breaks the rule `rule`.
    pub fn rule(
        field: impl Into<String>,
        rule: impl Into<String>,
        message: impl Into<String>,
    ) -> Violation {
        Violation {
            field: field.into(),
            rule: Some(rule.into()),
            message: message.into(),
        }
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.field.is_empty() {
            write!(f, "{}: ", self.field)?;
        }
        f.write_str(&self.message)?;
        if let Some(rule) = &self.rule {
            write!(f, " ({rule})")?;
        }
        Ok(())
    }
}

/// Every reason a command was refused; never empty when returned as an error.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Violations(pub Vec<Violation>);

impl Violations {
    pub fn new() -> Violations {
        Violations(Vec::new())
    }

    pub fn push(&mut self, v: Violation) {
        self.0.push(v);
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Violation> {
        self.0.iter()
    }

    /// Those about `field` (exactly, or a part of it: `hands` matches `hands.south`).
    pub fn about<'a>(&'a self, field: &'a str) -> impl Iterator<Item = &'a Violation> + 'a {
        self.0.iter().filter(move |v| {
            v.field == field
                || v.field
                    .strip_prefix(field)
                    .is_some_and(|rest| rest.starts_with(['.', '[']))
        })
    }

    /// Adds every violation of `other`, with `prefix` put before each field.
    pub fn extend_under(&mut self, prefix: &str, other: Violations) {
        for mut v in other.0 {
            v.field = match (prefix.is_empty(), v.field.is_empty()) {
                (true, _) => v.field,
                (false, true) => prefix.to_owned(),
                (false, false) => format!("{prefix}.{}", v.field),
            };
            self.0.push(v);
        }
    }

    /// `Ok(value)` when there is no violation, else the violations.
    pub fn into_result<T>(self, value: T) -> Result<T, Violations> {
        if self.0.is_empty() {
            Ok(value)
        } else {
            Err(self)
        }
    }
}

impl From<Violation> for Violations {
    fn from(v: Violation) -> Violations {
        Violations(vec![v])
    }
}

impl IntoIterator for Violations {
    type Item = Violation;
    type IntoIter = std::vec::IntoIter<Violation>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl fmt::Display for Violations {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, v) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{v}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Violations {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_every_violation_with_field_and_rule() {
        let mut v = Violations::new();
        v.push(Violation::new("winner", "say who won"));
        v.push(Violation::rule(
            "hands.south",
            "Code §106",
            "the hand is missing",
        ));
        assert_eq!(
            v.to_string(),
            "winner: say who won; hands.south: the hand is missing (Code §106)"
        );
        assert_eq!(v.about("hands").count(), 1);
        assert_eq!(v.about("hand").count(), 0);
        let json = serde_json::to_value(&v).unwrap();
        assert_eq!(json[1]["rule"], "Code §106");
        assert_eq!(json[0]["field"], "winner");
    }
}
