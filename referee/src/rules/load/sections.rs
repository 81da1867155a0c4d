//! Checking the tables of parameters, the readings and the options: each key is read on its
//! own, falling back to the base ruleset's value when a house file does not give it. A closed
//! choice (`method`, `kong_robbing`, …) is read by [`Report::choice`] from its vocabulary's
//! one declaration (`crate::vocab::Choice`), never from a list of its own here.

use std::collections::{BTreeMap, BTreeSet};

use toml::Spanned;

use super::raw::{
    keys_of, Entry, Map, RawOption, RawParams, RawPenalties, RawReading, RawReadings, RawRotation,
    RawSettlement, RawValue, Span,
};
use super::report::{suggestion, Report, MAX_AMOUNT, SHARE_FORMS};
use crate::rules::element::LimitShare;
use crate::rules::params::{
    Params, PenaltyParams, Reading, Readings, RotationParams, SettlementParams,
};
use crate::rules::{RuleOption, Ruleset};

/// Where a section's values come from when the file does not give them: the base ruleset's,
/// or none (and a missing key is a problem when the file is a complete, built-in one).
pub(super) struct Fallback<'a, B> {
    pub base: Option<&'a B>,
    pub required: bool,
    pub section: &'static str,
    /// The section's header, where a missing key is reported.
    pub at: Span,
}

impl<'a, B> Fallback<'a, B> {
    pub(super) fn new(base: Option<&'a B>, required: bool, section: &'static str) -> Self {
        Fallback {
            base,
            required,
            section,
            at: 0..0,
        }
    }

    /// `v` read by `read`, or the base's value, or (reported) nothing.
    pub(super) fn take<'t, T>(
        &self,
        r: &mut Report<'t>,
        key: &str,
        v: Option<&Spanned<RawValue>>,
        from_base: impl FnOnce(&B) -> T,
        read: impl FnOnce(&mut Report<'t>, &str, &Spanned<RawValue>) -> Option<T>,
    ) -> Option<T> {
        match (v, self.base) {
            (Some(v), _) => read(r, key, v),
            (None, Some(b)) => Some(from_base(b)),
            (None, None) => {
                if self.required {
                    r.at(&self.at, format!("missing `{key}` in {}", self.section));
                }
                None
            }
        }
    }
}

/// `take!(fallback, report, raw, key, read)`: the key of the raw section (an `Option<&Raw…>`)
/// that has the same name as the checked struct's field.
macro_rules! take {
    ($fb:expr, $r:expr, $raw:expr, $key:ident, $read:expr) => {
        $fb.take(
            $r,
            stringify!($key),
            $raw.and_then(|t| t.$key.as_ref()),
            |b| b.$key.clone(),
            $read,
        )
    };
}

/// A section's fields, its unknown keys reported; `None` (reported) when it is not a table.
fn section<'a, T: serde::de::DeserializeOwned, B>(
    r: &mut Report<'_>,
    v: Option<&'a Spanned<Entry<T>>>,
    fb: &mut Fallback<'_, B>,
) -> Option<&'a T> {
    let v = v?;
    fb.at = v.span();
    match v.get_ref() {
        Entry::Table { keys, fields } => {
            r.unknown_keys(keys, keys_of::<T>(), fb.section);
            Some(fields)
        }
        Entry::Other(raw) => {
            let name = fb.section.trim_matches(['[', ']']);
            r.at(
                &v.span(),
                format!(
                    "`{name}` must be a table (a `{}` header and its keys), not {}",
                    fb.section,
                    raw.describe()
                ),
            );
            // Nothing given here: the base's values stand, and no key is reported missing.
            fb.required = false;
            None
        }
    }
}

fn amount(r: &mut Report<'_>, key: &str, v: &Spanned<RawValue>) -> Option<u64> {
    r.uint(key, v, MAX_AMOUNT)
}

