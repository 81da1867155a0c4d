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

use super::insurance::{own_hand, OwnHand};
use crate::event::{ClaimKind, HandEvent, HandStarted, KongKind};
use crate::play::{
    Concealed, Ending, Formed, Play, PlayError, PlayRules, PlayState, PlayedSet, Turn,
};
use crate::settle::{Liability, Penalty};
use crate::tile::Wind;
use crate::{BySeat, Seat, Set, SetKind, Suit, Tile};

/// Whose rule charges a dangerous discard: the Code's cannon (§90–96), Babcock's insurance
/// penalties (the Chinese game, pp. 75–79) or Harr's penalty 2 (pp. 68–70). Each reads the same
/// watch of the play ([`CannonWatch`]) with its own signals ([`Signal`]) and its own liability
/// ([`crate::adjudicate::insurance`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Book {
    Code,
    Babcock,
    Harr,
}

impl Book {
    pub const ALL: [Book; 3] = [Book::Code, Book::Babcock, Book::Harr];

    /// The book, as a citation names it.
    pub const fn name(self) -> &'static str {
        match self {
            Book::Code => "Code",
            Book::Babcock => "Babcock",
            Book::Harr => "Harr",
        }
    }
}

/// What made a discard dangerous (Code §90).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Signal {
    /// §90(a): three sets of one suit displayed, and no others: any tile of that suit, for a
    /// Clear Suit hand.
    OneSuit(Suit),
    /// §90(b): three sets of winds: the fourth wind, for Four Blessings Hovering o'er the Door
    /// or a hand with the Little Four Joys.
    Winds,
    /// §90(c): two sets of dragons: the third dragon, for the Three Great Scholars or a hand
    /// with the Little or Big Three Dragons.
    Dragons,
    /// §90(d): three sets of honours, and no others: any honour, for All Symbols.
    Honours,
    /// §90(e): three sets of All-Green tiles, and no others: any All-Green tile, for the
    /// Imperial Jade.
    Green,
    /// §90(f): three sets of ones and nines, and no others: any one or nine, for Heads and
    /// Tails.
    Terminals,
    /// §90(g): four tiles or fewer in the live wall, and none of the tile showing among the
    /// discards or in exposed sets: any Mah-Jongg hand.
    EndOfWall,
    /// Babcock p. 75 ¶1, Harr p. 68 (3): two sets of dragons: the third dragon, for a hand with
    /// three sets of dragons (a pair of the third is not insured against: Harr p. 69, Ex. 3).
    ThirdDragonSet,
    /// Babcock p. 76 ¶3: three sets of winds: any wind, for the Four Wind Hand (p. 53: three
    /// sets of winds, the player's own among them, and at least a pair of the fourth).
    FourWindHand,
    /// Babcock p. 76 ¶3, Harr p. 68 (2): three sets of heads (ones, nines and honours; Harr
    /// p. 60) and no others: any head, for a hand of nothing but heads.
    Heads,
}

