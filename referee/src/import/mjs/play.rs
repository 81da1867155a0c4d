//! The messages of the play: draws, bonus tiles, discards, claims and passes, sets made with a
//! claimed discard, kongs and a kong robbed. Each becomes one or two of our events; the
//! server numbers each discard and kong (its serial), and a claim names the serial it claims.

use crate::event::{
    BonusTileDeclared, ClaimGranted, ClaimKind, ClaimMade, ClaimPassed, HandEvent, KongDeclared,
    KongKind, KongRobbed, LooseTileDrawn, MahJonggDeclared, OriginalCallAnnounced, SetExposed,
    TileDiscarded, TileDrawn,
};
use crate::tile::{AnyTile, Tile};

use super::{MjsError, Reading, Serial, Words};

impl Reading {
    /// `PlayerDraws seat tile` after the deal, or `PlayerDrawsLoose seat tile`.
    pub(super) fn drew(&mut self, kind: &str, words: &mut Words) -> Result<(), MjsError> {
        let seat = self.r.seat(words.next())?;
        let tile = Some(self.r.any_tile(words.next())?);
        self.push(if kind == "PlayerDraws" {
            HandEvent::TileDrawn(TileDrawn { seat, tile })
        } else {
            HandEvent::LooseTileDrawn(LooseTileDrawn { seat, tile })
        });
        Ok(())
    }

    /// `PlayerDeclaresSpecial seat tile`: a bonus tile declared (`--` for none).
    pub(super) fn declared_special(&mut self, words: &mut Words) -> Result<(), MjsError> {
        let seat = self.r.seat(words.next())?;
        match words.next() {
            Some("--") | None => {}
            w => match self.r.any_tile(w)? {
                AnyTile::Bonus(tile) => {
                    self.push(HandEvent::BonusTileDeclared(BonusTileDeclared {
                        seat,
                        tile,
                    }))
                }
                AnyTile::Playing(t) => {
                    return Err(self.r.err(format!("`{t}` declared as a bonus tile")))
                }
            },
        }
        Ok(())
    }

    /// `PlayerDiscards seat tile serial calling`: a discard, with an Original Call when
    /// `calling` is 1.
    pub(super) fn discarded(&mut self, words: &mut Words) -> Result<(), MjsError> {
        let seat = self.r.seat(words.next())?;
        let tile = self.r.tile(words.next())?;
        let serial = self.r.number(words.next())?;
        let calling = words.next() == Some("1");
        self.claimed_mahjong.clear();
        let event = self.next_event();
        self.serials.insert(serial, Serial::Discard { tile, event });
        self.last_discard = Some(tile);
        self.push(HandEvent::TileDiscarded(TileDiscarded {
            seat,
            placed: tile,
            named: tile,
        }));
        if calling {
            self.push(HandEvent::OriginalCallAnnounced(OriginalCallAnnounced {
                seat,
            }));
        }
        Ok(())
    }

    /// `PlayerClaims{Chow,Pung,Kong,MahJong} seat serial`: a claim of a discard (a claim of
    /// Mah-Jong on a kong is its robbing: `PlayerRobsKong` follows).
    pub(super) fn claimed(&mut self, kind: &str, words: &mut Words) -> Result<(), MjsError> {
        let seat = self.r.seat(words.next())?;
        let serial = self.r.number(words.next())?;
        let claim = match kind {
            "PlayerClaimsChow" => ClaimKind::Chow,
            "PlayerClaimsPung" => ClaimKind::Pung,
            "PlayerClaimsKong" => ClaimKind::Kong,
            _ => ClaimKind::MahJongg,
        };
        match self.serials.get(&serial).copied() {
            Some(Serial::Discard { tile, .. }) => {
                if claim == ClaimKind::MahJongg {
                    self.claimed_mahjong.push(seat);
                }
                self.push(HandEvent::ClaimMade(ClaimMade { seat, claim, tile }));
                Ok(())
            }
            Some(Serial::Kong { .. }) => Ok(()),
            None => Err(self.r.err(format!(
                "a claim on serial {serial}, which no discard or kong has"
            ))),
        }
    }