pub(super) fn params(
    r: &mut Report<'_>,
    v: Option<&Spanned<Entry<RawParams>>>,
    mut fb: Fallback<'_, Params>,
) -> Option<Params> {
    let t = section(r, v, &mut fb);
    let limit = take!(
        fb,
        r,
        t,
        limit,
        |r: &mut Report<'_>, k: &str, v: &Spanned<RawValue>| {
            match v.get_ref() {
                RawValue::String(s) if s == "none" => Some(None),
                RawValue::Integer(_) | RawValue::Unreadable(_) => amount(r, k, v).map(Some),
                _ => {
                    r.wrong(
                    k,
                    v,
                    &format!("a whole number of points from 0 to {MAX_AMOUNT}, or \"none\" for a game with the roof off"),
                );
                    None
                }
            }
        }
    );
    let notional_limit = take!(fb, r, t, notional_limit, amount);
    let bonus_tiles = take!(fb, r, t, bonus_tiles, Report::boolean);
    let bonus_copies = take!(fb, r, t, bonus_copies, |r: &mut Report<'_>, k, v| {
        match r.uint(k, v, 2)? {
            0 => {
                r.at(&v.span(), "`bonus_copies` must be 1 or 2");
                None
            }
            n => Some(n as u8),
        }
    });
    let max_chows = take!(fb, r, t, max_chows, |r: &mut Report<'_>, k, v| r
        .uint(k, v, 4)
        .map(|n| n as u8));
    let only_place = take!(fb, r, t, only_place, Report::choice);
    let annexed_kong_scores_concealed =
        take!(fb, r, t, annexed_kong_scores_concealed, Report::boolean);
    let annexed_kong_concealed_for_doubles = take!(
        fb,
        r,
        t,
        annexed_kong_concealed_for_doubles,
        Report::boolean
    );
    let dead_wall = take!(fb, r, t, dead_wall, |r: &mut Report<'_>, k, v| r
        .uint(k, v, 40)
        .map(|n| n as u8));
    Some(Params {
        limit: limit?,
        notional_limit: notional_limit?,
        bonus_tiles: bonus_tiles?,
        bonus_copies: bonus_copies?,
        max_chows: max_chows?,
        only_place: only_place?,
        annexed_kong_scores_concealed: annexed_kong_scores_concealed?,
        annexed_kong_concealed_for_doubles: annexed_kong_concealed_for_doubles?,
        dead_wall: dead_wall?,
    })
}

pub(super) fn settlement(
    r: &mut Report<'_>,
    v: Option<&Spanned<Entry<RawSettlement>>>,
    mut fb: Fallback<'_, SettlementParams>,
) -> Option<SettlementParams> {
    let t = section(r, v, &mut fb);
    let method = take!(fb, r, t, method, Report::choice);
    let losers_settle = take!(fb, r, t, losers_settle, Report::boolean);
    let limit_hand_cancels_losers = take!(fb, r, t, limit_hand_cancels_losers, Report::boolean);
    let rounding = take!(fb, r, t, rounding, Report::choice);
    let dreamer_payment = take!(fb, r, t, dreamer_payment, Report::boolean);
    let dreamer_limit_doubles = take!(
        fb,
        r,
        t,
        dreamer_limit_doubles,
        |r: &mut Report<'_>, k, v| r.uint(k, v, 20).map(|n| n as u32)
    );
    Some(SettlementParams {
        method: method?,
        losers_settle: losers_settle?,
        limit_hand_cancels_losers: limit_hand_cancels_losers?,
        rounding: rounding?,
        dreamer_payment: dreamer_payment?,
        dreamer_limit_doubles: dreamer_limit_doubles?,
    })
}

pub(super) fn rotation(
    r: &mut Report<'_>,
    v: Option<&Spanned<Entry<RawRotation>>>,
    mut fb: Fallback<'_, RotationParams>,
) -> Option<RotationParams> {
    let t = section(r, v, &mut fb);
    let deal_passes = take!(fb, r, t, deal_passes, Report::choice);
    let east_keeps_on_wash_out = take!(fb, r, t, east_keeps_on_wash_out, Report::boolean);
    let rounds_per_game = take!(fb, r, t, rounds_per_game, |r: &mut Report<'_>, k, v| {
        match r.uint(k, v, 4)? {
            0 => {
                r.at(&v.span(), "`rounds_per_game` must be 1 to 4");
                None
            }
            n => Some(n as u8),
        }
    });
    let east_gives_up_after = take!(fb, r, t, east_gives_up_after, |r: &mut Report<'_>, k, v| r
        .uint(k, v, 1000)
        .map(|n| n as u32));
    let cite = take!(fb, r, t, cite, Report::string);
    Some(RotationParams {
        deal_passes: deal_passes?,
        east_keeps_on_wash_out: east_keeps_on_wash_out?,
        rounds_per_game: rounds_per_game?,
        east_gives_up_after: east_gives_up_after?,
        cite: cite?,
    })
}

