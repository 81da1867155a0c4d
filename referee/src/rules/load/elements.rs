//! Checking the `[[element]]` entries: every key of an element is read on its own (so one
//! bad key does not hide the others; [`keys`](super::keys)), then the element is matched to its
//! base element by `id`, merged with it, and checked as a whole.

use std::collections::{BTreeMap, BTreeSet};

use toml::Spanned;

use super::keys::{read_keys, Got, Keys};
use super::raw::{keys_of, Entries, Entry, RawElement, Span};
use super::report::{did_you_mean, suggestion, Report};
use crate::rules::condition::{Applies, Condition, Exposure, Qualifier, TileFilter};
use crate::rules::element::{Element, Value};
use crate::rules::{RuleOption, Ruleset};
use crate::shape::SpecialShape;

/// What the elements are checked against.
pub(super) struct Context<'a> {
    /// The base ruleset, when the file names a valid one.
    pub base: Option<&'a Ruleset>,
    /// The file names a `base` (valid or not): it overrides, rather than lists, elements.
    pub house: bool,
    pub options: &'a BTreeMap<String, RuleOption>,
}

/// One element checked: the element (when it is sound), and what it names elsewhere.
struct Checked {
    id: Option<String>,
    element: Option<Element>,
    /// Ids named by `excludes` and `except`, with where.
    refers: Vec<Spanned<String>>,
    option: Option<(String, Span)>,
}

pub(super) fn elements(
    r: &mut Report<'_>,
    v: Option<&Spanned<Entries<RawElement>>>,
    cx: &Context<'_>,
) -> Option<Vec<Element>> {
    let mut elements: Vec<Element> = cx.base.map(|b| b.elements.clone()).unwrap_or_default();
    let Some(v) = v else {
        if !cx.house {
            r.at(&(0..0), "the ruleset has no `[[element]]` entries");
        }
        return Some(elements);
    };
    let items = match v.get_ref() {
        Entries::List(items) => items,
        Entries::Other(raw) => {
            r.at(
                &v.span(),
                format!(
                    "`element` must be a list of tables, written `[[element]]` before each, not {}",
                    raw.describe()
                ),
            );
            return None;
        }
    };
    let mut ok = true;
    let mut seen = BTreeSet::new();
    let mut checked = Vec::new();
    for item in items {
        let Entry::Table { keys, fields } = item.get_ref() else {
            if let Entry::Other(raw) = item.get_ref() {
                r.at(
                    &item.span(),
                    format!("each `[[element]]` must be a table, not {}", raw.describe()),
                );
            }
            ok = false;
            continue;
        };
        r.unknown_keys(keys, keys_of::<RawElement>(), "an [[element]]");
        let c = element(r, item.span(), fields, cx, &mut seen);
        match (&c.element, &c.id) {
            (Some(e), _) => match elements.iter().position(|b| b.id == e.id) {
                Some(i) => elements[i] = e.clone(),
                None => elements.push(e.clone()),
            },
            _ => ok = false,
        }
        checked.push(c);
    }
    // What the given elements name: ids (those of elements with problems count, so one
    // problem is not reported twice) and options.
    let ids: BTreeSet<&str> = elements
        .iter()
        .map(|e| e.id.as_str())
        .chain(checked.iter().filter_map(|c| c.id.as_deref()))
        .collect();
    for c in &checked {
        let id = c.id.as_deref().unwrap_or("?");
        for rf in &c.refers {
            if !ids.contains(rf.get_ref().as_str()) {
                let hint = suggestion(rf.get_ref(), ids.iter().copied());
                r.at(
                    &rf.span(),
                    format!(
                        "element `{id}` refers to unknown element `{}`{hint}",
                        rf.get_ref()
                    ),
                );
                ok = false;
            }
        }
        if let Some((o, span)) = &c.option {
            if !cx.options.contains_key(o) {
                let hint = suggestion(o, cx.options.keys().map(String::as_str));
                r.at(
                    span,
                    format!("element `{id}` names option `{o}`, which is not in [options]{hint}"),
                );
                ok = false;
            }
        }
    }
    ok.then_some(elements)
}

