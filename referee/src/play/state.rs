//! The state of a hand in play: each seat's tiles, the discards, the wall, whose turn it is and
//! the windows the Code leaves open (§60, §64, §70, §81). The deal that begins it is `deal.rs`'s,
//! the claims on a discard `window.rs`'s, what a finished hand comes to `report.rs`'s.

use std::collections::VecDeque;

use crate::by_seat::BySeat;
use crate::counts::TileCounts;
use crate::event::ClaimKind;
use crate::hand::Hand;
use crate::score::{Circumstances, WinFrom};
use crate::seat::Seat;
use crate::shape::Set;
use crate::tile::{AnyTile, Bonus, Tile, Wind};

use super::error::Inconsistent;
use super::rules::PlayRules;
pub use super::window::Window;
pub use crate::concealed::Concealed;

/// How a set on the table was formed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Formed {
    /// Completed with a discard claimed from `from` (§39, §43).
    Claimed { from: Seat },
    /// A concealed pung and a discard claimed from `from` (§46).
    AnnexedKong { from: Seat },
    /// A drawn tile added to a pung exposed with a discard from `from` (§48).
    AddedKong { from: Seat },
    /// Four drawn tiles, declared (§50).
    ConcealedKong,
}

/// A set on the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayedSet {
    pub set: Set,
    pub formed: Formed,
}

/// One seat's tiles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatState {
    pub concealed: Concealed,
    /// Bonus tiles drawn and not yet declared (they count in the hand until declared, §31).
    pub undeclared: Vec<Bonus>,
    pub sets: Vec<PlayedSet>,
    pub bonus: Vec<Bonus>,
    /// Indices into [`PlayState::discards`] of this seat's discards.
    pub discards: Vec<usize>,
    /// Announced an Original Call (§55).
    pub original_call: bool,
    /// A discard granted to this seat (or a robbed kong's tile), not yet in a set or a
    /// Mah-Jongg hand.
    pub claimed: Option<Claimed>,
    /// Its concealed kongs left unmarked when it discarded (§52): scored as exposed.
    pub unmarked: Vec<Tile>,
    /// How many discards had been made at the seat's latest draw and at its latest claim: what
    /// came after its own discard (§95(b): a plea "before his next draw … and before claiming
    /// any subsequent discard").
    pub drew_at: Option<usize>,
    pub claimed_at: Option<usize>,
    /// While the concealed tiles are only counted: those of them already in view (drawn face
    /// up, a discard or a set's tiles taken back, a hand's tiles known before it was counted),
    /// which showing again brings no new copy into play. Empty while the tiles are known.
    pub shown: TileCounts,
}

/// A discard granted to a seat for a claim, not yet laid down with its set (or in a Mah-Jongg
/// hand). A chow's claimant may discard before laying it down (§41): the claim then stays owed
/// until the seat's next draw or claim, which makes the hand foul if it is still owed (§78).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Claimed {
    pub tile: Tile,
    pub claim: ClaimKind,
}

impl SeatState {
    pub(super) fn dealt(concealed: Concealed, undeclared: Vec<Bonus>) -> SeatState {
        SeatState {
            concealed,
            undeclared,
            sets: Vec::new(),
            bonus: Vec::new(),
            // A seat discards at most a quarter of the wall and a few more: sized once.
            discards: Vec::with_capacity(40),
            original_call: false,
            claimed: None,
            unmarked: Vec::new(),
            drew_at: None,
            claimed_at: None,
            shown: TileCounts::EMPTY,
        }
    }

    /// Takes `t`, a tile already in view (a discard, a tile of the seat's own set, a tile drawn
    /// face up), into the concealed hand.
    pub(crate) fn take_in_view(&mut self, t: Tile) -> Result<(), crate::FifthCopy> {
        self.concealed.add(t)?;
        if let Concealed::Counted(_) = self.concealed {
            // At most four of a tile are in view: the play counted them as they came.
            let _ = self.shown.try_add(t);
        }
        Ok(())
    }

