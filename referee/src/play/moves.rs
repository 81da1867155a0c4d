//! What each seat may do now: derived from the state, never stored.
//!
//! The moves are the legal ones only (an irregular move is still recorded when it happens, and
//! flagged). A seat whose tiles are only counted cannot be told which tiles it may discard or
//! meld: its moves name no tile ([`Move::DiscardUnseen`]).

use crate::event::{
    BonusTileDeclared, ClaimGranted, ClaimKind, ClaimMade, ClaimPassed, HandEvent, KongDeclared,
    KongKind, KongRobbed, LooseTileDrawn, MahJonggDeclared, SetExposed, TileDiscarded, TileDrawn,
    WashOut,
};
use crate::seat::Seat;
use crate::shape::{is_complete, Set};
use crate::tile::{AnyTile, Bonus, Tile};

use super::state::{Concealed, Formed, PlayState, Turn};

/// One legal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// Draw the next tile of the live wall (the tile, when the wall is known).
    Draw(Option<AnyTile>),
    /// Draw a loose tile from the kong box.
    DrawLoose(Option<AnyTile>),
    DeclareBonus(Bonus),
    Discard(Tile),
    /// Discard one of the tiles of a hand whose tiles are only counted.
    DiscardUnseen,
    ConcealedKong(Tile),
    AddToPung(Tile),
    /// Mah-Jongg on the tile just drawn.
    SelfDrawnMahJongg(Tile),
    Claim(ClaimKind, Tile),
    Pass,
    /// Grant the live discard to the claim that takes precedence (§61).
    Grant(Seat, ClaimKind),
    /// Lay down the set the granted discard completes, from its lowest tile.
    Expose(ClaimKind, Tile),
    /// Annex the granted discard to a concealed pung (§46).
    AnnexKong(Tile),
    /// Mah-Jongg with the granted discard.
    MahJonggOnDiscard(Tile),
    /// Rob the kong just made by adding to a pung (§57).
    RobKong {
        from: Seat,
        tile: Tile,
    },
    /// The live wall is exhausted: a wash-out (§36).
    WashOut,
}

impl Move {
    /// The event that records `seat` making this move; `None` for a discard from an unseen
    /// hand, whose tile is whatever the player places.
    pub fn event(self, seat: Seat) -> Option<HandEvent> {
        Some(match self {
            Move::Draw(tile) => HandEvent::TileDrawn(TileDrawn { seat, tile }),
            Move::DrawLoose(tile) => HandEvent::LooseTileDrawn(LooseTileDrawn { seat, tile }),
            Move::DeclareBonus(tile) => {
                HandEvent::BonusTileDeclared(BonusTileDeclared { seat, tile })
            }
            Move::Discard(t) => HandEvent::TileDiscarded(TileDiscarded {
                seat,
                placed: t,
                named: t,
            }),
            Move::DiscardUnseen => return None,
            Move::ConcealedKong(tile) => HandEvent::KongDeclared(KongDeclared {
                seat,
                kind: KongKind::Concealed,
                tile,
                unmarked: false,
            }),
            Move::AddToPung(tile) => HandEvent::KongDeclared(KongDeclared {
                seat,
                kind: KongKind::AddedToExposedPung,
                tile,
                unmarked: false,
            }),
            Move::SelfDrawnMahJongg(t) => HandEvent::MahJonggDeclared(MahJonggDeclared {
                seat,
                winning_tile: t,
                self_drawn: true,
            }),
            Move::Claim(claim, tile) => HandEvent::ClaimMade(ClaimMade { seat, claim, tile }),
            Move::Pass => HandEvent::ClaimPassed(ClaimPassed { seat }),
            Move::Grant(to, claim) => HandEvent::ClaimGranted(ClaimGranted { seat: to, claim }),
            Move::Expose(claim, lowest) => HandEvent::SetExposed(SetExposed {
                seat,
                claim,
                lowest,
            }),
            Move::AnnexKong(tile) => HandEvent::KongDeclared(KongDeclared {
                seat,
                kind: KongKind::AnnexedDiscard,
                tile,
                unmarked: false,
            }),
            Move::MahJonggOnDiscard(t) => HandEvent::MahJonggDeclared(MahJonggDeclared {
                seat,
                winning_tile: t,
                self_drawn: false,
            }),
            Move::RobKong { from, tile } => HandEvent::KongRobbed(KongRobbed {
                robber: seat,
                from,
                tile,
            }),
            Move::WashOut => HandEvent::WashOut(WashOut {
                reason: "the live wall is exhausted".into(),
            }),
        })
    }
}