pub(super) fn penalties(
    r: &mut Report<'_>,
    v: Option<&Spanned<Entry<RawPenalties>>>,
    mut fb: Fallback<'_, PenaltyParams>,
) -> Option<PenaltyParams> {
    let t = section(r, v, &mut fb);
    let false_mahjong = take!(fb, r, t, false_mahjong, Report::choice);
    let false_mahjong_amount = take!(fb, r, t, false_mahjong_amount, amount);
    let false_mahjong_two = take!(fb, r, t, false_mahjong_two, amount);
    let false_mahjong_three = take!(fb, r, t, false_mahjong_three, amount);
    let false_mahjong_east_double = take!(fb, r, t, false_mahjong_east_double, Report::boolean);
    let false_naming_chow = take!(fb, r, t, false_naming_chow, amount);
    let false_naming_pung = take!(fb, r, t, false_naming_pung, amount);
    let false_naming_mahjong = take!(fb, r, t, false_naming_mahjong, amount);
    let false_naming_false_mahjong = take!(fb, r, t, false_naming_false_mahjong, amount);
    let new_deal_heads = take!(fb, r, t, new_deal_heads, amount);
    let new_deal_payments = take!(fb, r, t, new_deal_payments, |r: &mut Report<'_>, k, v| {
        let RawValue::Array(items) = v.get_ref() else {
            r.wrong(k, v, "a list of amounts, such as [10, 20]");
            return None;
        };
        let amounts: Vec<Option<u64>> = items.iter().map(|i| amount(r, k, i)).collect();
        amounts.into_iter().collect()
    });
    let cite = take!(fb, r, t, cite, Report::string);
    Some(PenaltyParams {
        false_mahjong: false_mahjong?,
        false_mahjong_amount: false_mahjong_amount?,
        false_mahjong_two: false_mahjong_two?,
        false_mahjong_three: false_mahjong_three?,
        false_mahjong_east_double: false_mahjong_east_double?,
        false_naming_chow: false_naming_chow?,
        false_naming_pung: false_naming_pung?,
        false_naming_mahjong: false_naming_mahjong?,
        false_naming_false_mahjong: false_naming_false_mahjong?,
        new_deal_heads: new_deal_heads?,
        new_deal_payments: new_deal_payments?,
        cite: cite?,
    })
}

/// One reading: `key = { value = V, cite = "..." }`, or in a house file `key = V` (cited as the
/// house's own rule).
fn reading<'t, T: Clone>(
    r: &mut Report<'t>,
    fb: &Fallback<'_, Readings>,
    house: bool,
    key: &str,
    v: Option<&Spanned<Entry<RawReading>>>,
    from_base: impl FnOnce(&Readings) -> Reading<T>,
    read: impl FnOnce(&mut Report<'t>, &str, &Spanned<RawValue>) -> Option<T>,
) -> Option<Reading<T>> {
    let Some(v) = v else {
        return fb.take(r, key, None, from_base, |_, _, _| None);
    };
    match v.get_ref() {
        Entry::Table { keys, fields } => {
            r.unknown_keys(keys, keys_of::<RawReading>(), &format!("reading `{key}`"));
            let value = match &fields.value {
                Some(x) => read(r, key, x),
                None => {
                    r.at(&v.span(), format!("reading `{key}` needs a `value`"));
                    None
                }
            };
            let cite = match &fields.cite {
                Some(c) => r.string("cite", c),
                None => {
                    r.at(&v.span(), format!("reading `{key}` needs a `cite`"));
                    None
                }
            };
            Some(Reading {
                value: value?,
                cite: cite?,
            })
        }
        Entry::Other(raw) if house => Some(Reading {
            value: read(r, key, &Spanned::new(v.span(), raw.clone()))?,
            cite: "house ruleset".into(),
        }),
        Entry::Other(_) => {
            r.at(
                &v.span(),
                format!(
                    "reading `{key}` in a built-in ruleset is `{{ value = ..., cite = \"...\" }}`"
                ),
            );
            None
        }
    }
}

pub(super) fn readings(
    r: &mut Report<'_>,
    v: Option<&Spanned<Entry<RawReadings>>>,
    mut fb: Fallback<'_, Readings>,
    house: bool,
) -> Option<Readings> {
    let t = section(r, v, &mut fb);
    let own = reading(
        r,
        &fb,
        house,
        "only_place_counts_own_tiles",
        t.and_then(|t| t.only_place_counts_own_tiles.as_ref()),
        |b| b.only_place_counts_own_tiles.clone(),
        Report::boolean,
    );
    let roof = reading(
        r,
        &fb,
        house,
        "roof_off_limit_hand",
        t.and_then(|t| t.roof_off_limit_hand.as_ref()),
        |b| b.roof_off_limit_hand.clone(),
        Report::choice,
    );
    let bonus = reading(
        r,
        &fb,
        house,
        "bonus_replacement",
        t.and_then(|t| t.bonus_replacement.as_ref()),
        |b| b.bonus_replacement.clone(),
        Report::choice,
    );
    let kong_box = reading(
        r,
        &fb,
        house,
        "kong_box",
        t.and_then(|t| t.kong_box.as_ref()),
        |b| b.kong_box.clone(),
        // Past 40 the live wall could not deal four hands from a 136-tile set.
        |r, k, v| r.uint(k, v, 40).map(|n| n as u32),
    );
    let replenished = reading(
        r,
        &fb,
        house,
        "kong_box_replenished",
        t.and_then(|t| t.kong_box_replenished.as_ref()),
        |b| b.kong_box_replenished.clone(),
        Report::boolean,
    );
    let robbing = reading(
        r,
        &fb,
        house,
        "kong_robbing",
        t.and_then(|t| t.kong_robbing.as_ref()),
        |b| b.kong_robbing.clone(),
        Report::choice,
    );
    let cannons = reading(
        r,
        &fb,
        house,
        "cannons",
        t.and_then(|t| t.cannons.as_ref()),
        |b| b.cannons.clone(),
        Report::choice,
    );
    let calling = reading(
        r,
        &fb,
        house,
        "calling_special",
        t.and_then(|t| t.calling_special.as_ref()),
        |b| b.calling_special.clone(),
        |r, k, v| {
            if v.get_ref() == &RawValue::String("none".into()) {
                return Some(None);
            }
            let share = match v.get_ref() {
                RawValue::String(s) => s.parse::<LimitShare>().ok(),
                RawValue::Float(x) => LimitShare::from_decimal(*x),
                RawValue::Integer(1) => Some(LimitShare::FULL),
                _ => None,
            };
            if share.is_none() {
                r.wrong(
                    k,
                    v,
                    &format!("\"none\", or the share of the special hand's award a calling hand scores: {SHARE_FORMS}"),
                );
            }
            share.map(Some)
        },
    );
    Some(Readings {
        only_place_counts_own_tiles: own?,
        roof_off_limit_hand: roof?,
        bonus_replacement: bonus?,
        kong_box: kong_box?,
        kong_box_replenished: replenished?,
        kong_robbing: robbing?,
        cannons: cannons?,
        calling_special: calling?,
    })
}

