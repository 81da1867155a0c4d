//! An event that broke a rule of play (Code §16–81, §84–88, §95), as the replay flagged it
//! ([`Breach`]), turned into a finding: its kind as `adjudicate --json` names it, the seat that
//! broke the rule, the sections it cites and what the Code says follows.
//!
//! The kinds: `late-bonus` (§31), `own-discard-claimed` (§36), `chow-not-from-left` (§40),
//! `expose-out-of-turn` (§39, §43), `chow-limit` (the ruleset's), `misplaced-original-call`
//! (§55(a), §56), `late-no-choice` (§95(b)), `wrong-tile-drawn` (§72), `draw-out-of-turn`
//! (§73; a loose tile drawn when none was owed, §46–50), `discard-out-of-turn` (§74),
//! `two-discards` (§75), `false-naming` (§84–88, see [`super::false_naming`] for the finding
//! with its penalty), `precedence` (§61–63), `discard-taken-back` (§71), `discard-into-hand`
//! (§81), `kong-out-of-turn` (§46, §48, §50–51), `kong-robbed` (the ruleset's),
//! `robbed-concealed-kong` (§58), `mah-jongg-out-of-turn` (§53–54), `early-wash-out` (§36, §97).
//!
//! Interpretations (the Code names no consequence):
//! - §53–54: a Mah-Jongg declared out of turn, or on a discard not granted for it, is not a
//!   call the Code allows; the finding leaves the ruling to the referee and points at §82, the
//!   Code's rule for a call that cannot stand. Pinned by
//!   `irregular_tests::mah_jongg_out_of_turn_is_found_and_points_at_section_82`.
//! - §58: a concealed kong robbed for any hand but the Thirteen Unique Wonders: the robbing does
//!   not stand, and the Mah-Jongg made by it is to be ruled like a false call (§82). Pinned by
//!   `irregular_tests::a_concealed_kong_robbed_for_an_ordinary_hand_is_found`.

use std::fmt;

use crate::play::{Breach, Irregularity};
use crate::Seat;

/// An event that broke a rule of play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Irregular {
    /// The event (the hand's start is event 0).
    pub event: usize,
    pub irregularity: Irregularity,
}

impl Irregular {
    /// The rule broken.
    pub fn breach(&self) -> Breach {
        self.irregularity.breach
    }

    /// The seat that broke it.
    pub fn offender(&self) -> Option<Seat> {
        self.irregularity.seat
    }

    /// Its kind, as `adjudicate --json` names it.
    pub fn kind(&self) -> &'static str {
        self.breach().kind()
    }

    /// The sections it cites: the rule broken, and those that say what follows.
    pub fn citations(&self) -> Vec<&'static str> {
        self.breach().citations()
    }

    /// What the Code says happens, in plain words.
    pub fn consequence(&self) -> String {
        let seat = self
            .offender()
            .map_or_else(|| "the table".to_owned(), |s| s.to_string());
        self.breach().consequence(&seat)
    }
}

impl fmt::Display for Irregular {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Event {}: {} ({}). {}",
            self.event,
            self.irregularity.what,
            self.irregularity.rule,
            self.consequence()
        )
    }
}
