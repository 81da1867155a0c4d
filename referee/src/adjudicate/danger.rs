//! What makes a discard dangerous: the signals a player's display gives (Code §90(a)–(g);
//! Babcock's insurance, pp. 75–76; Harr's penalty 2, p. 68), whose book reads them, and how
//! (the Code's text or mj-server's departures from it, for the cross-check).

use crate::event::ClaimKind;
use crate::play::PlayedSet;
use crate::tile::Wind;
use crate::{Seat, Set, SetKind, Suit, Tile};

/// Whose rule charges a dangerous discard: the Code's cannon (§90–96), Babcock's insurance
/// penalties (the Chinese game, pp. 75–79) or Harr's penalty 2 (pp. 68–70). Each reads the same
/// watch of the play (`watch::CannonWatch`) with its own signals ([`Signal`]) and its own liability
/// (the `insurance` findings).
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
