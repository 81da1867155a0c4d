//! Reading ruleset files, built-in and house, with every problem reported by line.
//!
//! The file is first parsed as TOML with spans (so a syntax error has a line), then walked
//! key by key against the schema. Walking by hand rather than through `serde` lets the loader
//! carry on after a bad value and report all of them, which is what a club secretary fixing
//! a house file needs.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::ops::Range;

use toml::de::{DeTable, DeValue};
use toml::Spanned;

use super::condition::{special_shape, Applies, Condition, Exposure, TileFilter};
use super::element::{Element, LimitShare, Value};
use super::params::{
    parse_only_place, BonusReplacement, DealPasses, FalseMahJonggScheme, Params, PenaltyParams,
    Reading, Readings, RoofOff, RotationParams, Rounding, SettlementMethod, SettlementParams,
};
use super::{RuleOption, Ruleset};

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

type Table<'i> = DeTable<'i>;
type Val<'i> = Spanned<DeValue<'i>>;

struct Loader<'t> {
    text: &'t str,
    problems: Vec<RulesetProblem>,
}

impl Loader<'_> {
    fn line(&self, span: Range<usize>) -> usize {
        let end = span.start.min(self.text.len());
        self.text[..end].bytes().filter(|&b| b == b'\n').count() + 1
    }

    fn problem(&mut self, span: Range<usize>, message: impl Into<String>) {
        let line = self.line(span);
        self.problems.push(RulesetProblem {
            line,
            message: message.into(),
        });
    }

    /// Reports keys of `table` not in `known`.
    fn check_keys(&mut self, table: &Table<'_>, known: &[&str], what: &str) {
        for key in table.keys() {
            if !known.contains(&key.get_ref().as_ref()) {
                self.problem(
                    key.span(),
                    format!(
                        "unknown key `{}` in {what} (expected one of: {})",
                        key.get_ref(),
                        known.join(", ")
                    ),
                );
            }
        }
    }

    fn string(&mut self, v: &Val<'_>, key: &str) -> Option<String> {
        match v.get_ref().as_str() {
            Some(s) => Some(s.to_owned()),
            None => {
                self.problem(
                    v.span(),
                    format!("`{key}` must be a string, not a {}", v.get_ref().type_str()),
                );
                None
            }
        }
    }

    fn boolean(&mut self, v: &Val<'_>, key: &str) -> Option<bool> {
        match v.get_ref().as_bool() {
            Some(b) => Some(b),
            None => {
                self.problem(
                    v.span(),
                    format!(
                        "`{key}` must be true or false, not a {}",
                        v.get_ref().type_str()
                    ),
                );
                None
            }
        }
    }

    fn uint(&mut self, v: &Val<'_>, key: &str, max: u64) -> Option<u64> {
        let parsed = v.get_ref().as_integer().and_then(|i| {
            let digits: String = i.as_str().chars().filter(|&c| c != '_').collect();
            let digits = digits
                .trim_start_matches("0x")
                .trim_start_matches("0o")
                .trim_start_matches("0b");
            i64::from_str_radix(digits, i.radix()).ok()
        });
        match parsed {
            Some(n) if (0..=max as i64).contains(&n) => Some(n as u64),
            Some(n) => {
                self.problem(
                    v.span(),
                    format!("`{key}` = {n} is out of range (0 to {max})"),
                );
                None
            }
            None => {
                self.problem(
                    v.span(),
                    format!(
                        "`{key}` must be a whole number, not a {}",
                        v.get_ref().type_str()
                    ),
                );
                None
            }
        }
    }

    /// A string from a fixed list, converted.
    fn choice<T>(
        &mut self,
        v: &Val<'_>,
        key: &str,
        choices: &[&str],
        parse: impl Fn(&str) -> Option<T>,
    ) -> Option<T> {
        let s = self.string(v, key)?;
        match parse(&s) {
            Some(t) => Some(t),
            None => {
                self.problem(
                    v.span(),
                    format!("`{key}` = \"{s}\" is not one of: {}", choices.join(", ")),
                );
                None
            }
        }
    }

    /// A string naming a serde kebab-case enum variant.
    fn variant<T: serde::de::DeserializeOwned>(&mut self, v: &Val<'_>, key: &str) -> Option<T> {
        let s = self.string(v, key)?;
        match serde_json::from_value::<T>(serde_json::Value::String(s.clone())) {
            Ok(t) => Some(t),
            Err(_) => {
                self.problem(v.span(), format!("`{key}` = \"{s}\" is not known"));
                None
            }
        }
    }

    fn table<'a, 'i>(&mut self, v: &'a Val<'i>, key: &str) -> Option<&'a Table<'i>> {
        match v.get_ref().as_table() {
            Some(t) => Some(t),
            None => {
                self.problem(
                    v.span(),
                    format!("`{key}` must be a table, not a {}", v.get_ref().type_str()),
                );
                None
            }
        }
    }

    fn string_list(&mut self, v: &Val<'_>, key: &str) -> Option<Vec<String>> {
        let Some(arr) = v.get_ref().as_array() else {
            self.problem(v.span(), format!("`{key}` must be a list of strings"));
            return None;
        };
        let mut out = Vec::new();
        for item in arr.iter() {
            out.push(self.string(item, key)?);
        }
        Some(out)
    }
}

