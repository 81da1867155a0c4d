//! The books' own penalties for a dangerous discard: Babcock's insurance penalties (the Chinese
//! game, ch. VIII) and Harr's penalty 2 (Pung Chow). Each is read from the same watch of the
//! play as the Code's cannon ([`CannonWatch`]: the sets displayed at each discard, who took it
//! and for what, how the hand ended), with the book's own signals ([`Signal`]) and liability.
//!
//! Pages are the printed ones, fixed from the numerals the OCR left at the foot of each page
//! and from each book's index.
//!
//! # Babcock, *Rules for Mah-Jongg* (2nd ed., 1923), ch. VIII, "Insurance Penalties"
//!
//! "Among Chinese players it is customary to require each player to insure each of the others
//! against certain large scores which may occur as a result of risky discards" (pp. 74–75),
//! "in the following instances, only":
//! 1. (p. 75) a player has exposed two sets of dragons, "including concealed combinations of
//!    four of a kind which have been declared", and another discards the third dragon, "which
//!    allows the first player to complete his hand (with three sets of Dragons …)": the
//!    discarder "must pay the entire amount due to the winner from the other two losers, in
//!    addition to his own losses" (**full**). Punged, and the hand completed "on a later
//!    play": the discarder pays "one-half of the total amount due to the winner from the other
//!    two losers … The other half is borne by the other two losers" (**half**). Never
//!    completed: no penalty. ([`Signal::ThirdDragonSet`])
//! 2. (pp. 75–76) three or more sets of one suit exposed, and a discard of that suit lets him
//!    complete a hand entirely of one suit: **full**. Punged or chowed, the hand completed
//!    later by drawing the winning tile: **half**, as in 1. Completed later "on a discard of a
//!    tile of the same suit by a third player": the first discarder pays one-half "of the
//!    total amount due to the winner", the final discarder the other half, "the fourth player
//!    paying nothing" (**half, with a second**). ([`Signal::OneSuit`])
//! 3. (p. 76) three or more sets of winds, or three or more "combinations containing no tiles
//!    other than ones, nines, or Honor Tiles", exposed: the others insure against his winning
//!    a Four Wind Hand (p. 53) or a hand of nothing but ones, nines and honours "as the result
//!    of a discard of any Wind or of any one, nine, or Honor Tile", with "the procedure …
//!    outlined under paragraph [2]". ([`Signal::FourWindHand`], [`Signal::Heads`])
//!
//! A fourth added to an exposed set that lets a player win (robbing the kong, p. 22) is
//! liable as a discard (p. 76, Note). Exemptions:
//! - (pp. 76–77) the discarder himself holds a waiting hand of a rank "higher than or equal to
//!   the hand against which he must insure": first rank, a waiting hand entirely of one suit,
//!   or three sets of winds, his own among them, and one or a pair of the fourth; second rank,
//!   two sets of winds not his own and pairs of the other two, or two sets of dragons and a
//!   pair of the third; third rank, a waiting hand of nothing but ones, nines and honours
//!   ([`Rank`]);
//! - (pp. 77–78) his hand "contains no tile other than one which might make him liable": he is
//!   exempt, "whether his hand is Waiting or not" — but not when he "has Chowed or Punged and
//!   then on the same play" finds himself so;
//! - (p. 79) under the New Method, any waiting hand exempts him.
//!
//! "When an insurance penalty is paid, all scores of the three losers are cancelled" (p. 78):
//! the settlement of paying for all ([`crate::settle`]) settles nothing among the losers.
//!
//! # Harr, *Pung Chow* (1922), "Penalties", 2 (pp. 68–70)
//!
//! "The one discarding a tile that permits another player to win must bear the entire losses
//! of all other players" (**full**), "if the player winning had any of the following four
//! combinations of tiles exposed at the time of discarding" (p. 68):
//! 1. nine tiles or more of one suit exposed, and the discard gives a winning hand entirely of
//!    that suit ([`Signal::OneSuit`]);
//! 2. nine heads or more exposed (a head is "a one, nine, wind or a dragon", p. 60), and the
//!    discard gives a winning hand entirely of heads ([`Signal::Heads`]);
//! 3. two sets of dragons exposed, and the discard of the other dragon "gives the third set of
//!    dragon in a winning hand" ([`Signal::ThirdDragonSet`]; p. 69, Ex. 3: a discard that
//!    completes the other pair brings no penalty);
//! 4. three different sets of winds exposed, and the discard of the other wind gives a winning
//!    hand ([`Signal::Winds`]; p. 70, Ex. 4).
//!
//! Exemptions: "unless the discarder himself had two complete doubling honors and was waiting
//! for the winning tile or was waiting for the winning tile which would give him more than two
//! doubling honors" (p. 68); "If a player has no choice in his discard … he is not penalized"
//! (p. 70, Note (a)). "When a penalty is imposed, all scores except that of the winning hand
//! are canceled" (p. 70, Note (b)). Harr has no half liability: only the discard the hand is
//! won on is charged.
//!
//! # The Chinese classical and British (BMJA) rules
//!
//! Neither gives a penalty: a calling player declares "one for Mah Jong", which "alerts the
//! other players to be more careful with their discards", and nothing more is said.
//!
//! # Interpretations
//!
//! - Interpretation: Harr's page numbers. The brief's "pp. 67–69" counts from penalty 1; the
//!   OCR's page numerals put penalty 1 on p. 67, penalty 2 and its four cases on p. 68,
//!   Examples 1–3 on pp. 68–69 and Example 4 with Notes (a) and (b) on p. 70.
//! - Interpretation: Harr's "nine tiles" and Babcock's "three combinations" are the same test
//!   (a set holds three or four tiles). A display with another kind of set beside them cannot
//!   make the hand insured against, so, as the Code's §90(a), a suit or heads display counts
//!   only with no other sets.
//! - Interpretation: Harr says "exposed"; a declared concealed kong counts, as Babcock says it
//!   does (p. 75), for it lies on the table for all to see.
//! - Interpretation: Babcock's half liability comes of a discard "Punged or Chowed"; a claim
//!   for kong is a pung of four ("Punging for three or four of a kind", p. 80) and counts.
//!   If the winner took more than one insured discard for a set before completing, the first
//!   is charged ("the player who made the first of the two discards is still responsible",
//!   p. 76); no display allows two in practice.
//! - Interpretation: when the same player made both of Babcock's two discards, he bears both
//!   halves: paying for all in full. When one of the two is exempt, the other bears his half
//!   alone and the other two losers the rest, as when the hand is completed from the wall.
//! - Interpretation: "waiting" is calling in the standard shape (four sets and a pair) with
//!   the tiles left after the discard ([`crate::shape::standard_waits`]); a hand calling only
//!   a special hand is not counted waiting. Babcock's ranks are judged on the tile counts of
//!   the hand (concealed and displayed): a wind or dragon held three times is a "completed
//!   set". Harr's "doubling honors" are counted as the doubles they give (p. 66–67: a dragon
//!   set once, his own wind once, his own wind in his own wind round twice), and "the winning
//!   tile" as any tile his own hand waits for.
//! - Interpretation: no plea is needed under either book ("he is exempt", "he is not
//!   penalized"): the exemption is found from the discarder's tiles when the record knows
//!   them; when it does not, the discard is charged and the referee may hear him. Harr has no
//!   bar after a claim, so any discarder with nothing but dangerous tiles is exempt.
//! - Interpretation: Babcock's further custom "among some Chinese players" (p. 78) — the
//!   player who gave the winner four sets by chow or pung pays the others' losses — is not a
//!   dangerous discard and is not derived here.

