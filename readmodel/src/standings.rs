//! The standings: each player's sums over the hands they played, ordered and ranked under the
//! tournament's tie-break chain (see [`TieBreak`]).
//!
//! The order is total and the same on every read: by the chain, then by player id. The rank
//! is the position under the chain alone — players equal on every key share a rank, and the
//! next rank skips ("1, 2, 2, 4") — so it does not depend on how a page sorts the rows.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use ledger::event::{TieBreak, TieBreakKey};
use ledger::{PlayerId, Result, SqlContext, StreamId};
use rusqlite::{Connection, OptionalExtension};

use crate::sessions::open_sessions;
use crate::sql::{from_json, parse};

/// One player's line in a tournament's standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// 1 for the best; shared by players equal on every key of the tie-break chain.
    pub rank: u32,
    pub player: PlayerId,
    pub net: i64,
    pub hands_played: u32,
    pub hands_won: u32,
    /// The largest score of a hand the player won (0 when none).
    pub largest_hand: i64,
    /// A substitute, kept out of the places: his `rank` is 0 and the players' ranks skip him.
    pub substitute: bool,
    /// The player withdrew; he keeps his results and his place.
    pub withdrawn: bool,
    /// The player was voided (a duplicate registration, a mistake): kept out of the places
    /// like a substitute; only officials see his line.
    pub voided: bool,
}

impl Standing {
    /// Whether the player takes a place: neither a substitute nor voided.
    pub fn placed(&self) -> bool {
        !self.substitute && !self.voided
    }
}

/// Which hands a standings read sums.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StandingsScope {
    /// Every hand: what officials see.
    All,
    /// What the public sees: every hand but those of sessions still open.
    Public,
    /// One session's hands alone: its end-of-session balances.
    Session(u32),
}

/// `Less` when `a` is better than `b` on `key`.
fn by_key(key: TieBreakKey, a: &Standing, b: &Standing) -> Ordering {
    match key {
        TieBreakKey::Net => b.net.cmp(&a.net),
        TieBreakKey::HandsWon => b.hands_won.cmp(&a.hands_won),
        TieBreakKey::LargestHand => b.largest_hand.cmp(&a.largest_hand),
        TieBreakKey::FewestHandsPlayed => a.hands_played.cmp(&b.hands_played),
    }
}

/// `Less` when `a` is better than `b` under the chain; `Equal` when they tie on every key.
pub fn compare(chain: &TieBreak, a: &Standing, b: &Standing) -> Ordering {
    chain
        .keys()
        .iter()
        .fold(Ordering::Equal, |ord, &k| ord.then_with(|| by_key(k, a, b)))
}

/// Sorts the rows best first (ties by player id) and gives each its rank under the chain.
/// Substitutes and voided players keep their line in that order but take no place (rank 0),
/// and the players' ranks count only those placed.
pub fn rank(chain: &TieBreak, mut rows: Vec<Standing>) -> Vec<Standing> {
    rows.sort_by(|a, b| compare(chain, a, b).then_with(|| a.player.cmp(&b.player)));
    let mut placed = 0u32;
    let mut previous: Option<usize> = None;
    for i in 0..rows.len() {
        if !rows[i].placed() {
            rows[i].rank = 0;
            continue;
        }
        placed = placed.saturating_add(1);
        rows[i].rank = match previous {
            Some(prev) if compare(chain, &rows[prev], &rows[i]) == Ordering::Equal => {
                rows[prev].rank
            }
            _ => placed,
        };
        previous = Some(i);
    }
    rows
}

/// The tournament's tie-break chain: the one it chose, or the default.
pub(crate) fn tie_break(conn: &Connection, tournament: &StreamId) -> Result<TieBreak> {
    let chosen: Option<Option<String>> = conn
        .prepare_cached("SELECT tie_break FROM proj_tournaments WHERE tournament = ?1")
        .and_then(|mut s| s.query_row([tournament.as_str()], |r| r.get(0)).optional())
        .ctx("reading the tie-break chain")?;
    chosen
        .flatten()
        .map(|c| from_json(&c))
        .transpose()
        .ctx("reading the tie-break chain")
        .map(Option::unwrap_or_default)
}

/// A tournament's standings: every registered player (those who have not played yet with
/// nothing) and anyone else who played in it, best first under its tie-break chain.
pub(crate) fn standings(conn: &Connection, tournament: &StreamId) -> Result<Vec<Standing>> {
    standings_in(conn, tournament, StandingsScope::All)
}