fn get<'a, 'i>(t: &'a Table<'i>, key: &str) -> Option<&'a Val<'i>> {
    t.iter().find(|(k, _)| k.get_ref() == key).map(|(_, v)| v)
}

pub(super) fn parse(text: &str) -> Result<Ruleset, RulesetError> {
    let doc = match DeTable::parse(text) {
        Ok(doc) => doc,
        Err(e) => {
            let line = e
                .span()
                .map(|s| text[..s.start.min(text.len())].matches('\n').count() + 1)
                .unwrap_or(1);
            let message = e.message().trim().to_owned();
            return Err(RulesetError {
                problems: vec![RulesetProblem {
                    line,
                    message: format!("not valid TOML: {message}"),
                }],
            });
        }
    };
    let mut l = Loader {
        text,
        problems: Vec::new(),
    };
    let ruleset = load(&mut l, doc.get_ref());
    if l.problems.is_empty() {
        if let Some(r) = ruleset {
            return Ok(r);
        }
    }
    let mut problems = l.problems;
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

const TOP_KEYS: [&str; 11] = [
    "name",
    "title",
    "source",
    "base",
    "params",
    "settlement",
    "penalties",
    "rotation",
    "readings",
    "options",
    "element",
];

fn load(l: &mut Loader<'_>, doc: &Table<'_>) -> Option<Ruleset> {
    l.check_keys(doc, &TOP_KEYS, "the ruleset");
    let name = match get(doc, "name") {
        Some(v) => {
            let name = l.string(v, "name");
            if let Some(n) = &name {
                let ok = !n.is_empty()
                    && n.chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
                if !ok {
                    l.problem(
                        v.span(),
                        format!("`name` = \"{n}\" must be kebab-case: lower-case letters, digits and hyphens"),
                    );
                }
            }
            name
        }
        None => {
            l.problem(0..0, "the ruleset has no `name`");
            None
        }
    };
    let base_name = get(doc, "base").and_then(|v| {
        let b = l.string(v, "base")?;
        if super::BUILTIN.iter().any(|(n, _)| *n == b) {
            Some(b)
        } else {
            let names: Vec<&str> = super::BUILTIN.iter().map(|(n, _)| *n).collect();
            l.problem(
                v.span(),
                format!(
                    "`base` = \"{b}\" is not a built-in ruleset (built-ins: {})",
                    names.join(", ")
                ),
            );
            None
        }
    });
    let base = match (&base_name, get(doc, "base")) {
        (Some(b), _) => Ruleset::builtin(b),
        (None, Some(_)) => return None,
        (None, None) => None,
    };
    if let (Some(n), Some(v)) = (&name, get(doc, "base")) {
        if super::BUILTIN.iter().any(|(b, _)| b == n) {
            l.problem(
                v.span(),
                format!(
                    "a house ruleset may not take the built-in name `{n}`; name it after the club"
                ),
            );
        }
    }
    let title = get(doc, "title").and_then(|v| l.string(v, "title"));
    let source = get(doc, "source").and_then(|v| l.string(v, "source"));

    let params = load_params(l, get(doc, "params"), base.as_ref().map(|b| &b.params));
    let settlement = load_settlement(
        l,
        get(doc, "settlement"),
        base.as_ref().map(|b| &b.settlement),
    );
    let penalties = load_penalties(
        l,
        get(doc, "penalties"),
        base.as_ref().map(|b| &b.penalties),
    );
    let rotation = load_rotation(l, get(doc, "rotation"), base.as_ref().map(|b| &b.rotation));
    let readings = load_readings(l, get(doc, "readings"), base.as_ref().map(|b| &b.readings));
    let (options, enabled) = load_options(l, get(doc, "options"), base.as_ref());
    let elements = load_elements(
        l,
        get(doc, "element"),
        base.as_ref().map(|b| b.elements.as_slice()),
        &options,
    );

    let title = title.or_else(|| base.as_ref().map(|b| format!("{} (house)", b.title)));
    let source = source.or_else(|| base.as_ref().map(|b| b.source.clone()));
    if title.is_none() {
        l.problem(0..0, "the ruleset has no `title`");
    }
    if source.is_none() {
        l.problem(0..0, "the ruleset has no `source`");
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
        enabled_options: enabled,
        elements: elements?,
    })
}

