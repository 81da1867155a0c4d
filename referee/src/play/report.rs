//! A hand's end as the play gives it: each seat's hand as it lies or as laid down (§104–105),
//! and the report and facts a finished hand is scored and settled from, by the same code as a
//! hand recorded only at its end.

use crate::by_seat::BySeat;
use crate::counts::TileCounts;
use crate::event::WinContext;
use crate::hand::{Hand, HandSetup, RawMeld};
use crate::report::{HandFacts, HandReport};
use crate::rotation::Position;
use crate::seat::Seat;
use crate::tile::Tile;

use super::state::{Concealed, Ending, Formed, PlayState, Turn};

impl PlayState {
    /// `seat`'s hand as it lies, in the hand notation's terms: its concealed tiles (the
    /// winning tile apart, for the winner), its sets and bonus tiles. `None` while its
    /// concealed tiles are only counted.
    pub fn hand_of(&self, seat: Seat) -> Option<Hand> {
        // A seat may end the hand short (§89): its hand is still scored.
        Hand::new_short(&self.setup_of(seat)?).ok()
    }

    /// `seat`'s hand laid down with its concealed tiles in `groups` (§104). The set or pair
    /// the winning tile completes is left for it to complete: `groups[i]` when `winning_in`
    /// is `Some(i)` (the group a winning discard was placed in), else every group holding a
    /// tile like it (the player chooses which a drawn tile completes, §104). `None` while the
    /// seat's tiles are only counted, or when the groups are not among its tiles.
    pub fn hand_grouped(
        &self,
        seat: Seat,
        groups: &[crate::hand::ConcealedGroup],
        winning_in: Option<usize>,
    ) -> Option<Hand> {
        let mut setup = self.setup_of(seat)?;
        let mut rest = TileCounts::EMPTY;
        for &t in &setup.concealed {
            rest.try_add(t).ok()?;
        }
        for (i, &g) in groups.iter().enumerate() {
            let tiles = g.tiles();
            let completes = match (winning_in, setup.winning) {
                (Some(w), Some(_)) => w == i,
                (None, Some(w)) => tiles.contains(&w),
                (_, None) => false,
            };
            if completes {
                continue;
            }
            for &t in &tiles {
                rest = rest.without(t)?;
            }
            setup
                .groups
                .push(crate::hand::RawGroup { column: 0, tiles });
        }
        Hand::new(&setup).ok()
    }

    /// `seat`'s hand as written before it is checked: what [`PlayState::hand_of`] and
    /// [`PlayState::hand_grouped`] build on.
    fn setup_of(&self, seat: Seat) -> Option<HandSetup> {
        let s = &self.seats[seat];
        let Concealed::Known(concealed) = &s.concealed else {
            return None;
        };
        let winning = match self.turn {
            Turn::Over(Ending::MahJongg { seat: w, tile, .. }) if w == seat => Some(tile),
            _ => None,
        };
        let mut tiles = *concealed;
        if let Some(w) = winning {
            tiles = tiles.without(w)?;
        }
        // A chow's tile still owed when the hand ended (§41: its claimant discarded first) is
        // in the hand, its set never laid down.
        if let Some(c) = s
            .claimed
            .filter(|c| c.claim != crate::event::ClaimKind::MahJongg)
        {
            tiles = tiles.with(c.tile)?;
        }
        let melds = s
            .sets
            .iter()
            .map(|p| {
                let mut all: Vec<Tile> = p.set.tiles().collect();
                let added = match p.formed {
                    Formed::AddedKong { .. } => all.pop(),
                    _ => None,
                };
                RawMeld {
                    column: 0,
                    // §52: a concealed kong left unmarked scores as exposed.
                    concealed: p.formed == Formed::ConcealedKong
                        && !s.unmarked.contains(&p.set.tile()),
                    tiles: all,
                    added,
                }
            })
            .collect();
        Some(HandSetup {
            concealed: tiles.tiles().collect(),
            groups: Vec::new(),
            melds,
            bonus: s.bonus.clone(),
            winning,
        })
    }

