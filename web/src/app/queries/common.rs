//! What several pages share: players' names, seats as shown, a hand's result in words, and
//! finding a tournament. Its own module so that the table, tournament and hand views each use it
//! and none of them reaches into another (or into `commands`).

use std::collections::HashMap;

use ledger::{Ledger, PlayerId, StreamId};
use readmodel::{HandRecord, Reads, TournamentRow};
use referee::Seat;
use serde::Serialize;

use super::seat_title;
use crate::app::error::AppError;

/// A seat as shown: the seat as drawn, the player's id and name.
#[derive(Clone, Debug, Serialize)]
pub struct SeatView {
    pub seat: &'static str,
    pub player: String,
    pub name: String,
}

/// Player id → name.
pub fn names(ledger: &Ledger, t: &StreamId) -> Result<HashMap<String, String>, AppError> {
    Ok(ledger
        .players(t)?
        .into_iter()
        .map(|p| (p.player.as_str().to_owned(), p.name))
        .collect())
}

/// Each seat of a hand named by its player ("Ann"), or as drawn ("the East seat") where
/// nobody is named: how the pages speak of a hand's seats.
#[derive(Clone, Debug)]
pub struct SeatNames([Option<String>; 4]);

impl SeatNames {
    /// The names of hand `r`'s players, read from its tournament.
    pub fn of(ledger: &Ledger, r: &HandRecord) -> Result<SeatNames, AppError> {
        let tournament = r
            .tournament
            .as_deref()
            .and_then(|t| t.parse::<StreamId>().ok());
        let names = match &tournament {
            Some(t) => names(ledger, t)?,
            None => HashMap::new(),
        };
        Ok(SeatNames::from(r, &names))
    }

    /// The names of hand `r`'s players, from `names` (player id → name).
    pub fn from(r: &HandRecord, names: &HashMap<String, String>) -> SeatNames {
        SeatNames(Seat::ALL.map(|seat| {
            r.players
                .get(seat)
                .as_ref()
                .and_then(|p| names.get(p))
                .filter(|n| !n.is_empty())
                .cloned()
        }))
    }

    /// The seat's player, when named.
    pub fn player(&self, seat: Seat) -> Option<&str> {
        self.0[seat.index()].as_deref()
    }

    /// The seat's player, or the seat ("the East seat").
    pub fn name(&self, seat: Seat) -> String {
        match self.player(seat) {
            Some(name) => name.to_owned(),
            None => format!("the {} seat", seat_title(seat)),
        }
    }

    /// The seat's player with the seat: "Ann (East seat)", or "the East seat".
    pub fn with_seat(&self, seat: Seat) -> String {
        match self.player(seat) {
            Some(name) => format!("{name} ({} seat)", seat_title(seat)),
            None => self.name(seat),
        }
    }
}

/// The seats as drawn, East first; empty before the draw.
pub fn seats_view(
    seats: &Option<ledger::BySeat<PlayerId>>,
    names: &HashMap<String, String>,
) -> Vec<SeatView> {
    seats
        .as_ref()
        .map(|s| {
            s.iter()
                .map(|(seat, p)| SeatView {
                    seat: seat_title(seat),
                    player: p.as_str().to_owned(),
                    name: names.get(p.as_str()).cloned().unwrap_or_default(),
                })
                .collect()
        })
        .unwrap_or_default()
}

/// What a page says a hand's result was.
pub fn result_text(r: &HandRecord, names: &HashMap<String, String>) -> String {
    let name = |seat: Seat| {
        r.players
            .get(seat)
            .as_ref()
            .and_then(|p| names.get(p))
            .cloned()
            .unwrap_or_else(|| seat_title(seat).to_owned())
    };
    let result = &r.result;
    match (result.winner(), result.washed_out(), result.settlement()) {
        (_, _, None) => "no result in force".to_owned(),
        (Some(w), _, Some((_, s))) => {
            let value = *s.scores.get(w);
            // The winner's own count below the hand's value is what he is paid (Code §110).
            let counted = result.scored().and_then(|sc| {
                sc.penalties.iter().find_map(|p| match p {
                    referee::settle::Penalty::OwnCount { seat, counted } if *seat == w => {
                        Some(*counted)
                    }
                    _ => None,
                })
            });
            match counted {
                Some(c) if i128::from(c) < i128::from(value) => format!(
                    "{} wins ({c} points as counted; the hand is worth {value})",
                    name(w)
                ),
                _ => format!("{} wins ({value} points)", name(w)),
            }
        }
        (None, true, _) => {
            let penalties = result.scored().map_or(&[][..], |s| &s.penalties[..]);
            match referee::table::HandEnd::of(None, true, penalties, r.east) {
                Some(referee::table::HandEnd::Abandoned { east_passes }) => format!(
                    "abandoned for a penalty: no score{}",
                    if east_passes {
                        "; the deal passes"
                    } else {
                        "; East keeps the deal"
                    }
                ),
                _ => "wash-out".to_owned(),
            }
        }
        (None, false, _) => "no Mah-Jongg".to_owned(),
    }
}

/// The tournament stream for an id, or 404 when it does not exist.
pub fn existing_tournament(ledger: &Ledger, id: &str) -> Result<StreamId, AppError> {
    tournament_row(ledger, id).map(|(stream, _)| stream)
}

/// The tournament's stream and row, or 404.
pub fn tournament_row(ledger: &Ledger, id: &str) -> Result<(StreamId, TournamentRow), AppError> {
    let missing = || AppError::not_found(format!("no tournament `{id}`"));
    let stream = StreamId::tournament(id).map_err(|_| missing())?;
    let row = ledger.tournament(&stream)?.ok_or_else(missing)?;
    Ok((stream, row))
}
