//! The messages before the play: the players, the game's options, the wall, the round and the
//! hand's dealer, and the deal itself (the first 53 `PlayerDraws`).

use crate::by_seat::BySeat;
use crate::event::{Deal, DealOrder, HandStarted};
use crate::seat::Seat;
use crate::tile::{AnyTile, Tile, Wind};

use super::{tile_code, MjsError, Reading, Words};

impl Reading {
    /// `Player id name`.
    pub(super) fn player(&mut self, words: &mut Words) -> Result<(), MjsError> {
        let id = self.r.number(words.next())? as u8;
        self.players.insert(id, words.collect::<Vec<_>>().join(" "));
        Ok(())
    }

    /// `GameOption 0 name type minprot enabled value …`.
    pub(super) fn game_option(&mut self, words: &mut Words) -> Result<(), MjsError> {
        let _ = words.next();
        let name = words
            .next()
            .ok_or_else(|| self.r.err("a game option without a name"))?;
        let _type = words.next();
        let _minprot = words.next();
        let _enabled = words.next();
        let value = words.next().unwrap_or_default();
        self.options.insert(name.to_owned(), value.to_owned());
        Ok(())
    }

    /// `Wall t1 t2 …`: the whole wall in drawing order.
    pub(super) fn wall(&mut self, words: &mut Words) -> Result<(), MjsError> {
        let tiles = words
            .map(|w| self.r.any_tile(Some(w)))
            .collect::<Result<Vec<_>, _>>()?;
        self.wall = Some(tiles);
        Ok(())
    }

    /// `NewRound wind`.
    pub(super) fn new_round(&mut self, words: &mut Words) -> Result<(), MjsError> {
        let w = words.next().unwrap_or_default();
        self.prevailing = match w {
            "E" | "EW" => Wind::East,
            "S" | "SW" => Wind::South,
            "W" | "WW" => Wind::West,
            "N" | "NW" => Wind::North,
            _ => return Err(self.r.err(format!("`{w}` is not a wind"))),
        };
        Ok(())
    }

    /// `Game id1 id2 id3 id4 Wind …`: the round's wind is the fifth word.
    pub(super) fn game_line(&mut self, words: &mut Words) -> Result<(), MjsError> {
        if let Some(w) = words.nth(4) {
            if let Some(AnyTile::Playing(t)) = tile_code(&format!("{w}W")) {
                self.prevailing = Wind::ALL
                    .into_iter()
                    .find(|&x| Tile::wind(x) == t)
                    .unwrap_or(self.prevailing);
            }
        }
        Ok(())
    }

    /// `NewHand east …`: the hand starts. With the wall (an `.mjs`), the deal is checked
    /// against it; without (a `server.log`), the first 53 draws are the deal.
    pub(super) fn new_hand(&mut self, words: &mut Words) -> Result<(), MjsError> {
        let east = self.r.seat(words.next())?;
        let deal_to = DealOrder::FourFourFourOne
            .takes()
            .iter()
            .flat_map(|&(from_east, n)| {
                std::iter::repeat_n(Seat::from_index((east.index() + from_east) % 4), n)
            });
        let (deal_known, known) = match self.wall.clone() {
            Some(tiles) => {
                let mut next = tiles.iter();
                self.deal = deal_to
                    .filter_map(|seat| next.next().map(|&t| (seat, Some(t))))
                    .collect();
                (
                    Deal::Wall {
                        tiles,
                        order: DealOrder::FourFourFourOne,
                    },
                    true,
                )
            }
            None => {
                self.deal = deal_to.map(|seat| (seat, None)).collect();
                (
                    Deal::Hands {
                        hands: BySeat::default(),
                    },
                    false,
                )
            }
        };
        self.wall_known = known;
        self.started = Some(HandStarted {
            table: self.table.clone(),
            game: self.game,
            hand: self.hand,
            east,
            prevailing_wind: self.prevailing,
            dice: Vec::new(),
            deal: deal_known,
        });
        Ok(())
    }

    /// `PlayerDraws seat tile` while the deal lasts: checked against the wall, or taken as the
    /// seat's dealt tile.
    pub(super) fn dealt_tile(&mut self, words: &mut Words) -> Result<(), MjsError> {
        let seat = self.r.seat(words.next())?;
        let tile = self.r.any_tile(words.next())?;
        let dealt = self.dealt;
        match self.deal[dealt] {
            (s, Some(t)) if (s, t) != (seat, tile) => {
                return Err(self.r.err(format!(
                    "dealt tile {} is `{tile}` to {seat}, but the wall deals `{t}` to {s}",
                    dealt + 1
                )))
            }
            (s, None) if s != seat => {
                return Err(self.r.err(format!(
                    "dealt tile {} goes to {seat}, but the deal gives it to {s}",
                    dealt + 1
                )))
            }
            _ => {}
        }
        if !self.wall_known {
            if let Some(HandStarted {
                deal: Deal::Hands { hands },
                ..
            }) = &mut self.started
            {
                hands[seat].push(tile);
            }
        }
        self.dealt += 1;
        Ok(())
    }
}