impl Signal {
    /// Where `book` defines it (the Code's own signals, for [`Book::Code`]).
    pub fn cite(self, book: Book) -> &'static str {
        match (book, self) {
            (Book::Code, _) => self.section(),
            (Book::Babcock, Signal::ThirdDragonSet) => "Babcock p. 75",
            (Book::Babcock, Signal::OneSuit(_)) => "Babcock p. 75",
            (Book::Babcock, _) => "Babcock p. 76",
            (Book::Harr, _) => "Harr p. 68",
        }
    }

    /// The section of the Code that defines it; for a signal only the books give, the page of
    /// the first book that does.
    pub fn section(self) -> &'static str {
        match self {
            Signal::OneSuit(_) => "Code §90(a)",
            Signal::Winds => "Code §90(b)",
            Signal::Dragons => "Code §90(c)",
            Signal::Honours => "Code §90(d)",
            Signal::Green => "Code §90(e)",
            Signal::Terminals => "Code §90(f)",
            Signal::EndOfWall => "Code §90(g)",
            Signal::ThirdDragonSet => "Babcock p. 75",
            Signal::FourWindHand | Signal::Heads => "Babcock p. 76",
        }
    }

    /// The hand it warns of.
    pub fn hand(self) -> &'static str {
        match self {
            Signal::OneSuit(_) => "a Clear Suit hand",
            Signal::Winds => {
                "Four Blessings Hovering o'er the Door or a hand with the Little Four Joys"
            }
            Signal::Dragons => {
                "the Three Great Scholars or a hand with the Little or Big Three Dragons"
            }
            Signal::Honours => "All Symbols",
            Signal::Green => "the Imperial Jade",
            Signal::Terminals => "Heads and Tails",
            Signal::EndOfWall => "a Mah-Jongg hand",
            Signal::ThirdDragonSet => "a hand with three sets of dragons",
            Signal::FourWindHand => "the Four Wind Hand",
            Signal::Heads => "a hand of nothing but ones, nines and honours",
        }
    }

    /// Whether a complete hand of these tiles (every tile of the hand, its sets included), held
    /// by the player whose own wind is `own`, is the hand the signal warns of.
    pub(crate) fn completed(self, tiles: &[u8; Tile::COUNT], own: Wind) -> bool {
        let held = || Tile::ALL.into_iter().filter(|t| tiles[t.index()] > 0);
        let count = |t: Tile| tiles[t.index()];
        match self {
            Signal::OneSuit(s) => held().all(|t| t.suit() == Some(s)),
            Signal::Winds => {
                let winds = held().filter(|t| t.is_wind());
                let counts: Vec<u8> = winds.map(|t| tiles[t.index()]).collect();
                counts.len() == 4 && counts.iter().filter(|&&n| n >= 3).count() >= 3
            }
            Signal::Dragons => {
                let counts: Vec<u8> = held()
                    .filter(|t| t.is_dragon())
                    .map(|t| tiles[t.index()])
                    .collect();
                counts.len() == 3
                    && counts.iter().all(|&n| n >= 2)
                    && counts.iter().filter(|&&n| n >= 3).count() >= 2
            }
            Signal::Honours => held().all(Tile::is_honour),
            Signal::Green => held().all(Tile::is_all_green),
            Signal::Terminals => held().all(Tile::is_terminal),
            Signal::EndOfWall => true,
            Signal::ThirdDragonSet => Tile::ALL
                .into_iter()
                .filter(|t| t.is_dragon())
                .all(|t| count(t) >= 3),
            Signal::FourWindHand => {
                let winds = Wind::ALL.map(|w| count(Tile::wind(w)));
                count(Tile::wind(own)) >= 3
                    && winds.iter().all(|&n| n >= 2)
                    && winds.iter().filter(|&&n| n >= 3).count() >= 3
            }
            Signal::Heads => held().all(Tile::is_major),
        }
    }

    /// Why the sets displayed make `tile` dangerous.
    pub(crate) fn because(self, tile: Tile) -> String {
        match self {
            Signal::OneSuit(s) => format!("three sets of {} and no others", s.name()),
            Signal::Winds => "three sets of winds".into(),
            Signal::Dragons => "two sets of dragons".into(),
            Signal::Honours => "three sets of honours and no others".into(),
            Signal::Green => "three sets of All-Green tiles and no others".into(),
            Signal::Terminals => "three sets of ones and nines and no others".into(),
            Signal::EndOfWall => {
                format!("four tiles or fewer were left in the live wall and no {tile} was showing")
            }
            Signal::ThirdDragonSet => "two sets of dragons".into(),
            Signal::FourWindHand => "three sets of winds".into(),
            Signal::Heads => "three sets of ones, nines and honours and no others".into(),
        }
    }
}

/// A discard dangerous because of one player's display.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Danger {
    /// The dangerous player.
    pub seat: Seat,
    pub signal: Signal,
    /// The sets that player had exposed or declared at the discard.
    pub displayed: Vec<PlayedSet>,
}

/// Whether the discarder could plead No Choice (Code §95).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoChoice {
    /// He held a tile that was not dangerous.
    HeldSafe(Tile),
    /// He had drawn from the wall and held nothing but dangerous tiles: he may show his tiles
    /// and plead No Choice, and then the discard is not liable (§95(a)).
    Open,
    /// He held nothing but dangerous tiles after claiming a discard for chow or pung: he
    /// brought the necessity on himself and may not plead (§95(a)).
    BarredAfterClaim(ClaimKind),
    /// The record does not know his concealed tiles.
    Unknown,
}

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

