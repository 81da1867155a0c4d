//! Each call of Mah-Jongg as the play keeps it (Code §82–83): what a take-up needs.
//!
//! A caller may take up his hand until another player lays down tiles (§82), and a rival
//! claimant of the same discard may withdraw his claim until then (§83). Taking up puts the
//! hand back where it stood before the call, so the play keeps that state with the call. Whether
//! the call was false, and what the penalty is, is the adjudication's: it reads these records.

use crate::seat::Seat;

use super::state::PlayState;

/// A call of Mah-Jongg, as the play recorded it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call {
    pub caller: Seat,
    /// The `MahJonggDeclared` event (the hand's start is event 0).
    pub event: usize,
    /// The other seats that laid down tiles while the call stood, with their events; a rival
    /// showing his hand is not among them (§83).
    pub laid_down: Vec<(Seat, usize)>,
    /// The event by which the caller took up his hand (§82), if he did.
    pub taken_up: Option<usize>,
    /// The state just before the call: where play resumes if the caller takes up his hand.
    pub before: Box<PlayState>,
    /// The state as the call stood when the caller took up his hand.
    pub as_called: Option<Box<PlayState>>,
    /// The other seats whose claims of the same discard for Mah-Jongg stood when it was
    /// granted to the caller (§83), in seat order.
    pub rivals: Vec<RivalClaim>,
    /// The seat that drew from the wall over the discard before it was granted: it renounced
    /// its claim of it for Mah-Jongg (§65).
    pub renounced: Option<Seat>,
}

/// Another seat that claimed for Mah-Jongg the discard granted to a caller (§83).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RivalClaim {
    pub seat: Seat,
    /// The event by which he withdrew his claim while the call stood, if he did.
    pub withdrawn: Option<usize>,
}

impl Call {
    pub(crate) fn new(
        caller: Seat,
        event: usize,
        before: PlayState,
        rivals: &[Seat],
        renounced: Option<Seat>,
    ) -> Call {
        Call {
            renounced,
            caller,
            event,
            laid_down: Vec::new(),
            taken_up: None,
            before: Box::new(before),
            as_called: None,
            rivals: rivals
                .iter()
                .map(|&seat| RivalClaim {
                    seat,
                    withdrawn: None,
                })
                .collect(),
        }
    }

    /// Whether `seat` is a rival claimant of the discard, with his claim pressed.
    pub fn rival_pressing(&self, seat: Seat) -> bool {
        self.rivals
            .iter()
            .any(|r| r.seat == seat && r.withdrawn.is_none())
    }
}

/// What a retraction of a Mah-Jongg claim does once a call has ended the play (§82–83).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum TakeUp {
    /// The caller takes up his hand: play resumes where it stood before the call.
    Caller,
    /// A rival claimant withdraws his claim; the call stands.
    Rival(Seat),
    /// Too late: another seat has laid down tiles, and the hand is finished. Why, in words.
    TooLate(String),
}

/// The winner's call undone for a claim of the same discard by a seat before him in order of
/// play (§65), as the play records it: the caller's state kept, as for a take-up.
pub(crate) struct Prior {
    /// The call undone.
    pub call: usize,
    /// The seat that won the discard.
    pub winner: Seat,
    /// The seat before him in order that claims it now.
    pub claimant: Seat,
}
