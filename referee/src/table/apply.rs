//! Folding the table's events into its state. A stored event that contradicts the record (a
//! hand started twice, a play that cannot be replayed) is a loud, typed error
//! ([`ApplyError`]), never folded differently. A hand's result events fold through its
//! [`ResultRecord`], as the read model folds them: a correction the table would not decide (one
//! that withdraws a correction, or corrects anything but the settlement in force) is folded as
//! recorded, not refused.

use uuid::Uuid;

use crate::event::{HandEvent, HandStarted, TableEvent};
use crate::play::{PlayState, Turn};
use crate::rotation::{HandEnd, Position};

use super::in_play::InPlay;
use super::record::{Fact, ResultRecord};
use super::{ApplyError, Decided, Decision, HandKey, HandState, Table};

impl Table {
    /// Folds one event (with its id) into the state.
    pub fn apply(&mut self, id: Uuid, event: &Decided) -> Result<(), ApplyError> {
        match event {
            Decided::Table(TableEvent::GameStarted(g)) => {
                self.games_started = self.games_started.max(g.game);
            }
            Decided::Table(TableEvent::GameEnded(_)) => {}
            Decided::Hand(key, HandEvent::HandStarted(h)) => {
                if self.hands.contains_key(key) {
                    return Err(ApplyError::HandStartedTwice(*key));
                }
                let position = self.position_of(h);
                let play =
                    InPlay::start(self.play_rules.clone(), h).map_err(|e| ApplyError::Play {
                        hand: *key,
                        why: e.to_string(),
                    })?;
                self.hands.insert(
                    *key,
                    HandState {
                        position,
                        play: Some(Box::new(play)),
                        record: ResultRecord::default(),
                        history: Vec::new(),
                        restored: None,
                        seen: crate::counts::TileCounts::EMPTY,
                    },
                );
            }
            Decided::Hand(key, e) => {
                let hand = self
                    .hands
                    .get_mut(key)
                    .ok_or(ApplyError::HandNotStarted(*key))?;
                if let Some(play) = &mut hand.play {
                    let over = matches!(play.replay.state().turn, Turn::Over(_));
                    if e.is_result() || (matches!(e, HandEvent::HandExposed(_)) && !over) {
                        // The result, or the hands of a hand reported at its end (or finished
                        // from a report): the play is over.
                        if over {
                            hand.seen = left_on_the_table(play.replay.state());
                        }
                        hand.play = None;
                    } else if matches!(e, HandEvent::EntryStruck(_)) {
                        play.strike().map_err(|err| ApplyError::Play {
                            hand: *key,
                            why: err.to_string(),
                        })?;
                    } else if e.is_play() {
                        play.apply(e).map_err(|err| ApplyError::Play {
                            hand: *key,
                            why: err.to_string(),
                        })?;
                    }
                }
                fold_hand(hand, id, e);
            }
        }
        Ok(())
    }

    /// Folds the events of `decision` (with their ids, in order) into the state: as
    /// [`Table::apply`] each, but the hand it played takes the replay the decision computed,
    /// at its first event of the play, instead of replaying its events again (its start, when
    /// the decision holds it, is folded first).
    pub fn apply_decision(&mut self, ids: &[Uuid], decision: Decision) -> Result<(), ApplyError> {
        let Some(played) = decision.played else {
            for (id, e) in ids.iter().zip(&decision.events) {
                self.apply(*id, e)?;
            }
            return Ok(());
        };
        let mut replay = Some(played.replay);
        for (id, e) in ids.iter().zip(&decision.events) {
            match e {
                // Already in the replay: only the hand's own record takes it.
                Decided::Hand(key, e)
                    if *key == played.hand
                        && (e.is_play() || matches!(e, HandEvent::EntryStruck(_))) =>
                {
                    let hand = hand_mut(&mut self.hands, *key)?;
                    let Some(play) = hand.play.as_mut() else {
                        return Err(ApplyError::Play {
                            hand: *key,
                            why: "the hand is not in play".into(),
                        });
                    };
                    play.applied(e, replay.take().map(|r| *r));
                    fold_hand(hand, *id, e)
                }
                e => self.apply(*id, e)?,
            }
        }
        if let (Some(replay), Some(play)) = (
            replay,
            hand_mut(&mut self.hands, played.hand)?.play.as_mut(),
        ) {
            play.replay = *replay;
        }
        Ok(())
    }

    /// Restores a hand known only by its start and how it ended (from a read model), without
    /// its facts: enough for the rotation of the hands after it. A hand restored this way can
    /// be neither corrected nor shown in detail; fold its events for that.
    pub fn restore(
        &mut self,
        key: HandKey,
        started: &HandStarted,
        end: Option<HandEnd>,
    ) -> Result<(), ApplyError> {
        if self.hands.contains_key(&key) {
            return Err(ApplyError::HandStartedTwice(key));
        }
        let position = self.position_of(started);
        self.hands.insert(
            key,
            HandState {
                position,
                play: None,
                record: ResultRecord::default(),
                history: Vec::new(),
                restored: end,
                seen: crate::counts::TileCounts::EMPTY,
            },
        );
        Ok(())
    }

    /// The position a started hand holds, carrying East's run from the hand before.
    fn position_of(&self, h: &HandStarted) -> Position {
        let before = self.next();
        let same_deal = before.game == h.game && before.east == h.east;
        Position {
            game: h.game,
            hand: h.hand,
            east: h.east,
            prevailing: h.prevailing_wind,
            east_wins: if same_deal { before.east_wins } else { 0 },
            passes: if before.game == h.game && before.prevailing == h.prevailing_wind {
                before.passes
            } else {
                0
            },
        }
    }
}

/// The discards a play left on the table, as tiles seen.
fn left_on_the_table(state: &PlayState) -> crate::counts::TileCounts {
    let mut seen = crate::counts::TileCounts::EMPTY;
    for t in state.on_the_table() {
        // A set holds at most four of a tile: the play refused more.
        let _ = seen.try_add(t);
    }
    seen
}

/// Folds a hand-stream event into the hand's record, if it is one of its facts; a correction
/// that withdraws a correction derives the record again from the hand's facts.
fn fold_hand(hand: &mut HandState, id: Uuid, e: &HandEvent) {
    let Some(fact) = Fact::of(e) else {
        return;
    };
    hand.history.push((id, e.clone()));
    if hand.record.fold(id, fact).is_err() {
        let facts: Vec<_> = hand
            .history
            .iter()
            .filter_map(|(id, e)| Fact::of(e).map(|f| (*id, f)))
            .collect();
        hand.record = ResultRecord::derive(&facts);
    }
}

fn hand_mut(
    hands: &mut std::collections::BTreeMap<HandKey, HandState>,
    key: HandKey,
) -> Result<&mut HandState, ApplyError> {
    hands.get_mut(&key).ok_or(ApplyError::HandNotStarted(key))
}
