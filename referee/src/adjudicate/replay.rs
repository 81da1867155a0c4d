//! A hand replayed for adjudication: the play ([`Play`], the pure fold of its events) and what
//! the rulings that span several events watch as it is folded.
//!
//! Some rulings need more than one event: whether a discard let off a cannon depends on what
//! the dangerous player had displayed when it was made, who claimed it and for what, and how
//! the hand ended, possibly many turns later (Code §90–96); whether a call of Mah-Jongg could
//! stand at all depends on what the caller did before it (§55, §89). A [`Replay`] feeds each
//! event to the play and to its watchers — the Code's cannon watch, the book's watch where the
//! ruleset charges a dangerous discard by Babcock's or Harr's rule ([`CannonWatch`]), and the
//! notes ([`Notes`]) — each looking at the state before the event and taking it in once it has
//! applied, so the findings are there at any moment. The play knows nothing of them.

use super::danger::CannonReading;
use super::false_call::{CallBars, FalseCall};
use super::notes::{Barred, Notes};
use super::watch::CannonWatch;
use super::{Cannon, Insurance};
use crate::event::{ClaimKind, HandEvent, HandStarted};
use crate::play::{Applied, Irregularity, Play, PlayError, PlayRules, PlayState};
use crate::position::{Position, Stage};

/// A hand being replayed: its play, and the watches the findings read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    play: Play,
    /// What the cannon ruling needs, under the Code's reading (§90–96).
    watch: CannonWatch,
    /// The same under the book's reading, where the ruleset charges a dangerous discard by
    /// Babcock's insurance penalties or Harr's penalty 2.
    book_watch: Option<CannonWatch>,
    /// What the findings spanning several events need: claims withdrawn, false namings,
    /// Original Calls broken, §89's counts (Code §55, §69–71, §76–78, §84–89).
    notes: Notes,
    /// For each call of Mah-Jongg the play keeps (by the same index): why the caller, and each
    /// rival claimant of the discard, could not Mah-Jongg at all (§55(b), §89(b)).
    bars: Vec<CallBars>,
    /// The same for the rivals of the last grant of a discard for Mah-Jongg, for the call that
    /// follows it (§83).
    rival_bars: Vec<Option<Barred>>,
}

/// A hand replayed ([`Replay::replay`], [`Replay::replay_from_position`]).
#[derive(Clone, Debug)]
pub struct Replayed {
    pub replay: Replay,
    /// Each irregularity found, with the event it came from.
    pub irregular: Vec<(usize, Irregularity)>,
    /// The event the replay stopped at, when one was inconsistent.
    pub refused: Option<PlayError>,
}

/// The book's watch a ruleset's rules of play ask for, where they charge a dangerous discard
/// by a book's rule other than the Code's.
fn book_watch(rules: &PlayRules) -> Option<CannonWatch> {
    CannonReading::of(rules.cannons)
        .filter(|r| r != &CannonReading::CODE)
        .map(CannonWatch::new)
}

impl Replay {
    /// The hand as dealt by `started`.
    pub fn start(rules: PlayRules, started: &HandStarted) -> Result<Replay, PlayError> {
        let play = Play::start(rules, started)?;
        Ok(Replay {
            book_watch: book_watch(play.rules()),
            watch: CannonWatch::new(CannonReading::CODE),
            notes: Notes::default(),
            bars: Vec::new(),
            rival_bars: Vec::new(),
            play,
        })
    }

    /// The hand at `position`, to be played on from there: the position is event 0. The seat
    /// to move came by its tiles as the position's turn says (§95(a)), and the Original Calls
    /// it shows bind from there.
    pub fn from_position(rules: PlayRules, position: &Position) -> Result<Replay, PlayError> {
        let play = Play::from_position(rules, position)?;
        let to_move = position.to_move();
        let came = |watch: CannonWatch| match to_move.stage {
            Stage::Chowed => watch.after_claim(to_move.seat, ClaimKind::Chow),
            Stage::Punged => watch.after_claim(to_move.seat, ClaimKind::Pung),
            Stage::Konged => watch.after_claim(to_move.seat, ClaimKind::Kong),
            _ => watch,
        };
        Ok(Replay {
            watch: came(CannonWatch::new(CannonReading::CODE)),
            book_watch: book_watch(play.rules()).map(came),
            notes: Notes::from_position(
                play.state(),
                to_move.stage.to_discard().then_some(to_move.seat),
            ),
            bars: Vec::new(),
            rival_bars: Vec::new(),
            play,
        })
    }

    /// Folds one more event into the play, and into each watch. An inconsistent event is
    /// refused and changes nothing.
    pub fn apply(&mut self, event: &HandEvent) -> Result<Applied, PlayError> {
        if self.play.is_take_up(event) {
            // A call taken up or a rival's claim withdrawn (§82–83): the play's own bookkeeping.
            return self.play.apply(event);
        }
        let n = self.play.events();
        let state = self.play.state();
        let noted = self.watch.note(state, n, event);
        let book_noted = self.book_watch.as_ref().map(|w| w.note(state, n, event));
        let notes_before = self.notes.before(state, event);
        let applied = self.play.apply(event)?;
        let state = self.play.state();
        self.watch.record(state, event, noted);
        if let (Some(w), Some(noted)) = (self.book_watch.as_mut(), book_noted) {
            w.record(state, event, noted);
        }
        self.notes.after(state, n, event, notes_before);
        match event {
            HandEvent::ClaimGranted(_) => {
                let notes = &self.notes;
                self.rival_bars = self
                    .play
                    .rivals()
                    .iter()
                    .map(|&s| notes.barred(s))
                    .collect();
            }
            HandEvent::MahJonggDeclared(m) => {
                if let Some(call) = self.play.calls().last().filter(|c| c.event == n) {
                    let caller = self
                        .notes
                        .on_mahjongg(&call.before, n, m.seat, m.self_drawn);
                    let rivals = if m.self_drawn {
                        Vec::new()
                    } else {
                        std::mem::take(&mut self.rival_bars)
                    };
                    self.bars.push(CallBars { caller, rivals });
                }
            }
            _ => {}
        }
        Ok(applied)
    }

