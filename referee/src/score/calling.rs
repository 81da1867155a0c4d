//! A losing hand calling for a special hand.
//!
//! The Chinese classical rules (and the British, played "in the same way"): "If a player went
//! Mah Jong with a special hand **or a player was Calling on a special hand at Mah Jong**, the
//! scores in the Special Hand table apply." Other clubs pay a caller part of the award, so the
//! share is the ruleset's reading `calling_special` (`None` where a calling hand scores as it
//! lies, as under the Code, Babcock and Harr).
//!
//! A hand is calling for a special hand when one more tile would complete it as that hand. The
//! special hands are the ruleset's limit hands of the Mah-Jongg hand that depend only on the
//! tiles — not on how the last tile came (a loose tile, the last tile, a robbed kong, East's
//! run): the caller is credited with the tile drawn from the wall, and nothing else.

use crate::rules::{Applies, Element, LimitShare, Ruleset, Value};
use crate::score::input::{ScoreInput, Win, WinFrom};
use crate::tile::Tile;
use crate::TileCounts;

use super::candidate::{shapes_met, winning_candidates};
use super::evaluate::Context;
use super::plan::{Layout, Plan};
use crate::shape::standard_waits;

/// Is `e` a special hand a losing hand may be calling for?
pub(crate) fn callable(e: &Element) -> bool {
    matches!(e.value, Value::Limit(_))
        && e.applies == Applies::Winner
        && !e.condition.is_about_the_last_tile()
        && !e.also.iter().any(|c| c.is_about_the_last_tile())
}

/// The special hand a losing hand is calling for that is worth most, and the share of the limit
/// the caller scores for it (the reading's share of the hand's own): `None` when the ruleset
/// pays no caller, or the hand calls for none.
pub(crate) fn award<'r>(
    rules: &'r Ruleset,
    plan: &Plan,
    input: &ScoreInput,
) -> Option<(&'r Element, LimitShare)> {
    let paid = rules.readings.calling_special.value?;
    if input.win.is_some() || !rules.active_elements().any(callable) {
        return None;
    }
    let mut best: Option<(&Element, LimitShare)> = None;
    let layout = Layout::new(rules, true, callable);
    // Only a tile that completes the standard shape (a table lookup) or a special one can be
    // called for: the arrangement search runs for those alone.
    let waits = standard_waits(input.hand.concealed());
    for tile in Tile::ALL {
        let Some(hand) = input.hand.completed_by(tile) else {
            continue;
        };
        let met = shapes_met(&hand, tile, true, &plan.shapes);
        if !waits.contains(tile) && met.is_empty() {
            continue;
        }
        let candidates = winning_candidates(&hand, tile, true, &rules.params, &met);
        if candidates.is_empty() {
            continue;
        }
        let completed = ScoreInput {
            hand,
            seat: input.seat,
            prevailing: input.prevailing,
            win: Some(Win::from(WinFrom::Wall)),
            visible: TileCounts::EMPTY,
        };
        let ctx = Context::new(plan, &layout, rules, &completed, None, &met);
        for c in &candidates {
            let t = ctx.tally(c);
            let Some(share) = t.totals.share else {
                continue;
            };
            let Some(e) = t
                .met
                .iter()
                .map(|&(m, _, _)| ctx.element(m))
                .find(|e| matches!(e.value, Value::Limit(s) if s == share))
                .and_then(|e| rules.element(&e.id))
            else {
                continue;
            };
            if best.is_none_or(|(_, b)| share > b) {
                best = Some((e, share));
            }
        }
    }
    best.map(|(e, share)| (e, paid.times(share)))
}