fn element(
    r: &mut Report<'_>,
    item: Span,
    f: &RawElement,
    cx: &Context<'_>,
    seen: &mut BTreeSet<String>,
) -> Checked {
    let id = match &f.id {
        Some(v) => r.string("id", v),
        None => {
            r.at(&item, "an [[element]] has no `id`");
            None
        }
    };
    let here = f.id.as_ref().map_or(item, Spanned::span);
    let shown = id.clone().unwrap_or_else(|| "?".into());
    let keys = read_keys(r, f, &shown);
    let mut checked = Checked {
        id: id.clone(),
        element: None,
        refers: [&keys.except, &keys.excludes]
            .into_iter()
            .filter_map(Got::given)
            .flatten()
            .cloned()
            .collect(),
        option: keys.option.given().cloned().zip(keys.option.span()),
    };
    let Some(id) = id else { return checked };
    if !seen.insert(id.clone()) {
        r.at(&here, format!("element `{id}` is given twice"));
        return checked;
    }
    let Some(base) = which_base(r, &here, &id, &keys, cx) else {
        return checked;
    };
    checked.element = merge(r, &here, &id, keys, base);
    checked
}

/// The base element a file's element changes (`Some(Some(_))`), none because it is new
/// (`Some(None)`), or `None` when that cannot be decided or the id looks misspelt.
///
/// A house file's element whose id is not in the base is new. Because a misspelt id would
/// otherwise add a second element instead of changing one, an id within a slip of the pen of
/// a base id is refused unless the element says `new = true`; `new = false` asserts that it
/// changes a base element.
fn which_base<'a>(
    r: &mut Report<'_>,
    here: &Span,
    id: &str,
    keys: &Keys,
    cx: &Context<'a>,
) -> Option<Option<&'a Element>> {
    let new = keys.new.given().copied();
    let Some(base) = cx.base else {
        if cx.house {
            // The base is unknown (reported): nothing to match against.
            return None;
        }
        if let Some(span) = keys.new.span() {
            r.at(
                &span,
                "`new` is for house rulesets, whose elements override their base's",
            );
        }
        return Some(None);
    };
    if let Some(existing) = base.element(id) {
        if new == Some(true) {
            r.at(
                &keys.new.span().unwrap_or(here.clone()),
                format!("element `{id}` is already in `{}`: remove `new = true` to change it, or choose another id for a new element", base.name),
            );
            return None;
        }
        return Some(Some(existing));
    }
    let near = did_you_mean(id, base.elements.iter().map(|e| e.id.as_str()));
    let complete = !keys.when.is_absent() && !keys.value.is_absent() && !keys.cite.is_absent();
    match (new, near) {
        (Some(true), _) => Some(None),
        (Some(false), _) => {
            let hint = suggestion(id, base.elements.iter().map(|e| e.id.as_str()));
            r.at(
                here,
                format!(
                    "element `{id}` says `new = false`, but `{}` has no element with this id{hint}",
                    base.name
                ),
            );
            None
        }
        (None, Some(near)) if complete => {
            r.at(
                here,
                format!("element `{id}` is not in `{}`, but its id is close to `{near}`: to change that element, spell its id `{near}`; to add a new element, write `new = true`", base.name),
            );
            None
        }
        (None, Some(near)) => {
            r.at(
                here,
                format!("element `{id}` is not in `{}`; did you mean `{near}`? (A new element needs `when`, a value and `cite`, and `new = true` when its id is this close to one of the base's.)", base.name),
            );
            None
        }
        (None, None) => Some(None),
    }
}

