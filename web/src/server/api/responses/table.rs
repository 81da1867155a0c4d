//! A table as the API answers it: seats, the next hand, hands with running totals, its state.

use serde::Serialize;

use super::all;
use super::tournament::SeatJson;
use crate::app::queries::table::{NextHand, TableHandRow, TableView};

/// The next hand to record.
#[derive(Clone, Debug, Serialize)]
pub struct NextHandJson {
    /// Its id, to name when recording it.
    pub hand: String,
    pub game: u32,
    pub number: u32,
    pub east_seat: &'static str,
    pub east_player: String,
    pub prevailing: &'static str,
    pub new_game: bool,
}

impl From<NextHand> for NextHandJson {
    fn from(n: NextHand) -> NextHandJson {
        NextHandJson {
            hand: n.hand,
            game: n.game,
            number: n.number,
            east_seat: n.east_seat,
            east_player: n.east_player,
            prevailing: n.prevailing,
            new_game: n.new_game,
        }
    }
}

/// A hand played at the table.
#[derive(Clone, Debug, Serialize)]
pub struct TableHandJson {
    pub hand: String,
    pub game: u32,
    pub number: u32,
    pub prevailing: &'static str,
    pub east: String,
    pub result: String,
    pub corrected: bool,
    /// Nets by seat as drawn, East first, as signed text.
    pub nets: Vec<String>,
    /// Running chip totals after the hand, by seat as drawn.
    pub totals: Vec<i64>,
}

impl From<TableHandRow> for TableHandJson {
    fn from(h: TableHandRow) -> TableHandJson {
        TableHandJson {
            hand: h.hand,
            game: h.game,
            number: h.number,
            prevailing: h.prevailing,
            east: h.east,
            result: h.result,
            corrected: h.corrected,
            nets: h.nets,
            totals: h.totals,
        }
    }
}

/// `GET /api/tables/<table>`.
#[derive(Clone, Debug, Serialize)]
pub struct TableJson {
    pub id: String,
    pub tournament: String,
    pub tournament_name: String,
    pub number: u32,
    pub ruleset: String,
    pub draw_seed: Option<u64>,
    /// The random draw re-derived from its seed: `verified`, `mismatch` or `other-method`.
    pub draw_check: Option<&'static str>,
    pub seats: Vec<SeatJson>,
    pub starting_chips: i64,
    pub next: Option<NextHandJson>,
    pub hands: Vec<TableHandJson>,
    pub totals: Vec<i64>,
    pub closed: bool,
    pub voided: Option<String>,
    pub tournament_voided: Option<String>,
    /// The session the table plays in, with its clock (`session`, `open`, `opened`,
    /// `elapsed_minutes`, `left_minutes`, `text`).
    pub session: Option<crate::app::queries::table::SessionClockView>,
    /// Its session is open and the reader is the public: `hands`, `totals` and `next` are
    /// withheld until it closes.
    pub results_hidden: bool,
}

impl From<TableView> for TableJson {
    fn from(t: TableView) -> TableJson {
        TableJson {
            id: t.id,
            tournament: t.tournament,
            tournament_name: t.tournament_name,
            number: t.number,
            ruleset: t.ruleset,
            draw_seed: t.draw_seed,
            draw_check: t.draw_check,
            seats: all(t.seats),
            starting_chips: t.starting_chips,
            next: t.next.map(Into::into),
            hands: all(t.hands),
            totals: t.totals,
            closed: t.closed,
            voided: t.voided,
            tournament_voided: t.tournament_voided,
            session: t.session,
            results_hidden: t.results_hidden,
        }
    }
}
