//! Where a table stands: which game and hand, who deals, which wind prevails — and how that
//! moves on after each hand, under the ruleset's rotation ([`RotationParams`]).
//!
//! Code §11: East keeps the title while he wins and after a wash-out; when another player
//! wins, the player on East's right takes it. §12: a round is complete when the fourth holder
//! of the title gives it up, so a round is "four hands, plus one for each wash-out, and one for
//! each hand won by East" — that is, four passes of the deal. §13–14: four rounds, East to
//! North, make a game. §122(r): East gives up the title after thirteen wins in succession
//! (wash-outs between them not counted).
//!
//! The books differ only in parameters: Babcock's "other method" (ch. VIII p. 79) gives the
//! deal to the winner instead of East's right. A round under that method is still counted as
//! four passes of the deal. *Interpretation:* Babcock does not say when a round ends under it;
//! counting passes keeps §12's count of hands (four, plus one per wash-out and per win by
//! East), which is the one thing every book agrees a round is. Pinned by
//! `tests::winner_becomes_east_counts_four_passes_a_round`.

use serde::{Deserialize, Serialize};

use crate::rules::{DealPasses, RotationParams};
use crate::seat::Seat;
use crate::tile::Wind;

/// A hand's place in the table's play: game, hand, dealer, prevailing wind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Position {
    /// The game, from 1.
    pub game: u32,
    /// The hand within the game, from 1.
    pub hand: u32,
    /// The seat whose player is East (deals) this hand.
    pub east: Seat,
    /// The wind of the round.
    pub prevailing: Wind,
    /// East's wins in succession before this hand, wash-outs not breaking the run (§122(r)).
    pub east_wins: u32,
    /// Times the deal has passed in this round (§12: the round ends at four).
    pub passes: u8,
}

/// How a hand ended, as far as the rotation cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum HandEnd {
    /// Someone went Mah-Jongg.
    Won(Seat),
    /// A wash-out (Code §97).
    WashOut,
    /// Abandoned for a penalty, with no score (a false Mah-Jongg, §82–83; a false naming
    /// claimed for Mah-Jongg, §87): East keeps the title unless an offender was East.
    Abandoned { east_passes: bool },
}

impl HandEnd {
    /// How a hand ended from what its record says: its winner, whether it was washed out or
    /// abandoned, and the penalties in force (one that finishes the hand says who is East
    /// next). `None` while it has no result.
    pub fn of(
        winner: Option<Seat>,
        washed_out: bool,
        penalties: &[crate::settle::Penalty<Seat>],
        east: Seat,
    ) -> Option<HandEnd> {
        if let Some(w) = winner {
            return Some(HandEnd::Won(w));
        }
        if !washed_out {
            return None;
        }
        let abandoned = penalties.iter().filter_map(|p| p.abandons_hand(east));
        Some(match abandoned.reduce(|a, b| a || b) {
            Some(east_passes) => HandEnd::Abandoned { east_passes },
            None => HandEnd::WashOut,
        })
    }
}

/// What happened to the deal after a hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rotated {
    /// The next hand's position.
    pub next: Position,
    /// The hand ended its game (Code §14); `next` is the first hand of the next game.
    pub game_ended: bool,
}

impl Position {
    /// The first hand of the first game: True East in the East seat deals (Code §15).
    pub const FIRST: Position = Position::first_of(1);

    /// The first hand of game `game`.
    pub const fn first_of(game: u32) -> Position {
        Position {
            game,
            hand: 1,
            east: Seat::East,
            prevailing: Wind::East,
            east_wins: 0,
            passes: 0,
        }
    }

    /// The hand after this one, given how it ended.
    pub fn after(self, end: HandEnd, rules: &RotationParams) -> Rotated {
        let keep = |east_wins| Rotated {
            next: Position {
                hand: self.hand + 1,
                east_wins,
                ..self
            },
            game_ended: false,
        };
        let new_east = match end {
            HandEnd::WashOut if rules.east_keeps_on_wash_out => return keep(self.east_wins),
            HandEnd::WashOut => self.east.next(),
            // §82, §87: "if some other player was East, he shall keep the title".
            HandEnd::Abandoned { east_passes: false } => return keep(self.east_wins),
            HandEnd::Abandoned { east_passes: true } => self.east.next(),
            HandEnd::Won(w) if w == self.east => {
                let wins = self.east_wins + 1;
                if rules.east_gives_up_after == 0 || wins < rules.east_gives_up_after {
                    return keep(wins);
                }
                // §122(r): "East relinquishes his title, which passes to the next player in
                // rotation".
                self.east.next()
            }
            HandEnd::Won(w) => match rules.deal_passes {
                DealPasses::Right => self.east.next(),
                DealPasses::ToWinner => w,
            },
        };
        let passes = self.passes + 1;
        if passes < 4 {
            return Rotated {
                next: Position {
                    hand: self.hand + 1,
                    east: new_east,
                    east_wins: 0,
                    passes,
                    ..self
                },
                game_ended: false,
            };
        }
        // §12: the round is complete; §13–14: after the last round, the game.
        let round = self.prevailing.index() + 1;
        if round >= usize::from(rules.rounds_per_game) {
            return Rotated {
                next: Position::first_of(self.game + 1),
                game_ended: true,
            };
        }
        Rotated {
            next: Position {
                game: self.game,
                hand: self.hand + 1,
                east: new_east,
                prevailing: self.prevailing.next(),
                east_wins: 0,
                passes: 0,
            },
            game_ended: false,
        }
    }

    /// The id of this hand at `table`: `<table>-g<game>-h<hand>` (also its stream's id).
    pub fn hand_id(&self, table: &str) -> String {
        format!("{table}-g{}-h{}", self.game, self.hand)
    }

