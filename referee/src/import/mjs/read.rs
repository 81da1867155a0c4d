//! Reading one hand history: a record at a time, each to the family of messages it belongs to.
//! The messages of each family are read beside this file: the game and the deal
//! ([`setup`](super::setup)), the play ([`play`](super::play)), and the end of the hand
//! ([`end`](super::end)); what the reading keeps between them is [`Reading`].

use std::collections::BTreeMap;

use crate::by_seat::BySeat;
use crate::event::HandEvent;
use crate::ids::TableId;
use crate::tile::Wind;

use super::end::lay_down;
use super::{records, MjsError, MjsHand, Reader, Reading, Words};

impl Reading {
    /// Reads `text` as table `table`'s hand `hand` of game `game`.
    pub(super) fn read(
        text: &str,
        table: TableId,
        game: u32,
        hand: u32,
    ) -> Result<MjsHand, MjsError> {
        let records = records(text);
        let mut reading = Reading {
            r: Reader { line: 0 },
            table,
            game,
            hand,
            players: BTreeMap::new(),
            options: BTreeMap::new(),
            wall: None,
            wall_known: false,
            prevailing: Wind::East,
            started: None,
            deal: Vec::new(),
            dealt: 0,
            // An event is large (a few hundred bytes): the vector is sized once, not grown by
            // copying.
            events: Vec::with_capacity(records.len()),
            serials: BTreeMap::new(),
            last_added_kong: None,
            laid_down: Vec::new(),
            groups: BySeat::from_fn(|_| None),
            scores: Vec::new(),
            settlement: None,
            dangerous: Vec::new(),
            mahjong_seat: None,
            claimed_mahjong: Vec::new(),
            last_discard: None,
        };
        for (line, record) in &records {
            reading.r.line = *line;
            let mut words = record.split_ascii_whitespace();
            let Some(kind) = words.next() else { continue };
            reading.record(kind, &mut words, record)?;
        }
        reading.finish()
    }

    /// Reads one record, of message `kind`.
    fn record(&mut self, kind: &str, words: &mut Words, record: &str) -> Result<(), MjsError> {
        match kind {
            "Player" => self.player(words),
            "GameOption" => self.game_option(words),
            "Wall" => self.wall(words),
            "NewRound" => self.new_round(words),
            "Game" => self.game_line(words),
            "NewHand" => self.new_hand(words),
            _ if self.started.is_none() => Ok(()),
            "PlayerDraws" if self.dealt < self.deal.len() => self.dealt_tile(words),
            "PlayerDraws" | "PlayerDrawsLoose" => self.drew(kind, words),
            "PlayerDeclaresSpecial" => self.declared_special(words),
            "PlayerDiscards" => self.discarded(words),
            "PlayerClaimsChow"
            | "PlayerClaimsPung"
            | "PlayerClaimsKong"
            | "PlayerClaimsMahJong" => self.claimed(kind, words),
            "PlayerDoesntClaim" => self.passed(words),
            "PlayerChows" | "PlayerPungs" | "PlayerKongs" if self.mahjong_seat.is_none() => {
                self.set_made(kind, words)
            }
            "PlayerDeclaresClosedKong" | "PlayerAddsToPung" => self.konged(kind, words),
            "PlayerRobsKong" => self.robbed(words),
            "PlayerMahJongs" => self.mahjong(words),
            "PlayerChows"
            | "PlayerPungs"
            | "PlayerKongs"
            | "PlayerPairs"
            | "PlayerSpecialSet"
            | "PlayerFormsClosedPung"
            | "PlayerFormsClosedChow"
            | "PlayerFormsClosedPair"
            | "PlayerFormsClosedSpecialSet"
            | "PlayerShowsTiles" => self.laid_group(kind, words, record),
            "DangerousDiscard" => self.dangerous_discard(words),
            "WashOut" => self.washed_out(words),
            "HandScore" => self.hand_score(words),
            "Settlement" => self.settled(words),
            _ => Ok(()),
        }
    }

    /// The event the next push makes (the start is event 0).
    pub(super) fn next_event(&self) -> usize {
        self.events.len() + 1
    }

    /// Records `e` at the line being read.
    pub(super) fn push(&mut self, e: HandEvent) {
        self.events.push((self.r.line, e));
    }

    /// The hand read: its start, its play with the hands laid down, and the server's results.
    fn finish(mut self) -> Result<MjsHand, MjsError> {
        let started = self.started.take().ok_or(MjsError {
            line: self.r.line,
            what: "no `NewHand` line: not an mj-server hand history".into(),
        })?;
        if self.dealt < self.deal.len() {
            return Err(MjsError {
                line: self.r.line,
                what: format!(
                    "the hand ends after {} of the deal's {} tiles",
                    self.dealt,
                    self.deal.len()
                ),
            });
        }
        lay_down(&started, &mut self.events, &self.groups)?;
        Ok(MjsHand {
            players: self.players,
            options: self.options,
            started,
            events: self.events,
            laid_down: self.laid_down,
            scores: self.scores,
            settlement: self.settlement,
            dangerous: self.dangerous,
        })
    }
}