/// Reads `key` from `table` with `read`, falling back to the base's value; reports a missing
/// key when there is no base.
macro_rules! field {
    ($l:expr, $t:expr, $base:expr, $key:literal, $field:ident, $read:expr) => {{
        match $t.and_then(|t| get(t, $key)) {
            Some(v) => $read($l, v),
            None => match $base {
                Some(b) => Some(b.$field.clone()),
                None => {
                    $l.problem($t.map_or(0..0, |_| 0..0), concat!("missing `", $key, "`"));
                    None
                }
            },
        }
    }};
}

fn section<'a, 'i>(l: &mut Loader<'_>, v: Option<&'a Val<'i>>, key: &str) -> Option<&'a Table<'i>> {
    v.and_then(|v| l.table(v, key))
}

fn load_params(l: &mut Loader<'_>, v: Option<&Val<'_>>, base: Option<&Params>) -> Option<Params> {
    let t = section(l, v, "params");
    if let Some(t) = t {
        l.check_keys(
            t,
            &[
                "limit",
                "notional_limit",
                "bonus_tiles",
                "bonus_copies",
                "max_chows",
                "only_place",
                "annexed_kong_scores_concealed",
                "annexed_kong_concealed_for_doubles",
                "dead_wall",
            ],
            "[params]",
        );
    }
    let limit = field!(
        l,
        t,
        base,
        "limit",
        limit,
        |l: &mut Loader<'_>, v: &Val<'_>| {
            if v.get_ref().as_str() == Some("none") {
                Some(None)
            } else if v.get_ref().is_str() {
                l.problem(
                    v.span(),
                    "`limit` must be a number, or \"none\" for a game with the roof off",
                );
                None
            } else {
                l.uint(v, "limit", 1_000_000_000).map(Some)
            }
        }
    );
    let notional = field!(
        l,
        t,
        base,
        "notional_limit",
        notional_limit,
        |l: &mut Loader<'_>, v| l.uint(v, "notional_limit", 1_000_000_000)
    );
    let bonus_tiles = field!(
        l,
        t,
        base,
        "bonus_tiles",
        bonus_tiles,
        |l: &mut Loader<'_>, v| l.boolean(v, "bonus_tiles")
    );
    let bonus_copies = field!(
        l,
        t,
        base,
        "bonus_copies",
        bonus_copies,
        |l: &mut Loader<'_>, v: &Val<'_>| {
            let n = l.uint(v, "bonus_copies", 2)?;
            if n == 0 {
                l.problem(v.span(), "`bonus_copies` must be 1 or 2");
                return None;
            }
            Some(n as u8)
        }
    );
    let max_chows = field!(
        l,
        t,
        base,
        "max_chows",
        max_chows,
        |l: &mut Loader<'_>, v| l.uint(v, "max_chows", 4).map(|n| n as u8)
    );
    let only_place = field!(
        l,
        t,
        base,
        "only_place",
        only_place,
        |l: &mut Loader<'_>, v| l.choice(
            v,
            "only_place",
            &["code-of-laws", "babcock-standard", "chinese-game"],
            parse_only_place
        )
    );
    let annexed = field!(
        l,
        t,
        base,
        "annexed_kong_scores_concealed",
        annexed_kong_scores_concealed,
        |l: &mut Loader<'_>, v| l.boolean(v, "annexed_kong_scores_concealed")
    );
    let annexed_d = field!(
        l,
        t,
        base,
        "annexed_kong_concealed_for_doubles",
        annexed_kong_concealed_for_doubles,
        |l: &mut Loader<'_>, v| l.boolean(v, "annexed_kong_concealed_for_doubles")
    );
    let dead_wall = field!(
        l,
        t,
        base,
        "dead_wall",
        dead_wall,
        |l: &mut Loader<'_>, v| l.uint(v, "dead_wall", 40).map(|n| n as u8)
    );
    Some(Params {
        limit: limit?,
        notional_limit: notional?,
        bonus_tiles: bonus_tiles?,
        bonus_copies: bonus_copies?,
        max_chows: max_chows?,
        only_place: only_place?,
        annexed_kong_scores_concealed: annexed?,
        annexed_kong_concealed_for_doubles: annexed_d?,
        dead_wall: dead_wall?,
    })
}