/// The element, from its keys and the base element it changes (if any), checked as a whole.
fn merge(
    r: &mut Report<'_>,
    here: &Span,
    id: &str,
    k: Keys,
    base: Option<&Element>,
) -> Option<Element> {
    if base.is_none() {
        let missing: Vec<&str> = [
            ("`when`", k.when.is_absent()),
            ("a value", k.value.is_absent()),
            ("`cite`", k.cite.is_absent()),
        ]
        .into_iter()
        .filter_map(|(what, absent)| absent.then_some(what))
        .collect();
        if !missing.is_empty() {
            r.at(
                here,
                format!("element `{id}` is new, so it needs `when` (a condition), a value (`points`, `doubles` or `limit`) and `cite`; it has no {}", missing.join(", no ")),
            );
            return None;
        }
    }
    let mut sound = !renamed(r, id, &k, base);
    let when_span = k.when.span();
    let (condition, also) = k.when.or(|| {
        base.map_or((Condition::MahJongg, Vec::new()), |b| {
            (b.condition, b.also.clone())
        })
    })?;
    let conditions: Vec<Condition> = std::iter::once(condition)
        .chain(also.iter().copied())
        .collect();
    let reads = |q: Qualifier| conditions.iter().any(|c| c.reads(q));
    // A qualifier given for a condition that does not read it would be silently ignored.
    for (q, given, set) in [
        (
            Qualifier::Tiles,
            k.tiles.span(),
            k.tiles.given().is_some_and(|t| *t != TileFilter::Any),
        ),
        (
            Qualifier::Exposure,
            k.exposure.span(),
            k.exposure.given().is_some_and(|e| *e != Exposure::Any),
        ),
        (Qualifier::Shape, k.shape.span(), k.shape.given().is_some()),
        (
            Qualifier::AtLeast,
            k.at_least.span(),
            k.at_least.given().is_some_and(|n| *n != 0),
        ),
        (
            Qualifier::Except,
            k.except.span(),
            k.except.given().is_some_and(|e| !e.is_empty()),
        ),
    ] {
        if let (Some(span), true, false) = (given, set, reads(q)) {
            let readers: Vec<&str> = Condition::ALL
                .iter()
                .filter(|c| c.reads(q))
                .map(|c| c.name())
                .collect();
            r.at(
                &span,
                format!(
                    "`{}` does not apply to `{condition}` (it applies to: {})",
                    q.key(),
                    readers.join(", ")
                ),
            );
            sound = false;
        }
    }
    let tiles = k.tiles.or(|| base.map_or(TileFilter::Any, |b| b.tiles))?;
    let exposure = k
        .exposure
        .or(|| base.map_or(Exposure::Any, |b| b.exposure))?;
    // Filters kept from the base element that the new condition does not read.
    if let (Some(span), Some(b)) = (&when_span, base) {
        for (q, kept, name) in [
            (
                Qualifier::Tiles,
                tiles != TileFilter::Any && b.tiles == tiles,
                tiles.name(),
            ),
            (
                Qualifier::Exposure,
                exposure != Exposure::Any && b.exposure == exposure,
                exposure.name(),
            ),
        ] {
            if kept && !reads(q) {
                r.at(
                    span,
                    format!("`{condition}` does not read `{0}`, but element `{id}` keeps `{0} = \"{name}\"` from its base: write `{0} = \"any\"`", q.key()),
                );
                sound = false;
            }
        }
    }
    let shape = match k.shape {
        Got::Absent => base.and_then(|b| b.shape),
        Got::Wrong => return None,
        Got::Given(s, _) => Some(s),
    };
    let at_least = k.at_least.or(|| base.map_or(0, |b| b.at_least))?;
    let except = match k.except {
        Got::Absent => base.map(|b| b.except.clone()).unwrap_or_default(),
        Got::Wrong => return None,
        Got::Given(e, _) => e.into_iter().map(Spanned::into_inner).collect(),
    };
    if conditions.contains(&Condition::Special) && shape.is_none() {
        let list: Vec<&str> = SpecialShape::ALL.iter().map(|s| s.name()).collect();
        r.at(
            here,
            format!(
                "element `{id}` (when = \"special\") needs a `shape` (the special shapes: {})",
                list.join(", ")
            ),
        );
        sound = false;
    }
    if conditions.contains(&Condition::EastConsecutiveWins) && at_least == 0 {
        r.at(here, format!("element `{id}` (when = \"east-consecutive-wins\") needs `at_least`, the number of wins"));
        sound = false;
    }
    let value = k.value.or(|| base.map_or(Value::Points(0), |b| b.value))?;
    let unlimited_doubles = match k.unlimited_doubles {
        Got::Absent => base.and_then(|b| b.unlimited_doubles),
        Got::Wrong => return None,
        Got::Given(d, span) => {
            if !matches!(value, Value::Limit(_)) {
                r.at(
                    &span,
                    "`unlimited_doubles` is for limit hands (`limit = ...`)",
                );
                sound = false;
            }
            Some(d)
        }
    };
    let needs_mahjong = conditions.iter().any(|c| c.needs_mahjong());
    let applies_span = k.applies.span();
    let applies = k.applies.or(|| match base {
        Some(b) => b.applies,
        None if needs_mahjong => Applies::Winner,
        None => Applies::AllHands,
    })?;
    if needs_mahjong && applies == Applies::AllHands {
        let c = conditions
            .iter()
            .find(|c| c.needs_mahjong())
            .unwrap_or(&condition);
        r.at(
            &applies_span.unwrap_or(here.clone()),
            format!("`{c}` can only be met by a Mah-Jongg hand; `applies` must be \"winner\""),
        );
        sound = false;
    }
    let element = Element {
        id: id.to_owned(),
        name: k
            .name
            .or(|| base.map_or_else(|| id.replace('-', " "), |b| b.name.clone()))?,
        condition,
        also,
        tiles,
        exposure,
        shape,
        at_least,
        except,
        value,
        unlimited_doubles,
        applies,
        cite: k
            .cite
            .or(|| base.map(|b| b.cite.clone()).unwrap_or_default())?,
        interpretation: match k.interpretation {
            Got::Absent => base.and_then(|b| b.interpretation.clone()),
            Got::Wrong => return None,
            Got::Given(i, _) => Some(i),
        },
        option: match k.option {
            Got::Absent => base.and_then(|b| b.option.clone()),
            Got::Wrong => return None,
            Got::Given(o, _) => Some(o),
        },
        excludes: match k.excludes {
            Got::Absent => base.map(|b| b.excludes.clone()).unwrap_or_default(),
            Got::Wrong => return None,
            Got::Given(e, _) => e.into_iter().map(Spanned::into_inner).collect(),
        },
        enabled: k.enabled.or(|| base.is_none_or(|b| b.enabled))?,
    };
    sound.then_some(element)
}

/// An inherited element that now tests something else keeps its old name on the score sheet
/// ("Pair of Dragons" on an all-bamboo hand) unless the file gives a new one; reports it.
fn renamed(r: &mut Report<'_>, id: &str, k: &Keys, base: Option<&Element>) -> bool {
    let Some(b) = base else { return false };
    if !k.name.is_absent() {
        return false;
    }
    let changed = [
        (
            "when",
            k.when
                .given()
                .is_some_and(|(c, a)| (*c, a) != (b.condition, &b.also)),
            k.when.span(),
        ),
        (
            "tiles",
            k.tiles.given().is_some_and(|t| *t != b.tiles),
            k.tiles.span(),
        ),
        (
            "exposure",
            k.exposure.given().is_some_and(|e| *e != b.exposure),
            k.exposure.span(),
        ),
        (
            "shape",
            k.shape.given().is_some_and(|s| Some(*s) != b.shape),
            k.shape.span(),
        ),
    ];
    if let Some((key, _, Some(span))) = changed.into_iter().find(|(_, c, _)| *c) {
        r.at(
            &span,
            format!("element `{id}` changes `{key}`, so its name \"{}\" would no longer describe it on the score sheet: give it a `name`", b.name),
        );
        return true;
    }
    false
}