/// How §90 is read: the Code's text, or mj-server's departures from it (for the cross-check
/// with `../shared/mj-server.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CannonReading {
    /// §90(g): a tile in an exposed set shows ("among the discards, or in exposed sets"); the
    /// server counts the discards only.
    pub exposed_sets_show: bool,
    /// §90(a)–(f): a declared concealed kong is among the sets displayed ("exposed or
    /// declared"); the server counts exposed sets only.
    pub declared_kongs_count: bool,
    /// §92: the discard is liable only if the dangerous player completes the hand the signal
    /// warns of (a Clear Suit hand for §90(a) …); the server charges any Mah-Jongg.
    pub specified_hand: bool,
    /// Whose signals make a discard dangerous.
    pub book: Book,
}

impl CannonReading {
    /// The Code's text.
    pub const CODE: CannonReading = CannonReading {
        exposed_sets_show: true,
        declared_kongs_count: true,
        specified_hand: true,
        book: Book::Code,
    };

    /// Babcock's insurance penalties: "including concealed combinations of four of a kind
    /// which have been declared" (p. 75), and only the hand insured against.
    pub const BABCOCK: CannonReading = CannonReading {
        book: Book::Babcock,
        ..CannonReading::CODE
    };

    /// Harr's penalty 2. Interpretation: Harr says "exposed"; a declared concealed kong lies on
    /// the table for all to see, so it counts as Babcock says it does (p. 75).
    pub const HARR: CannonReading = CannonReading {
        book: Book::Harr,
        ..CannonReading::CODE
    };

    /// The reading of the book a ruleset's `cannons` names; `None` when it names none.
    pub const fn of(cannons: crate::rules::Cannons) -> Option<CannonReading> {
        match cannons {
            crate::rules::Cannons::CodeOfLaws => Some(CannonReading::CODE),
            crate::rules::Cannons::BabcockInsurance => Some(CannonReading::BABCOCK),
            crate::rules::Cannons::HarrPenalty => Some(CannonReading::HARR),
            crate::rules::Cannons::None => None,
        }
    }
}

/// How a seat came to hold the tiles it discards from (§95(a)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Came {
    Drew,
    Claimed(ClaimKind),
}

/// A dangerous discard (or added kong tile) and what became of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Dangerous {
    pub(crate) event: usize,
    discard: Option<usize>,
    pub(crate) discarder: Seat,
    pub(crate) tile: Tile,
    dangers: Vec<Danger>,
    pub(crate) no_choice: NoChoice,
    pub(crate) pleaded: bool,
    claimed: Option<(Seat, ClaimKind)>,
    robbed_by: Option<Seat>,
    /// The discarder's own hand then, for the books' exemptions (Babcock pp. 76–79, Harr
    /// p. 68); `None` under the Code, or when his tiles are not known.
    pub(crate) own: Option<OwnHand>,
}

impl Dangerous {
    /// It was an added kong tile, robbed (Code §94, Babcock p. 76), not a discard.
    pub(crate) fn robbed_kong(&self) -> bool {
        self.discard.is_none()
    }
}

/// A dangerous discard the winner took, with what he took it for, and the danger from his
/// display that the hand he completed bears out, if one does.
pub(crate) struct Taken<'a> {
    pub(crate) dangerous: &'a Dangerous,
    pub(crate) kind: ClaimKind,
    pub(crate) danger: Option<&'a Danger>,
}

/// What a replay keeps for the cannon ruling: how each seat came by its tiles, and every
/// dangerous discard with who took it. [`crate::play::Play`] keeps one under the Code's
/// reading as part of its fold, so the finding is there at the end of any replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CannonWatch {
    reading: CannonReading,
    came: BySeat<Came>,
    dangerous: Vec<Dangerous>,
}

/// What [`CannonWatch::note`] saw before an event, for [`CannonWatch::record`] once it applied.
#[derive(Debug)]
pub struct Noted {
    found: Option<Dangerous>,
    window: Option<usize>,
}

impl CannonWatch {
    pub fn new(reading: CannonReading) -> CannonWatch {
        CannonWatch {
            reading,
            came: BySeat::from_fn(|_| Came::Drew),
            dangerous: Vec::new(),
        }
    }

