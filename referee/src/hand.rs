//! The hand-level notation: a player's whole hand as laid down, for scoring and the ledger.
//!
//! ```text
//! 234m 5p 789s [RRR] {EEEE} 1f 3y =5p
//! ```
//!
//! | written        | meaning                                                                  |
//! |----------------|--------------------------------------------------------------------------|
//! | `234m 5p`      | concealed tiles (the winning tile is *not* among them)                   |
//! | `[123m]`       | an exposed chow, formed with a claimed discard                           |
//! | `[555p]`       | an exposed pung, formed with a claimed discard                           |
//! | `[5555p]`      | a kong formed by annexing a discard to a concealed pung (Code §122(h))   |
//! | `[555p+5p]`    | a kong formed by adding a drawn tile to an exposed pung                  |
//! | `{5555p}`      | a concealed kong, declared (Code §39)                                    |
//! | `(123m)(55p)`  | concealed tiles grouped as the player laid them down (Code §104–105): a   |
//! |                | chow, a pung or a pair; the hand is then scored as grouped                |
//! | `1f 3y`        | bonus tiles, anywhere outside brackets                                   |
//! | `=5p`          | the winning tile (a Mah-Jongg hand only), written last                    |
//!
//! Counting each set as three tiles, a hand holds 13 tiles, plus the winning tile for Mah-Jongg.
//! How the winning tile came (wall, discard, loose tile, robbed kong …), the seat and the round
//! are context, given beside the hand, not in it.
//!
//! [`HandSetup`] is what the text says, unchecked; [`Hand`] is a hand that can exist, built only
//! by [`Hand::new`], which reports *every* problem at once.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::counts::TileCounts;
use crate::notation::{self, format_tiles, Located, NotationError, Style};
use crate::shape::{Set, SetKind};
use crate::tile::{AnyTile, Bonus, Tile};

/// How a declared or exposed set was formed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MeldForm {
    /// Exposed, completed with a claimed discard: `[123m]`, `[555p]`.
    Claimed,
    /// A kong made by annexing a discard to a concealed pung: `[5555p]`.
    AnnexedKong,
    /// A kong made by adding a drawn tile to an exposed pung: `[555p+5p]`.
    AddedKong,
    /// A concealed kong, declared: `{5555p}`.
    ConcealedKong,
}

/// A set laid on the table, and how it got there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Meld {
    pub set: Set,
    pub form: MeldForm,
}

impl fmt::Display for Meld {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.form {
            MeldForm::Claimed | MeldForm::AnnexedKong => write!(f, "[{}]", self.set),
            MeldForm::AddedKong => {
                let t = self.set.tile();
                write!(f, "[{}+{t}]", format_tiles([t, t, t], Style::Compressed))
            }
            MeldForm::ConcealedKong => write!(f, "{{{}}}", self.set),
        }
    }
}

/// A bracketed group as written, before it is known to be a set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawMeld {
    /// Column of the opening bracket.
    pub column: usize,
    /// `{…}` rather than `[…]`.
    pub concealed: bool,
    /// The tiles before any `+`.
    pub tiles: Vec<Tile>,
    /// The tile after `+`, if any.
    pub added: Option<Tile>,
}

/// A concealed group as the player laid it down (Code §104: "the player should lay his
/// concealed tiles on the table, grouped in sets"): a chow, a pung or a pair. Its tiles are
/// among the hand's concealed tiles; the group says how they count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ConcealedGroup {
    Set(Set),
    Pair(Tile),
}

impl ConcealedGroup {
    /// The group's tiles.
    pub fn tiles(self) -> Vec<Tile> {
        match self {
            ConcealedGroup::Set(s) => s.tiles().collect(),
            ConcealedGroup::Pair(t) => vec![t, t],
        }
    }
}

impl fmt::Display for ConcealedGroup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({})", format_tiles(self.tiles(), Style::Compressed))
    }
}

/// A parenthesised group as written, before it is known to be a set or pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawGroup {
    /// Column of the opening parenthesis.
    pub column: usize,
    pub tiles: Vec<Tile>,
}

