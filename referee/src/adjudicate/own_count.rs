//! A player's own count of his hand, and the arrangement he laid it down in (Code §104–105,
//! §107, §110).
//!
//! After the Mah-Jongg each player lays his hand down "grouped into the sets in which the player
//! intends to score them" (§104), and that arrangement binds: "no change may be made in the
//! arrangement of the tiles once placed on the table" (§105). Each then scores his own hand
//! (§107, §110; a `ScoreClaimed` event). Two things follow for the referee:
//!
//! - **An arrangement that undervalues the hand** (§105): the hand as grouped scores less than
//!   its best arrangement would. It binds; the finding says by how much, and moves no money
//!   (the settlement already scores the hand as grouped).
//! - **An own count that is wrong** (§110): above the hand's value, "any other player (who would
//!   be obliged to settle with him) may correct him" — the settlement pays the value;
//!   below it, the hand stands at his count, and "any other player who draws attention to his
//!   error shall reimburse the other players for whatever loss they sustain". A played hand
//!   settles each own count as given ([`Penalty::OwnCount`]: the lower of count and value).
//!
//! *Interpretation* (§110): the hand's value is its score as the table scores it, East's run of
//! wins not counted (the adjudication sees one hand). Drawing attention to an undervalued count
//! is a ruling: a referee who overrules the `undervalued` finding lifts the count (the hand is
//! then settled at its value) and orders the reimbursement §110 puts on whoever pointed it
//! out, as an agreed payment with its reason. The last count a player gives before he is paid
//! stands. Pinned by `own_count_tests`.

use std::fmt;

use super::replay::Replay;
use crate::report::HandFacts;
use crate::score::prepare;
use crate::settle::Penalty;
use crate::{Ruleset, Seat};

/// An own count that differs from the hand's value (§110).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Miscount {
    pub seat: Seat,
    /// The `ScoreClaimed` event.
    pub event: usize,
    pub counted: u64,
    /// The hand's score as laid down, under the ruleset.
    pub value: u64,
}

impl Miscount {
    /// `overscored` or `undervalued`.
    pub fn kind(&self) -> &'static str {
        if self.counted > self.value {
            "overscored"
        } else {
            "undervalued"
        }
    }

    /// An undervalued hand stands at the player's count (§110); an overscored one is corrected,
    /// which moves nothing the settlement does not already pay.
    pub fn penalty(&self) -> Option<Penalty<Seat>> {
        (self.counted < self.value).then_some(Penalty::OwnCount {
            seat: self.seat,
            counted: self.counted,
        })
    }
}

impl fmt::Display for Miscount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Miscount {
            seat,
            event,
            counted,
            value,
        } = self;
        write!(
            f,
            "Event {event}: {seat} counted his hand at {counted}, but as laid down it scores {value}."
        )?;
        if counted > value {
            write!(
                f,
                " He overscored it: any player who settles with him may correct him, and he is paid {value} (Code §110)."
            )
        } else {
            write!(
                f,
                " He undervalued it: the hand stands at {counted}, and any other player who draws attention to the error reimburses the others for what they lose by it (Code §110)."
            )
        }
    }
}

/// A hand laid down in an arrangement that scores less than its best (§105).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arrangement {
    pub seat: Seat,
    /// The `HandExposed` event.
    pub event: usize,
    /// The hand's score as grouped, and its arrangement.
    pub as_grouped: u64,
    pub grouped: String,
    /// Its score in the best arrangement, and that arrangement.
    pub best: u64,
    pub best_grouped: String,
}

impl fmt::Display for Arrangement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Event {}: {} laid the hand down as {}, which scores {}; arranged as {} it would score {}. The arrangement placed on the table binds (Code §104–105): the hand scores {}.",
            self.event,
            self.seat,
            self.grouped,
            self.as_grouped,
            self.best_grouped,
            self.best,
            self.as_grouped
        )
    }
}

/// The own counts that differ from their hands' values, and the arrangements that undervalue
/// their hands, once the play has ended in a Mah-Jongg that stands and every hand is seen;
/// nothing otherwise. `facts` are the finished hand's, as the play gives them
/// ([`crate::play::PlayState::facts_leaving_out`]).
///
/// Only the hands a finding needs are scored: those counted by their players, and those laid
/// down grouped — each as grouped and, where it has more than one way of counting, as it could
/// best be grouped (a hand with one way scores the same however it is grouped).
pub(crate) fn judge(
    play: &Replay,
    facts: Option<HandFacts>,
    rules: &Ruleset,
) -> (Vec<Miscount>, Vec<Arrangement>) {
    let Some(facts) = facts.filter(|f| f.win.is_some()) else {
        return (Vec::new(), Vec::new());
    };
    let notes = play.notes();
    let laid = &play.state().laid_down;
    let grouped: Vec<Seat> = Seat::ALL
        .into_iter()
        .filter(|&s| laid[s].as_ref().is_some_and(|h| !h.groups().is_empty()))
        .collect();
    let counted = |s: Seat| notes.own_counts.iter().any(|c| c.seat == s);
    if notes.own_counts.is_empty() && grouped.is_empty() {
        return (Vec::new(), Vec::new());
    }
    // The hands' values: their sheets, whatever penalties settle on top.
    let position = play.state().position(0);
    let score = prepare(rules);
    let Ok(sheets) = facts.sheets(&score, &position, |s| counted(s) || grouped.contains(&s)) else {
        return (Vec::new(), Vec::new());
    };
    let value = |s: Seat| sheets[s].as_ref().map_or(0, |sheet| sheet.total);
    let miscounts = notes
        .own_counts
        .iter()
        .filter(|c| c.counted != value(c.seat))
        .map(|c| Miscount {
            seat: c.seat,
            event: c.event,
            counted: c.counted,
            value: value(c.seat),
        })
        .collect();
    // The grouped hands as they could best be grouped: only where there is a choice.
    let mut ungrouped = facts.clone();
    for &s in &grouped {
        if let Some(h) = &laid[s] {
            ungrouped.hands[s] = Some(h.ungrouped());
        }
    }
    let choice: Vec<Seat> = grouped
        .iter()
        .copied()
        .filter(|&s| {
            ungrouped
                .score_input(s, &position)
                .and_then(|input| score.ways(&input))
                .is_some_and(|n| n > 1)
        })
        .collect();
    let Ok(best) = ungrouped.sheets(&score, &position, |s| choice.contains(&s)) else {
        return (miscounts, Vec::new());
    };
    let arrangements = choice
        .into_iter()
        .filter_map(|s| {
            let (as_grouped, best) = (sheets[s].as_ref()?, best[s].as_ref()?);
            let event = notes.laid_down_at[s]?;
            (best.total > as_grouped.total).then(|| Arrangement {
                seat: s,
                event,
                as_grouped: as_grouped.total,
                grouped: as_grouped.arrangement.clone(),
                best: best.total,
                best_grouped: best.arrangement.clone(),
            })
        })
        .collect();
    (miscounts, arrangements)
}