    /// Gives up `t`, a tile in view held in the concealed hand (a discard taken back in, a
    /// tile drawn face up), as `seat`: to the table or the wall again. The inverse of
    /// [`SeatState::take_in_view`]; refused when the hand does not hold it.
    pub(crate) fn give_up_in_view(&mut self, seat: Seat, t: Tile) -> Result<(), Inconsistent> {
        match &mut self.concealed {
            Concealed::Known(c) => {
                *c = c.without(t).ok_or(Inconsistent::NotHeld {
                    seat,
                    tile: AnyTile::Playing(t),
                })?
            }
            Concealed::Counted(0) => return Err(Inconsistent::NothingHeld { seat }),
            Concealed::Counted(n) => {
                *n -= 1;
                self.shown = self.shown.without(t).unwrap_or(self.shown);
            }
        }
        Ok(())
    }

    /// Of `tiles`, about to leave a counted hand face up, those not already in view (the ones
    /// that come into play now), and what stays shown once they have left.
    pub(crate) fn unshown(&self, tiles: &[Tile]) -> (Vec<Tile>, TileCounts) {
        let mut shown = self.shown;
        let mut fresh = Vec::new();
        for &t in tiles {
            match shown.without(t) {
                Some(rest) => shown = rest,
                None => fresh.push(t),
            }
        }
        (fresh, shown)
    }

    /// Tiles in hand (concealed and undeclared bonus), as §89 counts a hand.
    pub fn in_hand(&self) -> u32 {
        self.concealed.len() + self.undeclared.len() as u32
    }

    /// Every tile this seat has: in hand, on the table in sets, bonus tiles declared.
    pub fn tiles(&self) -> u32 {
        self.in_hand()
            + u32::from(self.claimed.is_some())
            + self.sets.iter().map(|s| s.set.len() as u32).sum::<u32>()
            + self.bonus.len() as u32
    }

    /// The correct number in hand after discarding (§89(a)): thirteen less three for each set
    /// on the table (a kong's fourth tile is the one the loose tile replaced).
    pub fn correct_after_discard(&self) -> u32 {
        13u32.saturating_sub(3 * self.sets.len() as u32)
    }
}

/// A discard on the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Discard {
    pub seat: Seat,
    /// The tile placed (the tile discarded, §84).
    pub placed: Tile,
    /// The tile named, when it differs is a false naming (§84–88).
    pub named: Tile,
    /// Claimed, and by whom (it is then in that seat's set, not among the discards).
    pub claimed_by: Option<Seat>,
    /// Discarded together with the discard before it (§75).
    pub together: bool,
}

/// The wall: counts always, and its tiles in drawing order when the deal recorded them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wall {
    /// Tiles left in the live wall.
    pub live: u32,
    /// Tiles left in the kong box (the loose tiles among them).
    pub kong_box: u32,
    /// The live wall's tiles, next draw first, when known (a ring: a draw takes the front, a
    /// tile put back goes to the front, Babcock's replenished kong box takes the back).
    pub live_tiles: Option<VecDeque<AnyTile>>,
    /// The kong box's tiles, next loose tile first, when known.
    pub loose_tiles: Option<VecDeque<AnyTile>>,
}

/// Whose move it is and what it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Turn {
    /// The seat draws from the live wall (its predecessor's discard may still be claimed).
    Draw(Seat),
    /// The seat holds a full hand: it discards, declares a kong or Mah-Jongg.
    Discard(Seat),
    /// The seat owes a replacement: a loose tile for a kong, or a tile for a bonus tile.
    Replace {
        seat: Seat,
        loose: bool,
        then: Box<Turn>,
    },
    /// The seat was granted the discard and lays down the set it completes.
    Expose { seat: Seat, claim: ClaimKind },
    /// A kong was just completed by adding a drawn tile to an exposed pung: it may be robbed
    /// by a seat calling that tile (§57) until its loose tile is drawn.
    Robbable { seat: Seat, tile: Tile },
    /// The hand is over.
    Over(Ending),
}

/// How the hand ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    MahJongg {
        seat: Seat,
        tile: Tile,
        /// Where the winning tile came from (the wall, a loose tile, a discard, a robbed kong).
        from: WinFrom,
        /// Who discarded it (or whose kong was robbed).
        discarder: Option<Seat>,
        /// What the play makes of the win: the last tile of the live wall or the discard
        /// after it (§117(i), (j)), Kong upon Kong (§122(f)), an Original Call (§55, §117(l)),
        /// Heaven's or Earth's Blessing (§122(a), (b)).
        circumstances: Circumstances,
    },
    WashOut,
}

