//! The claims on a discard while they may be made, and which one takes it (Code §61, §75).

use crate::by_seat::BySeat;
use crate::event::ClaimKind;
use crate::seat::Seat;

/// The claims on the live discard, while they may be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Window {
    /// Index of the discard into [`PlayState::discards`].
    pub discard: usize,
    /// Each seat's claim, the latest it made (a claim displaced stays in the record).
    pub claims: BySeat<Option<ClaimKind>>,
    /// Seats that passed.
    pub passed: BySeat<bool>,
    /// A claim was declared on the discard, even if withdrawn since: the discarder may no
    /// longer take it back (§71).
    pub declared: bool,
    /// The next player, who drew over the discard and put the tile back for a claim (§64): he
    /// has renounced any claim of it for Mah-Jongg (§65).
    pub drew: Option<Seat>,
    /// Two tiles discarded together (§75): the one before, which may be claimed as well, and
    /// which seats' claims are of it.
    pub with: Option<usize>,
    pub of_with: BySeat<bool>,
}

impl Window {
    /// The claims on discard `discard`, none made yet.
    pub(crate) fn open(discard: usize) -> Window {
        Window {
            discard,
            claims: BySeat::from_fn(|_| None),
            passed: BySeat::from_fn(|_| false),
            declared: false,
            drew: None,
            with: None,
            of_with: BySeat::from_fn(|_| false),
        }
    }

    /// The claim that takes the discard, the discarder being `discarder`: §61's precedence —
    /// with two tiles discarded together, among the claims of the tile claimed by the player
    /// next in order of play, which is the discard "whether or not the claim of the player next
    /// in order of play would take precedence according to section 61" (§75).
    pub fn weighed(&self, discarder: Seat) -> Option<(Seat, ClaimKind)> {
        if self.with.is_none() {
            return precedence(discarder, &self.claims);
        }
        let first = (1..4)
            .map(|k| Seat::from_index((discarder.index() + k) % 4))
            .find(|&s| self.claims[s].is_some())?;
        let of_with = self.of_with[first];
        let claims = BySeat::from_fn(|s| self.claims[s].filter(|_| self.of_with[s] == of_with));
        precedence(discarder, &claims)
    }
}

/// The claim that takes the live discard (§61): Mah-Jongg over pung and kong over chow; between
/// equals, the nearest in turn after the discarder.
pub(crate) fn precedence(
    discarder: Seat,
    claims: &BySeat<Option<ClaimKind>>,
) -> Option<(Seat, ClaimKind)> {
    let mut best: Option<(Seat, ClaimKind)> = None;
    let mut seat = discarder.next();
    for _ in 0..3 {
        if let Some(k) = claims[seat] {
            if best.is_none_or(|(_, b)| rank(k) > rank(b)) {
                best = Some((seat, k));
            }
        }
        seat = seat.next();
    }
    best
}

pub(crate) fn rank(k: ClaimKind) -> u8 {
    match k {
        ClaimKind::MahJongg => 2,
        ClaimKind::Pung | ClaimKind::Kong => 1,
        ClaimKind::Chow => 0,
    }
}
