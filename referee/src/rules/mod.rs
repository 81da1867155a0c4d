//! Rulesets as data: each book's score table, limit, settlement and penalties, with citations.
//!
//! The seven built-in rulesets are TOML files in `referee/rulesets/`, compiled into the crate.
//! A club's house ruleset is a file of the same form that names a `base` built-in and overrides
//! what it changes; [`Ruleset::parse`] checks it and reports *every* problem with its line, so a
//! club secretary can fix a file in one pass. The file format is documented in
//! `referee/rulesets/README.md`; the vocabulary of conditions is [`Condition`].

mod condition;
mod element;
mod load;
mod params;

use std::collections::BTreeMap;

use serde::Serialize;

pub use condition::{
    Applies, Condition, ConditionInfo, Exposure, Group, Qualifier, Scope, TileFilter,
};
pub use element::{Element, LimitShare, ParseShareError, Value};
pub use load::{RulesetError, RulesetProblem};
pub use params::{
    BonusReplacement, Cannons, DealPasses, FalseMahJonggScheme, KongRobbing, Params, PenaltyParams,
    Reading, Readings, RoofOff, RotationParams, Rounding, SettlementMethod, SettlementParams,
};

/// The built-in rulesets: (name, file text).
const BUILTIN: &[(&str, &str)] = &[
    (
        "code-of-laws",
        include_str!("../../rulesets/code-of-laws.toml"),
    ),
    (
        "babcock-standard",
        include_str!("../../rulesets/babcock-standard.toml"),
    ),
    (
        "babcock-chinese",
        include_str!("../../rulesets/babcock-chinese.toml"),
    ),
    (
        "harr-unlimited",
        include_str!("../../rulesets/harr-unlimited.toml"),
    ),
    ("harr-limit", include_str!("../../rulesets/harr-limit.toml")),
    (
        "chinese-classical",
        include_str!("../../rulesets/chinese-classical.toml"),
    ),
    ("british", include_str!("../../rulesets/british.toml")),
];

/// An option a ruleset offers (Babcock's optional scores, the Seasons, …).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RuleOption {
    pub description: String,
    pub cite: String,
    /// On unless switched off.
    pub default: bool,
}

/// A complete, checked ruleset.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Ruleset {
    /// Kebab-case name: `code-of-laws`, or a house ruleset's own.
    pub name: String,
    pub title: String,
    /// The book it comes from.
    pub source: String,
    /// For a house ruleset, the built-in it starts from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base: Option<String>,
    pub params: Params,
    pub settlement: SettlementParams,
    pub penalties: PenaltyParams,
    /// How the deal and the prevailing wind go round.
    pub rotation: RotationParams,
    /// Where the book can be read two ways, the reading taken.
    pub readings: Readings,
    pub options: BTreeMap<String, RuleOption>,
    /// Options switched on.
    pub enabled_options: Vec<String>,
    pub elements: Vec<Element>,
}

impl Ruleset {
    /// The names of the built-in rulesets.
    pub fn builtin_names() -> impl Iterator<Item = &'static str> {
        BUILTIN.iter().map(|(n, _)| *n)
    }

    /// The text of a built-in ruleset's file.
    pub fn builtin_text(name: &str) -> Option<&'static str> {
        BUILTIN.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
    }

    /// A built-in ruleset by name.
    pub fn builtin(name: &str) -> Option<Ruleset> {
        let text = Ruleset::builtin_text(name)?;
        // The built-in files are tested to load (`every_builtin_loads`).
        Ruleset::parse(text).ok()
    }

    /// Reads a ruleset file: a built-in's full table, or a house ruleset naming its `base`.
    pub fn parse(text: &str) -> Result<Ruleset, RulesetError> {
        load::parse(text)
    }

    /// Switches an option on or off; fails for an option the ruleset does not have.
    pub fn set_option(&mut self, option: &str, on: bool) -> Result<(), String> {
        if !self.options.contains_key(option) {
            return Err(format!(
                "ruleset `{}` has no option `{option}` (its options: {})",
                self.name,
                self.options.keys().cloned().collect::<Vec<_>>().join(", ")
            ));
        }
        self.enabled_options.retain(|o| o != option);
        if on {
            self.enabled_options.push(option.to_owned());
            self.enabled_options.sort();
        }
        Ok(())
    }

    /// Whether an option is on.
    pub fn option_on(&self, option: &str) -> bool {
        self.enabled_options.iter().any(|o| o == option)
    }

    /// The elements in force: enabled, and their option (if any) switched on.
    pub fn active_elements(&self) -> impl Iterator<Item = &Element> {
        self.elements.iter().filter(|e| self.in_force(e))
    }

    /// Is `e` in force: enabled, and its option (if any) switched on?
    pub fn in_force(&self, e: &Element) -> bool {
        e.enabled && e.option.as_deref().is_none_or(|o| self.option_on(o))
    }

    /// An element by id.
    pub fn element(&self, id: &str) -> Option<&Element> {
        self.elements.iter().find(|e| e.id == id)
    }

    /// The value of a limit hand of `share`: the share of the limit, or with the roof off of
    /// the notional value.
    pub fn limit_value(&self, share: LimitShare) -> u64 {
        share.of(self.params.limit.unwrap_or(self.params.notional_limit))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_loads() {
        for name in Ruleset::builtin_names() {
            let text = Ruleset::builtin_text(name).unwrap();
            let r = Ruleset::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(r.name, name);
            assert!(
                r.base.is_none(),
                "{name} is a built-in, not a house ruleset"
            );
            for e in &r.elements {
                assert!(!e.cite.trim().is_empty(), "{name}: {} cites nothing", e.id);
            }
        }
    }

    #[test]
    fn unknown_option_is_refused() {
        let mut r = Ruleset::builtin("code-of-laws").unwrap();
        assert!(r.set_option("no-such-option", true).is_err());
    }
}
