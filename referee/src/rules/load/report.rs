//! Problems with their lines, and the readers that turn one [`RawValue`] into a checked value
//! or a problem that says what was expected.

use toml::Spanned;

use super::raw::{RawValue, Span};
use super::RulesetProblem;
use crate::rules::element::LimitShare;
use crate::vocab::{article, Choice};

/// The problems found so far.
pub(super) struct Report<'t> {
    text: &'t str,
    pub(super) problems: Vec<RulesetProblem>,
}

/// The closest of `candidates` to `word`, if it is close enough to be a slip of the pen: at
/// most a third of the word's letters changed, dropped, added or swapped (the
/// Damerau–Levenshtein distance; `only-plce` is one from `only-place`).
pub(super) fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let most = (word.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .map(|c| (strsim::damerau_levenshtein(word, c), c))
        .filter(|&(d, c)| d <= most && c != word)
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

/// "; did you mean `x`?" or nothing.
pub(super) fn suggestion<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    did_you_mean(word, candidates)
        .map(|s| format!("; did you mean `{s}`?"))
        .unwrap_or_default()
}

/// The largest `limit`, amount or penalty a file may give.
pub(super) const MAX_AMOUNT: u64 = 1_000_000_000;

impl<'t> Report<'t> {
    pub(super) fn new(text: &'t str) -> Report<'t> {
        Report {
            text,
            problems: Vec::new(),
        }
    }

    /// The 1-based line where `span` starts.
    pub(super) fn line(&self, span: &Span) -> usize {
        let end = span.start.min(self.text.len());
        self.text.as_bytes()[..end]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1
    }

    pub(super) fn at(&mut self, span: &Span, message: impl Into<String>) {
        let line = self.line(span);
        self.problems.push(RulesetProblem {
            line,
            message: message.into(),
        });
    }

    /// Reports keys not in `known`, each with the list of valid ones.
    pub(super) fn unknown_keys(&mut self, keys: &[Spanned<String>], known: &[&str], what: &str) {
        for key in keys {
            let k = key.get_ref();
            if !known.contains(&k.as_str()) {
                let hint = suggestion(k, known.iter().copied());
                self.at(
                    &key.span(),
                    format!(
                        "unknown key `{k}` in {what}{hint} (expected one of: {})",
                        known.join(", ")
                    ),
                );
            }
        }
    }

    /// "`key` must be {expected}, not {what was written}".
    pub(super) fn wrong(&mut self, key: &str, v: &Spanned<RawValue>, expected: &str) {
        self.at(
            &v.span(),
            format!("`{key}` must be {expected}, not {}", v.get_ref().describe()),
        );
    }

    pub(super) fn string(&mut self, key: &str, v: &Spanned<RawValue>) -> Option<String> {
        match v.get_ref() {
            RawValue::String(s) => Some(s.clone()),
            _ => {
                self.wrong(key, v, "a string in quotes");
                None
            }
        }
    }

    pub(super) fn boolean(&mut self, key: &str, v: &Spanned<RawValue>) -> Option<bool> {
        match v.get_ref() {
            RawValue::Boolean(b) => Some(*b),
            _ => {
                self.wrong(key, v, "true or false");
                None
            }
        }
    }

    /// A whole number from 0 to `max`.
    pub(super) fn uint(&mut self, key: &str, v: &Spanned<RawValue>, max: u64) -> Option<u64> {
        let range = format!("a whole number from 0 to {max}");
        match v.get_ref() {
            RawValue::Integer(n) if *n < 0 => {
                self.at(
                    &v.span(),
                    format!("`{key}` = {n} is out of range: it cannot be negative ({range})"),
                );
                None
            }
            RawValue::Integer(n) => match u64::try_from(*n) {
                Ok(n) if n <= max => Some(n),
                _ => {
                    self.too_large(key, v, &n.to_string(), max);
                    None
                }
            },
            RawValue::Unreadable(m) if m.contains("overflow") => {
                self.too_large(key, v, "this number", max);
                None
            }
            _ => {
                self.wrong(key, v, &range);
                None
            }
        }
    }

    fn too_large(&mut self, key: &str, v: &Spanned<RawValue>, shown: &str, max: u64) {
        self.at(
            &v.span(),
            format!("`{key}` = {shown} is out of range: too large; at most {max}"),
        );
    }

    /// One of a vocabulary's names ([`Choice::ALL`], each its [`Choice::name`]), with a
    /// did-you-mean and the list when it is not; [`Choice::WHAT`] says what was expected.
    pub(super) fn choice<T: Choice>(&mut self, key: &str, v: &Spanned<RawValue>) -> Option<T> {
        let names = T::ALL.iter().map(|t| t.name());
        let s = match v.get_ref() {
            RawValue::String(s) => s,
            _ => {
                let list = names.map(|n| format!("\"{n}\"")).collect::<Vec<_>>();
                self.wrong(key, v, &format!("one of {}", list.join(", ")));
                return None;
            }
        };
        if let Some(t) = T::ALL.iter().find(|t| t.name() == s) {
            return Some(*t);
        }
        self.unknown_word(key, v, s, T::WHAT, names);
        None
    }

    /// "`when` = "x" is not a condition; did you mean `y`? (the conditions: …)"; `what` is
    /// the noun, without its article.
    pub(super) fn unknown_word<'a>(
        &mut self,
        key: &str,
        v: &Spanned<RawValue>,
        word: &str,
        what: &str,
        names: impl Iterator<Item = &'a str> + Clone,
    ) {
        let hint = suggestion(word, names.clone());
        let list: Vec<&str> = names.collect();
        let article = article(what);
        self.at(
            &v.span(),
            format!(
                "`{key}` = \"{word}\" is not {article} {what}{hint} (the {what}s: {})",
                list.join(", ")
            ),
        );
    }

