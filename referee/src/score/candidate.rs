//! The ways a hand may be counted (freedom of count, Code §105).
//!
//! A winning hand may be counted in any complete arrangement of its concealed tiles, with the
//! winning tile standing in any group that contains it (Babcock Fig. 21: the player says which
//! copy came last), or as a special shape. A losing hand regroups its concealed tiles into
//! whatever pungs and pairs score best. Exposed and declared sets never move (Code §105,
//! Babcock Figs. 20 and 24).

use std::fmt::{self, Write as _};

use crate::counts::TileCounts;
use crate::hand::{ConcealedGroup, Hand, MeldForm};
use crate::rules::Params;
use crate::shape::only_place::chow_role;
use crate::shape::{each_arrangement, SetKind, SpecialShape, WinningRole};
use crate::tile::Tile;

/// What a group is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GroupKind {
    Pung,
    Kong,
    Chow,
    Pair,
}

/// A set or pair as counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Group {
    pub kind: GroupKind,
    /// The tile (the lowest, for a chow).
    pub tile: Tile,
    /// Scores as concealed (basic points).
    pub concealed: bool,
    /// Counts as concealed for the concealed-pungs and fully-concealed doubles.
    pub concealed_for_doubles: bool,
    /// Completed by the winning tile.
    pub winning: bool,
}

impl Group {
    pub fn is_set(self) -> bool {
        matches!(self.kind, GroupKind::Pung | GroupKind::Kong)
    }

    /// The tiles, written as in the hand notation ("555p", "123m", "RRR").
    pub fn describe(self) -> String {
        self.to_string()
    }

    /// What the winning tile did in this group (for "filling the only place").
    pub fn role(self, winning: Tile) -> WinningRole {
        match self.kind {
            GroupKind::Pair => WinningRole::Pair,
            GroupKind::Pung | GroupKind::Kong => WinningRole::Pung,
            GroupKind::Chow => chow_role(self.tile, winning),
        }
    }
}

impl fmt::Display for Group {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = self.tile;
        let n = match self.kind {
            GroupKind::Pung | GroupKind::Chow => 3,
            GroupKind::Kong => 4,
            GroupKind::Pair => 2,
        };
        match (t.suit(), t.rank()) {
            (Some(suit), Some(rank)) => {
                for i in 0..n {
                    let step = if self.kind == GroupKind::Chow { i } else { 0 };
                    f.write_char(char::from(b'0' + rank + step))?;
                }
                f.write_char(suit.letter())
            }
            _ => (0..n).try_for_each(|_| write!(f, "{t}")),
        }
    }
}

/// The groups of one way of counting, held inline: a hand has at most four sets and a pair
/// when it wins, and at most ten groups when it loses (four sets and a single, or six pairs
/// and a single), so no allocation is needed per way of counting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Groups {
    items: [Group; Groups::CAPACITY],
    len: usize,
}

impl Groups {
    const CAPACITY: usize = 12;
    const EMPTY_GROUP: Group = Group {
        kind: GroupKind::Pair,
        tile: Tile::ALL[0],
        concealed: true,
        concealed_for_doubles: true,
        winning: false,
    };

    pub fn new() -> Groups {
        Groups {
            items: [Groups::EMPTY_GROUP; Groups::CAPACITY],
            len: 0,
        }
    }

    /// Adds a group; a thirteenth is impossible for a legal hand and is ignored.
    pub fn push(&mut self, g: Group) {
        if self.len < Groups::CAPACITY {
            self.items[self.len] = g;
            self.len += 1;
        }
    }
}

impl std::ops::Deref for Groups {
    type Target = [Group];
    fn deref(&self) -> &[Group] {
        &self.items[..self.len]
    }
}

/// One way of counting the hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Candidate {
    pub groups: Groups,
    /// Counted as this special shape (no ordinary groups).
    pub special: Option<SpecialShape>,
}

