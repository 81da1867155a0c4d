//! A discard falsely named (Code §84–88): the tile placed is the discard (§84); a claim of the
//! tile *named* before the naming was corrected costs the discarder a penalty, priced by the
//! ruleset ([`Penalty::FalseNaming`] with [`NamingClaim`]):
//! - §85: claimed for chow: 50 to the claimant (the Code's figure);
//! - §86: claimed for pung or kong: 100 to the claimant;
//! - §87(a): claimed for Mah-Jongg, the named tile completing the hand: 300 to each other
//!   player, and the hand is abandoned;
//! - §88: claims of both kinds: each paid, a Mah-Jongg among them limiting each payment to 300.
//!
//! The claimant must show the tiles the named tile would complete (§85–87); unwilling or
//! unable, the discarder pays nothing. The play knows whether he could when it knows his tiles.
//!
//! Interpretations:
//! - A claimant whose tiles the record never saw is taken at his claim: the penalty follows.
//!   Pinned by `irregular_tests::a_claimant_whose_tiles_were_never_seen_is_taken_at_his_claim`.
//! - A claim of the named tile that the claimant withdrew is a claim he was unwilling to show:
//!   no penalty (§85–86 "if he is unwilling … the discarder shall suffer no penalty").
//! - §87(b), a false Mah-Jongg claim of the named tile: the penalty is due only if another
//!   player laid down part of his hand before the claim was withdrawn; the replay records no
//!   tiles laid down during play (they are laid down after the hand), so the finding carries no
//!   penalty and says so. Pinned by
//!   `irregular_tests::a_false_mah_jongg_claim_of_a_named_tile_carries_no_penalty`.
//! - The Code's correction of a naming (§84) is not recorded as an event: a naming stands
//!   uncorrected.

use std::fmt;

use crate::event::ClaimKind;
use crate::settle::{NamingClaim, Penalty};
use crate::{Seat, Tile};

/// A claim of the tile named.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamedClaim {
    pub seat: Seat,
    pub claim: ClaimKind,
    /// The `ClaimMade` event.
    pub event: usize,
    /// Whether the claimant held the tiles the named tile completes; `None` when the record
    /// did not see his tiles.
    pub shown: Option<bool>,
    /// The event by which he withdrew the claim, if he did.
    pub withdrawn: Option<usize>,
}

impl NamedClaim {
    /// What the claim counts as for the penalty, or `None` when it brings none.
    pub fn naming_claim(&self) -> Option<NamingClaim> {
        if self.withdrawn.is_some() || self.shown == Some(false) {
            return None;
        }
        Some(match self.claim {
            ClaimKind::Chow => NamingClaim::Chow,
            ClaimKind::Pung | ClaimKind::Kong => NamingClaim::Pung,
            ClaimKind::MahJongg => NamingClaim::MahJongg,
        })
    }
}

/// A discard placed as one tile and named as another (Code §84–88).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FalseNaming {
    pub discarder: Seat,
    /// The `TileDiscarded` event.
    pub event: usize,
    pub placed: Tile,
    pub named: Tile,
    /// The claims of the tile named, in order.
    pub claims: Vec<NamedClaim>,
    /// The discard's place among the hand's discards, while it is on the table.
    pub(crate) discard: Option<usize>,
}

impl FalseNaming {
    /// The penalty that follows, if any claim brings one.
    pub fn penalty(&self) -> Option<Penalty<Seat>> {
        let claims: Vec<(Seat, NamingClaim)> = self
            .claims
            .iter()
            .filter_map(|c| c.naming_claim().map(|k| (c.seat, k)))
            .collect();
        (!claims.is_empty()).then_some(Penalty::FalseNaming {
            discarder: self.discarder,
            claims,
        })
    }

    /// The events it rests on: the discard and every claim of the tile named.
    pub fn events(&self) -> Vec<usize> {
        let mut out = vec![self.event];
        out.extend(self.claims.iter().map(|c| c.event));
        out
    }

    /// The sections it cites.
    pub fn citations(&self) -> Vec<&'static str> {
        let mut out = vec!["Code §84"];
        for c in &self.claims {
            let cite = match c.claim {
                ClaimKind::Chow => "Code §85",
                ClaimKind::Pung | ClaimKind::Kong => "Code §86",
                ClaimKind::MahJongg => "Code §87",
            };
            if !out.contains(&cite) {
                out.push(cite);
            }
        }
        if self.claims.len() > 1 {
            out.push("Code §88");
        }
        out
    }

    /// What follows, in plain words.
    pub fn consequence(&self) -> String {
        let d = self.discarder;
        if self.claims.is_empty() {
            return format!(
                "No one claimed the tile named: the tile placed is the discard and {d} suffers no penalty (Code §84)."
            );
        }
        let mut out = String::new();
        for c in &self.claims {
            let s = c.seat;
            let step = match (c.naming_claim(), c.withdrawn) {
                (_, Some(e)) => format!(
                    "{s} withdrew the claim at event {e}: unwilling to show his tiles, so no penalty for it (Code §85–87)."
                ),
                (None, None) if c.claim == ClaimKind::MahJongg => format!(
                    "{s} claimed it for Mah-Jongg, but the tile named would not have completed his hand: if he withdraws before another player lays down tiles no one pays and play continues; otherwise {d} and {s} each pay the two others 150 and the hand is abandoned (Code §87(b)). The play records no tiles laid down, so no penalty is reckoned."
                ),
                (None, None) => format!(
                    "{s} could not show the tiles the named tile would complete: no penalty for that claim (Code §85–86)."
                ),
                (Some(NamingClaim::Chow), _) => {
                    format!("{s} claimed it for chow: {d} pays {s} 50 and play continues in the normal order (Code §85).")
                }
                (Some(NamingClaim::MahJongg), _) => format!(
                    "{s} claimed it for Mah-Jongg, and it would have completed his hand: {d} pays each other player 300 and the hand is abandoned with no other score; the title of East passes only if {d} was East (Code §87(a))."
                ),
                (Some(_), _) => format!(
                    "{s} claimed it for pung or kong: {d} pays {s} 100 and play continues in the normal order (Code §86)."
                ),
            };
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(&step);
        }
        let mahjongg = self
            .claims
            .iter()
            .any(|c| c.naming_claim() == Some(NamingClaim::MahJongg));
        if mahjongg && self.claims.len() > 1 {
            out.push_str(
                " With a Mah-Jongg among the claims, each payment is limited to 300 (Code §88).",
            );
        }
        out
    }
}

impl fmt::Display for FalseNaming {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Event {}: {} placed `{}` and named it `{}`; the tile placed is the discard (Code §84). {}",
            self.event,
            self.discarder,
            self.placed,
            self.named,
            self.consequence()
        )
    }
}
