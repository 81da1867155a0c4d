//! Scoring a hand under a ruleset, with an itemized sheet.
//!
//! The scorer tries every way the hand may be counted ([`candidate`]), evaluates the ruleset's
//! elements on each ([`evaluate`]), and keeps the best: the highest score, then the highest raw
//! count (freedom of count, Code §105). Which elements exist and what they are worth is data
//! ([`crate::rules`]); this module only knows how to recognise each condition.

mod calling;
mod candidate;
mod evaluate;
mod filter;
mod input;
mod plan;
mod sheet;
mod summary;

pub use input::{Circumstances, ParseWinFromError, ScoreInput, Win, WinFrom};
pub use sheet::{LineValue, ScoreSheet, SheetLine};

use std::fmt;

use crate::counts::TileCounts;
use crate::rules::{BonusReplacement, Condition, Element, LimitShare, Ruleset};
use crate::shape::{standard_waits, WaitCounts};
use crate::tile::{Bonus, Tile, Wind};

use candidate::{losing_candidates, winning_candidates};

/// Why a hand cannot be scored.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScoreError {
    #[error(
        "the hand is declared Mah-Jongg but has no winning tile: mark it with `=`, e.g. `=5p`"
    )]
    NoWinningTile,
    #[error("the hand has a winning tile (`={0}`) but is not declared Mah-Jongg; a losing hand has none")]
    WinningTileInLosingHand(Tile),
    #[error(
        "the hand {hand} is not complete: it has no arrangement into four sets and a pair{special}"
    )]
    NotComplete { hand: String, special: String },
    #[error("the hand {hand} is not complete as the player grouped it (Code §104–105): no arrangement of four sets and a pair holds those groups; ungrouped, it is complete")]
    NotCompleteAsGrouped { hand: String },
    #[error("the hand is complete only with more than {max} chow(s), which this ruleset forbids")]
    TooManyChows { max: u8 },
    #[error("bonus tiles are not in play in this ruleset, but the hand holds {0}")]
    BonusNotInPlay(Bonus),
    #[error(
        "the hand holds {count} `{tile}`, but this ruleset's set has {max} of each bonus tile"
    )]
    TooManyBonus { tile: Bonus, count: usize, max: u8 },
    #[error("more than four `{tile}` between the hand and the tiles visible on the table")]
    VisibleFifthCopy { tile: Tile },
    #[error("only East can win with Heaven's Blessing (the hand's seat is {0})")]
    HeavenNotEast(Wind),
    #[error("Earth's Blessing is won on East's first discard by another player (seat {seat}, won from {from})")]
    EarthMisplaced { seat: Wind, from: WinFrom },
    #[error("consecutive wins as East are counted only for East (the hand's seat is {0})")]
    EastWinsNotEast(Wind),
    #[error("Heaven's Blessing is East's dealt hand complete (Code §122(a)): its last tile is drawn (from the wall, or a loose tile), not taken from {0}")]
    HeavenNotDrawn(WinFrom),
    #[error("Kong upon Kong is won with the loose tile of a second kong made in the same turn (Code §122(f)): the winning tile comes from the loose tiles, not from {0}")]
    KongUponKongNotLoose(WinFrom),
    #[error("Kong upon Kong needs two kongs completed in one turn (Code §122(f)), but the hand has {kongs} kong(s)")]
    KongUponKongWithoutKongs { kongs: usize },
    #[error("a loose tile is drawn only for a kong (Code §46, §48, §50), and under this ruleset a bonus tile is replaced from the live wall (Code §31), but the hand has no kong")]
    LooseTileWithoutKong,
    #[error("a loose tile is drawn for a kong or a bonus tile, but the hand has neither")]
    LooseTileWithoutKongOrBonus,
    #[error("East gives up the deal after {max} consecutive wins ({cite}), so there is no win number {wins} as East")]
    EastWinsBeyondLimit { wins: u32, max: u32, cite: String },
}

/// Scores a hand. Never panics: impossible input is an error.
///
/// To score many hands under one ruleset, prepare it once with [`Scorer`].
pub fn score(rules: &Ruleset, input: &ScoreInput) -> Result<ScoreSheet, ScoreError> {
    score_with(rules, &plan::Plan::new(rules), input)
}

/// [`score`] for several hands under one borrowed ruleset, prepared once (a table's four).
pub(crate) fn prepare(rules: &Ruleset) -> Prepared<'_> {
    Prepared {
        rules,
        plan: plan::Plan::new(rules),
    }
}

/// A borrowed ruleset prepared for scoring several hands ([`prepare`]).
pub(crate) struct Prepared<'a> {
    rules: &'a Ruleset,
    plan: plan::Plan,
}

