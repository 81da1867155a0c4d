//! An Original Call broken (Code §55(b)): after announcing it, the caller altered his hand, so
//! he may not claim Mah-Jongg in that hand.
//!
//! A call announced at the wrong moment is another matter (§55(a), §56: the
//! `misplaced-original-call` irregularity): it binds the player to nothing and earns nothing.
//! A call made in time binds him "not to alter his hand in any way (except by declaring bonus
//! tiles)". The play shows the alteration when the caller:
//! - discards a tile other than the one he has just drawn (a replacement for a bonus tile
//!   counts as drawn);
//! - lays down a set with a claimed discard (chow, pung or kong), or declares a kong of any
//!   kind;
//! - takes a discard into his hand (§81).
//!
//! Interpretations:
//! - A discard of a tile *like* the one just drawn is a discard of that tile: tiles of one kind
//!   are not told apart. When the record did not see the tile drawn, no alteration is found.
//!   Pinned by `irregular_tests::an_original_call_is_broken_by_discarding_another_tile`.
//! - A call of Mah-Jongg after the call was broken is one the player may not make (§55(b)): it
//!   is ruled like a false call (§82), as a hand that cannot Mah-Jongg is (§89(b)); see
//!   the `false_call` findings.

use std::fmt;

use crate::event::{ClaimKind, KongKind};
use crate::{Seat, Tile};

/// How the caller altered his hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Alteration {
    /// Discarded `placed`, having drawn `drawn`.
    Discarded { placed: Tile, drawn: Tile },
    /// Laid down a set with a claimed discard.
    Exposed(ClaimKind),
    /// Declared a kong.
    Kong(KongKind),
    /// Took a discard into his concealed hand.
    TookDiscard(Tile),
}

impl fmt::Display for Alteration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Alteration::Discarded { placed, drawn } => write!(
                f,
                "discarded `{placed}`, keeping the `{drawn}` he had just drawn"
            ),
            Alteration::Exposed(k) => write!(f, "laid down a {k:?} with a claimed discard"),
            Alteration::Kong(KongKind::Concealed) => write!(f, "declared a concealed kong"),
            Alteration::Kong(KongKind::AddedToExposedPung) => {
                write!(f, "added a fourth tile to an exposed pung")
            }
            Alteration::Kong(KongKind::AnnexedDiscard) => {
                write!(f, "annexed a discard to a concealed pung")
            }
            Alteration::TookDiscard(t) => write!(f, "took the discard `{t}` into his hand"),
        }
    }
}

/// An Original Call broken by an alteration of the hand (Code §55(b)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrokenCall {
    pub seat: Seat,
    /// The `OriginalCallAnnounced` event.
    pub called: usize,
    /// The event that altered the hand.
    pub event: usize,
    pub how: Alteration,
}

impl BrokenCall {
    /// The sections it cites.
    pub fn citations(&self) -> Vec<&'static str> {
        vec!["Code §55(a)", "Code §55(b)", "Code §117(l)"]
    }

    /// What follows, in plain words.
    pub fn consequence(&self) -> String {
        let s = self.seat;
        format!(
            "After an Original Call the hand may not be altered except by declaring bonus tiles (Code §55(a)): {s} may not claim Mah-Jongg in this hand (Code §55(b)), and the Original Call's double is lost (Code §117(l))."
        )
    }
}

impl fmt::Display for BrokenCall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Event {}: {} announced an Original Call at event {} and then {}. {}",
            self.event,
            self.seat,
            self.called,
            self.how,
            self.consequence()
        )
    }
}
