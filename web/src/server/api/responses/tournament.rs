//! Tournaments, their players and tables, and a player's history, as the API answers them.

use serde::Serialize;

use super::all;
use crate::app::queries::tournament::{
    PlayerHandRow, PlayerHistoryView, PlayerView, SeatView, TableSummary, TournamentSummary,
    TournamentView,
};

/// A tournament and its playing conditions.
#[derive(Clone, Debug, Serialize)]
pub struct TournamentJson {
    pub id: String,
    pub name: String,
    pub ruleset: String,
    pub ruleset_title: String,
    pub limit: Option<u64>,
    pub starting_chips: i64,
    pub house_ruleset: bool,
    /// Why it was voided (only officials ever see a voided tournament).
    pub voided: Option<String>,
}

impl From<TournamentSummary> for TournamentJson {
    fn from(t: TournamentSummary) -> TournamentJson {
        TournamentJson {
            id: t.id,
            name: t.name,
            ruleset: t.ruleset,
            ruleset_title: t.ruleset_title,
            limit: t.limit,
            starting_chips: t.starting_chips,
            house_ruleset: t.house_ruleset,
            voided: t.voided,
        }
    }
}

/// A registered player.
#[derive(Clone, Debug, Serialize)]
pub struct PlayerJson {
    pub id: String,
    pub name: String,
    pub voided: Option<String>,
}

impl From<PlayerView> for PlayerJson {
    fn from(p: PlayerView) -> PlayerJson {
        PlayerJson {
            id: p.id,
            name: p.name,
            voided: p.voided,
        }
    }
}

/// A seat as drawn and who sits there.
#[derive(Clone, Debug, Serialize)]
pub struct SeatJson {
    /// `East`, `South`, `West` or `North`: the seat as drawn.
    pub seat: &'static str,
    pub player: String,
    pub name: String,
}

impl From<SeatView> for SeatJson {
    fn from(s: SeatView) -> SeatJson {
        SeatJson {
            seat: s.seat,
            player: s.player,
            name: s.name,
        }
    }
}

/// A table as the tournament lists it.
#[derive(Clone, Debug, Serialize)]
pub struct TableSummaryJson {
    pub id: String,
    pub number: u32,
    pub draw_seed: Option<u64>,
    pub seats: Vec<SeatJson>,
    pub closed: bool,
    pub voided: Option<String>,
}

impl From<TableSummary> for TableSummaryJson {
    fn from(t: TableSummary) -> TableSummaryJson {
        TableSummaryJson {
            id: t.id,
            number: t.number,
            draw_seed: t.draw_seed,
            seats: all(t.seats),
            closed: t.closed,
            voided: t.voided,
        }
    }
}

/// `GET /api/tournaments/<id>`: the tournament's fields, its players and its tables.
#[derive(Clone, Debug, Serialize)]
pub struct TournamentDetailJson {
    #[serde(flatten)]
    pub tournament: TournamentJson,
    pub players: Vec<PlayerJson>,
    pub tables: Vec<TableSummaryJson>,
}

impl From<TournamentView> for TournamentDetailJson {
    fn from(t: TournamentView) -> TournamentDetailJson {
        TournamentDetailJson {
            tournament: t.summary.into(),
            players: all(t.players),
            tables: all(t.tables),
        }
    }
}

/// One hand in a player's history.
#[derive(Clone, Debug, Serialize)]
pub struct PlayerHandJson {
    pub hand: String,
    pub table: String,
    pub game: u32,
    pub number: u32,
    pub seat: &'static str,
    pub result: String,
    pub net: i64,
    pub net_text: String,
    pub running: i64,
}

impl From<PlayerHandRow> for PlayerHandJson {
    fn from(h: PlayerHandRow) -> PlayerHandJson {
        PlayerHandJson {
            hand: h.hand,
            table: h.table,
            game: h.game,
            number: h.number,
            seat: h.seat,
            result: h.result,
            net: h.net,
            net_text: h.net_text,
            running: h.running,
        }
    }
}

/// `GET /api/tournaments/<id>/players/<player>`.
#[derive(Clone, Debug, Serialize)]
pub struct PlayerHistoryJson {
    pub tournament: TournamentJson,
    pub player: String,
    pub name: String,
    pub net: i64,
    pub hands: Vec<PlayerHandJson>,
}

impl From<PlayerHistoryView> for PlayerHistoryJson {
    fn from(p: PlayerHistoryView) -> PlayerHistoryJson {
        PlayerHistoryJson {
            tournament: p.tournament.into(),
            player: p.player,
            name: p.name,
            net: p.net,
            hands: all(p.hands),
        }
    }
}