fn load_settlement(
    l: &mut Loader<'_>,
    v: Option<&Val<'_>>,
    base: Option<&SettlementParams>,
) -> Option<SettlementParams> {
    let t = section(l, v, "settlement");
    if let Some(t) = t {
        l.check_keys(
            t,
            &[
                "method",
                "losers_settle",
                "limit_hand_cancels_losers",
                "rounding",
                "dreamer_payment",
                "dreamer_limit_doubles",
            ],
            "[settlement]",
        );
    }
    let method = field!(l, t, base, "method", method, |l: &mut Loader<'_>, v| l
        .choice(v, "method", &["classic", "new-method"], |s| match s {
            "classic" => Some(SettlementMethod::Classic),
            "new-method" => Some(SettlementMethod::NewMethod),
            _ => None,
        }));
    let losers = field!(
        l,
        t,
        base,
        "losers_settle",
        losers_settle,
        |l: &mut Loader<'_>, v| l.boolean(v, "losers_settle")
    );
    let cancels = field!(
        l,
        t,
        base,
        "limit_hand_cancels_losers",
        limit_hand_cancels_losers,
        |l: &mut Loader<'_>, v| l.boolean(v, "limit_hand_cancels_losers")
    );
    let rounding = field!(l, t, base, "rounding", rounding, |l: &mut Loader<'_>, v| l
        .choice(v, "rounding", &["exact", "nearest-ten"], |s| match s {
            "exact" => Some(Rounding::Exact),
            "nearest-ten" => Some(Rounding::NearestTen),
            _ => None,
        }));
    let dreamer = field!(
        l,
        t,
        base,
        "dreamer_payment",
        dreamer_payment,
        |l: &mut Loader<'_>, v| l.boolean(v, "dreamer_payment")
    );
    let dreamer_doubles = field!(
        l,
        t,
        base,
        "dreamer_limit_doubles",
        dreamer_limit_doubles,
        |l: &mut Loader<'_>, v| l.uint(v, "dreamer_limit_doubles", 20).map(|n| n as u32)
    );
    Some(SettlementParams {
        method: method?,
        losers_settle: losers?,
        limit_hand_cancels_losers: cancels?,
        rounding: rounding?,
        dreamer_payment: dreamer?,
        dreamer_limit_doubles: dreamer_doubles?,
    })
}

fn load_rotation(
    l: &mut Loader<'_>,
    v: Option<&Val<'_>>,
    base: Option<&RotationParams>,
) -> Option<RotationParams> {
    let t = section(l, v, "rotation");
    if let Some(t) = t {
        l.check_keys(
            t,
            &[
                "deal_passes",
                "east_keeps_on_wash_out",
                "rounds_per_game",
                "east_gives_up_after",
                "cite",
            ],
            "[rotation]",
        );
    }
    let passes = field!(
        l,
        t,
        base,
        "deal_passes",
        deal_passes,
        |l: &mut Loader<'_>, v| l.choice(v, "deal_passes", &["right", "to-winner"], |s| match s {
            "right" => Some(DealPasses::Right),
            "to-winner" => Some(DealPasses::ToWinner),
            _ => None,
        })
    );
    let wash_out = field!(
        l,
        t,
        base,
        "east_keeps_on_wash_out",
        east_keeps_on_wash_out,
        |l: &mut Loader<'_>, v| l.boolean(v, "east_keeps_on_wash_out")
    );
    let rounds = field!(
        l,
        t,
        base,
        "rounds_per_game",
        rounds_per_game,
        |l: &mut Loader<'_>, v| {
            let n = l.uint(v, "rounds_per_game", 4)?;
            if n == 0 {
                l.problem(v.span(), "`rounds_per_game` must be 1 to 4");
                return None;
            }
            Some(n as u8)
        }
    );
    let gives_up = field!(
        l,
        t,
        base,
        "east_gives_up_after",
        east_gives_up_after,
        |l: &mut Loader<'_>, v| l.uint(v, "east_gives_up_after", 1000).map(|n| n as u32)
    );
    let cite = field!(l, t, base, "cite", cite, |l: &mut Loader<'_>, v| l
        .string(v, "cite"));
    Some(RotationParams {
        deal_passes: passes?,
        east_keeps_on_wash_out: wash_out?,
        rounds_per_game: rounds?,
        east_gives_up_after: gives_up?,
        cite: cite?,
    })
}