impl Turn {
    /// The seat whose turn it is to discard (or declare a kong or Mah-Jongg), if any.
    pub fn discarding(&self) -> Option<Seat> {
        match self {
            Turn::Discard(s) => Some(*s),
            _ => None,
        }
    }

    /// The seat that is to lay down the set it was granted, if any.
    pub fn exposing(&self) -> Option<Seat> {
        match self {
            Turn::Expose { seat, .. } => Some(*seat),
            _ => None,
        }
    }
}

impl std::fmt::Display for Turn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Turn::Draw(s) => write!(f, "{s} to draw"),
            Turn::Discard(s) => write!(f, "{s} to discard"),
            Turn::Replace {
                seat, loose: true, ..
            } => write!(f, "{seat} to draw a loose tile"),
            Turn::Replace { seat, .. } => write!(f, "{seat} to draw a replacement"),
            Turn::Expose { seat, claim } => write!(f, "{seat} to lay down its {claim:?}"),
            Turn::Robbable { seat, tile } => write!(f, "{seat}'s kong of {tile} may be robbed"),
            Turn::Over(Ending::WashOut) => write!(f, "over: a wash-out"),
            Turn::Over(Ending::MahJongg {
                seat,
                tile,
                from,
                discarder,
                circumstances,
            }) => {
                write!(f, "over: {seat} went Mah-Jongg with {tile} ({from}")?;
                if let Some(d) = discarder {
                    write!(f, " of {d}")?;
                }
                for (on, what) in [
                    (circumstances.last_tile, "the last tile"),
                    (circumstances.kong_upon_kong, "Kong upon Kong"),
                    (circumstances.original_call, "an Original Call"),
                    (circumstances.heavens_blessing, "Heaven's Blessing"),
                    (circumstances.earths_blessing, "Earth's Blessing"),
                ] {
                    if on {
                        write!(f, ", {what}")?;
                    }
                }
                write!(f, ")")
            }
        }
    }
}

/// Everything a replay knows of the hand at one moment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayState {
    /// The game and the hand within it.
    pub game: u32,
    pub hand: u32,
    /// The seat that is East (the dealer).
    pub east: Seat,
    pub prevailing: Wind,
    pub seats: BySeat<SeatState>,
    pub discards: Vec<Discard>,
    pub wall: Wall,
    pub turn: Turn,
    /// The claims on the live discard, while they may be made.
    pub window: Option<Window>,
    /// Playing tiles known to be in play (in hands, on the table, drawn), to catch a fifth copy.
    pub seen: [u8; Tile::COUNT],
    /// Bonus tiles known to be in play.
    pub seen_bonus: [u8; Bonus::ALL.len()],
    /// The last draw: who drew, the tile when it was seen, and whether it was a loose tile
    /// (a win on it is §117(h)'s).
    pub last_draw: Option<LastDraw>,
    /// The seat whose kong was just robbed (§57), until the robber goes Mah-Jongg.
    pub robbed_from: Option<Seat>,
    /// The chances the Code leaves open for a while after an act (§58, §60, §70, §81).
    pub open: Open,
    /// The claims a draw closed, while the drawer has done nothing else: §64 lets a pung,
    /// kong or Mah-Jongg claim still take that discard, the drawn tile going back.
    pub drawn_over: Option<DrawnOver>,
    /// The kongs the seat whose turn it is has declared in this turn (Kong upon Kong,
    /// §122(f), needs two, and the win on the second loose tile).
    pub kongs_in_turn: Option<(Seat, u8)>,
    /// After the hand: each seat's hand as laid down, grouped as the player scores it
    /// (§104–105: "no change may be made in the arrangement of the tiles once placed").
    pub laid_down: BySeat<Option<Hand>>,
}

