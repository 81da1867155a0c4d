//! A claim withdrawn (Code §69–71, §76–78): not an irregularity — a player may change his mind
//! until he has discarded (§69) — but a finding, because of what follows from it.
//!
//! - Withdrawn while the claims were still being made: the discard stays live, for the other
//!   players and for the same player for another purpose (§69, §71).
//! - Withdrawn after the discard was granted: it goes back to the table and is dead (§71) —
//!   unless the declarant claims it for another purpose or another player claims it for any
//!   purpose; any tiles laid down with it return to the hand (§69), and play goes on from the
//!   discarder's right.
//! - A claim made in error (a chow not from the left, or a set the claimant could not show)
//!   withdrawn in time costs nothing (§76).
//!
//! §71 "counted dead, unless the declarant should claim the discard for another purpose, or
//! another player claim it for any purpose": the replay opens the claims on the discard again
//! when the grant is withdrawn, and they close as any discard's do (the next player's draw,
//! with §64's exceptions). So a genuine Mah-Jongg may still take a discard a false caller gave
//! back (§82 with §71). *Interpretation:* the declarant claiming it again for the same purpose
//! is not refused by the replay; the finding names the rule for the referee. Pinned by
//! `irregular_tests::a_granted_claim_withdrawn_leaves_the_discard_dead`.

use std::fmt;

use crate::event::ClaimKind;
use crate::{Seat, Tile};

/// A claim of a discard withdrawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Retraction {
    pub seat: Seat,
    pub claim: ClaimKind,
    /// The `ClaimRetracted` event.
    pub event: usize,
    /// The discard claimed, and who discarded it.
    pub tile: Tile,
    pub discarder: Seat,
    /// The discard had been granted to the claim: it is now dead (§71).
    pub granted: bool,
    /// The claim was in error (§76): a chow of a discard not from the left, or a set whose
    /// other tiles the claimant did not hold (when the record knows his tiles).
    pub in_error: bool,
}

impl Retraction {
    /// The sections it cites.
    pub fn citations(&self) -> Vec<&'static str> {
        let mut out = vec!["Code §69", "Code §71"];
        if self.in_error {
            out.push("Code §76");
        }
        out
    }

    /// What follows, in plain words.
    pub fn consequence(&self) -> String {
        let (seat, tile) = (self.seat, self.tile);
        let mut out = if self.granted {
            format!(
                "A claim may be withdrawn until the claimant has discarded (Code §69). The discard had been granted to {seat}: `{tile}` goes back to the table and is dead unless {seat} claims it for another purpose or another player claims it for any purpose (Code §71); any tiles {seat} laid down with it go back into his hand (Code §69), and play goes on with {} drawing.",
                self.discarder.next()
            )
        } else {
            format!(
                "A claim may be withdrawn until the claimant has discarded (Code §69). It was withdrawn before the discard was granted: `{tile}` stays live, and another player may claim it, or {seat} for another purpose (Code §69, §71)."
            )
        };
        if self.in_error {
            out.push_str(&format!(
                " The claim was made in error, and withdrawn in time it costs {seat} nothing (Code §76)."
            ));
        }
        out
    }
}

impl fmt::Display for Retraction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let claim = match self.claim {
            ClaimKind::Chow => "chow",
            ClaimKind::Pung => "pung",
            ClaimKind::Kong => "kong",
            ClaimKind::MahJongg => "Mah-Jongg",
        };
        write!(
            f,
            "Event {}: {} withdrew the claim for {claim} of `{}`, discarded by {}. {}",
            self.event,
            self.seat,
            self.tile,
            self.discarder,
            self.consequence()
        )
    }
}