fn load_penalties(
    l: &mut Loader<'_>,
    v: Option<&Val<'_>>,
    base: Option<&PenaltyParams>,
) -> Option<PenaltyParams> {
    let t = section(l, v, "penalties");
    const AMOUNTS: [&str; 8] = [
        "false_mahjong_amount",
        "false_mahjong_two",
        "false_mahjong_three",
        "false_naming_chow",
        "false_naming_pung",
        "false_naming_mahjong",
        "false_naming_false_mahjong",
        "new_deal_heads",
    ];
    if let Some(t) = t {
        let mut known = vec![
            "false_mahjong",
            "false_mahjong_east_double",
            "cite",
            "new_deal_payments",
        ];
        known.extend(AMOUNTS);
        l.check_keys(t, &known, "[penalties]");
    }
    let scheme = field!(
        l,
        t,
        base,
        "false_mahjong",
        false_mahjong,
        |l: &mut Loader<'_>, v| l.choice(
            v,
            "false_mahjong",
            &["none", "fixed", "limit-share"],
            |s| match s {
                "none" => Some(FalseMahJonggScheme::None),
                "fixed" => Some(FalseMahJonggScheme::Fixed),
                "limit-share" => Some(FalseMahJonggScheme::LimitShare),
                _ => None,
            }
        )
    );
    let east_double = field!(
        l,
        t,
        base,
        "false_mahjong_east_double",
        false_mahjong_east_double,
        |l: &mut Loader<'_>, v| l.boolean(v, "false_mahjong_east_double")
    );
    let cite = field!(l, t, base, "cite", cite, |l: &mut Loader<'_>, v| l
        .string(v, "cite"));
    let amount = |l: &mut Loader<'_>, key: &'static str, from_base: Option<u64>| -> Option<u64> {
        match t.and_then(|t| get(t, key)) {
            Some(v) => l.uint(v, key, 1_000_000_000),
            None => match from_base {
                Some(x) => Some(x),
                None => {
                    l.problem(0..0, format!("missing `{key}` in [penalties]"));
                    None
                }
            },
        }
    };
    let b = |f: fn(&PenaltyParams) -> u64| base.map(f);
    Some(PenaltyParams {
        false_mahjong: scheme?,
        false_mahjong_amount: amount(l, AMOUNTS[0], b(|p| p.false_mahjong_amount))?,
        false_mahjong_two: amount(l, AMOUNTS[1], b(|p| p.false_mahjong_two))?,
        false_mahjong_three: amount(l, AMOUNTS[2], b(|p| p.false_mahjong_three))?,
        false_mahjong_east_double: east_double?,
        false_naming_chow: amount(l, AMOUNTS[3], b(|p| p.false_naming_chow))?,
        false_naming_pung: amount(l, AMOUNTS[4], b(|p| p.false_naming_pung))?,
        false_naming_mahjong: amount(l, AMOUNTS[5], b(|p| p.false_naming_mahjong))?,
        false_naming_false_mahjong: amount(l, AMOUNTS[6], b(|p| p.false_naming_false_mahjong))?,
        new_deal_heads: amount(l, AMOUNTS[7], b(|p| p.new_deal_heads))?,
        new_deal_payments: field!(
            l,
            t,
            base,
            "new_deal_payments",
            new_deal_payments,
            |l: &mut Loader<'_>, v: &Val<'_>| {
                let arr = v.get_ref().as_array();
                let Some(arr) = arr else {
                    l.problem(v.span(), "`new_deal_payments` must be a list of amounts");
                    return None;
                };
                let mut out = Vec::new();
                for item in arr.iter() {
                    out.push(l.uint(item, "new_deal_payments", 1_000_000_000)?);
                }
                Some(out)
            }
        )?,
        cite: cite?,
    })
}

/// One reading: `key = { value = V, cite = "..." }`, or in a house ruleset `key = V` (cited as
/// the house's own rule).
fn reading<T: Clone>(
    l: &mut Loader<'_>,
    t: Option<&Table<'_>>,
    key: &str,
    base: Option<&Reading<T>>,
    read: impl Fn(&mut Loader<'_>, &Val<'_>) -> Option<T>,
) -> Option<Reading<T>> {
    let Some(v) = t.and_then(|t| get(t, key)) else {
        return match base {
            Some(b) => Some(b.clone()),
            None => {
                l.problem(0..0, format!("missing `{key}` in [readings]"));
                None
            }
        };
    };
    match v.get_ref().as_table() {
        Some(rt) => {
            l.check_keys(rt, &["value", "cite"], &format!("reading `{key}`"));
            let value = match get(rt, "value") {
                Some(x) => read(l, x),
                None => {
                    l.problem(v.span(), format!("reading `{key}` needs a `value`"));
                    None
                }
            };
            let cite = match get(rt, "cite") {
                Some(c) => l.string(c, "cite"),
                None => {
                    l.problem(v.span(), format!("reading `{key}` needs a `cite`"));
                    None
                }
            };
            Some(Reading {
                value: value?,
                cite: cite?,
            })
        }
        None if base.is_some() => Some(Reading {
            value: read(l, v)?,
            cite: "house ruleset".into(),
        }),
        None => {
            l.problem(
                v.span(),
                format!(
                    "reading `{key}` in a built-in ruleset is `{{ value = ..., cite = \"...\" }}`"
                ),
            );
            None
        }
    }
}

