//! Incorrect hands (Code §89): long, short and foul hands, derived from the play.
//!
//! §89(a): "The correct number of tiles in an incomplete hand, when the player has discarded,
//! is thirteen, plus one for every bonus tile and one for every kong exposed or declared." The
//! play counts every tile a seat has — in hand (an undeclared bonus tile among them, §73), on
//! the table in sets, its bonus tiles, a claimed discard not yet laid down — at each discard the
//! seat makes in its turn ([`count`]). More is a long hand (a tile drawn out of turn and kept,
//! §73); fewer a short hand (a discard out of turn that was claimed, §74; a replacement not
//! drawn, §31, §80). A foul hand holds a set declared in error and not corrected in time
//! (§76–78).
//!
//! What follows (§89(b), (c)): the hand cannot Mah-Jongg; it goes on drawing and discarding and
//! may chow, pung and kong (a short hand not if it would be left with no tile to discard); at
//! settlement a short or foul hand scores its properly constituted sets, pairs and bonus tiles,
//! while a long hand scores nothing and pays the other two losers the full value of their
//! hands ([`long_hand_payments`]).
//!
//! Interpretations:
//! - The count is taken at a discard made in the seat's turn: a discard out of turn (§74) or a
//!   second tile (§75) may still be taken back, so its effect shows at the next discard in turn.
//!   Pinned by `incorrect_hand_tests::a_draw_out_of_turn_kept_makes_a_long_hand_at_the_next_discard`.
//! - Once found, the hand stays incorrect for the rest of the hand ("cannot Mah-Jongg during that
//!   hand", §89(b)): a later call of Mah-Jongg by that seat is ruled like a false call (§82), the
//!   caller paying each opponent if others lay down tiles before he takes his hand up. The same
//!   holds for a call on a hand whose count is wrong at the call itself. Pinned by
//!   `incorrect_hand_tests::a_long_hand_that_calls_mah_jongg_is_ruled_as_a_false_call`.
//! - A set is in error when it is a chow of a discard not from the left (§40, §76), or a set of
//!   another kind than the claim granted (§77). The play has no event to correct a set once laid
//!   down, so the chance to correct it ends as §76 and §77 say: for a claim in error when the
//!   next player draws or the erring seat's discard is claimed (§76); for wrong tiles at the
//!   erring seat's own next draw or claim (§77). A granted discard never laid down before the
//!   seat's next draw or claim makes the hand foul (§78).
//!   Pinned by `incorrect_hand_tests::a_chow_of_a_discard_not_from_the_left_not_corrected_makes_a_foul_hand`.
//! - §89(c) with §109: a long hand's payment to each other loser is the full value of that
//!   loser's hand, as if the long hand scored nothing and §109 settled the difference; so §109's
//!   doubling applies: twice when East pays (East holding the long hand) or is paid (East one of
//!   the two losers paid). Pinned by
//!   `incorrect_hand_tests::a_long_hand_pays_the_other_losers_the_full_value_doubled_with_east`.

use std::fmt;

use crate::event::ClaimKind;
use crate::play::SeatState;
use crate::{BySeat, Seat, SetKind, Tile};

/// What is wrong with a hand (Code §89(a)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fault {
    /// More tiles than the correct number.
    Long,
    /// Fewer tiles than the correct number.
    Short,
    /// A set declared in error and not corrected in time.
    Foul,
}

impl Fault {
    pub const ALL: [Fault; 3] = [Fault::Long, Fault::Short, Fault::Foul];

    /// The finding's kind, as `adjudicate --json` names it.
    pub const fn kind(self) -> &'static str {
        match self {
            Fault::Long => "long-hand",
            Fault::Short => "short-hand",
            Fault::Foul => "foul-hand",
        }
    }

    /// Its name in a sentence.
    pub const fn name(self) -> &'static str {
        match self {
            Fault::Long => "a long hand",
            Fault::Short => "a short hand",
            Fault::Foul => "a foul hand",
        }
    }
}

/// §89(a)'s count of a seat's tiles: what it has, and the correct number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Count {
    pub held: u32,
    pub correct: u32,
    pub bonus: u32,
    pub kongs: u32,
}

impl Count {
    /// Long or short, or `None` when the count is right.
    pub fn fault(self) -> Option<Fault> {
        match self.held.cmp(&self.correct) {
            std::cmp::Ordering::Greater => Some(Fault::Long),
            std::cmp::Ordering::Less => Some(Fault::Short),
            std::cmp::Ordering::Equal => None,
        }
    }
}

/// §89(a)'s count of `s`, with `extra` tiles owed beyond thirteen (none after a discard, one
/// for a hand that has just completed with its fourteenth tile).
pub fn count(s: &SeatState, extra: u32) -> Count {
    let kongs = s
        .sets
        .iter()
        .filter(|p| p.set.kind() == SetKind::Kong)
        .count() as u32;
    let bonus = s.bonus.len() as u32;
    Count {
        held: s.tiles(),
        correct: 13 + extra + bonus + kongs,
        bonus,
        kongs,
    }
}

/// Why a set was in error (Code §76–78).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FoulSet {
    /// §40, §76: a chow of a discard from a seat not on the left.
    ChowNotFromLeft { discarder: Seat },
    /// §77: laid down as another kind of set than the claim granted.
    NotAsClaimed { claimed: ClaimKind, laid: ClaimKind },
    /// §78: a discard granted for a set never laid down before the next draw or claim.
    NeverLaidDown { claimed: ClaimKind, tile: Tile },
}