    /// The hand started by `started` replayed through `events`, stopping at the first event
    /// that cannot be applied: the replay, every irregularity with the event it came from (the
    /// start is event 0), and the refused event if there was one.
    pub fn replay<'a>(
        rules: PlayRules,
        started: &HandStarted,
        events: impl IntoIterator<Item = &'a HandEvent>,
    ) -> Result<Replayed, PlayError> {
        Ok(Replay::start(rules, started)?.replay_on(events))
    }

    /// The hand at `position` replayed through its acts in dispute, as [`Replay::replay`]
    /// replays a recorded hand: what [`super::findings`] rules on.
    pub fn replay_from_position(
        rules: PlayRules,
        position: &Position,
    ) -> Result<Replayed, PlayError> {
        Ok(Replay::from_position(rules, position)?.replay_on(&position.events()))
    }

    /// This replay carried on through `events`, stopping at the first that cannot be applied.
    fn replay_on<'a>(mut self, events: impl IntoIterator<Item = &'a HandEvent>) -> Replayed {
        let mut irregular = Vec::new();
        let mut refused = None;
        for e in events {
            let n = self.play.events();
            match self.apply(e) {
                Ok(Applied::Legal) => {}
                Ok(Applied::Irregular(found)) => {
                    irregular.extend(found.into_iter().map(|i| (n, i)))
                }
                Err(err) => {
                    refused = Some(err);
                    break;
                }
            }
        }
        Replayed {
            replay: self,
            irregular,
            refused,
        }
    }

    /// Every call of Mah-Jongg found false under `rules` (§82), the one standing last.
    pub fn false_calls(&self, rules: &crate::Ruleset) -> Vec<FalseCall> {
        self.play
            .calls()
            .iter()
            .zip(&self.bars)
            .filter_map(|(c, bars)| {
                let state = c.as_called.as_deref().unwrap_or(self.play.state());
                FalseCall::of(c, bars, state, rules)
            })
            .collect()
    }

    /// Every call of Mah-Jongg found false under `rules` (§82), and the one standing, if it is
    /// one of them: each call judged once.
    pub fn false_calls_and_standing(
        &self,
        rules: &crate::Ruleset,
    ) -> (Vec<FalseCall>, Option<FalseCall>) {
        let standing = self.play.standing_call();
        let mut all = Vec::new();
        let mut standing_false = None;
        for (i, (c, bars)) in self.play.calls().iter().zip(&self.bars).enumerate() {
            let state = c.as_called.as_deref().unwrap_or(self.play.state());
            if let Some(f) = FalseCall::of(c, bars, state, rules) {
                if standing == Some(i) {
                    standing_false = Some(f.clone());
                }
                all.push(f);
            }
        }
        (all, standing_false)
    }

    /// The call of Mah-Jongg that ended the play, if it stands and is false under `rules`.
    pub fn false_call(&self, rules: &crate::Ruleset) -> Option<FalseCall> {
        let i = self.play.standing_call()?;
        FalseCall::of(
            &self.play.calls()[i],
            self.bars.get(i)?,
            self.play.state(),
            rules,
        )
    }

    /// The cannon let off, under the Code (§90–96), once the hand has ended in Mah-Jongg on
    /// one: the finding, whatever the ruleset; whether it moves the money is the ruleset's
    /// ([`PlayRules::cannons`]).
    pub fn cannon(&self) -> Option<Cannon> {
        self.watch.cannon(self.play.state())
    }

    /// The dangerous discard charged (or exempt) under Babcock's insurance penalties or Harr's
    /// penalty 2, once the hand has ended in Mah-Jongg, where the play's rules name one of them
    /// ([`PlayRules::cannons`]); `None` under any other rules.
    pub fn insurance(&self) -> Option<Insurance> {
        let watch = self.book_watch.as_ref()?;
        super::insurance::insurance(watch, self.play.state(), self.play.rules().new_method)
    }

    /// What the watches have noted for the findings that span several events.
    pub fn notes(&self) -> &Notes {
        &self.notes
    }

    /// The play replayed.
    pub fn play(&self) -> &Play {
        &self.play
    }

    /// The state now.
    pub fn state(&self) -> &PlayState {
        self.play.state()
    }

    /// How many events have been folded in (the start included).
    pub fn events(&self) -> usize {
        self.play.events()
    }

    /// The rules of play it follows.
    pub fn rules(&self) -> &PlayRules {
        self.play.rules()
    }
}

impl Replay {
    /// The finding on the dangerous discard the hand was won on, once it has ended in
    /// Mah-Jongg: the book's where the ruleset charges a dangerous discard by Babcock's or
    /// Harr's rule, else the Code's cannon (found whatever the ruleset; whether it moves the
    /// money is [`Replay::charges_dangerous_discards`]).
    pub fn dangerous_discard(&self) -> Option<super::Finding> {
        if self.book_watch.is_some() {
            self.insurance().map(super::Finding::Insurance)
        } else {
            self.cannon().map(super::Finding::Cannon)
        }
    }

    /// Whether the ruleset charges a dangerous discard at all (its `cannons` names a rule).
    pub fn charges_dangerous_discards(&self) -> bool {
        CannonReading::of(self.play.rules().cannons).is_some()
    }
}