impl Prepared<'_> {
    /// The name of the ruleset it scores under.
    pub(crate) fn rules_name(&self) -> &str {
        &self.rules.name
    }

    /// Scores a hand, as [`score`] does.
    pub(crate) fn score(&self, input: &ScoreInput) -> Result<ScoreSheet, ScoreError> {
        score_with(self.rules, &self.plan, input)
    }

    /// How many ways of counting the hand has (its arrangements, special shapes among them):
    /// a hand with one scores the same however it is grouped. None for a hand that does not
    /// score.
    pub(crate) fn ways(&self, input: &ScoreInput) -> Option<usize> {
        let hand = &input.hand;
        match (input.win, hand.winning()) {
            (Some(win), Some(w)) => {
                let drawn = win.from.is_drawn();
                let shapes = candidate::shapes_met(hand, w, drawn, &self.plan.shapes);
                let n = winning_candidates(hand, w, drawn, &self.rules.params, &shapes).len();
                (n > 0).then_some(n)
            }
            (None, None) => Some(losing_candidates(hand, &self.rules.params).len()),
            _ => None,
        }
    }
}

/// A ruleset prepared for scoring: what depends on the ruleset alone (which elements are in
/// force, how each is tested, which exclude which) worked out once, for any number of hands.
/// It owns its ruleset, so the two cannot drift apart.
pub struct Scorer {
    rules: Ruleset,
    plan: plan::Plan,
}

impl Scorer {
    pub fn new(rules: Ruleset) -> Self {
        let plan = plan::Plan::new(&rules);
        Scorer { rules, plan }
    }

    /// The ruleset it scores under.
    pub fn rules(&self) -> &Ruleset {
        &self.rules
    }

    /// Scores a hand, as [`score`] does.
    pub fn score(&self, input: &ScoreInput) -> Result<ScoreSheet, ScoreError> {
        score_with(&self.rules, &self.plan, input)
    }
}

impl fmt::Debug for Scorer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Scorer")
            .field("ruleset", &self.rules.name)
            .finish_non_exhaustive()
    }
}

fn score_with(
    rules: &Ruleset,
    plan: &plan::Plan,
    input: &ScoreInput,
) -> Result<ScoreSheet, ScoreError> {
    check(rules, input)?;
    let hand = &input.hand;
    let mut shapes_met = Vec::new();
    let (candidates, only, layout) = match (input.win, hand.winning()) {
        (Some(win), Some(w)) => {
            let drawn = win.from.is_drawn();
            shapes_met = candidate::shapes_met(hand, w, drawn, &plan.shapes);
            let cands = winning_candidates(hand, w, drawn, &rules.params, &shapes_met);
            if cands.is_empty() {
                return Err(incomplete(rules, plan, hand, w, drawn));
            }
            (
                cands,
                Some(only_place_facts(rules, input, w)?),
                &plan.winner,
            )
        }
        (None, None) => (
            losing_candidates(hand, &rules.params),
            None,
            plan.loser(rules),
        ),
        (Some(_), None) => return Err(ScoreError::NoWinningTile),
        (None, Some(w)) => return Err(ScoreError::WinningTileInLosingHand(w)),
    };
    let ctx = evaluate::Context::new(plan, layout, rules, input, only, &shapes_met);
    // `candidates` is never empty: a losing hand always has the empty regrouping.
    let Some((i, tally)) = ctx.best(&candidates) else {
        return Err(ScoreError::NotComplete {
            hand: hand.to_string(),
            special: String::new(),
        });
    };
    let mut sheet = ctx.sheet(&candidates[i], &tally);
    if let Some((element, share)) = calling::award(rules, plan, input) {
        credit_calling(rules, &mut sheet, element, share);
    }
    Ok(sheet)
}

/// A losing hand calling for a special hand scores the caller's share of it, when that is more
/// than the hand counts as it lies.
fn credit_calling(rules: &Ruleset, sheet: &mut ScoreSheet, element: &Element, share: LimitShare) {
    let value = rules.limit_value(share);
    if value <= sheet.total {
        return;
    }
    sheet.lines.push(SheetLine {
        element: format!("calling-{}", element.id).into(),
        name: format!("Calling for {}", element.name).into(),
        tiles: None,
        cite: format!(
            "{} ({}; the hand: {})",
            rules.readings.calling_special.cite,
            share_words(rules),
            element.cite
        )
        .into(),
        value: LineValue::Limit(share),
    });
    sheet.total = value;
    sheet.limited = true;
    sheet.limit_hand = Some(share);
}

fn share_words(rules: &Ruleset) -> String {
    match rules.readings.calling_special.value {
        Some(s) if s == LimitShare::FULL => "the caller scores the hand in full".into(),
        Some(s) => format!("the caller scores {s} of the hand"),
        None => String::new(),
    }
}

