//! Reading one hand history: the state kept from message to message, and which family of
//! messages each record belongs to. The messages of each family are read beside this file:
//! the game and the deal ([`setup`](super::setup)), the play ([`play`](super::play)), and the
//! end of the hand ([`end`](super::end)).

use std::collections::BTreeMap;
use std::str::SplitAsciiWhitespace;

use crate::by_seat::BySeat;
use crate::event::{HandEvent, HandStarted};
use crate::ids::TableId;
use crate::seat::Seat;
use crate::tile::{AnyTile, Tile, Wind};

use super::end::{lay_down, LaidGroups};
use super::{records, MjsError, MjsHand, Reader, Serial, ServerCannon};

/// What the reading of one hand history knows so far.
pub(super) struct Reading {
    pub(super) r: Reader,
    pub(super) table: TableId,
    pub(super) game: u32,
    pub(super) hand: u32,
    pub(super) players: BTreeMap<u8, String>,
    pub(super) options: BTreeMap<String, String>,
    pub(super) wall: Option<Vec<AnyTile>>,
    pub(super) wall_known: bool,
    pub(super) prevailing: Wind,
    pub(super) started: Option<HandStarted>,
    /// The deal: who takes each of the first 53 `PlayerDraws`, and the tile when the wall
    /// gives it.
    pub(super) deal: Vec<(Seat, Option<AnyTile>)>,
    pub(super) dealt: usize,
    pub(super) events: Vec<(usize, HandEvent)>,
    pub(super) serials: BTreeMap<u32, Serial>,
    pub(super) last_added_kong: Option<Seat>,
    pub(super) laid_down: Vec<(Seat, String)>,
    /// Each seat's laid-down groups, with the line of its first laying-down message and the
    /// group a winning discard was placed in.
    pub(super) groups: BySeat<Option<LaidGroups>>,
    pub(super) scores: Vec<(Seat, i64, String)>,
    pub(super) settlement: Option<([i64; 4], String)>,
    pub(super) dangerous: Vec<ServerCannon>,
    pub(super) mahjong_seat: Option<Seat>,
    /// Who claimed the last discard for Mah-Jong: two may (the server then grants the nearer).
    pub(super) claimed_mahjong: Vec<Seat>,
    pub(super) last_discard: Option<Tile>,
}

/// The words of a record after its first.
pub(super) type Words<'a> = SplitAsciiWhitespace<'a>;

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
