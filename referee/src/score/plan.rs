//! A ruleset laid out for scoring: the work that depends on the ruleset alone, done once.
//!
//! Which elements are in force, which of them are tested once per hand and which in every
//! way of counting it, what each per-set element asks of a group, which elements exclude
//! which, and what spoils "nothing but game" do not change from hand to hand. A [`Layout`]
//! holds them for one kind of hand (a winner's, a loser's, a caller's), and a [`Plan`] the
//! layouts of a ruleset, so scoring a hand is only the hand's own work ([`super::Scorer`]
//! keeps a plan with its ruleset).
//!
//! Elements are named by their index in the ruleset's list, so a plan borrows nothing and can
//! be kept beside the ruleset it was made from.

use std::sync::{Arc, OnceLock};

use crate::rules::{Applies, Condition, Element, Exposure, Ruleset, TileFilter, Value};

use super::candidate::GroupKind;

/// Everything about a ruleset that scoring a hand needs and no hand changes.
pub(crate) struct Plan {
    pub winner: Layout,
    /// Built when the first losing hand is scored.
    loser: OnceLock<Layout>,
    /// The special shapes the ruleset names.
    pub shapes: Vec<crate::shape::SpecialShape>,
    /// By ruleset element index: how sheet lines name it, made when first needed and shared by
    /// every sheet after.
    labels: Vec<OnceLock<Label>>,
}

impl Plan {
    pub fn new(rules: &Ruleset) -> Plan {
        Plan {
            winner: Layout::new(rules, true, |_| true),
            loser: OnceLock::new(),
            shapes: rules
                .active_elements()
                .filter(|e| e.condition == Condition::Special)
                .filter_map(|e| e.shape)
                .collect(),
            labels: rules.elements.iter().map(|_| OnceLock::new()).collect(),
        }
    }

    pub fn loser(&self, rules: &Ruleset) -> &Layout {
        self.loser
            .get_or_init(|| Layout::new(rules, false, |_| true))
    }

    /// The label of the ruleset's `index`th element.
    pub fn label(&self, rules: &Ruleset, index: usize) -> Label {
        let make = || {
            let e = &rules.elements[index];
            Label {
                id: e.id.as_str().into(),
                name: e.name.as_str().into(),
                cite: e.cite.as_str().into(),
            }
        };
        match self.labels.get(index) {
            Some(cell) => cell.get_or_init(make).clone(),
            None => make(),
        }
    }
}

/// The elements in force for one kind of hand, sorted by how they are tested.
pub(crate) struct Layout {
    /// Indices into the ruleset's elements, in its order (the order of the sheet's lines).
    /// Every other index here is into this list.
    pub elements: Vec<usize>,
    /// How each element is tested, in the same order.
    pub tests: Vec<Test>,
    /// Each "nothing but game" element, with which elements spoil it (point lines it does not
    /// except), by element index.
    pub nothing_but_game: Vec<(usize, Vec<bool>)>,
    /// By element index: the indices of the elements it excludes ("instead of").
    pub excludes: Vec<Vec<usize>>,
    /// Whether any element excludes another.
    pub any_excludes: bool,
    /// The tile filters of the elements that score a pair points (the No-Score hand's pair
    /// must meet none).
    pub scoring_pairs: Vec<TileFilter>,
}

/// An element's id, name and citation as sheet lines carry them.
#[derive(Clone)]
pub(crate) struct Label {
    pub id: Arc<str>,
    pub name: Arc<str>,
    pub cite: Arc<str>,
}

/// How an element is tested.
pub(crate) enum Test {
    /// Its conditions read no groups: tested once per hand.
    OncePerHand,
    /// It counts matching groups and tests nothing else.
    EachSet(PerSet),
    /// Tested in each way of counting.
    EachCounting,
}

/// A per-set element reduced to what a group must be to meet it.
pub(crate) struct PerSet {
    /// Bits of the group kinds it counts ([`kind_bit`]).
    pub kinds: u8,
    pub exposure: Exposure,
    pub tiles: TileFilter,
}

pub(crate) const fn kind_bit(k: GroupKind) -> u8 {
    1 << k as u8
}

/// The group kinds a per-set condition counts.
fn kinds_counted(c: Condition) -> u8 {
    match c {
        Condition::Pung => kind_bit(GroupKind::Pung),
        Condition::Kong => kind_bit(GroupKind::Kong),
        Condition::PungOrKong => kind_bit(GroupKind::Pung) | kind_bit(GroupKind::Kong),
        Condition::Pair => kind_bit(GroupKind::Pair),
        Condition::Chow => kind_bit(GroupKind::Chow),
        _ => 0,
    }
}

