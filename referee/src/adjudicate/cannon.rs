//! Letting off a cannon (Code §90–96): a discard made while another player displayed sets that
//! signal a special hand, which that player claimed and used to complete the hand.
//!
//! The Code's test has three moments, and a hand's events carry each of them:
//! - **the discard** (§90): what each other player had exposed or declared then, and how many
//!   tiles were left in the live wall. A pung or kong counts from the call (§91); a chow for
//!   §90(a) from the call and for §90(e) only once laid — at a discard every claimed set is
//!   already on the table, so the sets on the table are the sets displayed;
//! - **the claim** (§92): only the dangerous player's claim counts, and not a claim for kong;
//! - **the end of the hand** (§92–93): the dangerous player completes the specified hand, with
//!   that discard or later; a second dangerous discard that completes it frees the first.
//!
//! A tile added to an exposed pung and robbed is treated as a discard (§94). No Choice (§95) is
//! worked out from the discarder's concealed tiles when the record knows them.
//!
//! Interpretations (the Code is silent or loose):
//! - §90(a), (d), (e), (f): "three sets … of one suit / of honours / All-Green / ones and
//!   nines" are read with the danger-signal figures (i), (iv)–(vi): the player displays those
//!   sets *and no others* (with another kind of set the specified hand cannot be made).
//!   §90(b) and (c) say "with or without another set".
//! - §90(g): "exposed sets" are the sets exposed on the table; a concealed kong is declared,
//!   not exposed (§90 names the two apart: "exposed or declared"), so its tiles are not counted
//!   as showing.
//! - §95(a): a player dealt his fourteen tiles (East's first discard) is treated as having drawn
//!   from the wall; a player who claimed for kong drew a loose tile after, and may plead.
//! - No Choice is a plea (§95(b)): the finding says whether it was open to the discarder; the
//!   referee rules on whether it was made.

use std::fmt;

use super::danger::{CannonReading, Danger, NoChoice, Signal};
use super::watch::{CannonWatch, Taken};
use crate::event::{ClaimKind, HandEvent, HandStarted};
use crate::play::{Formed, Play, PlayError, PlayRules, PlayState};
use crate::settle::{Liability, Penalty};
use crate::{Seat, Tile};

/// A discard that let off a cannon (Code §96), or that did unless No Choice is pleaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cannon {
    pub discarder: Seat,
    /// The dangerous player, who went Mah-Jongg.
    pub winner: Seat,
    pub tile: Tile,
    /// The event of the discard, or of the kong the tile was added to (§94); the hand's start
    /// is event 0.
    pub event: usize,
    /// The tile was added to an exposed pung and robbed (§94), rather than discarded.
    pub robbed_kong: bool,
    /// What the winner claimed it for.
    pub claimed_for: ClaimKind,
    pub danger: Danger,
    /// Earlier dangerous discards the winner claimed for chow or pung, freed by this one
    /// (§93): their events.
    pub freed: Vec<usize>,
    pub no_choice: NoChoice,
    /// The discarder pleaded No Choice (§95(b)).
    pub pleaded: bool,
}

impl Cannon {
    /// The sections the finding rests on.
    pub fn citations(&self) -> Vec<&'static str> {
        let mut out = vec![self.danger.signal.section()];
        if self.danger.signal != Signal::EndOfWall {
            // When a set counts as displayed.
            out.push("Code §91");
        }
        out.push("Code §92");
        if !self.freed.is_empty() {
            out.push("Code §93");
        }
        if self.robbed_kong {
            out.push("Code §94");
        }
        out.extend(["Code §95", "Code §96"]);
        out
    }

    /// The discarder pleaded No Choice and could (§95): the discard is not liable.
    pub fn excused(&self) -> bool {
        self.pleaded && self.no_choice == NoChoice::Open
    }

    /// The penalty the Code gives (§96): the discarder pays for all; none when excused.
    pub fn penalty(&self) -> Option<Penalty<Seat>> {
        (!self.excused()).then_some(Penalty::PaysForAll {
            liable: self.discarder,
            liability: Liability::Full,
            second: None,
        })
    }

    /// The finding's kind, as the adjudication names it.
    pub fn kind(&self) -> &'static str {
        if self.excused() {
            "no-choice-excused"
        } else {
            "cannon"
        }
    }
}