fn load_readings(
    l: &mut Loader<'_>,
    v: Option<&Val<'_>>,
    base: Option<&Readings>,
) -> Option<Readings> {
    let t = section(l, v, "readings");
    if let Some(t) = t {
        l.check_keys(
            t,
            &[
                "only_place_counts_own_tiles",
                "roof_off_limit_hand",
                "bonus_replacement",
                "calling_special",
            ],
            "[readings]",
        );
    }
    let own = reading(
        l,
        t,
        "only_place_counts_own_tiles",
        base.map(|b| &b.only_place_counts_own_tiles),
        |l, v| l.boolean(v, "only_place_counts_own_tiles"),
    );
    let roof = reading(
        l,
        t,
        "roof_off_limit_hand",
        base.map(|b| &b.roof_off_limit_hand),
        |l, v| {
            l.choice(
                v,
                "roof_off_limit_hand",
                &["higher", "notional"],
                |s| match s {
                    "higher" => Some(RoofOff::Higher),
                    "notional" => Some(RoofOff::Notional),
                    _ => None,
                },
            )
        },
    );
    let bonus = reading(
        l,
        t,
        "bonus_replacement",
        base.map(|b| &b.bonus_replacement),
        |l, v| {
            l.choice(
                v,
                "bonus_replacement",
                &["live-wall", "loose-tile"],
                |s| match s {
                    "live-wall" => Some(BonusReplacement::LiveWall),
                    "loose-tile" => Some(BonusReplacement::LooseTile),
                    _ => None,
                },
            )
        },
    );
    let calling = reading(
        l,
        t,
        "calling_special",
        base.map(|b| &b.calling_special),
        |l, v| {
            let share = match v.get_ref() {
                DeValue::String(s) if s.as_ref() == "none" => return Some(None),
                DeValue::Float(x) => x
                    .as_str()
                    .parse::<f64>()
                    .ok()
                    .and_then(LimitShare::from_decimal),
                DeValue::String(s) => s.parse().ok(),
                _ => None,
            };
            if share.is_none() {
                l.problem(v.span(), "`calling_special` is \"none\", or the share of the special hand's award a calling hand scores: \"full\", \"half\", \"third\", a fraction such as \"2/5\", or a decimal such as 0.4");
            }
            share.map(Some)
        },
    );
    Some(Readings {
        only_place_counts_own_tiles: own?,
        roof_off_limit_hand: roof?,
        bonus_replacement: bonus?,
        calling_special: calling?,
    })
}

/// `[options]`: in a built-in, `name = { description, cite, default }`; in a house file,
/// `name = true | false` to switch a base option, or a full table to add one.
fn load_options(
    l: &mut Loader<'_>,
    v: Option<&Val<'_>>,
    base: Option<&Ruleset>,
) -> (BTreeMap<String, RuleOption>, Vec<String>) {
    let mut options = base.map(|b| b.options.clone()).unwrap_or_default();
    let mut enabled: BTreeSet<String> = base
        .map(|b| b.enabled_options.iter().cloned().collect())
        .unwrap_or_default();
    let Some(t) = section(l, v, "options") else {
        return (options, enabled.into_iter().collect());
    };
    for (k, v) in t.iter() {
        let name = k.get_ref().to_string();
        if let Some(on) = v.get_ref().as_bool() {
            if options.contains_key(&name) {
                if on {
                    enabled.insert(name);
                } else {
                    enabled.remove(&name);
                }
            } else {
                l.problem(
                    k.span(),
                    format!(
                        "option `{name}` is not an option of the base ruleset (its options: {})",
                        options.keys().cloned().collect::<Vec<_>>().join(", ")
                    ),
                );
            }
            continue;
        }
        let Some(ot) = l.table(v, &name) else {
            continue;
        };
        l.check_keys(
            ot,
            &["description", "cite", "default"],
            &format!("option `{name}`"),
        );
        let description = get(ot, "description").and_then(|v| l.string(v, "description"));
        let cite = get(ot, "cite").and_then(|v| l.string(v, "cite"));
        let default = get(ot, "default").and_then(|v| l.boolean(v, "default"));
        if description.is_none() || cite.is_none() {
            l.problem(
                v.span(),
                format!("option `{name}` needs a `description` and a `cite`"),
            );
            continue;
        }
        let default = default.unwrap_or(false);
        if default {
            enabled.insert(name.clone());
        }
        options.insert(
            name,
            RuleOption {
                description: description.unwrap_or_default(),
                cite: cite.unwrap_or_default(),
                default,
            },
        );
    }
    (options, enabled.into_iter().collect())
}

const ELEMENT_KEYS: [&str; 17] = [
    "id",
    "unlimited_doubles",
    "name",
    "when",
    "tiles",
    "exposure",
    "shape",
    "at_least",
    "except",
    "points",
    "doubles",
    "limit",
    "applies",
    "cite",
    "interpretation",
    "option",
    "excludes",
];

