//! A hand as the API answers it: tiles, score sheets, the settlement matrix, its history.

use serde::Serialize;

use super::all;
use crate::app::queries::hand::SheetView;
use crate::app::queries::hand::{HandSeat, HandView, HistoryEntry, MatrixRow};
use crate::app::queries::tiles::{Glyph, TileGroup};

/// One tile: the Unicode tile, its notation, its name for people and its image.
#[derive(Clone, Debug, Serialize)]
pub struct TileJson {
    pub glyph: char,
    pub name: String,
    pub alt: String,
    pub image: String,
}

impl From<Glyph> for TileJson {
    fn from(g: Glyph) -> TileJson {
        TileJson {
            glyph: g.glyph,
            name: g.name,
            alt: g.alt,
            image: g.src,
        }
    }
}

/// A group of tiles: `concealed`, `exposed`, `concealed-kong`, `bonus` or `winning`.
#[derive(Clone, Debug, Serialize)]
pub struct TileGroupJson {
    pub kind: &'static str,
    pub tiles: Vec<TileJson>,
}

impl From<TileGroup> for TileGroupJson {
    fn from(g: TileGroup) -> TileGroupJson {
        TileGroupJson {
            kind: g.kind,
            tiles: all(g.tiles),
        }
    }
}

/// One seat of the hand.
#[derive(Clone, Debug, Serialize)]
pub struct HandSeatJson {
    pub seat: &'static str,
    pub seat_key: &'static str,
    pub wind: &'static str,
    pub player: String,
    pub name: String,
    pub notation: String,
    pub groups: Vec<TileGroupJson>,
    /// The itemized score sheet in force (as recorded in the ledger).
    pub sheet: Option<SheetView>,
    pub winner: bool,
    pub net: i64,
    pub net_text: String,
}

impl From<HandSeat> for HandSeatJson {
    fn from(s: HandSeat) -> HandSeatJson {
        HandSeatJson {
            seat: s.seat,
            seat_key: s.seat_key,
            wind: s.wind,
            player: s.player,
            name: s.name,
            notation: s.notation,
            groups: all(s.groups),
            sheet: s.sheet,
            winner: s.winner,
            net: s.net,
            net_text: s.net_text,
        }
    }
}

/// What one seat paid each seat, East first.
#[derive(Clone, Debug, Serialize)]
pub struct MatrixRowJson {
    pub payer: String,
    pub cells: Vec<i64>,
    pub paid: i64,
}

impl From<MatrixRow> for MatrixRowJson {
    fn from(m: MatrixRow) -> MatrixRowJson {
        MatrixRowJson {
            payer: m.payer,
            cells: m.cells,
            paid: m.paid,
        }
    }
}

/// One event of the hand's stream.
#[derive(Clone, Debug, Serialize)]
pub struct HistoryJson {
    pub version: u64,
    pub event_type: &'static str,
    pub summary: String,
    pub recorded_at: String,
    pub recorded_by: String,
    pub superseded: bool,
}

impl From<HistoryEntry> for HistoryJson {
    fn from(e: HistoryEntry) -> HistoryJson {
        HistoryJson {
            version: e.version,
            event_type: e.event_type,
            summary: e.summary,
            recorded_at: e.recorded_at,
            recorded_by: e.recorded_by,
            superseded: e.superseded,
        }
    }
}

/// `GET /api/hands/<hand>`.
#[derive(Clone, Debug, Serialize)]
pub struct HandJson {
    pub id: String,
    pub table: String,
    pub tournament: String,
    pub game: u32,
    pub number: u32,
    pub prevailing: &'static str,
    pub east: &'static str,
    pub result: String,
    pub win: Option<String>,
    pub penalties: Vec<String>,
    pub seats: Vec<HandSeatJson>,
    pub matrix: Vec<MatrixRowJson>,
    pub received: Vec<i64>,
    pub nets: Vec<String>,
    pub net_sum: i64,
    pub zero_sum: bool,
    pub corrections: u32,
    /// The stream version a correction must name.
    pub version: u64,
    pub history: Vec<HistoryJson>,
}

impl From<HandView> for HandJson {
    fn from(h: HandView) -> HandJson {
        HandJson {
            id: h.id,
            table: h.table,
            tournament: h.tournament,
            game: h.game,
            number: h.number,
            prevailing: h.prevailing,
            east: h.east,
            result: h.result,
            win: h.win_by_seat,
            penalties: h.penalties_by_seat,
            seats: all(h.seats),
            matrix: all(h.matrix),
            received: h.received,
            nets: h.nets,
            net_sum: h.net_sum,
            zero_sum: h.zero_sum,
            corrections: h.corrections,
            version: h.version,
            history: all(h.history),
        }
    }
}
