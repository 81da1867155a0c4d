//! East's rotation and the prevailing wind (Code of Laws §11–14).
//!
//! §11: East keeps the title while he wins, and after a wash-out; when another player wins,
//! the title passes to the player on East's right (South). §12–13: a round is complete when the
//! player who was North in the game's first hand gives up the title; the game's four rounds are
//! East, South, West and North, named for the wind that prevails. §14: the game ends when, in
//! the North round, that player loses the title.
//!
//! Seats are the seats as drawn (Code §15: True East sits in the East seat and deals the first
//! hand), so "the player who was North in the first hand" is the North seat, and the title
//! passing to East's right is the next seat in the order of play.

use referee::Wind;

/// Where a table stands: which game and hand, who deals, which wind prevails.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub game: u32,
    pub hand: u32,
    /// The seat (as drawn) that is East.
    pub east: Wind,
    pub prevailing: Wind,
}

impl Position {
    /// The first hand of the first game.
    pub const FIRST: Position = Position {
        game: 1,
        hand: 1,
        east: Wind::East,
        prevailing: Wind::East,
    };

    /// The hand after this one, given who won (`None`: a wash-out), and whether this one ended
    /// the game.
    pub fn next(self, winner: Option<Wind>) -> (Position, bool) {
        let east_keeps = winner.is_none() || winner == Some(self.east);
        if east_keeps {
            return (
                Position {
                    hand: self.hand + 1,
                    ..self
                },
                false,
            );
        }
        let east = self.east.next();
        if east != Wind::East {
            return (
                Position {
                    hand: self.hand + 1,
                    east,
                    ..self
                },
                false,
            );
        }
        // The North seat gave up the title: a round is complete (§12).
        if self.prevailing == Wind::North {
            // §14: the fourth round is over, and with it the game.
            return (
                Position {
                    game: self.game + 1,
                    ..Position::FIRST
                },
                true,
            );
        }
        (
            Position {
                hand: self.hand + 1,
                east,
                prevailing: self.prevailing.next(),
                game: self.game,
            },
            false,
        )
    }

    /// The id of the hand stream for this position at `table`.
    pub fn hand_id(self, table: &str) -> String {
        format!("{table}-g{}-h{}", self.game, self.hand)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn east_keeps_the_title_on_a_win_or_wash_out() {
        let (p, ended) = Position::FIRST.next(Some(Wind::East));
        assert_eq!((p.east, p.hand, ended), (Wind::East, 2, false));
        let (p, _) = p.next(None);
        assert_eq!((p.east, p.hand), (Wind::East, 3));
    }

    #[test]
    fn the_title_passes_to_the_right_and_rounds_and_game_end() {
        let mut p = Position::FIRST;
        let mut hands = 0;
        let mut ended = false;
        // Someone other than East wins every hand: 4 hands a round, 16 a game (§12).
        while !ended {
            let winner = p.east.next();
            let before = p;
            (p, ended) = p.next(Some(winner));
            hands += 1;
            if !ended && before.east == Wind::North {
                assert_eq!(p.prevailing, before.prevailing.next());
            }
        }
        assert_eq!(hands, 16);
        assert_eq!(
            p,
            Position {
                game: 2,
                ..Position::FIRST
            }
        );
    }
}