fn meld_groups(hand: &Hand, params: &Params) -> Groups {
    let mut out = Groups::new();
    for m in hand.melds() {
        let kind = match m.set.kind() {
            SetKind::Pung => GroupKind::Pung,
            SetKind::Kong => GroupKind::Kong,
            SetKind::Chow => GroupKind::Chow,
        };
        let (concealed, concealed_for_doubles) = match m.form {
            MeldForm::Claimed | MeldForm::AddedKong => (false, false),
            MeldForm::ConcealedKong => (true, true),
            MeldForm::AnnexedKong => (
                params.annexed_kong_scores_concealed,
                params.annexed_kong_concealed_for_doubles,
            ),
        };
        out.push(Group {
            kind,
            tile: m.set.tile(),
            concealed,
            concealed_for_doubles,
            winning: false,
        });
    }
    out
}

/// Every way to count a winning hand, won on `winning`, drawn or not; the special shapes it
/// takes ([`shapes_met`]) are ways of counting too, unless the player grouped it in sets.
pub(crate) fn winning_candidates(
    hand: &Hand,
    winning: Tile,
    drawn: bool,
    params: &Params,
    shapes_met: &[SpecialShape],
) -> Vec<Candidate> {
    let melds = meld_groups(hand, params);
    let mut concealed = *hand.concealed();
    let _ = concealed.try_add(winning);
    let mut out = Vec::with_capacity(16);
    each_arrangement(&concealed, &mut |a| {
        let mut inner = Groups::new();
        for s in a.sets() {
            inner.push(Group {
                kind: match s.kind() {
                    SetKind::Chow => GroupKind::Chow,
                    SetKind::Pung => GroupKind::Pung,
                    SetKind::Kong => GroupKind::Kong,
                },
                tile: s.tile(),
                concealed: true,
                concealed_for_doubles: true,
                winning: false,
            });
        }
        inner.push(Group {
            kind: GroupKind::Pair,
            tile: a.pair(),
            concealed: true,
            concealed_for_doubles: true,
            winning: false,
        });
        let chows = melds
            .iter()
            .chain(inner.iter())
            .filter(|g| g.kind == GroupKind::Chow)
            .count();
        if chows > usize::from(params.max_chows) {
            return;
        }
        // The winning tile may stand in any group that holds it; groups alike are one choice.
        for (i, &g) in inner.iter().enumerate() {
            let holds = match g.kind {
                GroupKind::Chow => {
                    let r = winning.rank();
                    g.tile.suit() == winning.suit()
                        && r.zip(g.tile.rank())
                            .is_some_and(|(r, lo)| r >= lo && r <= lo + 2)
                }
                _ => g.tile == winning,
            };
            let alike_before = inner[..i]
                .iter()
                .any(|h| (h.kind, h.tile) == (g.kind, g.tile));
            if !holds || alike_before {
                continue;
            }
            let mut groups = melds;
            for (j, &h) in inner.iter().enumerate() {
                groups.push(if j == i {
                    Group {
                        winning: true,
                        concealed: drawn,
                        concealed_for_doubles: drawn,
                        ..h
                    }
                } else {
                    h
                });
            }
            out.push(Candidate {
                groups,
                special: None,
            });
        }
    });
    // A hand laid down in groups is counted as grouped (Code §104–105: the player's own
    // freedom of count, exercised): only the arrangements that hold each group.
    if !hand.groups().is_empty() {
        let melds = hand.melds().len();
        out.retain(|c| holds_groups(&c.groups[melds..], hand.groups()));
    }
    let grouped_in_sets = hand
        .groups()
        .iter()
        .any(|g| matches!(g, ConcealedGroup::Set(_)));
    if !grouped_in_sets {
        for &s in shapes_met {
            out.push(Candidate {
                groups: Groups::new(),
                special: Some(s),
            });
        }
    }
    out
}

/// Which of `shapes` the whole hand takes, won on `winning`, drawn or not.
pub(crate) fn shapes_met(
    hand: &Hand,
    winning: Tile,
    drawn: bool,
    shapes: &[SpecialShape],
) -> Vec<SpecialShape> {
    if shapes.is_empty() {
        return Vec::new();
    }
    let all = shape_counts(hand, winning);
    shapes
        .iter()
        .copied()
        .filter(|&s| shape_allowed(s, hand, winning, drawn) && s.is_complete(&all, winning))
        .collect()
}