    /// The wind `seat`'s player holds this hand.
    pub const fn wind_of(&self, seat: Seat) -> Wind {
        seat.wind(self.east)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Ruleset;

    fn rules(name: &str) -> RotationParams {
        Ruleset::builtin(name).unwrap().rotation
    }

    #[test]
    fn a_hand_abandoned_for_a_false_call_passes_east_only_if_east_called() {
        use crate::settle::Penalty;
        let code = rules("code-of-laws");
        let p = Position::FIRST;
        let by = |s: Seat| vec![Penalty::FalseMahJongg { offenders: vec![s] }];
        let end = |s| HandEnd::of(None, true, &by(s), p.east).unwrap();
        assert_eq!(end(Seat::South), HandEnd::Abandoned { east_passes: false });
        assert_eq!(end(Seat::East), HandEnd::Abandoned { east_passes: true });
        assert_eq!(p.after(end(Seat::South), &code).next.east, Seat::East);
        assert_eq!(p.after(end(Seat::East), &code).next.east, Seat::South);
        // Under a ruleset that passes the deal on a wash-out, §82 still keeps it.
        let passes = RotationParams {
            east_keeps_on_wash_out: false,
            ..code.clone()
        };
        assert_eq!(p.after(end(Seat::South), &passes).next.east, Seat::East);
        assert_eq!(p.after(HandEnd::WashOut, &passes).next.east, Seat::South);
        // No penalty that abandons: a wash-out; no result: none.
        assert_eq!(HandEnd::of(None, true, &[], p.east), Some(HandEnd::WashOut));
        assert_eq!(HandEnd::of(None, false, &by(Seat::East), p.east), None);
    }

    #[test]
    fn east_keeps_the_title_on_a_win_or_a_wash_out() {
        // Given the first hand under the Code,
        let code = rules("code-of-laws");
        // when East wins, then East deals again; when it washes out, again.
        let r = Position::FIRST.after(HandEnd::Won(Seat::East), &code);
        assert_eq!(
            (r.next.east, r.next.hand, r.next.east_wins),
            (Seat::East, 2, 1)
        );
        let r = r.next.after(HandEnd::WashOut, &code);
        assert_eq!(
            (r.next.east, r.next.hand, r.next.east_wins),
            (Seat::East, 3, 1)
        );
        assert_eq!(r.next.passes, 0);
    }

    #[test]
    fn the_title_passes_right_and_sixteen_hands_make_a_game() {
        let code = rules("code-of-laws");
        let mut p = Position::FIRST;
        let mut hands = 0;
        loop {
            // Someone other than East wins every hand.
            let r = p.after(HandEnd::Won(p.east.next().next()), &code);
            hands += 1;
            if r.game_ended {
                assert_eq!(r.next, Position::first_of(2));
                break;
            }
            assert_eq!(r.next.east, p.east.next(), "§11: to East's right");
            if p.east == Seat::North {
                assert_eq!(r.next.prevailing, p.prevailing.next(), "§12: a round");
            }
            p = r.next;
        }
        assert_eq!(hands, 16, "§12–13: four hands a round, four rounds");
    }

    #[test]
    fn east_gives_up_after_thirteen_wins() {
        // Code §122(r): the thirteenth consecutive win is East's last as East.
        let code = rules("code-of-laws");
        let mut p = Position::FIRST;
        for _ in 0..12 {
            p = p.after(HandEnd::Won(Seat::East), &code).next;
            p = p.after(HandEnd::WashOut, &code).next; // wash-outs do not break the run
        }
        assert_eq!((p.east, p.east_wins), (Seat::East, 12));
        let r = p.after(HandEnd::Won(Seat::East), &code);
        assert_eq!(
            (r.next.east, r.next.east_wins, r.next.passes),
            (Seat::South, 0, 1)
        );
        // Babcock has no such rule: East keeps the deal.
        let babcock = rules("babcock-standard");
        assert_eq!(
            p.after(HandEnd::Won(Seat::East), &babcock).next.east,
            Seat::East
        );
    }

    #[test]
    fn winner_becomes_east_counts_four_passes_a_round() {
        // Babcock p. 79 "Other Methods": the winner becomes East.
        let mut other = rules("babcock-standard");
        other.deal_passes = DealPasses::ToWinner;
        let p = Position::FIRST;
        let r = p.after(HandEnd::Won(Seat::West), &other);
        assert_eq!((r.next.east, r.next.passes), (Seat::West, 1));
        let mut p = r.next;
        for _ in 0..3 {
            p = p.after(HandEnd::Won(p.east.next()), &other).next;
        }
        assert_eq!((p.prevailing, p.passes, p.hand), (Wind::South, 0, 5));
    }

    #[test]
    fn fewer_rounds_end_the_game_sooner() {
        let mut short = rules("code-of-laws");
        short.rounds_per_game = 1;
        let mut p = Position::FIRST;
        for i in 0..4 {
            let r = p.after(HandEnd::Won(p.east.next()), &short);
            assert_eq!(r.game_ended, i == 3);
            p = r.next;
        }
        assert_eq!(p, Position::first_of(2));
    }

    #[test]
    fn the_dealer_seat_holds_east() {
        let p = Position {
            east: Seat::West,
            ..Position::FIRST
        };
        assert_eq!(p.wind_of(Seat::West), Wind::East);
        assert_eq!(p.wind_of(Seat::North), Wind::South);
        assert_eq!(p.wind_of(Seat::East), Wind::West);
        assert_eq!(p.hand_id("t1"), "t1-g1-h1");
    }
}