    /// `PlayerDoesntClaim seat`.
    pub(super) fn passed(&mut self, words: &mut Words) -> Result<(), MjsError> {
        let seat = self.r.seat(words.next())?;
        self.push(HandEvent::ClaimPassed(ClaimPassed { seat }));
        Ok(())
    }

    /// `PlayerChows seat tile position`, `PlayerPungs seat tile`, `PlayerKongs seat tile`
    /// during the play: the discard granted, and the set laid down with it (a kong annexed).
    pub(super) fn set_made(&mut self, kind: &str, words: &mut Words) -> Result<(), MjsError> {
        let seat = self.r.seat(words.next())?;
        let tile = self.r.tile(words.next())?;
        let claim = match kind {
            "PlayerChows" => ClaimKind::Chow,
            "PlayerPungs" => ClaimKind::Pung,
            _ => ClaimKind::Kong,
        };
        self.push(HandEvent::ClaimGranted(ClaimGranted { seat, claim }));
        let e = match claim {
            ClaimKind::Kong => HandEvent::KongDeclared(KongDeclared {
                seat,
                kind: KongKind::AnnexedDiscard,
                tile,
                unmarked: false,
            }),
            _ => {
                let lowest = if claim == ClaimKind::Chow {
                    self.chow_of(tile, words.next())?
                } else {
                    tile
                };
                HandEvent::SetExposed(SetExposed {
                    seat,
                    claim,
                    lowest,
                })
            }
        };
        self.push(e);
        Ok(())
    }

    /// The lowest tile of the chow `tile` stands in at `position` (`Lower`, `Middle`,
    /// `Upper`).
    pub(super) fn chow_of(&self, tile: Tile, position: Option<&str>) -> Result<Tile, MjsError> {
        let steps = match position {
            Some("Lower") => 0,
            Some("Middle") => 1,
            Some("Upper") => 2,
            w => return Err(self.r.err(format!("a chow at position {w:?}"))),
        };
        tile.suit()
            .zip(tile.rank())
            .and_then(|(suit, rank)| Tile::suited(suit, rank.checked_sub(steps)?))
            .ok_or_else(|| self.r.err(format!("no chow has `{tile}` in that position")))
    }

    /// `PlayerDeclaresClosedKong seat tile serial` or `PlayerAddsToPung seat tile serial`.
    pub(super) fn konged(&mut self, kind: &str, words: &mut Words) -> Result<(), MjsError> {
        let seat = self.r.seat(words.next())?;
        let tile = self.r.tile(words.next())?;
        let serial = self.r.number(words.next())?;
        let event = self.next_event();
        self.serials.insert(serial, Serial::Kong { event });
        let kind = if kind == "PlayerAddsToPung" {
            self.last_added_kong = Some(seat);
            KongKind::AddedToExposedPung
        } else {
            KongKind::Concealed
        };
        self.push(HandEvent::KongDeclared(KongDeclared {
            seat,
            kind,
            tile,
            unmarked: false,
        }));
        Ok(())
    }

    /// `PlayerRobsKong robber tile`: the kong robbed, and the robber's Mah-Jongg on it.
    pub(super) fn robbed(&mut self, words: &mut Words) -> Result<(), MjsError> {
        let robber = self.r.seat(words.next())?;
        let tile = self.r.tile(words.next())?;
        let from = self.last_added_kong.ok_or_else(|| {
            self.r
                .err("a kong robbed where no tile was added to a pung")
        })?;
        self.last_discard = Some(tile);
        self.claimed_mahjong.clear();
        self.mahjong_seat = Some(robber);
        self.push(HandEvent::KongRobbed(KongRobbed { robber, from, tile }));
        self.push(HandEvent::MahJonggDeclared(MahJonggDeclared {
            seat: robber,
            winning_tile: tile,
            self_drawn: false,
        }));
        Ok(())
    }
}