/// A hand as written: syntactically valid, not yet checked against the rules.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct HandSetup {
    /// Every concealed tile, grouped or not (the winning tile apart).
    pub concealed: Vec<Tile>,
    /// The concealed tiles the player grouped, `(123m)`.
    pub groups: Vec<RawGroup>,
    pub melds: Vec<RawMeld>,
    pub bonus: Vec<Bonus>,
    pub winning: Option<Tile>,
}

/// Why a hand's text is not well-formed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HandSyntaxError {
    #[error(transparent)]
    Notation(#[from] NotationError),
    #[error("column {column}: `{open}` is never closed")]
    Unclosed { column: usize, open: char },
    #[error("column {column}: `{found}` closes nothing")]
    UnopenedClose { column: usize, found: char },
    #[error("column {column}: a group cannot open inside another")]
    Nested { column: usize },
    #[error("column {column}: `{found}` closes a group opened with `{open}`")]
    MismatchedClose {
        column: usize,
        open: char,
        found: char,
    },
    #[error("column {column}: `+` adds one drawn tile to an exposed pung, and belongs only inside `[...]`")]
    MisplacedPlus { column: usize },
    #[error("column {column}: `+` must be followed by exactly one tile")]
    PlusNeedsOneTile { column: usize },
    #[error("column {column}: `=` must be followed by exactly one playing tile, the winning tile")]
    WinningNeedsOneTile { column: usize },
    #[error("column {column}: the winning tile is written last, once")]
    WinningNotLast { column: usize },
    #[error("column {column}: bonus tile `{tile}` inside a set")]
    BonusInSet { column: usize, tile: Bonus },
}

impl FromStr for HandSetup {
    type Err = HandSyntaxError;

    fn from_str(s: &str) -> Result<HandSetup, HandSyntaxError> {
        let chars: Vec<char> = s.chars().collect();
        let mut setup = HandSetup::default();
        let mut i = 0;
        let mut plain_start = 0;
        while i < chars.len() {
            match chars[i] {
                '[' | '{' => {
                    read_plain(&chars[plain_start..i], plain_start, &mut setup)?;
                    let close = if chars[i] == '[' { ']' } else { '}' };
                    let end = find_close(&chars, i, close)?;
                    setup.melds.push(read_meld(&chars, i, end)?);
                    i = end + 1;
                    plain_start = i;
                }
                '(' => {
                    read_plain(&chars[plain_start..i], plain_start, &mut setup)?;
                    let end = find_close(&chars, i, ')')?;
                    let inner: String = chars[i + 1..end].iter().collect();
                    let tiles = playing(&inner, i + 1)?;
                    setup.concealed.extend(tiles.iter().copied());
                    setup.groups.push(RawGroup {
                        column: i + 1,
                        tiles,
                    });
                    i = end + 1;
                    plain_start = i;
                }
                c @ (']' | '}' | ')') => {
                    return Err(HandSyntaxError::UnopenedClose {
                        column: i + 1,
                        found: c,
                    })
                }
                '+' => return Err(HandSyntaxError::MisplacedPlus { column: i + 1 }),
                '=' => {
                    read_plain(&chars[plain_start..i], plain_start, &mut setup)?;
                    let rest: String = chars[i + 1..].iter().collect();
                    if rest.contains(['[', '{', '(', '=']) {
                        return Err(HandSyntaxError::WinningNotLast { column: i + 1 });
                    }
                    let tiles = notation::parse_any(&rest, i + 1)?;
                    match tiles.as_slice() {
                        [Located {
                            tile: AnyTile::Playing(t),
                            ..
                        }] => setup.winning = Some(*t),
                        _ => return Err(HandSyntaxError::WinningNeedsOneTile { column: i + 1 }),
                    }
                    return Ok(setup);
                }
                _ => i += 1,
            }
        }
        read_plain(&chars[plain_start..], plain_start, &mut setup)?;
        Ok(setup)
    }
}