impl fmt::Display for Cannon {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (d, w, t) = (self.discarder, self.winner, self.tile);
        let sets: Vec<String> = self
            .danger
            .displayed
            .iter()
            .map(|s| match s.formed {
                Formed::ConcealedKong => format!("{{{}}}", s.set),
                _ => format!("[{}]", s.set),
            })
            .collect();
        let what = if self.robbed_kong {
            format!("added {t} to an exposed pung (event {})", self.event)
        } else {
            format!("discarded {t} (event {})", self.event)
        };
        write!(f, "When {d} {what}, {w} had ")?;
        if sets.is_empty() {
            write!(f, "nothing displayed")?;
        } else {
            write!(f, "displayed {}", sets.join(" "))?;
        }
        write!(
            f,
            ": {}, so the tile was dangerous ({}). ",
            self.danger.signal.because(t),
            self.danger.signal.section()
        )?;
        let claimed = match (self.robbed_kong, self.claimed_for) {
            (true, _) => "robbed the kong for Mah-Jongg".to_owned(),
            (false, ClaimKind::MahJongg) => "claimed it for Mah-Jongg".to_owned(),
            (false, k) => format!("claimed it for {k:?} and later went Mah-Jongg").to_lowercase(),
        };
        write!(
            f,
            "{w} {claimed}, completing {} (Code §92{}). ",
            self.danger.signal.hand(),
            if self.robbed_kong { ", §94" } else { "" }
        )?;
        if !self.freed.is_empty() {
            let events: Vec<String> = self.freed.iter().map(|e| e.to_string()).collect();
            write!(
                f,
                "The earlier dangerous discard{} {w} claimed (event {}) {} freed by this one (Code §93). ",
                if events.len() == 1 { "" } else { "s" },
                events.join(", "),
                if events.len() == 1 { "is" } else { "are" }
            )?;
        }
        let plea = if self.pleaded {
            "pleaded No Choice"
        } else {
            "did not plead No Choice"
        };
        match self.no_choice {
            NoChoice::HeldSafe(s) => write!(
                f,
                "{d} {plea}, but held {s}, which was not dangerous, so had a choice (Code §95(a)). "
            )?,
            NoChoice::Open if self.pleaded => {
                return write!(
                    f,
                    "{d} had drawn from the wall and held nothing but dangerous tiles, showed them and pleaded No Choice: the discard is not liable (Code §95)."
                )
            }
            NoChoice::Open => write!(
                f,
                "{d} had drawn from the wall and held nothing but dangerous tiles, but did not show them and plead No Choice (Code §95(b)). "
            )?,
            NoChoice::BarredAfterClaim(k) => write!(
                f,
                "{d} {plea}; he held nothing but dangerous tiles, but after claiming a discard for {}, so he may not plead it (Code §95(a)). ",
                format!("{k:?}").to_lowercase()
            )?,
            NoChoice::Unknown => write!(
                f,
                "{d} {plea}; the record does not show his concealed tiles, so whether he had a choice is for the referee (Code §95). "
            )?,
        }
        write!(
            f,
            "{d} let off a cannon: after paying {w} what he owes, he reimburses the other two losers what they owe {w}, and the losers settle nothing among themselves (Code §96)."
        )
    }
}

impl CannonWatch {
    /// The cannon let off, once the hand in `state` has ended in Mah-Jongg on one (read under
    /// the Code: the books' penalties are [`super::insurance`]'s).
    pub fn cannon(&self, state: &PlayState) -> Option<Cannon> {
        let (winner, taken) = self.taken_by_winner(state)?;
        // The winner's dangerous claims (§92: not for kong): the latest that the hand
        // completes is liable, and the earlier ones are freed (§93).
        let claimed: Vec<&Taken> = taken.iter().filter(|t| t.kind != ClaimKind::Kong).collect();
        let i = claimed.iter().rposition(|t| t.danger.is_some())?;
        let (last, d) = (claimed[i], claimed[i].dangerous);
        Some(Cannon {
            discarder: d.discarder,
            winner,
            tile: d.tile,
            event: d.event,
            robbed_kong: d.robbed_kong(),
            claimed_for: last.kind,
            danger: last.danger?.clone(),
            freed: claimed[..i].iter().map(|t| t.dangerous.event).collect(),
            no_choice: d.no_choice,
            pleaded: d.pleaded,
        })
    }
}

/// The cannon let off in the hand started by `started` and played through `events` (the
/// start is event 0, `events[0]` event 1), with §90 read as `reading` says (under the Code's
/// reading, [`Play::cannon`] has it at the end of any replay). A hand whose play cannot be
/// replayed is refused with the event and why.
pub fn cannon_reading(
    rules: PlayRules,
    started: &HandStarted,
    events: &[HandEvent],
    reading: CannonReading,
) -> Result<Option<Cannon>, PlayError> {
    let mut play = Play::start(rules, started)?;
    let mut watch = CannonWatch::new(reading);
    for e in events {
        let noted = watch.note(play.state(), play.events(), e);
        play.apply(e)?;
        watch.record(play.state(), e, noted);
    }
    Ok(watch.cannon(play.state()))
}
