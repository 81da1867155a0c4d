//! What a scorer may record for a seat now: the legal moves ([`PlayState::legal_moves`]) and,
//! for a seat whose tiles are only counted, every move its unseen tiles might allow.
//!
//! At a real table the scorer rarely sees a player's concealed tiles (Code §27): the deal is
//! unknown, each seat's tiles counted. The engine cannot tell which tiles such a seat may
//! discard, claim with or kong, so the scorer is offered what the seat *could* do — a claim of
//! any kind on the live discard, any chow the tile belongs to, a discard, kong or Mah-Jongg of a
//! tile to pick — and the engine rules on the act once it is recorded (an inconsistent act is
//! refused; an irregular one recorded and flagged). A seat whose tiles are known is offered its
//! legal moves only: anything else it does is recorded as the irregular act it is.

use crate::event::ClaimKind;
use crate::seat::Seat;
use crate::shape::Set;
use crate::tile::Tile;

use super::moves::Move;
use super::state::{Concealed, Formed, PlayState, Turn};

/// A move whose tile the scorer picks, for a seat whose tiles are only counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pick {
    /// Discard the tile picked.
    Discard,
    /// Declare a concealed kong of the tile picked.
    ConcealedKong,
    /// Mah-Jongg on the tile just drawn, which is the tile picked (the draw was not seen).
    SelfDrawnMahJongg,
    /// Declare the bonus tile picked (§31–32: in the seat's own turn, or before play starts).
    Bonus,
}

/// The moves a scorer may record for one seat.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Possible {
    /// Moves complete as they are: one tap each.
    pub moves: Vec<Move>,
    /// Moves that need a tile picked.
    pub picks: Vec<Pick>,
}

impl PlayState {
    /// What the scorer may record for `seat` now (see the module's doc).
    pub fn possible_moves(&self, seat: Seat) -> Possible {
        let mut moves = self.legal_moves(seat);
        let mut picks = Vec::new();
        let s = &self.seats[seat];
        if !matches!(s.concealed, Concealed::Counted(_)) || matches!(self.turn, Turn::Over(_)) {
            return Possible { moves, picks };
        }
        if moves.iter().any(|m| matches!(m, Move::DeclareBonus(_))) {
            return Possible { moves, picks };
        }
        let add = |m: Move, moves: &mut Vec<Move>| {
            if !moves.contains(&m) {
                moves.push(m);
            }
        };
        // A claim of any kind on the live discard (a chow only by the next seat, §40).
        if let (Some(w), Some(d)) = (&self.window, self.live_discard()) {
            if d.seat != seat && d.claimed_by.is_none() && w.claims[seat].is_none() {
                let t = d.placed;
                let mut kinds = vec![ClaimKind::MahJongg, ClaimKind::Pung, ClaimKind::Kong];
                if seat == d.seat.next() && t.rank().is_some() {
                    kinds.push(ClaimKind::Chow);
                }
                for k in kinds {
                    add(Move::Claim(k, t), &mut moves);
                }
            }
        }
        match self.turn {
            Turn::Discard(x) if x == seat => {
                moves.retain(|m| *m != Move::DiscardUnseen);
                picks.push(Pick::Discard);
                if !self.turn_by_claim(seat) {
                    picks.push(Pick::ConcealedKong);
                    for p in &s.sets {
                        if matches!(p.formed, Formed::Claimed { .. })
                            && p.set == Set::pung(p.set.tile())
                        {
                            add(Move::AddToPung(p.set.tile()), &mut moves);
                        }
                    }
                }
                if let Some(draw) = self.last_draw.filter(|d| d.seat == seat) {
                    match draw.tile {
                        Some(t) => add(Move::SelfDrawnMahJongg(t), &mut moves),
                        None => picks.push(Pick::SelfDrawnMahJongg),
                    }
                }
            }
            Turn::Expose { seat: x, claim } if x == seat => {
                if let Some(t) = s.claimed.map(|c| c.tile) {
                    match claim {
                        ClaimKind::Chow => {
                            for low in chows_of(t) {
                                add(Move::Expose(ClaimKind::Chow, low), &mut moves);
                            }
                        }
                        ClaimKind::Pung => add(Move::Expose(ClaimKind::Pung, t), &mut moves),
                        ClaimKind::Kong => add(Move::AnnexKong(t), &mut moves),
                        ClaimKind::MahJongg => add(Move::MahJonggOnDiscard(t), &mut moves),
                    }
                }
            }
            Turn::Robbable { seat: x, tile } if x != seat => {
                add(Move::RobKong { from: x, tile }, &mut moves);
            }
            _ => {}
        }
        let own_turn =
            matches!(&self.turn, Turn::Discard(x) | Turn::Replace { seat: x, .. } if *x == seat);
        if own_turn || self.discards.is_empty() {
            picks.push(Pick::Bonus);
        }
        Possible { moves, picks }
    }
}

