//! Adding up one way of counting: the elements met, the points and doubles, the limit (Code
//! §118, and with the roof off §121), the best way of counting (§105, the player's freedom of
//! count), and its itemized sheet.

use crate::rules::{Element, LimitShare, RoofOff, Value};
use crate::score::candidate::Candidate;
use crate::score::plan::kind_bit;
use crate::score::sheet::{LineValue, ScoreSheet, SheetLine};
use crate::score::summary::Summary;

use super::{Context, Step};

/// An element met in a way of counting: its index among the context's elements, how many
/// times, and for a per-set element the group's index.
pub(crate) type Met = (usize, u32, Option<usize>);

/// One way of counting, added up: which elements met, and the totals.
pub(crate) struct Tally {
    pub met: Vec<Met>,
    pub totals: Totals,
}

/// What a way of counting adds up to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Totals {
    pub basic: u64,
    pub doubles: u32,
    pub raw: u64,
    pub total: u64,
    pub limited: bool,
    pub share: Option<LimitShare>,
}

impl Context<'_> {
    /// An element's value here: a limit hand with `unlimited_doubles` counts doubles when the
    /// roof is off.
    fn value_of(&self, e: &Element) -> Value {
        match (e.value, e.unlimited_doubles, self.rules.params.limit) {
            (Value::Limit(_), Some(d), None) => Value::Doubles(d),
            (v, _, _) => v,
        }
    }

    /// Adds up one way of counting.
    pub fn tally(&self, c: &Candidate) -> Tally {
        let mut met = Vec::with_capacity(16);
        let totals = self.add_up(c, &mut met, &mut Vec::new());
        Tally { met, totals }
    }

    /// The way of counting that scores most (Code §105: the player's freedom of count): the
    /// highest total, then the highest count before the limit, then the most basic points;
    /// the first of equals. `None` only when there is no way of counting.
    pub fn best(&self, candidates: &[Candidate]) -> Option<(usize, Tally)> {
        let mut best: Option<(usize, Totals)> = None;
        let (mut met, mut best_met) = (Vec::with_capacity(32), Vec::with_capacity(32));
        let mut excluded = Vec::new();
        for (i, c) in candidates.iter().enumerate() {
            let t = self.add_up(c, &mut met, &mut excluded);
            let key = |t: &Totals| (t.total, t.raw, t.basic);
            if best.is_none_or(|(_, b)| key(&t) > key(&b)) {
                best = Some((i, t));
                std::mem::swap(&mut met, &mut best_met);
            }
        }
        best.map(|(i, totals)| {
            (
                i,
                Tally {
                    met: best_met,
                    totals,
                },
            )
        })
    }

    /// Adds up one way of counting into `met` (cleared first); `excluded` is a buffer.
    fn add_up(&self, c: &Candidate, met: &mut Vec<Met>, excluded: &mut Vec<bool>) -> Totals {
        met.clear();
        let special = c.special.is_some();
        let layout = self.layout;
        let summary = Summary::of(&c.groups, self.input.seat);
        for step in &self.steps {
            match step {
                &Step::Met { element, count } => {
                    // A special shape has no sets: only what `counts_in_special` says counts.
                    if !special || self.counts_in_special(self.element(element)) {
                        met.push((element, count, None));
                    }
                }
                Step::Set(p) => {
                    for (g, group) in c.groups.iter().enumerate() {
                        if p.kinds & kind_bit(group.kind) != 0
                            && p.exposure.admits(group.concealed)
                            && p.tiles >> group.tile.index() & 1 == 1
                        {
                            met.push((p.element, 1, Some(g)));
                        }
                    }
                }
                &Step::Counting(i) => {
                    let e = self.element(i);
                    self.occurrences(e, c, &summary, &mut |n, g| met.push((i, n, g)));
                }
            }
        }
        // "Nothing but game": no other point line, bar those the element excepts.
        if self.input.win.is_some() && !special {
            for (i, spoils) in &layout.nothing_but_game {
                if !met.iter().any(|&(m, _, _)| spoils[m]) {
                    met.push((*i, 1, None));
                }
            }
        }
        if layout.any_excludes && met.iter().any(|&(m, _, _)| !layout.excludes[m].is_empty()) {
            excluded.clear();
            excluded.resize(layout.elements.len(), false);
            for &(m, _, _) in met.iter() {
                for &x in &layout.excludes[m] {
                    excluded[x] = true;
                }
            }
            met.retain(|&(m, _, _)| !excluded[m]);
        }
        let mut basic: u64 = 0;
        let mut doubles: u32 = 0;
        let mut share: Option<LimitShare> = None;
        for &(m, n, _) in met.iter() {
            match LineValue::times(self.value_of(self.element(m)), n) {
                LineValue::Points(p) => basic = basic.saturating_add(p),
                LineValue::Doubles(d) => doubles = doubles.saturating_add(d),
                LineValue::Limit(s) => share = share.max(Some(s)),
            }
        }
        let raw = if doubles >= 64 {
            if basic == 0 {
                0
            } else {
                u64::MAX
            }
        } else {
            basic.saturating_mul(1u64 << doubles)
        };
        let (total, limited) = match (share, self.rules.params.limit) {
            (Some(s), Some(_)) => (self.rules.limit_value(s), true),
            (Some(s), None) => {
                let notional = self.rules.limit_value(s);
                match self.rules.readings.roof_off_limit_hand.value {
                    // Code §121: a Full hand whose own count is higher scores its count.
                    RoofOff::Higher => (notional.max(raw), raw <= notional),
                    RoofOff::Notional => (notional, true),
                }
            }
            (None, Some(limit)) => (raw.min(limit), raw > limit),
            (None, None) => (raw, false),
        };
        Totals {
            basic,
            doubles,
            raw,
            total,
            limited,
            share,
        }
    }

    /// The itemized sheet for a way of counting and its tally.
    pub fn sheet(&self, c: &Candidate, tally: &Tally) -> ScoreSheet {
        let t = &tally.totals;
        let lines = tally
            .met
            .iter()
            .map(|&(m, n, g)| {
                let e = self.element(m);
                let label = self.plan.label(self.rules, self.layout.elements[m]);
                SheetLine {
                    element: label.id,
                    name: label.name,
                    tiles: g.map(|g| c.groups[g].describe()),
                    cite: label.cite,
                    value: LineValue::times(self.value_of(e), n),
                }
            })
            .collect();
        ScoreSheet {
            ruleset: self.rules.name.clone(),
            mahjong: self.input.win.is_some(),
            arrangement: self.describe(c),
            lines,
            basic: t.basic,
            doubles: t.doubles,
            raw: t.raw,
            limited: t.limited,
            total: t.total,
            limit_hand: t.share,
        }
    }

    fn describe(&self, c: &Candidate) -> String {
        use std::fmt::Write;
        if let Some(s) = c.special {
            return format!("{} ({})", self.input.hand, s.name());
        }
        let mut out = String::with_capacity(48);
        let part = |out: &mut String, p: &dyn std::fmt::Display| {
            if !out.is_empty() {
                out.push(' ');
            }
            let _ = write!(out, "{p}");
        };
        let melds = self.input.hand.melds();
        for m in melds {
            part(&mut out, m);
        }
        for g in c.groups.iter().skip(melds.len()) {
            part(&mut out, g);
            if g.winning {
                out.push('*');
            }
        }
        for b in self.input.hand.bonus() {
            part(&mut out, b);
        }
        out
    }
}