use std::fmt;

use super::danger::{Book, Danger, NoChoice, Signal};
use super::own_hand::{OwnHand, Rank};
use super::watch::{CannonWatch, Dangerous, Taken};
use crate::event::ClaimKind;
use crate::play::PlayState;
use crate::settle::{Liability, Penalty};
use crate::{Seat, Tile};

/// Why a discarder is not liable under his book.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exemption {
    /// He held nothing but dangerous tiles (Babcock pp. 77–78, after a draw; Harr p. 70,
    /// Note (a)).
    NoChoice,
    /// His own waiting hand ranked with or above the hand insured against (Babcock
    /// pp. 76–77).
    Outranked { held: Rank, against: Rank },
    /// He held a waiting hand, under the New Method (Babcock p. 79).
    Waiting,
    /// He was waiting with two complete doubling honours, or for a tile that would give him
    /// more than two (Harr p. 68).
    DoublingHonours { complete: u32, if_won: u32 },
}

impl Exemption {
    fn cite(self) -> &'static str {
        match self {
            Exemption::NoChoice => "the discarder had nothing but dangerous tiles to discard",
            Exemption::Outranked { .. } => {
                "the discarder's own waiting hand ranked with or above the hand insured against"
            }
            Exemption::Waiting => "the discarder held a waiting hand (the New Method)",
            Exemption::DoublingHonours { .. } => {
                "the discarder was waiting with two doubling honours, or for more than two"
            }
        }
    }

    fn pages(self) -> &'static [&'static str] {
        match self {
            Exemption::NoChoice => &["Babcock p. 77", "Babcock p. 78"],
            Exemption::Outranked { .. } => &["Babcock p. 76", "Babcock p. 77"],
            Exemption::Waiting => &["Babcock p. 79"],
            Exemption::DoublingHonours { .. } => &["Harr p. 68"],
        }
    }
}