fn load_elements(
    l: &mut Loader<'_>,
    v: Option<&Val<'_>>,
    base: Option<&[Element]>,
    options: &BTreeMap<String, RuleOption>,
) -> Option<Vec<Element>> {
    let mut elements: Vec<Element> = base.map(<[Element]>::to_vec).unwrap_or_default();
    let mut spans: BTreeMap<String, Range<usize>> = BTreeMap::new();
    let Some(v) = v else {
        if base.is_none() {
            l.problem(0..0, "the ruleset has no `[[element]]` entries");
        }
        return Some(elements);
    };
    let Some(arr) = v.get_ref().as_array() else {
        l.problem(
            v.span(),
            "`element` must be an array of tables: write `[[element]]`",
        );
        return None;
    };
    let mut ok = true;
    let mut seen = BTreeSet::new();
    for item in arr.iter() {
        let Some(t) = l.table(item, "element") else {
            ok = false;
            continue;
        };
        let mut keys: Vec<&str> = ELEMENT_KEYS.to_vec();
        keys.push("enabled");
        l.check_keys(t, &keys, "an [[element]]");
        let Some(id) = get(t, "id").and_then(|v| l.string(v, "id")) else {
            l.problem(item.span(), "an [[element]] has no `id`");
            ok = false;
            continue;
        };
        if !seen.insert(id.clone()) {
            l.problem(item.span(), format!("element `{id}` is given twice"));
            ok = false;
            continue;
        }
        spans.insert(id.clone(), item.span());
        let existing = elements.iter().position(|e| e.id == id);
        match read_element(l, t, &id, existing.map(|i| &elements[i])) {
            Some(e) => match existing {
                Some(i) => elements[i] = e,
                None => elements.push(e),
            },
            None => ok = false,
        }
    }
    // Cross-references: ids named by `excludes` and `except`, options named by `option`.
    let ids: BTreeSet<String> = elements.iter().map(|e| e.id.clone()).collect();
    for e in &elements {
        let span = spans.get(&e.id).cloned().unwrap_or(0..0);
        for r in e.excludes.iter().chain(&e.except) {
            if !ids.contains(r) {
                l.problem(
                    span.clone(),
                    format!("element `{}` refers to unknown element `{r}`", e.id),
                );
                ok = false;
            }
        }
        if let Some(o) = &e.option {
            if !options.contains_key(o) {
                l.problem(
                    span.clone(),
                    format!(
                        "element `{}` names option `{o}`, which is not in [options]",
                        e.id
                    ),
                );
                ok = false;
            }
        }
    }
    ok.then_some(elements)
}

