//! Rulesets for the service: a built-in by name or a house ruleset's text, loaded with every
//! problem reported by line, and pinned by the SHA-256 of its text so a game records exactly
//! what it was scored under. Scoring and settlement themselves are the referee's
//! (`referee::table`).

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use anyhow::Context as _;
use referee::score::{ScoreInput, Win, WinFrom};
use referee::{parse_counts, Hand, Ruleset, TileCounts, Wind};
use sha2::{Digest, Sha256};

/// Where a ruleset comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesetSource {
    /// A built-in ruleset, by name (see [`ruleset_names`]).
    BuiltIn(String),
    /// The text of an uploaded house ruleset.
    House(String),
}

/// A ruleset ready to score with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadedRuleset {
    pub name: String,
    pub title: String,
    /// The limit on one hand's score; `None` for no limit.
    pub limit: Option<u64>,
    /// SHA-256 of the ruleset file's text, so a game pins exactly what it was scored under.
    pub content_sha256: String,
    inner: Ruleset,
}

impl LoadedRuleset {
    /// The ruleset itself, for the referee.
    pub fn into_ruleset(self) -> Ruleset {
        self.inner
    }

    /// Plays the ruleset with a different limit (a tournament's own), `None` for the roof off.
    pub fn with_limit(mut self, limit: Option<u64>) -> LoadedRuleset {
        self.inner.params.limit = limit;
        self.limit = limit;
        self
    }
}

/// Why a ruleset could not be loaded or a hand could not be scored.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    #[error("there is no built-in ruleset `{0}`")]
    UnknownRuleset(String),
    #[error("the house ruleset has {} problem(s): {}", .0.len(), join_lines(.0))]
    HouseRuleset(Vec<(usize, String)>),
}

fn join_lines(problems: &[(usize, String)]) -> String {
    problems
        .iter()
        .map(|(line, what)| format!("line {line}: {what}"))
        .collect::<Vec<_>>()
        .join("; ")
}

/// The built-in rulesets: (name, title).
pub fn ruleset_names() -> Vec<(String, String)> {
    Ruleset::builtin_names()
        .filter_map(Ruleset::builtin)
        .map(|r| (r.name, r.title))
        .collect()
}

fn sha256_hex(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A hand's context for scoring it alone, as `mahjong-referee score`'s flags and the `/check`
/// page give it: the winds, how the winning tile came, the circumstances, the tiles on view.
#[derive(Clone, Debug)]
pub struct ScoreContext {
    pub seat: Wind,
    pub prevailing: Wind,
    pub win_from: Option<WinFrom>,
    pub last_tile: bool,
    pub kong_upon_kong: bool,
    pub original_call: bool,
    pub heavens_blessing: bool,
    pub earths_blessing: bool,
    pub east_wins: u32,
    /// Tiles on the table, for "the only possible tile"; empty for none.
    pub visible: String,
}

/// The hand and its context checked into the referee's [`ScoreInput`]: one definition for the
/// command line (`score`) and the service (`/check`), so both score a hand alike. A Mah-Jongg
/// hand needs `win_from`; a losing hand must not have one.
pub fn score_input(hand: &str, c: &ScoreContext) -> anyhow::Result<ScoreInput> {
    if hand.trim().is_empty() {
        anyhow::bail!("no hand: give it in the notation, e.g. \"123m 456m 789p 234s E =E\"");
    }
    let hand: Hand = hand.parse().with_context(|| format!("the hand `{hand}`"))?;
    let visible: TileCounts = if c.visible.trim().is_empty() {
        TileCounts::EMPTY
    } else {
        parse_counts(&c.visible, None).context("visible tiles")?
    };
    let win = match (hand.winning(), c.win_from) {
        (Some(_), Some(from)) => Some(Win {
            from,
            last_tile: c.last_tile,
            kong_upon_kong: c.kong_upon_kong,
            original_call: c.original_call,
            heavens_blessing: c.heavens_blessing,
            earths_blessing: c.earths_blessing,
            east_wins: c.east_wins,
        }),
        (Some(w), None) => anyhow::bail!(
            "the hand is a Mah-Jongg hand (winning tile `{w}`): say how the tile came with --win-from"
        ),
        (None, Some(_)) => anyhow::bail!(
            "--win-from is for a Mah-Jongg hand; mark its winning tile with `=`, e.g. `=5p`"
        ),
        (None, None) => None,
    };
    Ok(ScoreInput {
        hand,
        seat: c.seat,
        prevailing: c.prevailing,
        win,
        visible,
    })
}

/// Rulesets already parsed, by the SHA-256 of their text: every command at a table loads its
/// ruleset, and parsing one costs far more than the rest of recording a hand.
static PARSED: OnceLock<Mutex<HashMap<String, LoadedRuleset>>> = OnceLock::new();

/// At most this many parsed rulesets are kept (each tournament has one).
const MAX_PARSED: usize = 64;

/// Loads a built-in by name, or checks a house ruleset's text (every problem, with its line).
pub fn load_ruleset(source: RulesetSource) -> Result<LoadedRuleset, RulesError> {
    let text = match &source {
        RulesetSource::BuiltIn(name) => {
            Ruleset::builtin_text(name).ok_or_else(|| RulesError::UnknownRuleset(name.clone()))?
        }
        RulesetSource::House(text) => text.as_str(),
    };
    let sha = sha256_hex(text);
    let cache = PARSED.get_or_init(Mutex::default);
    if let Some(hit) = cache.lock().ok().and_then(|c| c.get(&sha).cloned()) {
        return Ok(hit);
    }
    let inner = Ruleset::parse(text).map_err(|e| {
        RulesError::HouseRuleset(
            e.problems
                .into_iter()
                .map(|p| (p.line, p.message))
                .collect(),
        )
    })?;
    let loaded = LoadedRuleset {
        name: inner.name.clone(),
        title: inner.title.clone(),
        limit: inner.params.limit,
        content_sha256: sha.clone(),
        inner,
    };
    if let Ok(mut c) = cache.lock() {
        if c.len() >= MAX_PARSED {
            c.clear();
        }
        c.insert(sha, loaded.clone());
    }
    Ok(loaded)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn house_rulesets_report_every_problem_with_its_line() {
        let e = load_ruleset(RulesetSource::House(
            "name = \"ours\"\nbase = \"code-of-laws\"\n[params]\nlimit = \"lots\"\nfoo = 1\n"
                .into(),
        ))
        .unwrap_err();
        let RulesError::HouseRuleset(problems) = e else {
            panic!("{e:?}")
        };
        let lines: Vec<usize> = problems.iter().map(|p| p.0).collect();
        assert_eq!(lines, vec![4, 5]);
        let ok = load_ruleset(RulesetSource::House(
            "name = \"club\"\ntitle = \"Club rules\"\nbase = \"code-of-laws\"\n[params]\nlimit = 500\n"
                .into(),
        ))
        .unwrap();
        assert_eq!(ok.limit, Some(500));
        assert_eq!(ok.content_sha256.len(), 64);
    }

    #[test]
    fn seven_built_in_rulesets() {
        assert_eq!(ruleset_names().len(), 7);
    }
}