/// Every useful regrouping of a losing hand's concealed tiles: each kind held three or more
/// times counts as a pung or as a pair, each held twice as a pair. Chows score nothing in a
/// losing hand, so they are not formed.
pub(crate) fn losing_candidates(hand: &Hand, params: &Params) -> Vec<Candidate> {
    let melds = meld_groups(hand, params);
    // Grouped tiles count as the player grouped them; only the rest are regrouped.
    let rest = hand.ungrouped_tiles();
    let concealed: &TileCounts = &rest;
    let mut fixed = melds;
    for &g in hand.groups() {
        fixed.push(concealed_group(g));
    }
    let mut choosable = Vec::new();
    for t in Tile::ALL {
        match concealed.get(t) {
            2 => fixed.push(Group {
                kind: GroupKind::Pair,
                tile: t,
                concealed: true,
                concealed_for_doubles: true,
                winning: false,
            }),
            n if n >= 3 => choosable.push(t),
            _ => {}
        }
    }
    let n = choosable.len();
    let mut out = Vec::with_capacity(1 << n);
    for mask in 0u32..(1 << n) {
        let mut groups = fixed;
        for (i, &t) in choosable.iter().enumerate() {
            groups.push(Group {
                kind: if mask & (1 << i) == 0 {
                    GroupKind::Pung
                } else {
                    GroupKind::Pair
                },
                tile: t,
                concealed: true,
                concealed_for_doubles: true,
                winning: false,
            });
        }
        out.push(Candidate {
            groups,
            special: None,
        });
    }
    out
}

/// A group the player laid down, as counted: concealed.
fn concealed_group(g: ConcealedGroup) -> Group {
    let (kind, tile) = match g {
        ConcealedGroup::Pair(t) => (GroupKind::Pair, t),
        ConcealedGroup::Set(s) => (
            match s.kind() {
                SetKind::Chow => GroupKind::Chow,
                SetKind::Pung => GroupKind::Pung,
                SetKind::Kong => GroupKind::Kong,
            },
            s.tile(),
        ),
    };
    Group {
        kind,
        tile,
        concealed: true,
        concealed_for_doubles: true,
        winning: false,
    }
}

/// Does an arrangement's concealed part hold every declared group (each once)?
fn holds_groups(inner: &[Group], declared: &[ConcealedGroup]) -> bool {
    let mut used = [false; 8];
    declared.iter().all(|&d| {
        let want = concealed_group(d);
        // A declared group is of concealed tiles, the winning tile apart (§104: the tile that
        // completed the hand is laid at right angles to the others): the set the winning tile
        // completes is never one of them.
        let found = inner.iter().enumerate().position(|(i, g)| {
            !used[i] && !g.winning && g.kind == want.kind && g.tile == want.tile
        });
        found.is_some_and(|i| {
            used[i] = true;
            true
        })
    })
}

/// Every tile of a winning hand, for a special-shape test (no special shape holds a kong: with
/// one the count is fifteen and `is_complete` refuses it).
pub(crate) fn shape_counts(hand: &Hand, winning: Tile) -> TileCounts {
    let mut all = *hand.concealed();
    let _ = all.try_add(winning);
    for m in hand.melds() {
        for t in m.set.tiles() {
            let _ = all.try_add(t);
        }
    }
    all
}

/// May the hand be counted as `shape` given its exposed sets? Only the Code's Wriggling Snake
/// "may be partly or completely exposed" (§122(o)); every other special hand is concealed, and
/// BMJA's Gates of Heaven wants its pungs of ones and nines concealed, so its winning tile may
/// not be a claimed one or nine.
pub(crate) fn shape_allowed(shape: SpecialShape, hand: &Hand, winning: Tile, drawn: bool) -> bool {
    match shape {
        SpecialShape::WrigglingSnake => hand.melds().iter().all(|m| m.set.kind() != SetKind::Kong),
        SpecialShape::GatesOfHeaven => hand.melds().is_empty() && (drawn || !winning.is_terminal()),
        _ => hand.melds().is_empty(),
    }
}
