//! An `[[element]]`'s keys, each read on its own so that one bad key does not hide the others:
//! a key is absent, wrong (its problem reported) or given with its span. What the keys mean
//! together, and against the base element, is checked by the `elements` module.

use toml::Spanned;

use super::raw::{Field, RawElement, RawValue, Span};
use super::report::Report;
use crate::rules::condition::{Applies, Condition, Exposure, TileFilter};
use crate::rules::element::Value;
use crate::shape::SpecialShape;

/// A key of an element as read: absent, present but wrong (reported), or given.
pub(super) enum Got<T> {
    Absent,
    Wrong,
    Given(T, Span),
}

impl<T> Got<T> {
    pub(super) fn read<'t>(
        r: &mut Report<'t>,
        key: &str,
        v: &Field,
        read: impl FnOnce(&mut Report<'t>, &str, &Spanned<RawValue>) -> Option<T>,
    ) -> Got<T> {
        match v {
            None => Got::Absent,
            Some(v) => match read(r, key, v) {
                Some(t) => Got::Given(t, v.span()),
                None => Got::Wrong,
            },
        }
    }

    pub(super) fn given(&self) -> Option<&T> {
        match self {
            Got::Given(t, _) => Some(t),
            _ => None,
        }
    }

    pub(super) fn span(&self) -> Option<Span> {
        match self {
            Got::Given(_, s) => Some(s.clone()),
            _ => None,
        }
    }

    pub(super) fn is_absent(&self) -> bool {
        matches!(self, Got::Absent)
    }

    /// The value given, or `otherwise` when absent; `None` when wrong.
    pub(super) fn or(self, otherwise: impl FnOnce() -> T) -> Option<T> {
        match self {
            Got::Absent => Some(otherwise()),
            Got::Wrong => None,
            Got::Given(t, _) => Some(t),
        }
    }
}

/// An element's keys, each read on its own.
pub(super) struct Keys {
    pub new: Got<bool>,
    pub name: Got<String>,
    pub when: Got<(Condition, Vec<Condition>)>,
    pub tiles: Got<TileFilter>,
    pub exposure: Got<Exposure>,
    pub shape: Got<SpecialShape>,
    pub at_least: Got<u32>,
    pub except: Got<Vec<Spanned<String>>>,
    pub value: Got<Value>,
    pub unlimited_doubles: Got<u32>,
    pub applies: Got<Applies>,
    pub cite: Got<String>,
    pub interpretation: Got<String>,
    pub option: Got<String>,
    pub excludes: Got<Vec<Spanned<String>>>,
    pub enabled: Got<bool>,
}

pub(super) fn read_keys(r: &mut Report<'_>, f: &RawElement, id: &str) -> Keys {
    Keys {
        new: Got::read(r, "new", &f.new, Report::boolean),
        name: Got::read(r, "name", &f.name, Report::string),
        when: Got::read(r, "when", &f.when, when),
        tiles: Got::read(r, "tiles", &f.tiles, Report::choice),
        exposure: Got::read(r, "exposure", &f.exposure, Report::choice),
        shape: Got::read(r, "shape", &f.shape, Report::choice),
        at_least: Got::read(r, "at_least", &f.at_least, |r, k, v| {
            r.uint(k, v, 100).map(|n| n as u32)
        }),
        except: Got::read(r, "except", &f.except, Report::strings),
        value: value(r, f, id),
        unlimited_doubles: Got::read(r, "unlimited_doubles", &f.unlimited_doubles, |r, k, v| {
            r.uint(k, v, 20).map(|n| n as u32)
        }),
        applies: Got::read(r, "applies", &f.applies, Report::choice),
        cite: Got::read(r, "cite", &f.cite, Report::string),
        interpretation: Got::read(r, "interpretation", &f.interpretation, Report::string),
        option: Got::read(r, "option", &f.option, Report::string),
        excludes: Got::read(r, "excludes", &f.excludes, Report::strings),
        enabled: Got::read(r, "enabled", &f.enabled, Report::boolean),
    }
}

/// `when = "pung"` or `when = ["clear-suit", "no-chows"]`: every unknown name is reported.
fn when(
    r: &mut Report<'_>,
    key: &str,
    v: &Spanned<RawValue>,
) -> Option<(Condition, Vec<Condition>)> {
    let items = match v.get_ref() {
        RawValue::String(_) => vec![v.clone()],
        RawValue::Array(items) if !items.is_empty() => items.clone(),
        RawValue::Array(_) => {
            r.at(&v.span(), "`when` is an empty list");
            return None;
        }
        _ => {
            r.wrong(
                key,
                v,
                "a condition in quotes, or a list of them such as [\"clear-suit\", \"no-chows\"]",
            );
            return None;
        }
    };
    let all: Vec<Option<Condition>> = items.iter().map(|i| condition(r, key, i)).collect();
    let all: Vec<Condition> = all.into_iter().collect::<Option<_>>()?;
    let (first, rest) = all.split_first()?;
    if let Some(c) = rest.iter().find(|c| c.is_per_set()) {
        r.at(
            &v.span(),
            format!("`{c}` counts sets, so it can only come first in a `when` list"),
        );
        return None;
    }
    Some((*first, rest.to_vec()))
}

fn condition(r: &mut Report<'_>, key: &str, v: &Spanned<RawValue>) -> Option<Condition> {
    let RawValue::String(s) = v.get_ref() else {
        r.wrong(key, v, "a condition in quotes");
        return None;
    };
    let found = Condition::from_name(s);
    if found.is_none() {
        r.unknown_word(
            key,
            v,
            s,
            "condition",
            Condition::ALL.iter().map(|c| c.name()),
        );
    }
    found
}

/// At most one of `points`, `doubles` and `limit`.
fn value(r: &mut Report<'_>, f: &RawElement, id: &str) -> Got<Value> {
    let points = Got::read(r, "points", &f.points, |r, k, v| {
        r.uint(k, v, 100_000).map(|n| Value::Points(n as u32))
    });
    let doubles = Got::read(r, "doubles", &f.doubles, |r, k, v| {
        r.uint(k, v, 20).map(|n| Value::Doubles(n as u32))
    });
    let limit = Got::read(r, "limit", &f.limit, |r, k, v| {
        r.share(k, v).map(Value::Limit)
    });
    let mut given: Vec<(&str, Got<Value>, &Field)> = [
        ("points", points, &f.points),
        ("doubles", doubles, &f.doubles),
        ("limit", limit, &f.limit),
    ]
    .into_iter()
    .filter(|(_, _, raw)| raw.is_some())
    .collect();
    match given.len() {
        0 => Got::Absent,
        1 => given.remove(0).1,
        _ => {
            let (k, _, raw) = &given[1];
            let span = raw.as_ref().map_or(0..0, Spanned::span);
            r.at(
                &span,
                format!("element `{id}` gives more than one value (`{k}` as well); give one of `points`, `doubles`, `limit`"),
            );
            Got::Wrong
        }
    }
}
