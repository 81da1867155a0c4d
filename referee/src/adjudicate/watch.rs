//! The watch of a play that the rulings on dangerous discards read (Code §90–96, Babcock's
//! insurance, Harr's penalty 2): how each seat came by its tiles, and every dangerous discard
//! (or added kong tile) with what the table showed then and who took it. It looks at the
//! state before each event ([`CannonWatch::note`]) and takes the event in once it has been
//! applied ([`CannonWatch::record`]), so the finding is there at the end of any replay.

use super::danger::{signals_in, Book, CannonReading, Danger, NoChoice, Signal};
use super::own_hand::{own_hand, OwnHand};
use crate::event::{ClaimKind, HandEvent, KongKind};
use crate::play::{Concealed, Ending, Formed, PlayState, PlayedSet, Turn};
use crate::{BySeat, Seat, Set, SetKind, Tile};

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
            // For the seat's latest dangerous discard, once it is taken (§95(b)); a plea made
            // after the seat's next draw or claim is lost, and excuses nothing.
            HandEvent::NoChoicePleaded(p) if state.no_choice_in_time(p.seat) => {
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
        let called = called_set(state, p);
        // Every signal but the end of the wall needs two sets or more: most discards are
        // judged here without building anything.
        if state.seats[p].sets.len() + usize::from(called.is_some()) < 2 && !end_of_wall {
            continue;
        }
        let mut displayed: Vec<PlayedSet> = state.seats[p]
            .sets
            .iter()
            .filter(|s| reading.declared_kongs_count || s.formed != Formed::ConcealedKong)
            .copied()
            .collect();
        let laid: Vec<Set> = displayed.iter().map(|s| s.set).collect();
        let signals = match called {
            None => signals_in(reading.book, &laid, tile),
            Some(c) => {
                displayed.push(c);
                let with: Vec<Set> = displayed.iter().map(|s| s.set).collect();
                if c.set.kind() == SetKind::Chow {
                    // §91: a chow called counts from the call for §90(a) only; for the other
                    // signals it is displayed once its three tiles are laid on the table.
                    let mut out: Vec<Signal> = signals_in(reading.book, &with, tile)
                        .into_iter()
                        .filter(|s| matches!(s, Signal::OneSuit(_)))
                        .collect();
                    out.extend(
                        signals_in(reading.book, &laid, tile)
                            .into_iter()
                            .filter(|s| !matches!(s, Signal::OneSuit(_))),
                    );
                    out
                } else {
                    signals_in(reading.book, &with, tile)
                }
            }
        };
        for signal in signals {
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

/// The set `seat` called for and has not laid down yet (§41: a chow's claimant may discard
/// first), which counts as displayed from the call (§91): a pung or kong of the tile; for a
/// chow, the one its held tiles make (when unseen, one of its suit: all §90(a) asks of it).
fn called_set(state: &PlayState, seat: Seat) -> Option<PlayedSet> {
    let c = state.seats[seat].claimed?;
    let set = match c.claim {
        ClaimKind::Pung => Set::pung(c.tile),
        ClaimKind::Kong => Set::kong(c.tile),
        ClaimKind::Chow => {
            // The chow its held tiles make, when the record knows them; else one of the suit.
            let known = match &state.seats[seat].concealed {
                Concealed::Known(held) => crate::play::chows_with(held, c.tile).first().copied(),
                Concealed::Counted(_) => None,
            };
            let rank = c.tile.rank()?;
            let lowest = known.or_else(|| Tile::suited(c.tile.suit()?, rank.clamp(1, 7)))?;
            Set::chow(lowest)?
        }
        ClaimKind::MahJongg => return None,
    };
    let from = state.claimed_tile(seat).map(|(_, d)| d.seat)?;
    Some(PlayedSet {
        set,
        formed: Formed::Claimed { from },
    })
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