/// The lowest tiles of the chows `tile` belongs to.
fn chows_of(tile: Tile) -> Vec<Tile> {
    let (Some(suit), Some(rank)) = (tile.suit(), tile.rank()) else {
        return Vec::new();
    };
    (rank.saturating_sub(2).max(1)..=rank.min(7))
        .filter_map(|low| Tile::suited(suit, low))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::{Deal, HandEvent, HandStarted, TileDiscarded, TileDrawn};
    use crate::play::{Play, PlayRules};

    fn unknown_deal() -> Play {
        let started = HandStarted {
            table: "t1".parse().unwrap(),
            game: 1,
            hand: 1,
            east: Seat::East,
            prevailing_wind: crate::Wind::East,
            dice: Vec::new(),
            deal: Deal::Unknown,
        };
        Play::start(PlayRules::default(), &started).unwrap()
    }

    #[test]
    fn a_counted_seat_is_offered_what_its_unseen_tiles_might_allow() {
        let mut p = unknown_deal();
        // East, to discard first, picks its discard or a kong; nobody else moves.
        let east = p.state().possible_moves(Seat::East);
        assert_eq!(
            east.picks,
            [Pick::Discard, Pick::ConcealedKong, Pick::Bonus]
        );
        assert!(east.moves.is_empty(), "{east:?}");
        // Before play starts, each seat may declare a bonus tile dealt to it (§32).
        let south = p.state().possible_moves(Seat::South);
        assert_eq!(south.picks, [Pick::Bonus]);
        assert!(south.moves.is_empty());
        let five: Tile = "5p".parse().unwrap();
        p.apply(&HandEvent::TileDiscarded(TileDiscarded {
            seat: Seat::East,
            placed: five,
            named: five,
        }))
        .unwrap();
        // South may chow it (the next seat); West and North pung, kong or Mah-Jongg.
        let south = p.state().possible_moves(Seat::South);
        assert!(south.moves.contains(&Move::Claim(ClaimKind::Chow, five)));
        let west = p.state().possible_moves(Seat::West);
        assert!(!west.moves.contains(&Move::Claim(ClaimKind::Chow, five)));
        for k in [ClaimKind::Pung, ClaimKind::Kong, ClaimKind::MahJongg] {
            assert!(west.moves.contains(&Move::Claim(k, five)), "{k:?}");
        }
        assert!(west.moves.contains(&Move::Pass));
        // South's own draw: unseen, so a Mah-Jongg on it needs the tile picked.
        p.apply(&HandEvent::TileDrawn(TileDrawn {
            seat: Seat::South,
            tile: None,
        }))
        .unwrap();
        let south = p.state().possible_moves(Seat::South);
        assert_eq!(
            south.picks,
            [
                Pick::Discard,
                Pick::ConcealedKong,
                Pick::SelfDrawnMahJongg,
                Pick::Bonus
            ]
        );
        // Once play has started, another seat's bonus tile waits for its own turn.
        assert!(p.state().possible_moves(Seat::West).picks.is_empty());
    }

    #[test]
    fn a_chow_is_any_of_the_three_a_tile_belongs_to() {
        let t = |s: &str| s.parse::<Tile>().unwrap();
        assert_eq!(chows_of(t("1s")), [t("1s")]);
        assert_eq!(chows_of(t("5m")), [t("3m"), t("4m"), t("5m")]);
        assert_eq!(chows_of(t("9p")), [t("7p")]);
        assert!(chows_of(t("E")).is_empty());
    }
}