/// One insured discard the winner took (or added kong tile he robbed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Insured {
    pub discarder: Seat,
    pub tile: Tile,
    /// The event of the discard, or of the kong the tile was added to.
    pub event: usize,
    pub robbed_kong: bool,
    /// What the winner claimed it for.
    pub claimed_for: ClaimKind,
    pub danger: Danger,
    pub no_choice: NoChoice,
    /// What the discarder held himself, when the record knows.
    pub own: Option<OwnHand>,
    /// Why he is not liable, if he is not.
    pub exempt: Option<Exemption>,
}

impl Insured {
    fn liable(&self) -> bool {
        self.exempt.is_none()
    }

    fn completed(&self) -> bool {
        self.claimed_for == ClaimKind::MahJongg
    }
}

/// A dangerous discard charged (or exempt) under Babcock's insurance penalties or Harr's
/// penalty 2.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Insurance {
    /// [`Book::Babcock`] or [`Book::Harr`].
    pub book: Book,
    /// The player insured against, who went Mah-Jongg.
    pub winner: Seat,
    /// The insured discard: the one the hand was completed on, or (Babcock) the one the winner
    /// punged or chowed before completing it later.
    pub first: Insured,
    /// Babcock p. 76: the insured discard of another tile the hand was completed on later, by
    /// another player than the first.
    pub second: Option<Insured>,
}

impl Insurance {
    /// The liable player(s) and how much, as the book says; `None` when no one is liable.
    pub fn liability(&self) -> Option<(Seat, Liability, Option<Seat>)> {
        let first = &self.first;
        match (&self.second, self.book) {
            (None, Book::Babcock) => first.liable().then(|| {
                let l = if first.completed() {
                    Liability::Full
                } else {
                    Liability::Half
                };
                (first.discarder, l, None)
            }),
            (None, _) => first
                .liable()
                .then_some((first.discarder, Liability::Full, None)),
            (Some(second), _) => match (first.liable(), second.liable()) {
                (true, true) if first.discarder == second.discarder => {
                    Some((first.discarder, Liability::Full, None))
                }
                (true, true) => Some((first.discarder, Liability::Half, Some(second.discarder))),
                (true, false) => Some((first.discarder, Liability::Half, None)),
                (false, true) => Some((second.discarder, Liability::Half, None)),
                (false, false) => None,
            },
        }
    }

    /// The penalty: paying for all, in full or half (Babcock pp. 75–76), in full (Harr p. 68).
    pub fn penalty(&self) -> Option<Penalty<Seat>> {
        self.liability()
            .map(|(liable, liability, second)| Penalty::PaysForAll {
                liable,
                liability,
                second,
            })
    }

    /// The finding's kind: `insurance` or `harr-penalty`, with `-exempt` when no one is
    /// liable.
    pub fn kind(&self) -> &'static str {
        match (self.book, self.liability().is_some()) {
            (Book::Harr, true) => "harr-penalty",
            (Book::Harr, false) => "harr-penalty-exempt",
            (_, true) => "insurance",
            (_, false) => "insurance-exempt",
        }
    }

    /// The discards it rests on.
    pub fn discards(&self) -> impl Iterator<Item = &Insured> {
        std::iter::once(&self.first).chain(&self.second)
    }

    /// The pages it rests on.
    pub fn citations(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        let mut cite = |c: &'static str| {
            if !out.contains(&c) {
                out.push(c);
            }
        };
        for d in self.discards() {
            cite(d.danger.signal.cite(self.book));
            if d.robbed_kong && self.book == Book::Babcock {
                cite("Babcock p. 76");
            }
            for p in d.exempt.map_or(&[][..], Exemption::pages) {
                cite(p);
            }
        }
        match self.book {
            Book::Babcock => {
                if !self.first.completed() {
                    // Half: pp. 75–76; the second discarder: p. 76.
                    cite("Babcock p. 75");
                    cite("Babcock p. 76");
                }
                // "all scores of the three losers are cancelled".
                cite("Babcock p. 78");
            }
            _ => cite("Harr p. 70"),
        }
        out
    }

    fn book_name(&self) -> &'static str {
        match self.book {
            Book::Harr => "Harr's penalty 2",
            _ => "Babcock's insurance penalty",
        }
    }
}