fn find_close(chars: &[char], open_at: usize, close: char) -> Result<usize, HandSyntaxError> {
    for (j, &c) in chars.iter().enumerate().skip(open_at + 1) {
        match c {
            '[' | '{' | '(' => return Err(HandSyntaxError::Nested { column: j + 1 }),
            ']' | '}' | ')' if c == close => return Ok(j),
            ']' | '}' | ')' => {
                return Err(HandSyntaxError::MismatchedClose {
                    column: j + 1,
                    open: chars[open_at],
                    found: c,
                })
            }
            _ => {}
        }
    }
    Err(HandSyntaxError::Unclosed {
        column: open_at + 1,
        open: chars[open_at],
    })
}

fn read_plain(chars: &[char], offset: usize, setup: &mut HandSetup) -> Result<(), HandSyntaxError> {
    let text: String = chars.iter().collect();
    for located in notation::parse_any(&text, offset)? {
        match located.tile {
            AnyTile::Playing(t) => setup.concealed.push(t),
            AnyTile::Bonus(b) => setup.bonus.push(b),
        }
    }
    Ok(())
}

fn playing(text: &str, offset: usize) -> Result<Vec<Tile>, HandSyntaxError> {
    notation::parse_any(text, offset)?
        .into_iter()
        .map(|l| match l.tile {
            AnyTile::Playing(t) => Ok(t),
            AnyTile::Bonus(tile) => Err(HandSyntaxError::BonusInSet {
                column: l.column,
                tile,
            }),
        })
        .collect()
}

fn read_meld(chars: &[char], open: usize, close: usize) -> Result<RawMeld, HandSyntaxError> {
    let inner: String = chars[open + 1..close].iter().collect();
    let concealed = chars[open] == '{';
    let (tiles, added) = match inner.split_once('+') {
        None => (playing(&inner, open + 1)?, None),
        Some(_) if concealed => {
            let at = open + 1 + inner.chars().position(|c| c == '+').unwrap_or(0);
            return Err(HandSyntaxError::MisplacedPlus { column: at + 1 });
        }
        Some((before, after)) => {
            let plus = open + 1 + before.chars().count();
            let added = playing(after, plus + 1)?;
            match added.as_slice() {
                [one] => (playing(before, open + 1)?, Some(*one)),
                _ => return Err(HandSyntaxError::PlusNeedsOneTile { column: plus + 1 }),
            }
        }
    };
    Ok(RawMeld {
        column: open + 1,
        concealed,
        tiles,
        added,
    })
}

/// Something about a well-formed hand that the rules do not allow.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HandProblem {
    #[error("column {column}: `{written}` is not a set (a chow is three consecutive tiles of one suit, a pung three alike)")]
    NotASet { column: usize, written: String },
    #[error("column {column}: `{written}` is not a group (a concealed group is a chow, a pung or a pair; a concealed kong is declared as `{{5555p}}`)")]
    NotAGroup { column: usize, written: String },
    #[error("column {column}: `{written}`: a concealed kong is four alike")]
    NotAKong { column: usize, written: String },
    #[error(
        "column {column}: `{written}`: only a pung can become a kong, by adding its fourth tile"
    )]
    BadAddedKong { column: usize, written: String },
    #[error("a fifth `{tile}` (the set holds only four of each tile)")]
    FifthCopy { tile: Tile },
    #[error("bonus tile `{tile}` appears more than twice (no set has more than two of each)")]
    DuplicateBonus { tile: Bonus },
    #[error("{sets} sets and {concealed} concealed tiles{winning} make {total} tiles counting each set as three; a {what} hand has {expected}")]
    WrongCount {
        sets: usize,
        concealed: usize,
        winning: &'static str,
        total: usize,
        expected: usize,
        what: &'static str,
    },
}

/// The most copies of one bonus tile any book's set holds (Babcock ch. X: two colours).
pub const MAX_BONUS_COPIES: usize = 2;

/// A hand that can exist: every set real, no fifth copy, the right number of tiles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hand {
    concealed: TileCounts,
    /// How the player grouped (some of) the concealed tiles; empty when ungrouped.
    groups: Vec<ConcealedGroup>,
    melds: Vec<Meld>,
    bonus: Vec<Bonus>,
    winning: Option<Tile>,
}

impl Hand {
    /// Checks a setup, listing every problem found.
    pub fn new(setup: &HandSetup) -> Result<Hand, Vec<HandProblem>> {
        Hand::checked(setup, false)
    }