fn read_element(
    l: &mut Loader<'_>,
    t: &Table<'_>,
    id: &str,
    base: Option<&Element>,
) -> Option<Element> {
    let before = l.problems.len();
    let here = get(t, "id").map_or(0..0, |v| v.span());
    let when: Option<(Condition, Vec<Condition>)> = match get(t, "when") {
        Some(v) if v.get_ref().is_array() => {
            let mut all = Vec::new();
            for item in v.get_ref().as_array().into_iter().flat_map(|a| a.iter()) {
                all.push(l.variant::<Condition>(item, "when"));
            }
            let all: Option<Vec<Condition>> = all.into_iter().collect();
            match all.as_deref() {
                Some([first, rest @ ..]) => {
                    if let Some(c) = rest.iter().find(|c| c.is_per_set()) {
                        l.problem(
                            v.span(),
                            format!(
                                "`{c}` counts sets, so it can only come first in a `when` list"
                            ),
                        );
                    }
                    Some((*first, rest.to_vec()))
                }
                Some([]) => {
                    l.problem(v.span(), "`when` is an empty list");
                    None
                }
                None => None,
            }
        }
        Some(v) => l.variant(v, "when").map(|c| (c, Vec::new())),
        None => base.map(|b| (b.condition, b.also.clone())),
    };
    let (condition, also) = match when {
        Some((c, a)) => (Some(c), a),
        None => (None, Vec::new()),
    };
    let Some(condition) = condition else {
        if get(t, "when").is_none() {
            l.problem(
                here,
                format!(
                    "element `{id}` is new, so it needs `when` (a condition), a value and `cite`"
                ),
            );
        }
        return None;
    };
    let name = match get(t, "name") {
        Some(v) => l.string(v, "name"),
        None => base
            .map(|b| b.name.clone())
            .or_else(|| Some(id.replace('-', " "))),
    };
    let tiles = match get(t, "tiles") {
        Some(v) => l.variant::<TileFilter>(v, "tiles"),
        None => Some(base.map(|b| b.tiles).unwrap_or_default()),
    };
    let exposure = match get(t, "exposure") {
        Some(v) => l.variant::<Exposure>(v, "exposure"),
        None => Some(base.map(|b| b.exposure).unwrap_or_default()),
    };
    let shape = match get(t, "shape") {
        Some(v) => {
            let s = l.string(v, "shape")?;
            match special_shape(&s) {
                Some(sh) => Some(Some(sh)),
                None => {
                    l.problem(
                        v.span(),
                        format!("`shape` = \"{s}\" is not a special shape"),
                    );
                    None
                }
            }
        }
        None => Some(base.and_then(|b| b.shape)),
    };
    let at_least = match get(t, "at_least") {
        Some(v) => l.uint(v, "at_least", 100).map(|n| n as u32),
        None => Some(base.map_or(0, |b| b.at_least)),
    };
    let except = match get(t, "except") {
        Some(v) => l.string_list(v, "except"),
        None => Some(base.map(|b| b.except.clone()).unwrap_or_default()),
    };
    let excludes = match get(t, "excludes") {
        Some(v) => l.string_list(v, "excludes"),
        None => Some(base.map(|b| b.excludes.clone()).unwrap_or_default()),
    };
    let given: Vec<(&str, &Val<'_>)> = ["points", "doubles", "limit"]
        .into_iter()
        .filter_map(|k| get(t, k).map(|v| (k, v)))
        .collect();
    let value = match given.as_slice() {
        [] => match base {
            Some(b) => Some(b.value),
            None => {
                l.problem(
                    here.clone(),
                    format!("element `{id}` needs one of `points`, `doubles` or `limit`"),
                );
                None
            }
        },
        [("points", v)] => l
            .uint(v, "points", 100_000)
            .map(|n| Value::Points(n as u32)),
        [("doubles", v)] => l.uint(v, "doubles", 20).map(|n| Value::Doubles(n as u32)),
        [(_, v)] => {
            let share = match v.get_ref() {
                DeValue::Float(x) => x
                    .as_str()
                    .parse::<f64>()
                    .ok()
                    .and_then(LimitShare::from_decimal),
                DeValue::String(s) => s.parse().ok(),
                _ => None,
            };
            if share.is_none() {
                l.problem(v.span(), format!("`limit` = {} is not a share of the limit: write \"full\", \"half\", \"third\", a fraction such as \"2/5\", or a decimal such as 0.4 (more than 0, at most 1)", v.get_ref().type_str()));
            }
            share.map(Value::Limit)
        }
        [_, (k, v), ..] => {
            l.problem(
                v.span(),
                format!("element `{id}` gives more than one value (`{k}` as well); give one of `points`, `doubles`, `limit`"),
            );
            None
        }
    };
    let needs_mahjong = condition.needs_mahjong() || also.iter().any(|c| c.needs_mahjong());
    let unlimited_doubles = match get(t, "unlimited_doubles") {
        Some(v) => {
            if !matches!(value, Some(Value::Limit(_))) {
                l.problem(
                    v.span(),
                    "`unlimited_doubles` is for limit hands (`limit = ...`)",
                );
            }
            l.uint(v, "unlimited_doubles", 20).map(|n| Some(n as u32))
        }
        None => Some(base.and_then(|b| b.unlimited_doubles)),
    };
    let applies = match get(t, "applies") {
        Some(v) => l.variant::<Applies>(v, "applies"),
        None => Some(base.map_or(
            if needs_mahjong {
                Applies::Winner
            } else {
                Applies::AllHands
            },
            |b| b.applies,
        )),
    };
    let cite = match get(t, "cite") {
        Some(v) => l.string(v, "cite"),
        None => match base {
            Some(b) => Some(b.cite.clone()),
            None => {
                l.problem(here.clone(), format!("element `{id}` needs a `cite`"));
                None
            }
        },
    };
    let interpretation = match get(t, "interpretation") {
        Some(v) => l.string(v, "interpretation").map(Some),
        None => Some(base.and_then(|b| b.interpretation.clone())),
    };
    let option = match get(t, "option") {
        Some(v) => l.string(v, "option").map(Some),
        None => Some(base.and_then(|b| b.option.clone())),
    };
    let enabled = match get(t, "enabled") {
        Some(v) => l.boolean(v, "enabled"),
        None => Some(base.is_none_or(|b| b.enabled)),
    };
    // Filters only make sense on some conditions.
    if let (Some(tiles), Some(v)) = (tiles, get(t, "tiles")) {
        if tiles != TileFilter::Any
            && !condition.is_per_set()
            && condition != Condition::FishingEyes
        {
            l.problem(v.span(), format!("`tiles` does not apply to `{condition}`"));
        }
    }
    if condition == Condition::Special && shape.flatten().is_none() && shape.is_some() {
        l.problem(
            here.clone(),
            format!("element `{id}` (when = \"special\") needs a `shape`"),
        );
    }
    if condition == Condition::EastConsecutiveWins && at_least == Some(0) {
        l.problem(here.clone(), format!("element `{id}` needs `at_least`"));
    }
    if let (Some(Applies::AllHands), true) = (applies, needs_mahjong) {
        l.problem(
            here,
            format!(
                "`{condition}` can only be met by a Mah-Jongg hand; `applies` must be \"winner\""
            ),
        );
    }
    if l.problems.len() > before {
        return None;
    }
    Some(Element {
        id: id.to_owned(),
        name: name?,
        condition,
        also,
        tiles: tiles?,
        exposure: exposure?,
        shape: shape?,
        at_least: at_least?,
        except: except?,
        value: value?,
        unlimited_doubles: unlimited_doubles?,
        applies: applies?,
        cite: cite?,
        interpretation: interpretation?,
        option: option?,
        excludes: excludes?,
        enabled: enabled?,
    })
}
