//! The hand being recorded play by play: its start, the entries of its play standing, and the
//! replay they come to.
//!
//! The entries are kept, not only their replay, for one reason: a scorer's strike
//! (`EntryStruck`) takes the last entry back out, as if it had never been recorded, and the
//! play is folded again from the start without it. A strike is the scorer's, never a player's:
//! what a player takes back is an act of the game, applied and ruled on (Code §69–75).

use crate::adjudicate::Replay;
use crate::event::{describe, EntryStruck, HandEvent, HandExposed, HandStarted};
use crate::play::{Applied, PlayError, PlayRules};
use crate::violation::{Violation, Violations};

use super::{Decided, Decision, HandKey, HandState, Played};

impl HandState {
    /// Decides the scorer's strike of the last entry of this hand's play (`key`), with the
    /// violations found so far (`v`): refused when the hand is not in play, when it would lay
    /// hands down, or when it names any entry but the last standing.
    pub(super) fn decide_strike(
        &self,
        key: HandKey,
        strike: &EntryStruck,
        laid_down: &[HandExposed],
        mut v: Violations,
    ) -> Result<Decision, Violations> {
        let Some(in_play) = self.play.as_deref() else {
            v.push(Violation::new(
                "hand",
                "the hand is not in play: there is no entry of its play to strike",
            ));
            return Err(v);
        };
        if !laid_down.is_empty() {
            v.push(Violation::new(
                "laid_down",
                "a strike lays no hand down: the hands are laid down with the event that ends the hand",
            ));
        }
        if !v.is_empty() {
            return Err(v);
        }
        let replay = in_play.decide_strike(strike)?;
        Ok(Decision {
            events: vec![Decided::Hand(key, HandEvent::EntryStruck(strike.clone()))],
            played: Some(Played {
                hand: key,
                replay: Box::new(replay),
                applied: Applied::Legal,
            }),
        })
    }
}

/// A hand in play (see the module's doc).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct InPlay {
    started: HandStarted,
    entries: Vec<HandEvent>,
    pub(crate) replay: Replay,
}

impl InPlay {
    /// The hand dealt by `started`, nothing played yet.
    pub(crate) fn start(rules: PlayRules, started: &HandStarted) -> Result<InPlay, PlayError> {
        Ok(InPlay {
            replay: Replay::start(rules, started)?,
            started: started.clone(),
            entries: Vec::new(),
        })
    }

    /// Applies one more entry of the play.
    pub(crate) fn apply(&mut self, e: &HandEvent) -> Result<(), PlayError> {
        self.replay.apply(e)?;
        self.entries.push(e.clone());
        Ok(())
    }

    /// Takes `e` as applied already, its replay being `replay` (a decision's).
    pub(crate) fn applied(&mut self, e: &HandEvent, replay: Option<Replay>) {
        match e {
            HandEvent::EntryStruck(_) => {
                self.entries.pop();
            }
            e => self.entries.push(e.clone()),
        }
        if let Some(r) = replay {
            self.replay = r;
        }
    }

    /// Strikes the last entry standing: the play folded again without it.
    pub(crate) fn strike(&mut self) -> Result<(), PlayError> {
        self.replay = self.struck()?;
        self.entries.pop();
        Ok(())
    }

    /// The replay with the last entry struck, refusing a strike that names any other entry.
    pub(crate) fn decide_strike(&self, strike: &EntryStruck) -> Result<Replay, Violations> {
        let last = self.entries.len();
        if last == 0 {
            return Err(Violation::new(
                "event.entry",
                "nothing of the play is recorded yet: there is no entry to strike",
            )
            .into());
        }
        if strike.entry as usize != last {
            return Err(Violation::new(
                "event.entry",
                format!(
                    "only the last entry standing may be struck: that is entry {last} ({}), not entry {}",
                    describe(&self.entries[last - 1]),
                    strike.entry
                ),
            )
            .into());
        }
        let entry = &self.entries[last - 1];
        if super::record::Fact::of(entry).is_some() {
            // A call of Mah-Jongg, a hand laid down, a wash-out, a call taken back are facts of
            // the hand's result: taken up or ruled on (§82–83), or corrected, never struck.
            return Err(Violation::new(
                "event.entry",
                format!(
                    "entry {last} ({}) is a fact of the hand's result, not a slip of the scorer's: a call of Mah-Jongg is taken up or ruled on (§82), a result corrected",
                    describe(entry)
                ),
            )
            .into());
        }
        self.struck()
            .map_err(|e| Violation::new("event", e.to_string()).into())
    }

    /// The play folded again from its start without its last entry.
    fn struck(&self) -> Result<Replay, PlayError> {
        let standing = &self.entries[..self.entries.len().saturating_sub(1)];
        let replayed = Replay::replay(self.replay.rules().clone(), &self.started, standing)?;
        match replayed.refused {
            Some(e) => Err(e),
            None => Ok(replayed.replay),
        }
    }

    /// The entries standing, in order (entry 1 first; the start is entry 0).
    pub(crate) fn entries(&self) -> &[HandEvent] {
        &self.entries
    }
}

#[cfg(test)]
mod tests {
    use uuid::Uuid;