/// The standings over the hands `scope` takes. Every registered player has a line, except
/// in one session's standings, which list those who played in it.
pub(crate) fn standings_in(
    conn: &Connection,
    tournament: &StreamId,
    scope: StandingsScope,
) -> Result<Vec<Standing>> {
    let scope = match scope {
        StandingsScope::Public if open_sessions(conn, tournament)?.is_empty() => {
            StandingsScope::All
        }
        other => other,
    };
    let mut rows: BTreeMap<String, Standing> = BTreeMap::new();
    let mut players = conn
        .prepare_cached(
            "SELECT player, substitute, withdrawn IS NOT NULL FROM proj_players WHERE tournament = ?1",
        )
        .ctx("reading standings")?;
    let registered = players
        .query_map([tournament.as_str()], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, bool>(1)?,
                r.get::<_, bool>(2)?,
            ))
        })
        .ctx("reading standings")?;
    let voided: std::collections::BTreeSet<String> = crate::status::voided(conn, tournament)?
        .into_iter()
        .filter(|v| v.kind == crate::status::VoidedKind::Player)
        .map(|v| v.id)
        .collect();
    let mut marks = BTreeMap::new();
    for p in registered {
        let (p, substitute, withdrawn) = p.ctx("reading standings")?;
        let player = parse(&p).ctx("reading standings")?;
        marks.insert(p.clone(), (substitute, withdrawn));
        if !matches!(scope, StandingsScope::Session(_)) {
            let voided = voided.contains(&p);
            rows.insert(
                p,
                Standing {
                    rank: 0,
                    player,
                    net: 0,
                    hands_played: 0,
                    hands_won: 0,
                    largest_hand: 0,
                    substitute,
                    withdrawn,
                    voided,
                },
            );
        }
    }
    let (sql, session) = match scope {
        StandingsScope::All => (
            "SELECT player, net, hands_played, hands_won, largest_hand FROM proj_standings \
             WHERE tournament = ?1 AND ?2 = 0",
            0,
        ),
        StandingsScope::Public => (
            "SELECT player, SUM(net), SUM(hands_played), SUM(hands_won), MAX(largest_hand) \
             FROM proj_session_standings WHERE tournament = ?1 AND ?2 = 0 AND session NOT IN \
             (SELECT session FROM proj_sessions WHERE tournament = ?1 AND closed_position IS NULL) \
             GROUP BY player",
            0,
        ),
        StandingsScope::Session(n) => (
            "SELECT player, net, hands_played, hands_won, largest_hand \
             FROM proj_session_standings WHERE tournament = ?1 AND session = ?2",
            n,
        ),
    };
    let mut stmt = conn.prepare_cached(sql).ctx("reading standings")?;
    let played = stmt
        .query_map(rusqlite::params![tournament.as_str(), session], |r| {
            Ok(Standing {
                rank: 0,
                player: parse(&r.get::<_, String>(0)?)?,
                net: r.get(1)?,
                hands_played: r.get(2)?,
                hands_won: r.get(3)?,
                largest_hand: r.get(4)?,
                substitute: false,
                withdrawn: false,
                voided: false,
            })
        })
        .ctx("reading standings")?;
    for s in played {
        let mut s = s.ctx("reading standings")?;
        if let Some(&(substitute, withdrawn)) = marks.get(s.player.as_str()) {
            s.substitute = substitute;
            s.withdrawn = withdrawn;
        }
        s.voided = voided.contains(s.player.as_str());
        rows.insert(s.player.as_str().to_owned(), s);
    }
    let chain = tie_break(conn, tournament)?;
    Ok(rank(&chain, rows.into_values().collect()))
}
#[cfg(test)]
mod tests {
    use super::*;

    fn row(player: &str, net: i64, played: u32, won: u32, largest: i64) -> Standing {
        Standing {
            rank: 0,
            player: PlayerId::new(player).unwrap(),
            net,
            hands_played: played,
            hands_won: won,
            largest_hand: largest,
            substitute: false,
            withdrawn: false,
            voided: false,
        }
    }

    fn ranked(chain: &TieBreak, rows: Vec<Standing>) -> Vec<(String, u32)> {
        rank(chain, rows)
            .into_iter()
            .map(|s| (s.player.as_str().to_owned(), s.rank))
            .collect()
    }

    #[test]
    fn equal_players_share_a_rank_and_the_next_rank_skips() {
        let rows = vec![
            row("dan", -30, 4, 0, 0),
            row("cat", 10, 4, 1, 8),
            row("ann", 10, 4, 1, 8),
            row("ben", 40, 4, 2, 16),
            row("eve", -30, 4, 0, 0),
        ];
        assert_eq!(
            ranked(&TieBreak::default(), rows),
            [
                ("ben".into(), 1),
                ("ann".into(), 2),
                ("cat".into(), 2),
                ("dan".into(), 4),
                ("eve".into(), 4)
            ]
        );
    }

    #[test]
    fn each_key_of_the_chain_breaks_the_ties_the_earlier_ones_left() {
        let rows = || {
            vec![
                row("ann", 10, 5, 1, 8),
                row("ben", 10, 4, 2, 8),
                row("cat", 10, 4, 1, 32),
                row("dan", 10, 3, 1, 8),
            ]
        };
        // net ties; hands won puts ben first; largest hand cat; the rest tie.
        assert_eq!(
            ranked(&TieBreak::default(), rows()),
            [
                ("ben".into(), 1),
                ("cat".into(), 2),
                ("ann".into(), 3),
                ("dan".into(), 3)
            ]
        );
        let fewest = TieBreak::parse(&["net", "fewest_hands_played", "hands_won"]).unwrap();
        assert_eq!(
            ranked(&fewest, rows()),
            [
                ("dan".into(), 1),
                ("ben".into(), 2),
                ("cat".into(), 3),
                ("ann".into(), 4)
            ]
        );
    }

    #[test]
    fn voided_players_and_substitutes_take_no_place_and_the_others_close_up() {
        let mut rows = vec![
            row("ann", 50, 4, 2, 16),
            row("ben", 40, 4, 2, 16),
            row("cat", 30, 4, 1, 8),
            row("dan", 20, 4, 1, 8),
            row("eve", 10, 4, 0, 0),
        ];
        rows[0].voided = true;
        rows[2].substitute = true;
        assert_eq!(
            ranked(&TieBreak::default(), rows),
            [
                ("ann".into(), 0),
                ("ben".into(), 1),
                ("cat".into(), 0),
                ("dan".into(), 2),
                ("eve".into(), 3)
            ]
        );
    }
}