/// The chances the Code leaves open for a while after an act: each cleared by the fold once
/// its time is past.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Open {
    /// The discards taken into a concealed hand (§81), by whom and where among the discards,
    /// while they may be demanded back.
    pub into_hand: Vec<(Seat, usize)>,
    /// A discard taken back (§70), by whom and which tile, until its replacement is discarded:
    /// "his first discard may be claimed at any time until he has made his second discard in
    /// its place".
    pub taken_back: Option<(Seat, Tile)>,
    /// The kong (its owner and tile) whose loose tile was the last thing drawn, while the owner
    /// has done nothing since: §60 lets it still be robbed, the loose tile going back.
    pub loose_for_kong: Option<(Seat, Tile)>,
    /// A robbing of a kong that does not stand (§58, or a ruleset without robbing), by whom and
    /// of which tile: the robber's call of Mah-Jongg with it, which follows, is taken up with
    /// it, and changes nothing.
    pub robbing_refused: Option<(Seat, Tile)>,
}

impl Open {
    /// The chances whose time `event`, just applied, ended.
    pub(crate) fn close_after(&mut self, event: &crate::event::HandEvent) {
        use crate::event::HandEvent as E;
        // §70: until the replacement is discarded (or, the tile claimed, the claim takes it).
        if matches!(
            event,
            E::TileDiscarded(_) | E::ClaimMade(_) | E::MahJonggDeclared(_)
        ) {
            self.taken_back = None;
        }
        // §60: until the kong's owner does anything else.
        if !matches!(
            event,
            E::LooseTileDrawn(_) | E::KongRobbed(_) | E::ClaimPassed(_)
        ) {
            self.loose_for_kong = None;
        }
        // §58: a robbing that does not stand takes the robber's call with it, nothing after.
        if !matches!(event, E::KongRobbed(_) | E::MahJonggDeclared(_)) {
            self.robbing_refused = None;
        }
    }
}

/// A draw, as Mah-Jongg on it asks (§54, §117(h)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LastDraw {
    pub seat: Seat,
    /// The playing tile drawn, when seen.
    pub tile: Option<Tile>,
    pub loose: bool,
}

/// A draw that closed the claims on a discard (§64).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrawnOver {
    pub window: Window,
    pub seat: Seat,
    /// The tile drawn, when seen.
    pub tile: Option<AnyTile>,
}

/// Where bonus tile `b` is counted.
pub(super) fn bonus_index(b: Bonus) -> usize {
    Bonus::ALL.iter().position(|&x| x == b).unwrap_or(0)
}

impl PlayState {
    /// `seat` takes `t` into its hand (dealt or drawn), checking no fifth copy comes into play.
    pub(crate) fn take(
        &mut self,
        rules: &PlayRules,
        seat: Seat,
        t: AnyTile,
    ) -> Result<(), Inconsistent> {
        self.see(rules, t)?;
        let s = &mut self.seats[seat];
        match t {
            AnyTile::Playing(t) => s.take_in_view(t)?,
            AnyTile::Bonus(b) => s.undeclared.push(b),
        }
        Ok(())
    }

    /// Counts `t` as in play.
    pub(crate) fn see(&mut self, rules: &PlayRules, t: AnyTile) -> Result<(), Inconsistent> {
        self.can_see(rules, t)?;
        match t {
            AnyTile::Playing(t) => self.seen[t.index()] += 1,
            AnyTile::Bonus(b) => self.seen_bonus[bonus_index(b)] += 1,
        }
        Ok(())
    }

    /// Could `t` come into play, or would it be one copy too many?
    pub(crate) fn can_see(&self, rules: &PlayRules, t: AnyTile) -> Result<(), Inconsistent> {
        match t {
            AnyTile::Playing(t) if self.seen[t.index()] >= 4 => Err(Inconsistent::FifthCopy(t)),
            AnyTile::Bonus(b)
                if u32::from(self.seen_bonus[bonus_index(b)]) >= rules.bonus_tiles / 8 =>
            {
                Err(Inconsistent::TooManyBonus(b))
            }
            _ => Ok(()),
        }
    }

    /// Counts `tiles` as in play, all or none.
    pub(crate) fn see_all(&mut self, tiles: &[Tile]) -> Result<(), Inconsistent> {
        let mut seen = self.seen;
        for &t in tiles {
            let n = &mut seen[t.index()];
            if *n >= 4 {
                return Err(Inconsistent::FifthCopy(t));
            }
            *n += 1;
        }
        self.seen = seen;
        Ok(())
    }

