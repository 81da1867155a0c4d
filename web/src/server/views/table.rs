//! A table: its seats, where the rotation stands (Code §11–14), its hands and running totals.

use std::collections::HashMap;

use ledger::{HandRecord, Ledger};
use referee::{BySeat, Seat};
use serde::Serialize;

use super::tournament::{names, seats_view, SeatView};
use super::{seat_title, signed};
use crate::server::error::AppError;
use crate::server::table_context::TableContext;

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
    match (r.winner, r.washed_out, &r.settlement) {
        (_, _, None) => "no result in force".to_owned(),
        (Some(w), _, Some(s)) => format!("{} wins ({} points)", name(w), s.scores.get(w)),
        (None, true, _) => "wash-out".to_owned(),
        (None, false, _) => "no Mah-Jongg".to_owned(),
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct NextHand {
    pub hand: String,
    pub game: u32,
    pub number: u32,
    /// The seat that deals.
    #[serde(skip)]
    pub east: Seat,
    pub east_seat: &'static str,
    pub east_player: String,
    pub prevailing: &'static str,
    pub new_game: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct TableHandRow {
    pub hand: String,
    pub game: u32,
    pub number: u32,
    pub prevailing: &'static str,
    pub east: String,
    pub result: String,
    pub corrected: bool,
    /// Nets, by seat as drawn, East first.
    pub nets: Vec<String>,
    /// Running chip totals after the hand, by seat as drawn.
    pub totals: Vec<i64>,
}

#[derive(Clone, Debug, Serialize)]
pub struct TableView {
    pub id: String,
    pub tournament: String,
    pub tournament_name: String,
    pub number: u32,
    pub ruleset: String,
    pub draw_seed: Option<u64>,
    pub seats: Vec<SeatView>,
    pub starting_chips: i64,
    pub next: Option<NextHand>,
    pub hands: Vec<TableHandRow>,
    /// Chips now, by seat as drawn.
    pub totals: Vec<i64>,
}

/// The table page's content.
pub fn view(ledger: &Ledger, table: &str) -> Result<TableView, AppError> {
    let ctx = TableContext::load(ledger, table)?;
    let tournament = ledger
        .tournament(&ctx.table.tournament)?
        .ok_or_else(|| AppError::internal("a table's tournament is missing"))?;
    let names = names(ledger, &ctx.table.tournament)?;
    let seats = seats_view(&ctx.table.seats, &names);
    let player_name = |seat: Seat| {
        ctx.table
            .seats
            .as_ref()
            .and_then(|s| names.get(s.get(seat).as_str()).cloned())
            .unwrap_or_default()
    };
    let position = ctx.state.next();
    let new_game = position.game > ctx.state.games_started;
    let next = ctx.table.seats.as_ref().map(|_| NextHand {
        hand: position.hand_id(table),
        game: position.game,
        number: position.hand,
        east: position.east,
        east_seat: seat_title(position.east),
        east_player: player_name(position.east),
        prevailing: seat_title(position.prevailing),
        new_game,
    });
    let starting_chips = ctx.conditions.starting_chips;
    let mut totals = BySeat::from_fn(|_| starting_chips);
    let hands = ledger
        .table_hands(&ctx.table.table)?
        .iter()
        .map(|r| {
            let nets = r
                .settlement
                .as_ref()
                .map_or_else(BySeat::default, |s| s.nets);
            totals = totals.zip(nets).map(|(t, n)| t + n);
            TableHandRow {
                hand: r.id().to_owned(),
                game: r.game,
                number: r.hand,
                prevailing: seat_title(r.prevailing_wind),
                east: r
                    .players
                    .get(r.east)
                    .as_ref()
                    .and_then(|p| names.get(p).cloned())
                    .unwrap_or_default(),
                result: result_text(r, &names),
                corrected: r.corrections > 0,
                nets: nets.into_array().map(signed).to_vec(),
                totals: totals.into_array().to_vec(),
            }
        })
        .collect();
    Ok(TableView {
        id: table.to_owned(),
        tournament: ctx.table.tournament.id().to_owned(),
        tournament_name: tournament.name,
        number: ctx.table.number,
        ruleset: ctx.conditions.ruleset.title.clone(),
        draw_seed: ctx.table.draw_seed,
        seats,
        starting_chips,
        next,
        hands,
        totals: totals.into_array().to_vec(),
    })
}