/// Why a winning hand with no way of counting is not complete.
fn incomplete(
    rules: &Ruleset,
    plan: &plan::Plan,
    hand: &crate::hand::Hand,
    winning: Tile,
    drawn: bool,
) -> ScoreError {
    if !hand.groups().is_empty() {
        let ungrouped = hand.ungrouped();
        let shapes = candidate::shapes_met(&ungrouped, winning, drawn, &plan.shapes);
        if !winning_candidates(&ungrouped, winning, drawn, &rules.params, &shapes).is_empty() {
            return ScoreError::NotCompleteAsGrouped {
                hand: hand.to_string(),
            };
        }
    }
    let chows_forbid = rules.params.max_chows < 4 && {
        let mut c = *hand.concealed();
        let _ = c.try_add(winning);
        !crate::shape::arrangements(&c).is_empty()
    };
    if chows_forbid {
        return ScoreError::TooManyChows {
            max: rules.params.max_chows,
        };
    }
    let names: Vec<String> = rules
        .active_elements()
        .filter(|e| e.condition == Condition::Special)
        .filter_map(|e| e.shape.map(|s| s.name().to_owned()))
        .collect();
    ScoreError::NotComplete {
        hand: hand.to_string(),
        special: if names.is_empty() {
            String::new()
        } else {
            format!(
                ", and is none of this ruleset's special hands ({})",
                names.join(", ")
            )
        },
    }
}

fn check(rules: &Ruleset, input: &ScoreInput) -> Result<(), ScoreError> {
    let hand = &input.hand;
    if let Some(&b) = hand.bonus().first() {
        if !rules.params.bonus_tiles {
            return Err(ScoreError::BonusNotInPlay(b));
        }
    }
    for b in Bonus::ALL {
        let count = hand.bonus().iter().filter(|&&x| x == b).count();
        if count > usize::from(rules.params.bonus_copies) {
            return Err(ScoreError::TooManyBonus {
                tile: b,
                count,
                max: rules.params.bonus_copies,
            });
        }
    }
    if let Some(win) = input.win {
        if win.heavens_blessing && input.seat != Wind::East {
            return Err(ScoreError::HeavenNotEast(input.seat));
        }
        if win.earths_blessing && (input.seat == Wind::East || win.from != WinFrom::Discard) {
            return Err(ScoreError::EarthMisplaced {
                seat: input.seat,
                from: win.from,
            });
        }
        if win.east_wins > 0 && input.seat != Wind::East {
            return Err(ScoreError::EastWinsNotEast(input.seat));
        }
        check_circumstances(rules, input, win)?;
    }
    Ok(())
}

/// Refuses circumstances that the hand or the ruleset contradicts, instead of scoring them.
fn check_circumstances(rules: &Ruleset, input: &ScoreInput, win: Win) -> Result<(), ScoreError> {
    let source = win.source();
    if win.heavens_blessing && !win.from.is_drawn() {
        return Err(ScoreError::HeavenNotDrawn(source));
    }
    let kongs = input.hand.melds().iter().filter(|m| m.is_kong()).count();
    if win.is_kong_upon_kong() {
        if source != WinFrom::LooseTile {
            return Err(ScoreError::KongUponKongNotLoose(source));
        }
        if kongs < 2 {
            return Err(ScoreError::KongUponKongWithoutKongs { kongs });
        }
    }
    if source == WinFrom::LooseTile && kongs == 0 {
        match rules.readings.bonus_replacement.value {
            BonusReplacement::LiveWall => return Err(ScoreError::LooseTileWithoutKong),
            BonusReplacement::LooseTile if input.hand.bonus().is_empty() => {
                return Err(ScoreError::LooseTileWithoutKongOrBonus)
            }
            BonusReplacement::LooseTile => {}
        }
    }
    let max = rules.rotation.east_gives_up_after;
    if max > 0 && win.east_wins > max {
        return Err(ScoreError::EastWinsBeyondLimit {
            wins: win.east_wins,
            max,
            cite: rules.rotation.cite.clone(),
        });
    }
    Ok(())
}

fn only_place_facts(
    rules: &Ruleset,
    input: &ScoreInput,
    winning: Tile,
) -> Result<WaitCounts, ScoreError> {
    let before = input.hand.concealed();
    let mut melded = [0u8; Tile::COUNT];
    for m in input.hand.melds() {
        for t in m.set.tiles() {
            melded[t.index()] += 1;
        }
    }
    // The player's own exposed sets are on the table too.
    let mut visible: TileCounts = input.visible;
    for t in Tile::ALL {
        let seen = visible.get(t);
        let held = before.get(t) + u8::from(t == winning) + melded[t.index()];
        if seen > 0 && held + seen > 4 {
            return Err(ScoreError::VisibleFifthCopy { tile: t });
        }
        for _ in 0..melded[t.index()] {
            visible
                .try_add(t)
                .map_err(|_| ScoreError::VisibleFifthCopy { tile: t })?;
        }
    }
    let waits = standard_waits(before);
    if !waits.contains(winning) {
        // A special shape (Thirteen Unique Wonders, Seven Twins): the only-place score is for
        // standard hands, and a count of waits here would mean nothing.
        return Ok(WaitCounts::default());
    }
    // As `shape::fills_only_place` counts them, for the same rule (`OnlyPlaceRule::fills`); the
    // role the winning tile plays is chosen per way of counting (`evaluate`), so the
    // arrangement search is not repeated here.
    Ok(WaitCounts {
        waits: waits.len(),
        live: crate::shape::only_place::live(
            waits,
            before,
            &visible,
            rules.readings.only_place_counts_own_tiles.value,
        )
        .len(),
    })
}