    /// Checks a setup as [`Hand::new`] does, but takes a losing hand with fewer than thirteen
    /// tiles: a short hand (Code §89(a)), which at settlement "scores its properly constituted
    /// sets, pairs and bonus tiles" (§89(c)). More than thirteen is still refused.
    pub fn new_short(setup: &HandSetup) -> Result<Hand, Vec<HandProblem>> {
        Hand::checked(setup, true)
    }

    /// A short hand in the notation ([`Hand::new_short`]).
    pub fn parse_short(s: &str) -> Result<Hand, HandError> {
        Hand::new_short(&s.parse::<HandSetup>()?).map_err(HandError::Invalid)
    }

    /// Is it a losing hand of fewer than thirteen tiles, each set counted as three (§89(a))?
    pub fn is_short(&self) -> bool {
        self.winning.is_none() && (self.concealed.len() + 3 * self.melds.len()) < 13
    }

    fn checked(setup: &HandSetup, short: bool) -> Result<Hand, Vec<HandProblem>> {
        let mut problems = Vec::new();
        let melds: Vec<Meld> = setup
            .melds
            .iter()
            .filter_map(|raw| check_meld(raw).map_err(|p| problems.push(p)).ok())
            .collect();
        let groups: Vec<ConcealedGroup> = setup
            .groups
            .iter()
            .filter_map(|raw| check_group(raw).map_err(|p| problems.push(p)).ok())
            .collect();
        let mut all = [0usize; 34];
        let every = setup
            .concealed
            .iter()
            .chain(setup.winning.iter())
            .copied()
            .chain(
                setup
                    .melds
                    .iter()
                    .flat_map(|m| m.tiles.iter().chain(m.added.iter()).copied()),
            );
        for t in every {
            all[t.index()] += 1;
        }
        for t in Tile::ALL {
            if all[t.index()] > 4 {
                problems.push(HandProblem::FifthCopy { tile: t });
            }
        }
        // Babcock's Seasons ("Goofs", ch. X) come in two colours, so a number may appear twice;
        // no book has more. A ruleset with one set of bonus tiles checks for one.
        for b in Bonus::ALL {
            if setup.bonus.iter().filter(|&&x| x == b).count() > MAX_BONUS_COPIES {
                problems.push(HandProblem::DuplicateBonus { tile: b });
            }
        }
        let total =
            setup.concealed.len() + usize::from(setup.winning.is_some()) + 3 * setup.melds.len();
        let (expected, what) = if setup.winning.is_some() {
            (14, "Mah-Jongg")
        } else {
            (13, "losing")
        };
        let short_allowed = short && setup.winning.is_none() && total < expected;
        if total != expected && !short_allowed {
            problems.push(HandProblem::WrongCount {
                sets: setup.melds.len(),
                concealed: setup.concealed.len(),
                winning: if setup.winning.is_some() {
                    " and the winning tile"
                } else {
                    ""
                },
                total,
                expected,
                what,
            });
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        let concealed = TileCounts::from_tiles(&setup.concealed)
            .map_err(|e| vec![HandProblem::FifthCopy { tile: e.tile }])?;
        // The bonus tiles in one order, however written: a hand is the same whatever order
        // its flowers were typed in (found by `tests/fuzz.rs`: `41f` and `14f`).
        let mut bonus = setup.bonus.clone();
        bonus.sort_unstable();
        Ok(Hand {
            concealed,
            groups,
            melds,
            bonus,
            winning: setup.winning,
        })
    }

    /// The concealed tiles, without the winning tile.
    pub fn concealed(&self) -> &TileCounts {
        &self.concealed
    }

    /// The concealed groups as the player laid them down (empty for an ungrouped hand).
    pub fn groups(&self) -> &[ConcealedGroup] {
        &self.groups
    }

    /// The same hand without up to `n` of its concealed `tile` and without any group holding
    /// that tile (its other tiles left ungrouped): what scores when a set of them is allowed no
    /// score (Code §78).
    pub fn striking(&self, tile: Tile, n: u8) -> Hand {
        let mut concealed = self.concealed;
        for _ in 0..n {
            concealed = concealed.without(tile).unwrap_or(concealed);
        }
        Hand {
            concealed,
            groups: self
                .groups
                .iter()
                .filter(|g| !g.tiles().contains(&tile))
                .copied()
                .collect(),
            ..self.clone()
        }
    }

    /// The same tiles, ungrouped: scored in their best arrangement.
    pub fn ungrouped(&self) -> Hand {
        Hand {
            groups: Vec::new(),
            ..self.clone()
        }
    }

    /// The concealed tiles in no group.
    pub fn ungrouped_tiles(&self) -> TileCounts {
        let mut rest = self.concealed;
        for g in &self.groups {
            for t in g.tiles() {
                // Hand::new put every grouped tile among the concealed ones.
                rest = rest.without(t).unwrap_or(rest);
            }
        }
        rest
    }

    /// The exposed and declared sets, as written.
    pub fn melds(&self) -> &[Meld] {
        &self.melds
    }

    /// The bonus tiles.
    pub fn bonus(&self) -> &[Bonus] {
        &self.bonus
    }

    /// The winning tile, for a Mah-Jongg hand.
    pub fn winning(&self) -> Option<Tile> {
        self.winning
    }

    /// The tiles that would complete this losing hand as four sets and a pair: the standard
    /// waits of its concealed tiles, less any tile the hand already holds four of, its sets
    /// included (there is no fifth to win on). Empty for a Mah-Jongg hand. Special shapes are
    /// asked separately ([`crate::SpecialShape::waits`] of the concealed tiles).
    pub fn calling(&self) -> crate::TileSet {
        if self.winning.is_some() {
            return crate::TileSet::EMPTY;
        }
        crate::shape::standard_waits(&self.concealed)
            .iter()
            .filter(|&t| self.completed_by(t).is_some())
            .collect()
    }

    /// This losing hand with `tile` as its winning tile (what it would be, were it calling for
    /// `tile`); `None` for a Mah-Jongg hand, or when the hand already holds four `tile`.
    pub fn completed_by(&self, tile: Tile) -> Option<Hand> {
        if self.winning.is_some() {
            return None;
        }
        let held = self.concealed.get(tile)
            + self
                .melds
                .iter()
                .flat_map(|m| m.set.tiles())
                .filter(|&t| t == tile)
                .count() as u8;
        (held < 4).then(|| Hand {
            winning: Some(tile),
            ..self.clone()
        })
    }
}

fn check_group(raw: &RawGroup) -> Result<ConcealedGroup, HandProblem> {
    let mut sorted = raw.tiles.clone();
    sorted.sort_unstable();
    let alike = sorted.iter().all(|&t| t == sorted[0]);
    let group = match sorted.as_slice() {
        [a, _] if alike => Some(ConcealedGroup::Pair(*a)),
        [a, _, _] if alike => Some(ConcealedGroup::Set(Set::pung(*a))),
        [a, b, c] if a.succ() == Some(*b) && b.succ() == Some(*c) => {
            Set::chow(*a).map(ConcealedGroup::Set)
        }
        _ => None,
    };
    group.ok_or_else(|| HandProblem::NotAGroup {
        column: raw.column,
        written: format!(
            "({})",
            format_tiles(raw.tiles.iter().copied(), Style::Compressed)
        ),
    })
}

pub(crate) fn check_meld(raw: &RawMeld) -> Result<Meld, HandProblem> {
    let written = || {
        let base = format_tiles(raw.tiles.iter().copied(), Style::Compressed);
        match (raw.concealed, raw.added) {
            (true, _) => format!("{{{base}}}"),
            (false, Some(a)) => format!("[{base}+{a}]"),
            (false, None) => format!("[{base}]"),
        }
    };
    let mut sorted = raw.tiles.clone();
    sorted.sort_unstable();
    let alike = |n: usize| sorted.len() == n && sorted.iter().all(|&t| t == sorted[0]);
    if raw.concealed {
        return if alike(4) {
            Ok(Meld {
                set: Set::kong(sorted[0]),
                form: MeldForm::ConcealedKong,
            })
        } else {
            Err(HandProblem::NotAKong {
                column: raw.column,
                written: written(),
            })
        };
    }
    if let Some(added) = raw.added {
        return if alike(3) && added == sorted[0] {
            Ok(Meld {
                set: Set::kong(added),
                form: MeldForm::AddedKong,
            })
        } else {
            Err(HandProblem::BadAddedKong {
                column: raw.column,
                written: written(),
            })
        };
    }
    let set = if alike(4) {
        Some((Set::kong(sorted[0]), MeldForm::AnnexedKong))
    } else if alike(3) {
        Some((Set::pung(sorted[0]), MeldForm::Claimed))
    } else if sorted.len() == 3
        && sorted[0].succ() == Some(sorted[1])
        && sorted[1].succ() == Some(sorted[2])
    {
        Set::chow(sorted[0]).map(|s| (s, MeldForm::Claimed))
    } else {
        None
    };
    set.map(|(set, form)| Meld { set, form })
        .ok_or_else(|| HandProblem::NotASet {
            column: raw.column,
            written: written(),
        })
}

impl fmt::Display for Hand {
    /// Canonical form: concealed tiles compressed, then sets, bonus tiles, `=winning`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<String> = self.groups.iter().map(|g| g.to_string()).collect();
        let rest = self.ungrouped_tiles();
        if !rest.is_empty() {
            parts.push(rest.format(Style::Compressed));
        }
        parts.extend(self.melds.iter().map(|m| m.to_string()));
        if !self.bonus.is_empty() {
            parts.push(format_tiles(self.bonus.iter().copied(), Style::Compressed));
        }
        if let Some(w) = self.winning {
            parts.push(format!("={w}"));
        }
        f.write_str(&parts.join(" "))
    }
}

