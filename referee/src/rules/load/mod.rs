//! Reading ruleset files, built-in and house, with every problem reported by line.
//!
//! Two passes. [`raw`] deserializes the file with serde into structs whose values keep their
//! spans and whatever type was written, so nothing in the file can stop the reading; then
//! the checking pass ([`sections`], [`elements`]) turns each raw value into the checked
//! [`Ruleset`], reading every key on its own and collecting *every* problem with its line —
//! what a club secretary fixing a house file needs. A syntax error is the one problem that
//! stops the first pass, and is reported alone.

mod elements;
mod keys;
mod raw;
mod report;
mod sections;

use std::fmt;

use serde::Deserialize;

use self::raw::{keys_of, Entry, RawFile};
use self::report::{suggestion, Report};
use self::sections::Fallback;
use super::Ruleset;

/// One thing wrong with a ruleset file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesetProblem {
    /// 1-based line.
    pub line: usize,
    pub message: String,
}

impl fmt::Display for RulesetProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// Everything wrong with a ruleset file, in line order.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct RulesetError {
    pub problems: Vec<RulesetProblem>,
}

impl fmt::Display for RulesetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.problems.len();
        write!(
            f,
            "{n} problem{} in the ruleset file:",
            if n == 1 { "" } else { "s" }
        )?;
        for p in &self.problems {
            write!(f, "\n  {p}")?;
        }
        Ok(())
    }
}

pub(super) fn parse(text: &str) -> Result<Ruleset, RulesetError> {
    let mut r = Report::new(text);
    let file = toml::de::Deserializer::parse(text).and_then(Entry::<RawFile>::deserialize);
    let ruleset = match file {
        Ok(Entry::Table { keys, fields }) => {
            r.unknown_keys(&keys, keys_of::<RawFile>(), "the ruleset");
            check(&mut r, &fields)
        }
        // The document is a table; the raw types keep every value.
        Ok(Entry::Other(_)) => None,
        Err(e) => {
            let span = e.span().unwrap_or(0..0);
            r.at(&span, format!("not valid TOML: {}", e.message().trim()));
            None
        }
    };
    match ruleset {
        Some(ruleset) if r.problems.is_empty() => Ok(ruleset),
        _ => {
            let mut problems = r.problems;
            if problems.is_empty() {
                problems.push(RulesetProblem {
                    line: 1,
                    message: "the ruleset is incomplete".into(),
                });
            }
            problems.sort_by_key(|p| p.line);
            problems.dedup();
            Err(RulesetError { problems })
        }
    }
}

fn is_kebab_case(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// The checking pass: the raw file to a ruleset, every problem reported.
fn check(r: &mut Report<'_>, f: &RawFile) -> Option<Ruleset> {
    let name = match &f.name {
        Some(v) => r.string("name", v).filter(|n| {
            let ok = is_kebab_case(n);
            if !ok {
                r.at(
                    &v.span(),
                    format!("`name` = \"{n}\" must be kebab-case: lower-case letters, digits and hyphens"),
                );
            }
            ok
        }),
        None => {
            r.at(&(0..0), "the ruleset has no `name`");
            None
        }
    };
    let house = f.base.is_some();
    let base_name = f.base.as_ref().and_then(|v| {
        let b = r.string("base", v)?;
        if Ruleset::builtin_text(&b).is_some() {
            return Some(b);
        }
        let names: Vec<&str> = Ruleset::builtin_names().collect();
        let hint = suggestion(&b, names.iter().copied());
        r.at(
            &v.span(),
            format!(
                "`base` = \"{b}\" is not a built-in ruleset{hint} (built-ins: {})",
                names.join(", ")
            ),
        );
        None
    });
    let base = base_name.as_deref().and_then(Ruleset::builtin);
    if let (Some(n), Some(v)) = (&name, &f.base) {
        if Ruleset::builtin_text(n).is_some() {
            r.at(
                &v.span(),
                format!(
                    "a house ruleset may not take the built-in name `{n}`; name it after the club"
                ),
            );
        }
    }
    // A built-in lists everything; a house file falls back on its base (when it is known).
    let required = !house;
    let title = f.title.as_ref().and_then(|v| r.string("title", v));
    let source = f.source.as_ref().and_then(|v| r.string("source", v));
    let b = base.as_ref();
    let params = sections::params(
        r,
        f.params.as_ref(),
        Fallback::new(b.map(|b| &b.params), required, "[params]"),
    );
    let settlement = sections::settlement(
        r,
        f.settlement.as_ref(),
        Fallback::new(b.map(|b| &b.settlement), required, "[settlement]"),
    );
    let penalties = sections::penalties(
        r,
        f.penalties.as_ref(),
        Fallback::new(b.map(|b| &b.penalties), required, "[penalties]"),
    );
    let rotation = sections::rotation(
        r,
        f.rotation.as_ref(),
        Fallback::new(b.map(|b| &b.rotation), required, "[rotation]"),
    );
    let readings = sections::readings(
        r,
        f.readings.as_ref(),
        Fallback::new(b.map(|b| &b.readings), required, "[readings]"),
        house,
    );
    let (options, enabled_options) = sections::options(r, f.options.as_ref(), b, house);
    let elements = elements::elements(
        r,
        f.element.as_ref(),
        &elements::Context {
            base: b,
            house,
            options: &options,
        },
    );
    let title = title.or_else(|| b.map(|b| format!("{} (house)", b.title)));
    let source = source.or_else(|| b.map(|b| b.source.clone()));
    if required && f.title.is_none() {
        r.at(&(0..0), "the ruleset has no `title`");
    }
    if required && f.source.is_none() {
        r.at(&(0..0), "the ruleset has no `source`");
    }
    Some(Ruleset {
        name: name?,
        title: title?,
        source: source?,
        base: base_name,
        params: params?,
        settlement: settlement?,
        penalties: penalties?,
        rotation: rotation?,
        readings: readings?,
        options,
        enabled_options,
        elements: elements?,
    })
}