    /// The same watch, with `seat` having come by the tiles it discards from by claiming a
    /// discard for `claim` (§95(a)): for a replay that starts mid-turn, from a position.
    pub(crate) fn after_claim(mut self, seat: Seat, claim: ClaimKind) -> CannonWatch {
        self.came[seat] = Came::Claimed(claim);
        self
    }

    /// Looks at `state` before event `n`, `e`, is applied to it.
    pub fn note(&self, state: &PlayState, n: usize, e: &HandEvent) -> Noted {
        let found = match e {
            HandEvent::TileDiscarded(d) => dangerous_tile(state, d.seat, d.placed, self.reading)
                .map(|dangers| Dangerous {
                    event: n,
                    discard: Some(state.discards.len()),
                    discarder: d.seat,
                    tile: d.placed,
                    dangers,
                    no_choice: no_choice(state, d.seat, self.came[d.seat], self.reading),
                    pleaded: false,
                    claimed: None,
                    robbed_by: None,
                    own: self.own(state, d.seat, d.placed),
                }),
            HandEvent::KongDeclared(k) if k.kind == KongKind::AddedToExposedPung => {
                dangerous_tile(state, k.seat, k.tile, self.reading).map(|dangers| Dangerous {
                    event: n,
                    discard: None,
                    discarder: k.seat,
                    tile: k.tile,
                    dangers,
                    // §94 speaks of the tile drawn and added, not of a plea.
                    no_choice: NoChoice::Unknown,
                    pleaded: false,
                    claimed: None,
                    robbed_by: None,
                    own: self.own(state, k.seat, k.tile),
                })
            }
            _ => None,
        };
        Noted {
            found,
            window: state.window.as_ref().map(|w| w.discard),
        }
    }

    /// Takes in event `e`, applied to `state`.
    pub fn record(&mut self, state: &PlayState, e: &HandEvent, noted: Noted) {
        self.dangerous.extend(noted.found);
        match e {
            // The discard is off the table (§70, §74, §75): it was never made.
            HandEvent::DiscardTakenBack(_) => {
                let gone = Some(state.discards.len());
                self.dangerous.retain(|d| d.discard != gone);
            }
            HandEvent::TileDrawn(d) => self.came[d.seat] = Came::Drew,
            HandEvent::LooseTileDrawn(d) => self.came[d.seat] = Came::Drew,
            HandEvent::ClaimGranted(g) => {
                self.came[g.seat] = Came::Claimed(g.claim);
                if let Some(d) = self
                    .dangerous
                    .iter_mut()
                    .rev()
                    .find(|d| d.discard.is_some() && d.discard == noted.window)
                {
                    d.claimed = Some((g.seat, g.claim));
                }
            }
            HandEvent::SetExposed(x) => self.came[x.seat] = Came::Claimed(x.claim),
            HandEvent::KongRobbed(r) => {
                if let Some(d) = self
                    .dangerous
                    .iter_mut()
                    .rev()
                    .find(|d| d.discard.is_none() && d.discarder == r.from && d.tile == r.tile)
                {
                    d.robbed_by = Some(r.robber);
                }
            }
            HandEvent::NoChoicePleaded(p) => {
                // For the seat's latest dangerous discard, once it is taken (§95(b)).
                if let Some(d) = self
                    .dangerous
                    .iter_mut()
                    .rev()
                    .find(|d| d.discarder == p.seat)
                    .filter(|d| d.claimed.is_some() || d.robbed_by.is_some())
                {
                    d.pleaded = true;
                }
            }
            _ => {}
        }
    }

    /// The reading it watches under.
    pub fn reading(&self) -> CannonReading {
        self.reading
    }

    /// The discarder's own hand as the books' exemptions need it.
    fn own(&self, state: &PlayState, seat: Seat, tile: Tile) -> Option<OwnHand> {
        (self.reading.book != Book::Code)
            .then(|| own_hand(state, seat, tile))
            .flatten()
    }