impl Layout {
    /// The elements in force for a hand that went Mah-Jongg (`mahjong`) or did not, of those
    /// `keep` admits.
    pub fn new(rules: &Ruleset, mahjong: bool, keep: impl Fn(&Element) -> bool) -> Self {
        let (indices, elements): (Vec<usize>, Vec<&Element>) = rules
            .elements
            .iter()
            .enumerate()
            .filter(|(_, e)| rules.in_force(e))
            .filter(|(_, e)| mahjong || e.applies == Applies::AllHands)
            .filter(|(_, e)| keep(e))
            .unzip();
        let mut layout = Layout {
            tests: Vec::with_capacity(elements.len()),
            nothing_but_game: Vec::new(),
            excludes: Vec::new(),
            any_excludes: false,
            scoring_pairs: elements
                .iter()
                .filter(|e| e.condition == Condition::Pair)
                .filter(|e| matches!(e.value, Value::Points(p) if p > 0))
                .map(|e| e.tiles)
                .collect(),
            elements: indices,
        };
        layout.tests = elements
            .iter()
            .map(|e| {
                if e.condition.is_per_set() && e.also.is_empty() {
                    Test::EachSet(PerSet {
                        kinds: kinds_counted(e.condition),
                        exposure: e.exposure,
                        tiles: e.tiles,
                    })
                } else if e.condition.reads_groups() || e.also.iter().any(|c| c.reads_groups()) {
                    Test::EachCounting
                } else {
                    Test::OncePerHand
                }
            })
            .collect();
        // An excluded element not in force for this kind of hand has nothing to take off.
        let index_of = |id: &String| elements.iter().position(|e| &e.id == id);
        layout.excludes = elements
            .iter()
            .map(|e| e.excludes.iter().filter_map(index_of).collect())
            .collect();
        layout.any_excludes = layout.excludes.iter().any(|x: &Vec<usize>| !x.is_empty());
        layout.nothing_but_game = elements
            .iter()
            .enumerate()
            .filter(|(_, e)| e.condition == Condition::NothingButGame)
            .map(|(i, e)| {
                let spoils = elements
                    .iter()
                    .map(|m| {
                        matches!(m.value, Value::Points(p) if p > 0)
                            && m.condition != Condition::MahJongg
                            && !e.except.contains(&m.id)
                    })
                    .collect();
                (i, spoils)
            })
            .collect();
        layout
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_set_elements_read_only_their_group_and_the_rest_are_placed_by_the_catalogue() {
        for name in Ruleset::builtin_names() {
            let rules = Ruleset::builtin(name).unwrap();
            let layout = Layout::new(&rules, true, |_| true);
            assert_eq!(layout.tests.len(), layout.elements.len(), "{name}");
            for (test, &i) in layout.tests.iter().zip(&layout.elements) {
                let e = &rules.elements[i];
                let conditions = || std::iter::once(e.condition).chain(e.also.iter().copied());
                match test {
                    Test::EachSet(p) => {
                        assert!(e.condition.is_per_set() && e.also.is_empty(), "{}", e.id);
                        assert_ne!(p.kinds, 0, "{}", e.id);
                    }
                    Test::EachCounting => assert!(conditions().any(|c| c.reads_groups())),
                    Test::OncePerHand => assert!(conditions().all(|c| !c.reads_groups())),
                }
            }
        }
    }

    #[test]
    fn a_loser_is_not_tested_for_what_only_a_winner_scores() {
        let rules = Ruleset::builtin("code-of-laws").unwrap();
        let layout = Layout::new(&rules, false, |_| true);
        assert!(layout
            .elements
            .iter()
            .all(|&i| rules.elements[i].applies == Applies::AllHands));
        assert!(layout.elements.len() < Layout::new(&rules, true, |_| true).elements.len());
    }

    #[test]
    fn exclusions_are_resolved_to_elements_in_force() {
        let rules = Ruleset::builtin("babcock-standard").unwrap();
        let layout = Layout::new(&rules, true, |_| true);
        for (i, excluded) in layout.excludes.iter().enumerate() {
            let e = &rules.elements[layout.elements[i]];
            for &x in excluded {
                assert!(e.excludes.contains(&rules.elements[layout.elements[x]].id));
            }
        }
        assert!(layout.any_excludes);
    }
}
