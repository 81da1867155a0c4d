//! Reading the projections: what pages and the standings board show.

use referee::Seat;
use rusqlite::{params, OptionalExtension};
use uuid::Uuid;

use crate::error::{Result, SqlContext};
use crate::{BySeat, Ledger, PlayerId, StreamId};

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

/// One recorded settlement of a hand, superseded or not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettlementRow {
    pub event_id: Uuid,
    pub version: u64,
    pub winner: Option<Seat>,
    pub scores: BySeat<i64>,
    pub nets: BySeat<i64>,
    /// The correction that superseded it; `None` while it counts.
    pub superseded_by: Option<Uuid>,
}

/// A hand at a glance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandSummary {
    pub stream: StreamId,
    pub tournament: Option<StreamId>,
    pub table: String,
    pub game: u32,
    pub hand: u32,
    pub east: Seat,
    pub prevailing_wind: referee::Wind,
    pub players: BySeat<Option<PlayerId>>,
    pub washed_out: bool,
    /// Every settlement recorded for the hand, oldest first; the one not superseded counts.
    pub settlements: Vec<SettlementRow>,
}

impl HandSummary {
    /// The settlement that counts, if any.
    pub fn current_settlement(&self) -> Option<&SettlementRow> {
        self.settlements
            .iter()
            .rev()
            .find(|s| s.superseded_by.is_none())
    }
}

fn parse<T: std::str::FromStr>(s: &str) -> rusqlite::Result<T> {
    s.parse().map_err(|_| {
        rusqlite::Error::InvalidColumnType(0, s.to_owned(), rusqlite::types::Type::Text)
    })
}

fn from_json<T: serde::de::DeserializeOwned>(s: &str) -> rusqlite::Result<T> {
    serde_json::from_str(s).map_err(|e| {
        rusqlite::Error::FromSqlConversionFailure(0, rusqlite::types::Type::Text, Box::new(e))
    })
}

fn uuid(b: Option<Vec<u8>>) -> rusqlite::Result<Option<Uuid>> {
    b.map(|b| {
        Uuid::from_slice(&b).map_err(|e| {
            rusqlite::Error::FromSqlConversionFailure(0, rusqlite::types::Type::Blob, Box::new(e))
        })
    })
    .transpose()
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

    /// Every settlement recorded in a hand stream, oldest first.
    pub fn settlements(&self, hand: &StreamId) -> Result<Vec<SettlementRow>> {
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT event_id, version, winner, scores, nets, superseded_by FROM proj_settlements \
                 WHERE stream = ?1 ORDER BY version",
            )
            .ctx("reading settlements")?;
        let rows = stmt
            .query_map([hand.as_str()], |r| {
                Ok(SettlementRow {
                    event_id: uuid(Some(r.get(0)?))?.unwrap_or_default(),
                    version: r.get::<_, i64>(1)?.max(0) as u64,
                    winner: r
                        .get::<_, Option<String>>(2)?
                        .map(|w| parse(&w))
                        .transpose()?,
                    scores: from_json(&r.get::<_, String>(3)?)?,
                    nets: from_json(&r.get::<_, String>(4)?)?,
                    superseded_by: uuid(r.get(5)?)?,
                })
            })
            .ctx("reading settlements")?;
        rows.collect::<rusqlite::Result<_>>()
            .ctx("reading settlements")
    }

    /// The summary of a hand stream, once its `HandStarted` is recorded.
    pub fn hand_summary(&self, hand: &StreamId) -> Result<Option<HandSummary>> {
        let summary = self
            .conn
            .prepare_cached(
                "SELECT tournament, table_id, game, hand, east, prevailing, players, washed_out \
                 FROM proj_hands WHERE stream = ?1",
            )
            .and_then(|mut s| {
                s.query_row(params![hand.as_str()], |r| {
                    Ok(HandSummary {
                        stream: hand.clone(),
                        tournament: r
                            .get::<_, Option<String>>(0)?
                            .map(|t| parse(&t))
                            .transpose()?,
                        table: r.get(1)?,
                        game: r.get(2)?,
                        hand: r.get(3)?,
                        east: parse(&r.get::<_, String>(4)?)?,
                        prevailing_wind: parse(&r.get::<_, String>(5)?)?,
                        players: from_json(&r.get::<_, String>(6)?)?,
                        washed_out: r.get(7)?,
                        settlements: Vec::new(),
                    })
                })
                .optional()
            })
            .ctx("reading a hand summary")?;
        let Some(mut summary) = summary else {
            return Ok(None);
        };
        summary.settlements = self.settlements(hand)?;
        Ok(Some(summary))
    }
}