    /// Once the hand in `state` has ended in Mah-Jongg: the winner, and the dangerous discards
    /// he took (for any claim, kong included, or by robbing a kong), in the order made, each
    /// with the danger from his display that the hand he completed bears out, if any (any
    /// danger from his display, when the reading does not ask for the specified hand).
    pub(crate) fn taken_by_winner(&self, state: &PlayState) -> Option<(Seat, Vec<Taken<'_>>)> {
        let Turn::Over(Ending::MahJongg { seat: winner, .. }) = state.turn else {
            return None;
        };
        let tiles = all_tiles(state, winner)?;
        let own = state.wind_of(winner);
        // Who holds each dangerous discard at the end is the table's: a claim retracted
        // (§69–71) left it unclaimed, and a Mah-Jongg claim may take a discard granted to
        // another (§62–64).
        let taken = |d: &Dangerous| -> Option<(Seat, ClaimKind)> {
            let i = d.discard?;
            let holder = state.discards.get(i)?.claimed_by?;
            match d.claimed {
                Some((s, k)) if s == holder => Some((s, k)),
                _ => Some((holder, ClaimKind::MahJongg)).filter(|(s, _)| *s == winner),
            }
        };
        let out = self
            .dangerous
            .iter()
            .filter_map(|d| {
                let kind = match (taken(d), d.robbed_by) {
                    (_, Some(r)) if r == winner => ClaimKind::MahJongg,
                    (Some((s, k)), _) if s == winner => k,
                    _ => return None,
                };
                let danger = d.dangers.iter().find(|x| {
                    x.seat == winner
                        && (!self.reading.specified_hand || x.signal.completed(&tiles, own))
                });
                Some(Taken {
                    dangerous: d,
                    kind,
                    danger,
                })
            })
            .collect();
        Some((winner, out))
    }