/// The book's finding once the hand in `state` has ended in Mah-Jongg, from `watch` kept
/// under the book's reading; `new_method`: the ruleset settles by Babcock's New Method.
pub fn insurance(watch: &CannonWatch, state: &PlayState, new_method: bool) -> Option<Insurance> {
    let book = watch.reading().book;
    if book == Book::Code {
        return None;
    }
    let (winner, taken) = watch.taken_by_winner(state)?;
    let insured: Vec<(&Taken, &Danger)> =
        taken.iter().filter_map(|t| Some((t, t.danger?))).collect();
    let make = |(t, danger): &(&Taken, &Danger)| -> Insured {
        let d: &Dangerous = t.dangerous;
        Insured {
            discarder: d.discarder,
            tile: d.tile,
            event: d.event,
            robbed_kong: d.robbed_kong(),
            claimed_for: t.kind,
            danger: (*danger).clone(),
            no_choice: d.no_choice,
            own: d.own,
            exempt: exemption(book, new_method, d, danger.signal),
        }
    };
    let completing = insured
        .last()
        .filter(|(t, _)| t.kind == ClaimKind::MahJongg);
    let (first, second) = match book {
        // Harr: only the discard that "permits another player to win".
        Book::Harr => (completing?, None),
        _ => {
            let earlier = insured.iter().find(|(t, _)| t.kind != ClaimKind::MahJongg);
            match (earlier, completing) {
                (Some(e), c) => (e, c),
                (None, Some(c)) => (c, None),
                (None, None) => return None,
            }
        }
    };
    Some(Insurance {
        book,
        winner,
        first: make(first),
        second: second.map(make),
    })
}

/// Why the discarder of `d` is not liable under `book`, if he is not.
fn exemption(book: Book, new_method: bool, d: &Dangerous, against: Signal) -> Option<Exemption> {
    // Babcock bars the plea after a chow or pung (p. 78); Harr does not (p. 70, Note (a)).
    let no_choice = matches!(
        (book, d.no_choice),
        (_, NoChoice::Open) | (Book::Harr, NoChoice::BarredAfterClaim(_))
    );
    if no_choice {
        return Some(Exemption::NoChoice);
    }
    let own = d.own.filter(OwnHand::waiting)?;
    match book {
        Book::Babcock if new_method => Some(Exemption::Waiting),
        Book::Babcock => {
            let (held, against) = (own.rank?, Rank::insured(against)?);
            (held >= against).then_some(Exemption::Outranked { held, against })
        }
        _ => (own.doubling_honours >= 2 || own.doubling_if_won > 2).then_some(
            Exemption::DoublingHonours {
                complete: own.doubling_honours,
                if_won: own.doubling_if_won,
            },
        ),
    }
}

impl fmt::Display for Insurance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let w = self.winner;
        for (i, d) in self.discards().enumerate() {
            let sets: Vec<String> = d
                .danger
                .displayed
                .iter()
                .map(|s| format!("{}", s.set))
                .collect();
            let what = if d.robbed_kong {
                format!("added {} to an exposed pung (event {})", d.tile, d.event)
            } else {
                format!("discarded {} (event {})", d.tile, d.event)
            };
            let took = match (d.robbed_kong, d.claimed_for) {
                (true, _) => "robbed the kong for Mah-Jongg".to_owned(),
                (false, ClaimKind::MahJongg) => "took it for Mah-Jongg".to_owned(),
                (false, k) => {
                    format!("took it for {k:?}, completing the hand later").to_lowercase()
                }
            };
            write!(
                f,
                "{}When {} {what}, {w} had exposed {}: {} ({}). {w} {took}: {}. ",
                if i == 0 { "" } else { "Then: " },
                d.discarder,
                sets.join(" "),
                d.danger.signal.because(d.tile),
                d.danger.signal.cite(self.book),
                d.danger.signal.hand(),
            )?;
            if let Some(e) = d.exempt {
                write!(f, "{} is not liable: {}. ", d.discarder, e.cite())?;
            }
        }
        let name = self.book_name();
        match self.liability() {
            None => write!(f, "No one pays under {name}."),
            Some((l, Liability::Full, _)) => write!(
                f,
                "Under {name}, {l} pays {w} what the other two losers owe him as well as his own debt, and the losers settle nothing among themselves."
            ),
            Some((l, Liability::Half, None)) => write!(
                f,
                "Under {name}, {l} pays his own debt and half of what the other two losers owe {w}; they bear the other half, and the losers settle nothing among themselves."
            ),
            Some((l, Liability::Half, Some(s))) => write!(
                f,
                "Under {name}, {l} and {s} each pay half of the whole amount due to {w}, the fourth player paying nothing (Babcock p. 76)."
            ),
        }
    }
}