    /// A list of strings; every item that is not a string is reported.
    pub(super) fn strings(
        &mut self,
        key: &str,
        v: &Spanned<RawValue>,
    ) -> Option<Vec<Spanned<String>>> {
        let RawValue::Array(items) = v.get_ref() else {
            self.wrong(key, v, "a list of strings, such as [\"a\", \"b\"]");
            return None;
        };
        let mut out = Some(Vec::new());
        for item in items {
            match (self.string(key, item), &mut out) {
                (Some(s), Some(out)) => out.push(Spanned::new(item.span(), s)),
                _ => out = None,
            }
        }
        out
    }

    /// A share of the limit: "full", "half", "third", "2/5" or 0.4.
    pub(super) fn share(&mut self, key: &str, v: &Spanned<RawValue>) -> Option<LimitShare> {
        let share = match v.get_ref() {
            RawValue::String(s) => s.parse().ok(),
            RawValue::Float(x) => LimitShare::from_decimal(*x),
            RawValue::Integer(1) => Some(LimitShare::FULL),
            _ => None,
        };
        if share.is_none() {
            self.wrong(key, v, &format!("a share of the limit: {SHARE_FORMS}"));
        }
        share
    }
}

/// The ways to write a share of the limit.
pub(super) const SHARE_FORMS: &str = "\"full\", \"half\", \"third\", a fraction in quotes such as \"2/5\", or a decimal such as 0.4 (more than 0, at most 1)";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slips_of_the_pen_are_caught_and_strangers_are_not() {
        let ids = ["only-place", "fishing-eyes", "mahjong"];
        assert_eq!(did_you_mean("only-plce", ids), Some("only-place"));
        assert_eq!(did_you_mean("fishign-eyes", ids), Some("fishing-eyes"));
        assert_eq!(did_you_mean("mahjongg", ids), Some("mahjong"));
        assert_eq!(did_you_mean("pair-any-honour", ids), None);
        assert_eq!(
            did_you_mean("mahjong", ids),
            None,
            "an exact match is no slip"
        );
    }

    #[test]
    fn numbers_say_what_range_they_miss() {
        let mut r = Report::new("x = 1\n");
        let big = Spanned::new(0..1, RawValue::Integer(99_999_999_999_999_999_999));
        assert_eq!(r.uint("limit", &big, 1000), None);
        let s = Spanned::new(0..1, RawValue::String("lots".into()));
        assert_eq!(r.uint("limit", &s, 1000), None);
        let msgs: Vec<&str> = r.problems.iter().map(|p| p.message.as_str()).collect();
        assert_eq!(
            msgs,
            [
                "`limit` = 99999999999999999999 is out of range: too large; at most 1000",
                "`limit` must be a whole number from 0 to 1000, not the string \"lots\"",
            ]
        );
    }
}