    /// The cannon let off, once the hand in `state` has ended in Mah-Jongg on one (read under
    /// the Code: the books' penalties are [`crate::adjudicate::insurance`]'s).
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

/// The dangers of `tile` leaving `seat`'s hand at this moment, if any.
fn dangerous_tile(
    state: &PlayState,
    seat: Seat,
    tile: Tile,
    reading: CannonReading,
) -> Option<Vec<Danger>> {
    // Only the Code has §90(g): the books insure against named hands only.
    let end_of_wall =
        reading.book == Book::Code && state.wall.live <= 4 && showing(state, tile, reading) == 0;
    let mut out = Vec::new();
    for p in Seat::ALL.into_iter().filter(|&p| p != seat) {
        // Every signal but the end of the wall needs two sets or more: most discards are
        // judged here without building anything.
        if state.seats[p].sets.len() < 2 && !end_of_wall {
            continue;
        }
        let displayed: Vec<PlayedSet> = state.seats[p]
            .sets
            .iter()
            .filter(|s| reading.declared_kongs_count || s.formed != Formed::ConcealedKong)
            .copied()
            .collect();
        let sets: Vec<Set> = displayed.iter().map(|s| s.set).collect();
        for signal in signals_in(reading.book, &sets, tile) {
            out.push(Danger {
                seat: p,
                signal,
                displayed: displayed.clone(),
            });
        }
        if end_of_wall {
            out.push(Danger {
                seat: p,
                signal: Signal::EndOfWall,
                displayed: displayed.clone(),
            });
        }
    }
    (!out.is_empty()).then_some(out)
}

/// The signals that `sets` displayed make `tile` dangerous under in `book` (the Code's (a)–(f);
/// the end of the wall is judged apart).
pub(crate) fn signals_in(book: Book, sets: &[Set], tile: Tile) -> Vec<Signal> {
    match book {
        Book::Code => signals(sets, tile),
        Book::Babcock | Book::Harr => book_signals(book, sets, tile),
    }
}

/// Babcock's (pp. 75–76) and Harr's (p. 68) signals.
///
/// Harr counts tiles ("nine tiles or more of the same suit", "nine heads or more"), Babcock
/// sets ("three or more combinations"): a set holds three or four tiles, so nine tiles or more
/// in sets are three sets or more, and the two are the same test.
fn book_signals(book: Book, sets: &[Set], tile: Tile) -> Vec<Signal> {
    let code = signals(sets, tile);
    let mut out = Vec::new();
    // One suit: the same display, the same tile, the same hand as Code §90(a).
    out.extend(
        code.iter()
            .copied()
            .filter(|s| matches!(s, Signal::OneSuit(_))),
    );
    let pungs = |f: fn(Tile) -> bool| {
        sets.iter()
            .filter(|s| s.kind() != SetKind::Chow && f(s.tile()))
            .count()
    };
    let displays = |t: Tile| {
        sets.iter()
            .any(|s| s.tile() == t && s.kind() != SetKind::Chow)
    };
    if tile.is_dragon() && pungs(Tile::is_dragon) >= 2 && !displays(tile) {
        out.push(Signal::ThirdDragonSet);
    }
    if tile.is_wind() && pungs(Tile::is_wind) >= 3 && !displays(tile) {
        out.push(match book {
            // Babcock p. 76: "a discard of any Wind", against the Four Wind Hand.
            Book::Babcock => Signal::FourWindHand,
            // Harr p. 68 (4): "the discard of the other wind gives a winning hand".
            _ => Signal::Winds,
        });
    }
    if tile.is_major() && sets.len() >= 3 && pungs(Tile::is_major) == sets.len() {
        out.push(Signal::Heads);
    }
    out
}

/// The signals (a)–(f) that `sets` displayed make `tile` dangerous under.
pub(crate) fn signals(sets: &[Set], tile: Tile) -> Vec<Signal> {
    let mut out = Vec::new();
    let three = sets.len() >= 3;
    let all = |f: &dyn Fn(Set) -> bool| three && sets.iter().all(|&s| f(s));
    if let Some(suit) = tile.suit() {
        if all(&|s| s.tile().suit() == Some(suit)) {
            out.push(Signal::OneSuit(suit));
        }
    }
    let honour_sets = |f: fn(Tile) -> bool| sets.iter().filter(|s| f(s.tile())).count();
    let displays = |t: Tile| {
        sets.iter()
            .any(|s| s.tile() == t && s.kind() != SetKind::Chow)
    };
    if tile.is_wind() && honour_sets(Tile::is_wind) >= 3 && !displays(tile) {
        out.push(Signal::Winds);
    }
    if tile.is_dragon() && honour_sets(Tile::is_dragon) >= 2 && !displays(tile) {
        out.push(Signal::Dragons);
    }
    if tile.is_honour() && all(&|s| s.tile().is_honour()) {
        out.push(Signal::Honours);
    }
    if tile.is_all_green() && all(&|s| s.tiles().all(Tile::is_all_green)) {
        out.push(Signal::Green);
    }
    if tile.is_terminal() && all(&|s| s.kind() != SetKind::Chow && s.tile().is_terminal()) {
        out.push(Signal::Terminals);
    }
    out
}

/// How many of `tile` show on the table: among the discards not claimed, and in the sets
/// exposed (a claimed discard is in a set; a concealed kong is declared, not exposed).
fn showing(state: &PlayState, tile: Tile, reading: CannonReading) -> usize {
    let discarded = state
        .discards
        .iter()
        .filter(|d| d.claimed_by.is_none() && d.placed == tile)
        .count();
    let exposed: usize = Seat::ALL
        .into_iter()
        .flat_map(|p| state.seats[p].sets.iter())
        .filter(|s| s.formed != Formed::ConcealedKong)
        .map(|s| s.set.tiles().filter(|&t| t == tile).count())
        .sum();
    if reading.exposed_sets_show {
        discarded + exposed
    } else {
        discarded
    }
}

/// Whether `seat`, about to discard, could plead No Choice (§95(a)).
fn no_choice(state: &PlayState, seat: Seat, came: Came, reading: CannonReading) -> NoChoice {
    let Concealed::Known(held) = &state.seats[seat].concealed else {
        return NoChoice::Unknown;
    };
    if let Some(safe) = Tile::ALL
        .into_iter()
        .find(|&t| held.get(t) > 0 && dangerous_tile(state, seat, t, reading).is_none())
    {
        return NoChoice::HeldSafe(safe);
    }
    match came {
        Came::Claimed(k @ (ClaimKind::Chow | ClaimKind::Pung)) => NoChoice::BarredAfterClaim(k),
        _ => NoChoice::Open,
    }
}

/// Every playing tile of `seat`'s hand at the end: concealed, in sets, the winning tile.
fn all_tiles(state: &PlayState, seat: Seat) -> Option<[u8; Tile::COUNT]> {
    let hand = state.laid_down[seat]
        .clone()
        .or_else(|| state.hand_of(seat))?;
    let mut out = *hand.concealed().as_array();
    for m in hand.melds() {
        for t in m.set.tiles() {
            out[t.index()] += 1;
        }
    }
    if let Some(t) = hand.winning() {
        out[t.index()] += 1;
    }
    Some(out)
}