/// `[options]`: in a built-in, `name = { description, cite, default }`; in a house file,
/// `name = true | false` to switch a base option, or a full table to add one.
pub(super) fn options(
    r: &mut Report<'_>,
    v: Option<&Spanned<Map<Entry<RawOption>>>>,
    base: Option<&Ruleset>,
    house: bool,
) -> (BTreeMap<String, RuleOption>, Vec<String>) {
    let mut options = base.map(|b| b.options.clone()).unwrap_or_default();
    let mut enabled: BTreeSet<String> = base
        .map(|b| b.enabled_options.iter().cloned().collect())
        .unwrap_or_default();
    let entries = match v.map(Spanned::get_ref) {
        None => &[][..],
        Some(Map::Table(entries)) => entries.as_slice(),
        Some(Map::Other(raw)) => {
            let v = v.map_or(0..0, Spanned::span);
            r.at(
                &v,
                format!(
                    "`options` must be a table (an `[options]` header and its options), not {}",
                    raw.describe()
                ),
            );
            &[][..]
        }
    };
    let base_names: Vec<String> = options.keys().cloned().collect();
    for (k, v) in entries {
        let name = k.get_ref();
        match v.get_ref() {
            Entry::Other(RawValue::Boolean(on)) if options.contains_key(name) && house => {
                if *on {
                    enabled.insert(name.clone());
                } else {
                    enabled.remove(name);
                }
            }
            Entry::Other(RawValue::Boolean(_)) if house => {
                // With an unknown base there is nothing to check the name against.
                if base.is_some() {
                    let hint = suggestion(name, base_names.iter().map(String::as_str));
                    r.at(
                        &k.span(),
                        format!(
                            "option `{name}` is not an option of the base ruleset{hint} (its options: {})",
                            if base_names.is_empty() { "none".to_owned() } else { base_names.join(", ") }
                        ),
                    );
                }
            }
            Entry::Other(raw) => {
                let expected = if house {
                    "true or false (to switch an option of the base), or a table `{ description, cite, default }` declaring a new one"
                } else {
                    "a table `{ description, cite, default }`"
                };
                r.at(
                    &v.span(),
                    format!("option `{name}` must be {expected}, not {}", raw.describe()),
                );
            }
            Entry::Table { keys, fields } => {
                r.unknown_keys(keys, keys_of::<RawOption>(), &format!("option `{name}`"));
                let description = fields
                    .description
                    .as_ref()
                    .and_then(|d| r.string("description", d));
                let cite = fields.cite.as_ref().and_then(|c| r.string("cite", c));
                let default = match &fields.default {
                    Some(d) => r.boolean("default", d),
                    None => Some(false),
                };
                if fields.description.is_none() || fields.cite.is_none() {
                    r.at(
                        &v.span(),
                        format!("option `{name}` needs a `description` and a `cite`"),
                    );
                }
                let (Some(description), Some(cite), Some(default)) = (description, cite, default)
                else {
                    continue;
                };
                if default {
                    enabled.insert(name.clone());
                } else {
                    enabled.remove(name);
                }
                options.insert(
                    name.clone(),
                    RuleOption {
                        description,
                        cite,
                        default,
                    },
                );
            }
        }
    }
    (options, enabled.into_iter().collect())
}