/// Would `tile` complete this seat's concealed tiles (four sets and a pair with its sets)?
fn completes(concealed: &Concealed, tile: Tile) -> bool {
    match concealed {
        Concealed::Known(c) => c.with(tile).is_some_and(|c| is_complete(&c)),
        Concealed::Counted(_) => false,
    }
}

/// The chows (by lowest tile) `tile` would complete with two of `held`.
pub fn chows_with(held: &crate::TileCounts, tile: Tile) -> Vec<Tile> {
    let Some(rank) = tile.rank() else {
        return Vec::new();
    };
    (rank.saturating_sub(2).max(1)..=rank.min(7))
        .filter_map(|low| {
            let set = Set::chow(Tile::suited(tile.suit()?, low)?)?;
            let mut rest = *held;
            let mut others = set.tiles().collect::<Vec<_>>();
            let i = others.iter().position(|&t| t == tile)?;
            others.remove(i);
            others
                .iter()
                .all(|&t| rest.without(t).map(|r| rest = r).is_some())
                .then(|| set.tile())
        })
        .collect()
}

impl PlayState {
    /// The legal moves of `seat` now (empty when it has none, the hand being over included).
    pub fn legal_moves(&self, seat: Seat) -> Vec<Move> {
        let s = &self.seats[seat];
        let mut out = Vec::new();
        // A bonus tile drawn is declared before anything else (§31).
        // A seat owing a replacement may draw it before declaring the next (§32: each bonus
        // tile declared, each replaced, in any order before it discards).
        if let Some(&b) = s.undeclared.first() {
            let replacing = matches!(&self.turn, Turn::Replace { seat: x, .. } if *x == seat);
            let own_turn = matches!(&self.turn, Turn::Discard(x) if *x == seat);
            if replacing {
                out.push(Move::DeclareBonus(b));
            } else if own_turn || self.discards.is_empty() {
                return vec![Move::DeclareBonus(b)];
            }
        }
        // Claims on the live discard, for every seat but the discarder.
        if let (Some(w), Some(d)) = (&self.window, self.live_discard()) {
            if d.seat != seat && d.claimed_by.is_none() {
                if let Concealed::Known(c) = &s.concealed {
                    let t = d.placed;
                    if completes(&s.concealed, t) && w.claims[seat] != Some(ClaimKind::MahJongg) {
                        out.push(Move::Claim(ClaimKind::MahJongg, t));
                    }
                    if c.get(t) >= 2 && w.claims[seat].is_none() {
                        out.push(Move::Claim(ClaimKind::Pung, t));
                    }
                    if c.get(t) >= 3 && w.claims[seat].is_none() {
                        out.push(Move::Claim(ClaimKind::Kong, t));
                    }
                    if seat == d.seat.next()
                        && w.claims[seat].is_none()
                        && !chows_with(c, t).is_empty()
                    {
                        out.push(Move::Claim(ClaimKind::Chow, t));
                    }
                }
                if !w.passed[seat] && w.claims[seat].is_none() {
                    out.push(Move::Pass);
                }
                // The claims weighed: the discard goes to the first (§61), granted by anyone.
                if let Some((to, k)) = w.weighed(d.seat) {
                    out.push(Move::Grant(to, k));
                }
            }
        }
        // §60: an added kong may still be robbed over its loose tile, while its owner has done
        // nothing else and the loose tile does not complete his hand.
        if let (Turn::Discard(x), Some((k, tile))) = (&self.turn, self.open.loose_for_kong) {
            let added = self.seats[k]
                .sets
                .iter()
                .any(|p| p.set == Set::kong(tile) && matches!(p.formed, Formed::AddedKong { .. }));
            if *x == k
                && seat != k
                && added
                && completes(&s.concealed, tile)
                && !self.holds_complete(k)
            {
                out.push(Move::RobKong { from: k, tile });
            }
        }
        match self.turn {
            Turn::Over(_) => return Vec::new(),
            Turn::Draw(x) if x == seat => {
                if self.wall.live == 0 {
                    out.push(Move::WashOut);
                } else {
                    let next = self
                        .wall
                        .live_tiles
                        .as_ref()
                        .and_then(|w| w.front().copied());
                    out.push(Move::Draw(next));
                }
            }
            Turn::Replace { seat: x, loose, .. } if x == seat => {
                let (count, tiles) = if loose {
                    (self.wall.kong_box, &self.wall.loose_tiles)
                } else {
                    (self.wall.live, &self.wall.live_tiles)
                };
                let next = tiles.as_ref().and_then(|w| w.front().copied());
                match (count, loose) {
                    (0, _) => out.push(Move::WashOut),
                    (_, true) => out.push(Move::DrawLoose(next)),
                    (_, false) => out.push(Move::Draw(next)),
                }
            }
            Turn::Robbable { seat: x, tile } => {
                if x == seat {
                    let next = self
                        .wall
                        .loose_tiles
                        .as_ref()
                        .and_then(|w| w.front().copied());
                    out.push(Move::DrawLoose(next));
                } else {
                    // §58: a concealed kong only for the Thirteen Unique Wonders.
                    let concealed = self.seats[x]
                        .sets
                        .iter()
                        .any(|p| p.set == Set::kong(tile) && p.formed == Formed::ConcealedKong);
                    let robs = if concealed {
                        match &s.concealed {
                            Concealed::Known(c) => c.with(tile).is_some_and(|all| {
                                crate::shape::SpecialShape::ThirteenUniqueWonders
                                    .is_complete(&all, tile)
                            }),
                            Concealed::Counted(_) => false,
                        }
                    } else {
                        completes(&s.concealed, tile)
                    };
                    if robs {
                        out.push(Move::RobKong { from: x, tile });
                    }
                }
            }
            Turn::Discard(x) if x == seat => match &s.concealed {
                Concealed::Known(c) => {
                    // §48, §51: no kong from the hand straight after claiming a discard.
                    let may_kong = !self.turn_by_claim(seat);
                    for t in c.kinds().iter() {
                        out.push(Move::Discard(t));
                        if !may_kong {
                            continue;
                        }
                        if c.get(t) == 4 {
                            out.push(Move::ConcealedKong(t));
                        }
                        let exposed_pung = s.sets.iter().any(|p| {
                            p.set == Set::pung(t) && matches!(p.formed, Formed::Claimed { .. })
                        });
                        if exposed_pung {
                            out.push(Move::AddToPung(t));
                        }
                    }
                    // Complete with the tile just drawn, which is the winning tile (§54).
                    if let (true, Some(draw)) = (is_complete(c), self.last_draw) {
                        if let (true, Some(t)) = (draw.seat == seat, draw.tile) {
                            out.push(Move::SelfDrawnMahJongg(t));
                        }
                    }
                }
                Concealed::Counted(_) => out.push(Move::DiscardUnseen),
            },
            Turn::Expose { seat: x, claim } if x == seat => {
                let granted = s.claimed.map(|c| c.tile);
                if let (Some(t), Concealed::Known(c)) = (granted, &s.concealed) {
                    match claim {
                        ClaimKind::Chow => {
                            for low in chows_with(c, t) {
                                out.push(Move::Expose(ClaimKind::Chow, low));
                            }
                        }
                        ClaimKind::Pung if c.get(t) >= 2 => {
                            out.push(Move::Expose(ClaimKind::Pung, t))
                        }
                        ClaimKind::Kong if c.get(t) >= 3 => out.push(Move::AnnexKong(t)),
                        ClaimKind::MahJongg => out.push(Move::MahJonggOnDiscard(t)),
                        _ => {}
                    }
                }
            }
            _ => {}
        }
        out
    }
}