/// Either kind of failure to read a hand.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HandError {
    #[error(transparent)]
    Syntax(#[from] HandSyntaxError),
    #[error("{}", join(.0))]
    Invalid(Vec<HandProblem>),
}

fn join(problems: &[HandProblem]) -> String {
    problems
        .iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join("; ")
}

impl FromStr for Hand {
    type Err = HandError;
    fn from_str(s: &str) -> Result<Hand, HandError> {
        Hand::new(&s.parse::<HandSetup>()?).map_err(HandError::Invalid)
    }
}

/// A hand travels (API, ledger) as its canonical notation; reading it back checks it fully, so a
/// hand that cannot exist never gets past the serde boundary.
impl Serialize for Hand {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Hand {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Hand, D::Error> {
        let text = String::deserialize(d)?;
        text.parse()
            .map_err(|e| serde::de::Error::custom(format_args!("hand `{text}`: {e}")))
    }
}

impl Meld {
    /// Is the set a kong?
    pub fn is_kong(&self) -> bool {
        self.set.kind() == SetKind::Kong
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calling_leaves_out_a_tile_held_four_times_counting_the_sets() {
        let h: Hand = "123m 456m 789s EE 45p".parse().unwrap();
        assert_eq!(h.calling().to_tokens(), "3p 6p");
        // 3p would complete the concealed tiles, but all four are in the kong laid down.
        let h: Hand = "[3333p] 45p EE 123m 789s".parse().unwrap();
        assert_eq!(h.calling().to_tokens(), "6p");
        let won: Hand = "123m 456m 789s EE 45p =3p".parse().unwrap();
        assert!(won.calling().is_empty());
    }

    #[test]
    fn reads_every_kind_of_group() {
        let h: Hand = "234m 5p 789s [RRR] {EEEE} 1f 3y =5p".parse().unwrap();
        assert_eq!(h.concealed().len(), 7);
        assert_eq!(h.melds().len(), 2);
        assert_eq!(h.melds()[1].form, MeldForm::ConcealedKong);
        assert_eq!(h.bonus().len(), 2);
        assert_eq!(h.winning(), Some("5p".parse().unwrap()));
        assert_eq!(h.to_string(), "234m 5p 789s [RRR] {EEEE} 1f 3y =5p");
        let h: Hand = "[555p+5p] [3333s] [324m] 11m E E =E".parse().unwrap();
        let forms: Vec<MeldForm> = h.melds().iter().map(|m| m.form).collect();
        assert_eq!(
            forms,
            [
                MeldForm::AddedKong,
                MeldForm::AnnexedKong,
                MeldForm::Claimed
            ]
        );
        assert_eq!(h.to_string(), "11m EE [555p+5p] [3333s] [234m] =E");
        // The canonical form reads back to the same hand.
        assert_eq!(h.to_string().parse::<Hand>().unwrap(), h);
    }

    #[test]
    fn serde_uses_the_canonical_notation_and_checks_it() {
        let h: Hand = "EE 11m [3333s] [324m] [555p+5p] =E".parse().unwrap();
        let json = serde_json::to_string(&h).unwrap();
        assert_eq!(json, "\"11m EE [3333s] [234m] [555p+5p] =E\"");
        assert_eq!(serde_json::from_str::<Hand>(&json).unwrap(), h);
        let err = serde_json::from_str::<Hand>("\"123m =5p\"").unwrap_err();
        assert!(err.to_string().contains("a Mah-Jongg hand has 14"), "{err}");
    }

    #[test]
    fn syntax_errors_point_at_the_column() {
        let e = |s: &str| s.parse::<HandSetup>().unwrap_err();
        assert_eq!(
            e("[123m"),
            HandSyntaxError::Unclosed {
                column: 1,
                open: '['
            }
        );
        assert_eq!(
            e("123m]"),
            HandSyntaxError::UnopenedClose {
                column: 5,
                found: ']'
            }
        );
        assert_eq!(e("[12[3m]]"), HandSyntaxError::Nested { column: 4 });
        assert_eq!(
            e("[123m}"),
            HandSyntaxError::MismatchedClose {
                column: 6,
                open: '[',
                found: '}'
            }
        );
        assert_eq!(e("11m + 2m"), HandSyntaxError::MisplacedPlus { column: 5 });
        assert_eq!(e("{555p+5p}"), HandSyntaxError::MisplacedPlus { column: 6 });
        assert_eq!(
            e("[555p+5p6p]"),
            HandSyntaxError::PlusNeedsOneTile { column: 6 }
        );
        assert_eq!(
            e("11m =5p 6p"),
            HandSyntaxError::WinningNeedsOneTile { column: 5 }
        );
        assert_eq!(
            e("11m =1f"),
            HandSyntaxError::WinningNeedsOneTile { column: 5 }
        );
        assert_eq!(
            e("11m =5p [RRR]"),
            HandSyntaxError::WinningNotLast { column: 5 }
        );
        assert!(matches!(
            e("[RR1f]"),
            HandSyntaxError::BonusInSet { column: 4, .. }
        ));
        assert!(matches!(
            e("[12x]"),
            HandSyntaxError::Notation(NotationError::UnknownLetter { column: 4, .. })
        ));
    }

    #[test]
    fn every_rule_problem_is_listed() {
        let problems = match "[124m] {EEE} [555p+6p] 5555p 1f 1f 1f".parse::<Hand>() {
            Err(HandError::Invalid(p)) => p,
            other => panic!("{other:?}"),
        };
        assert!(problems.contains(&HandProblem::NotASet {
            column: 1,
            written: "[124m]".into()
        }));
        assert!(problems.contains(&HandProblem::NotAKong {
            column: 8,
            written: "{EEE}".into()
        }));
        assert!(problems.contains(&HandProblem::BadAddedKong {
            column: 14,
            written: "[555p+6p]".into()
        }));
        assert!(problems.contains(&HandProblem::FifthCopy {
            tile: "5p".parse().unwrap()
        }));
        assert!(problems.contains(&HandProblem::DuplicateBonus {
            tile: "1f".parse().unwrap()
        }));
        assert!(!problems
            .iter()
            .any(|p| matches!(p, HandProblem::WrongCount { .. })));
        let msg = "123m =5p".parse::<Hand>().unwrap_err().to_string();
        assert_eq!(msg, "0 sets and 3 concealed tiles and the winning tile make 4 tiles counting each set as three; a Mah-Jongg hand has 14");
    }
}