    /// The finished hand as a report to score and settle, by the same code as a hand
    /// recorded only at its end. `None` before the end, or while a hand is only counted.
    pub fn report(&self) -> Option<HandReport> {
        self.report_leaving_out(&[])
    }

    /// [`PlayState::report`] with the hands of `left_out` not given: a long hand, which has no
    /// place on a score sheet and scores nothing (Code §89(c)).
    pub(crate) fn report_leaving_out(&self, left_out: &[Seat]) -> Option<HandReport> {
        let Turn::Over(end) = self.turn else {
            return None;
        };
        let hands = self.hands_leaving_out(left_out)?;
        let mut report = HandReport {
            hands: BySeat::from_fn(|s| hands[s].as_ref().map(Hand::to_string)),
            discards: self.on_the_table().collect(),
            short: crate::report::short_hands(&hands),
            ..HandReport::default()
        };
        if let Ending::MahJongg {
            seat,
            from,
            discarder,
            circumstances,
            ..
        } = end
        {
            report.winner = Some(seat);
            report.win_from = Some(from);
            report.discarder = discarder;
            report.circumstances = circumstances;
        }
        Some(report)
    }

    /// The finished hand's facts as the play gives them — what [`PlayState::report`] states,
    /// without going through the notation and back: the hands as laid down (or as they lie),
    /// the win, the discards left on the table; no penalty. The hands of `left_out` are not
    /// given (a long hand, §89(c)). `None` before the end, or while a hand is only counted.
    pub fn facts_leaving_out(&self, left_out: &[Seat]) -> Option<HandFacts> {
        let Turn::Over(end) = self.turn else {
            return None;
        };
        let hands = self.hands_leaving_out(left_out)?;
        let win = match end {
            Ending::MahJongg {
                seat,
                from,
                discarder,
                circumstances,
                ..
            } => Some(WinContext {
                winner: seat,
                tile: hands[seat].as_ref().and_then(Hand::winning)?,
                from,
                discarder,
                circumstances,
            }),
            Ending::WashOut => None,
        };
        let mut discards = TileCounts::EMPTY;
        for t in self.on_the_table() {
            // At most four of each: the play refused more.
            let _ = discards.try_add(t);
        }
        Some(HandFacts {
            hands,
            win,
            penalties: Vec::new(),
            discards,
        })
    }

    /// Each seat's hand at the end, as laid down or else as it lies; `None` for the seats of
    /// `left_out`. `None` while a seat's tiles are only counted.
    fn hands_leaving_out(&self, left_out: &[Seat]) -> Option<BySeat<Option<Hand>>> {
        let mut hands = BySeat::from_fn(|_| None);
        for seat in Seat::ALL.into_iter().filter(|s| !left_out.contains(s)) {
            hands[seat] = Some(match &self.laid_down[seat] {
                Some(h) => h.clone(),
                None => self.hand_of(seat)?,
            });
        }
        Some(hands)
    }

    /// The finished hand as it lies, with no penalty, scored and settled under `rules`, East
    /// having won `east_wins` hands running before it (§122(r)): `None` before the end, or
    /// while a seat's tiles are unseen; the report's violations if the rules refuse it. (The
    /// penalties its play brings are the adjudication's: `adjudicate::settle`.)
    pub fn settle(
        &self,
        rules: &crate::Ruleset,
        east_wins: u32,
    ) -> Result<Option<(HandReport, crate::report::Settled)>, crate::Violations> {
        self.report()
            .map(|r| crate::report::settle(r, rules, &self.position(east_wins)))
            .transpose()
    }

    /// The hand's place at the table, East having won `east_wins` hands running before it
    /// (§122(r)): what scoring and settling it asks.
    pub fn position(&self, east_wins: u32) -> Position {
        Position {
            game: self.game,
            hand: self.hand,
            east: self.east,
            prevailing: self.prevailing,
            east_wins,
            passes: 0,
        }
    }
}
