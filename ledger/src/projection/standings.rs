//! Reading the standings: each player's sums over the hands they played.

use super::hand_queries::parse;
use crate::error::{Result, SqlContext};
use crate::{Ledger, PlayerId, StreamId};

/// One player's line in a tournament's standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    pub player: PlayerId,
    pub net: i64,
    pub hands_played: u32,
    pub hands_won: u32,
    /// The largest score of a hand the player won (0 when none).
    pub largest_hand: i64,
}

impl Ledger {
    /// A tournament's standings, best net first.
    pub fn standings(&self, tournament: &StreamId) -> Result<Vec<Standing>> {
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT player, net, hands_played, hands_won, largest_hand FROM proj_standings \
                 WHERE tournament = ?1 ORDER BY net DESC, player",
            )
            .ctx("reading standings")?;
        let rows = stmt
            .query_map([tournament.as_str()], |r| {
                Ok(Standing {
                    player: parse(&r.get::<_, String>(0)?)?,
                    net: r.get(1)?,
                    hands_played: r.get(2)?,
                    hands_won: r.get(3)?,
                    largest_hand: r.get(4)?,
                })
            })
            .ctx("reading standings")?;
        rows.collect::<rusqlite::Result<_>>()
            .ctx("reading standings")
    }
}