impl FoulSet {
    /// The section that makes it foul.
    pub const fn rule(self) -> &'static str {
        match self {
            FoulSet::ChowNotFromLeft { .. } => "Code §76",
            FoulSet::NotAsClaimed { .. } => "Code §77",
            FoulSet::NeverLaidDown { .. } => "Code §78",
        }
    }
}

impl fmt::Display for FoulSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FoulSet::ChowNotFromLeft { discarder } => write!(
                f,
                "a chow of a discard from {discarder}, who is not on the left (Code §40), was not withdrawn before the next player drew or the erring seat's discard was claimed"
            ),
            FoulSet::NotAsClaimed { claimed, laid } => write!(
                f,
                "the discard was claimed for {claimed:?} but laid down as a {laid:?}, and the set was not put right before the seat's next draw or claim"
            ),
            FoulSet::NeverLaidDown { claimed, tile } => write!(
                f,
                "the discard `{tile}`, granted for {}, was not laid down with its set before the seat's next draw or claim",
                claimed.name()
            ),
        }
    }
}

/// A hand found long, short or foul (Code §89).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IncorrectHand {
    pub seat: Seat,
    pub fault: Fault,
    /// The event at which it was found: the discard (or call of Mah-Jongg) with a wrong count,
    /// or the event that ended the chance to correct a set.
    pub event: usize,
    /// For a long or short hand, the count.
    pub count: Option<Count>,
    /// The seat's last discard in turn with a right count, before this one.
    pub last_correct: Option<usize>,
    /// For a foul hand, the set in error and the event it was declared at.
    pub set: Option<(FoulSet, usize)>,
}

impl IncorrectHand {
    /// The finding's kind.
    pub fn kind(&self) -> &'static str {
        self.fault.kind()
    }

    /// The events it rests on.
    pub fn events(&self) -> Vec<usize> {
        let mut out: Vec<usize> = self.last_correct.into_iter().collect();
        out.extend(self.set.map(|(_, e)| e));
        out.push(self.event);
        out
    }

    /// The sections it cites.
    pub fn citations(&self) -> Vec<&'static str> {
        let mut out = vec!["Code §89(a)", "Code §89(b)", "Code §89(c)"];
        match (self.fault, self.set) {
            (Fault::Long, _) => out.push("Code §73"),
            (Fault::Short, _) => out.extend(["Code §74", "Code §80"]),
            (Fault::Foul, Some((s, _))) => out.push(s.rule()),
            (Fault::Foul, None) => out.push("Code §76–78"),
        }
        out
    }

    /// What follows, in plain words (§89(b), (c)).
    pub fn consequence(&self) -> String {
        let s = self.seat;
        let play = format!(
            "{s} cannot Mah-Jongg in this hand, but goes on drawing and discarding and may chow, pung and kong (Code §89(b))"
        );
        match self.fault {
            Fault::Long => format!(
                "{play}. If another player goes Mah-Jongg, {s}'s hand scores nothing and {s} pays the other two losers the full value of their hands (Code §89(c)); Interpretation: twice that when East pays or is paid, as Code §109 settles with East."
            ),
            Fault::Short => format!(
                "{play}, though he may not claim a discard if that would leave him no tile to discard. If another player goes Mah-Jongg, {s} scores his properly constituted sets, pairs and bonus tiles and settles with the other two losers (Code §89(c))."
            ),
            Fault::Foul => format!(
                "{play}. If another player goes Mah-Jongg, {s} scores his properly constituted sets, pairs and bonus tiles and settles with the other two losers (Code §89(c)); a set he never laid down scores nothing (Code §78)."
            ),
        }
    }
}

impl fmt::Display for IncorrectHand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.seat;
        write!(f, "Event {}: ", self.event)?;
        if let Some(c) = self.count {
            write!(
                f,
                "{s} has {} tiles, but the correct number is {}: thirteen, plus one for each of its {} bonus tiles and {} kongs (Code §89(a)).",
                c.held, c.correct, c.bonus, c.kongs
            )?;
            if let Some(e) = self.last_correct {
                write!(f, " The count was right at its discard at event {e}.")?;
            }
        }
        match self.set {
            Some((set @ FoulSet::NeverLaidDown { .. }, e)) => write!(
                f,
                "{s} drew or claimed at event {e} with a set still owed: {set} ({}).",
                set.rule()
            )?,
            Some((set, e)) => write!(
                f,
                "{s} declared a set at event {e} in error: {set} ({}).",
                set.rule()
            )?,
            None => {}
        }
        write!(
            f,
            " {s} holds {} (Code §89(a)). {}",
            self.fault.name(),
            self.consequence()
        )
    }
}

/// One payment of §89(c): the long hand pays `to` the amount.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LongHandPayment {
    pub to: Seat,
    pub amount: u64,
}

/// §89(c): what the long hand `long` pays each of the other two losers when `winner` went
/// Mah-Jongg, `scores` being each seat's score after the limit: the full value of the other's
/// hand, doubled when East pays or is paid (Interpretation, with §109). Nothing when the long
/// hand is the winner's (it cannot be: §89(b)).
pub fn long_hand_payments(
    long: Seat,
    winner: Seat,
    east: Seat,
    scores: &BySeat<u64>,
) -> Vec<LongHandPayment> {
    if long == winner {
        return Vec::new();
    }
    Seat::ALL
        .into_iter()
        .filter(|&o| o != long && o != winner)
        .map(|o| {
            let factor = if o == east || long == east { 2 } else { 1 };
            LongHandPayment {
                to: o,
                amount: scores[o].saturating_mul(factor),
            }
        })
        .collect()
}