    use super::super::tests::{conditions, given, played_hand, when};
    use super::super::{HandKey, Table, TableCommand};
    use crate::event::{EntryStruck, HandEvent, HandExposed};

    fn play(hand: HandKey, event: HandEvent) -> TableCommand {
        TableCommand::Play {
            hand,
            event,
            laid_down: Vec::new(),
        }
    }

    fn strike(hand: HandKey, entry: u32) -> TableCommand {
        play(
            hand,
            HandEvent::EntryStruck(EntryStruck {
                entry,
                reason: "tapped the wrong tile".into(),
            }),
        )
    }

    #[test]
    fn a_struck_entry_leaves_the_play_as_if_it_had_never_been_recorded() {
        let (deal, events) = played_hand();
        let start = TableCommand::StartHand {
            dice: Vec::new(),
            deal,
        };
        let key = HandKey { game: 1, hand: 1 };
        let mut t = given(std::slice::from_ref(&start));
        let mut decided = Vec::new();
        let i = events
            .iter()
            .position(|e| matches!(e, HandEvent::TileDiscarded(_)))
            .unwrap();
        for e in &events[..i] {
            decided.extend(when(&mut t, &play(key, e.clone())).unwrap());
        }
        let before = t.in_play().unwrap().1.clone();
        // The slip: the discard recorded, then struck by the scorer.
        decided.extend(when(&mut t, &play(key, events[i].clone())).unwrap());
        assert_ne!(t.in_play().unwrap().1, &before);
        // Only the last entry standing may be struck, and only it by its number.
        for wrong in [0, i as u32, i as u32 + 2] {
            let v = t.decide(&conditions(), &strike(key, wrong)).unwrap_err();
            assert!(v.to_string().contains("only the last entry"), "{v}");
        }
        decided.extend(when(&mut t, &strike(key, i as u32 + 1)).unwrap());
        assert_eq!(t.in_play().unwrap().1, &before);
        assert_eq!(t.hands[&key].entries(), &events[..i]);
        // Play goes on to the end and settles as if the slip had never been.
        let (moves, laid): (Vec<_>, Vec<HandExposed>) = {
            let mut moves = Vec::new();
            let mut laid = Vec::new();
            for e in &events[i..] {
                match e {
                    HandEvent::HandExposed(x) => laid.push(x.clone()),
                    e => moves.push(e.clone()),
                }
            }
            (moves, laid)
        };
        let last = moves.len() - 1;
        for (n, e) in moves.into_iter().enumerate() {
            let cmd = TableCommand::Play {
                hand: key,
                event: e,
                laid_down: if n == last { laid.clone() } else { Vec::new() },
            };
            decided.extend(when(&mut t, &cmd).unwrap());
        }
        assert!(t.in_play().is_none());
        let straight = given(&[TableCommand::RecordPlayedHand {
            dice: Vec::new(),
            deal: played_hand().0,
            events: events.clone(),
            east: None,
        }]);
        let settled = |t: &Table| t.hands[&key].settlement().map(|(_, s)| s.clone());
        assert!(settled(&t).is_some());
        assert_eq!(settled(&t), settled(&straight));
        // A fresh fold of what was recorded, strike and all, comes to the same table.
        let mut fresh = given(std::slice::from_ref(&start));
        let start_events = fresh.clone();
        for e in &decided {
            fresh.apply(Uuid::now_v7(), e).unwrap();
        }
        assert_ne!(fresh, start_events);
        assert_eq!(settled(&fresh), settled(&t));
        // Once the hand is over there is nothing to strike: it is corrected instead.
        let v = straight.decide(&conditions(), &strike(key, 1)).unwrap_err();
        assert!(v.to_string().contains("not in play"), "{v}");
    }

    #[test]
    fn a_call_of_mah_jongg_is_a_fact_of_the_result_not_a_slip_to_strike() {
        let (deal, events) = played_hand();
        let started = crate::event::HandStarted {
            table: "t1".parse().unwrap(),
            game: 1,
            hand: 1,
            east: crate::Seat::East,
            prevailing_wind: crate::Wind::East,
            dice: Vec::new(),
            deal,
        };
        let mut p = super::InPlay::start(crate::play::PlayRules::default(), &started).unwrap();
        let play: Vec<_> = events
            .iter()
            .filter(|e| !matches!(e, HandEvent::HandExposed(_)))
            .collect();
        for e in &play {
            p.apply(e).unwrap();
        }
        assert!(matches!(play.last(), Some(HandEvent::MahJonggDeclared(_))));
        let v = p
            .decide_strike(&EntryStruck {
                entry: play.len() as u32,
                reason: String::new(),
            })
            .unwrap_err();
        assert!(v.to_string().contains("fact of the hand's result"), "{v}");
    }

    #[test]
    fn nothing_recorded_is_nothing_to_strike() {
        let (deal, _) = played_hand();
        let mut t = given(&[TableCommand::StartHand {
            dice: Vec::new(),
            deal,
        }]);
        let key = HandKey { game: 1, hand: 1 };
        let v = when(&mut t, &strike(key, 0)).unwrap_err();
        assert!(v.to_string().contains("no entry to strike"), "{v}");
    }
}