    /// The discard claims may be made on, if any.
    pub fn live_discard(&self) -> Option<&Discard> {
        self.window.as_ref().map(|w| &self.discards[w.discard])
    }

    /// The discards lying on the table: every tile discarded and not claimed, in order.
    pub fn on_the_table(&self) -> impl Iterator<Item = Tile> + '_ {
        self.discards
            .iter()
            .filter(|d| d.claimed_by.is_none())
            .map(|d| d.placed)
    }

    /// Every tile accounted for: in the seats' hands, sets and bonus tiles, among the unclaimed
    /// discards, and in the live wall and the kong box. Always the number in the set.
    pub fn accounted(&self) -> u32 {
        self.seats.values().map(SeatState::tiles).sum::<u32>()
            + self.on_the_table().count() as u32
            + self.wall.live
            + self.wall.kong_box
    }

    /// The discard granted to `seat` (or a robbed kong's tile) not yet in a set, and its
    /// place among the discards.
    pub fn claimed_tile(&self, seat: Seat) -> Option<(usize, Discard)> {
        self.discards
            .iter()
            .enumerate()
            .rev()
            .find(|(_, d)| d.claimed_by == Some(seat))
            .map(|(i, d)| (i, *d))
    }

    /// Do `seat`'s concealed tiles, as they stand after a draw, make a complete hand with its
    /// sets (four sets and a pair, or the Thirteen Unique Wonders)? `false` while they are only
    /// counted.
    pub fn holds_complete(&self, seat: Seat) -> bool {
        let Concealed::Known(c) = &self.seats[seat].concealed else {
            return false;
        };
        crate::shape::is_complete(c)
            || self.last_draw.and_then(|d| d.tile).is_some_and(|t| {
                crate::shape::SpecialShape::ThirteenUniqueWonders.is_complete(c, t)
            })
    }

    /// Did `seat`'s turn come by claiming a discard for a chow or pung it laid down? Then it
    /// may not declare a concealed kong (§51: "but not after having claimed a discard in any
    /// way") nor add a tile from its hand to an exposed pung (§48: the fourth tile is added when
    /// drawn from the wall; §79).
    pub fn turn_by_claim(&self, seat: Seat) -> bool {
        self.turn == Turn::Discard(seat) && self.laid_with_last_discard(seat).is_some()
    }

    /// The latest discard, when `seat`'s last set was laid down with it (claimed for a chow or
    /// pung, not taken into the hand): its place and the discard.
    pub(crate) fn laid_with_last_discard(&self, seat: Seat) -> Option<(usize, Discard)> {
        let (i, d) = self.claimed_tile(seat)?;
        let last = self.seats[seat].sets.last()?;
        let laid = last.formed == Formed::Claimed { from: d.seat }
            && last.set.contains(d.placed)
            && !self.open.into_hand.contains(&(seat, i));
        (laid && i + 1 == self.discards.len()).then_some((i, d))
    }

    /// May `seat` plead No Choice now (§95(b))? Its latest discard was taken, and it has not
    /// drawn (from the live wall or the kong box) or claimed a discard since: "he must show his
    /// tiles immediately, before his next draw from the wall … and before claiming any
    /// subsequent discard". After the hand, while the hands are shown, a plea for the winning
    /// discard is in time.
    pub fn no_choice_in_time(&self, seat: Seat) -> bool {
        let Some(&i) = self.seats[seat].discards.last() else {
            return false;
        };
        if self.discards[i].claimed_by.is_none() {
            return false;
        }
        let own_turn = match &self.turn {
            Turn::Discard(s)
            | Turn::Expose { seat: s, .. }
            | Turn::Replace { seat: s, .. }
            | Turn::Robbable { seat: s, .. } => *s == seat,
            Turn::Draw(_) | Turn::Over(_) => false,
        };
        let since = |at: Option<usize>| at.is_some_and(|at| at > i);
        let s = &self.seats[seat];
        !own_turn && !since(s.drew_at) && !since(s.claimed_at)
    }

    /// The wind `seat` holds in this hand.
    pub fn wind_of(&self, seat: Seat) -> Wind {
        seat.wind(self.east)
    }
}
