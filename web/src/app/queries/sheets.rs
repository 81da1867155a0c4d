//! Printable score sheets: a table's players by seat, each hand's scores and nets, and the
//! running totals — the books' score sheet (Babcock's "Standard Score Sheet", ch. IV, keeps
//! each player's score and what they won or lost hand by hand, with the totals carried down).
//! Hands are read through [`visible_hands`], so a printed sheet shows what the reader may see.

use std::collections::HashMap;

use ledger::{Ledger, TableId};
use readmodel::{HandRecord, Reads, TableRow};
use referee::BySeat;
use serde::Serialize;

use super::books::{visible_hands, Hands};
use super::common::{names, result_text, seats_view, tournament_row, SeatView};
use super::{seat_title, signed, visibility, Audience};
use crate::app::error::AppError;
use referee::tournament::Tournament;

/// One seat's line of a hand on the sheet.
#[derive(Clone, Debug, Serialize)]
pub struct SheetCell {
    /// The hand's score for the seat ("" when the hand has no settlement in force).
    pub score: String,
    pub net: String,
    /// Chips after the hand.
    pub total: i64,
}

#[derive(Clone, Debug, Serialize)]
pub struct SheetRow {
    pub hand: String,
    pub game: u32,
    pub number: u32,
    pub prevailing: &'static str,
    /// Who was East (dealt) this hand.
    pub east: String,
    pub result: String,
    /// By seat as drawn, East first.
    pub cells: Vec<SheetCell>,
}

#[derive(Clone, Debug, Serialize)]
pub struct ScoreSheet {
    pub table: String,
    pub number: u32,
    pub tournament: String,
    pub tournament_name: String,
    pub seats: Vec<SeatView>,
    pub starting_chips: i64,
    pub rows: Vec<SheetRow>,
    /// Chips at the end, by seat as drawn.
    pub totals: Vec<i64>,
    pub closed: bool,
    /// Why the table was voided (officials only ever see a voided table).
    pub voided: Option<String>,
    /// Its session is in play and the reader is the public: its hands are not shown yet.
    pub results_hidden: bool,
}

/// A table's sheet from its hands (in the order they started).
fn sheet(
    table: &TableRow,
    tournament_name: &str,
    starting_chips: i64,
    hands: &[&HandRecord],
    names: &HashMap<String, String>,
    in_play: &Tournament,
) -> ScoreSheet {
    let mut totals = BySeat::from_fn(|_| starting_chips);
    let rows = hands
        .iter()
        .map(|r| {
            let settled = r.result.settlement().map(|(_, s)| s);
            let nets = r.nets().unwrap_or_default();
            totals = totals.zip(nets).map(|(t, n)| t + n);
            let cells = totals
                .zip(nets)
                .map_with_key(|seat, (total, net)| SheetCell {
                    score: settled.map_or_else(String::new, |s| s.scores.get(seat).to_string()),
                    net: signed(net),
                    total,
                })
                .into_array()
                .to_vec();
            SheetRow {
                hand: r.id().to_owned(),
                game: r.game,
                number: r.hand,
                prevailing: seat_title(r.prevailing_wind),
                east: r
                    .players
                    .get(r.east)
                    .as_ref()
                    .and_then(|p| names.get(p).cloned())
                    .unwrap_or_else(|| seat_title(r.east).to_owned()),
                result: result_text(r, names),
                cells,
            }
        })
        .collect();
    ScoreSheet {
        table: table.table.as_str().to_owned(),
        number: table.number,
        tournament: table.tournament.id().to_owned(),
        tournament_name: tournament_name.to_owned(),
        seats: seats_view(&table.seats, names),
        starting_chips,
        rows,
        totals: totals.into_array().to_vec(),
        closed: in_play.table_closed(&table.table),
        voided: in_play.table_voided(&table.table).map(str::to_owned),
        results_hidden: false,
    }
}

/// Marks the sheets of tables whose session is in play, for the public (their hands were left
/// out by `visible_hands`).
fn mark_hidden(
    ledger: &Ledger,
    tournament: &ledger::StreamId,
    audience: Audience,
    sheets: &mut [ScoreSheet],
) -> Result<(), AppError> {
    if audience == Audience::Public {
        let t = crate::app::tournament::load_stream(ledger, tournament.clone())?.state;
        let hidden = visibility::tables_in_open_sessions(&t, audience);
        for s in sheets.iter_mut() {
            s.results_hidden = hidden.contains(&s.table);
        }
    }
    Ok(())
}

/// One table's score sheet; a voided table (or one of a voided tournament) is not found for
/// the public.
pub fn table_sheet(
    ledger: &Ledger,
    table: &str,
    audience: Audience,
) -> Result<ScoreSheet, AppError> {
    let missing = || AppError::not_found(format!("no table `{table}`"));
    let id = TableId::new(table).map_err(|_| missing())?;
    let row = ledger.table(&id)?.ok_or_else(missing)?;
    let hidden = visibility::table_voided(ledger, table)?;
    visibility::require_visible(audience, hidden, || format!("no table `{table}`"))?;
    let (_, t) = tournament_row(ledger, row.tournament.id())?;
    let hands = visible_hands(ledger, Hands::Table(&id), audience)?;
    let in_play = crate::app::tournament::load_stream(ledger, row.tournament.clone())?.state;
    let names = names(ledger, &row.tournament)?;
    let start = t.config.as_ref().map_or(0, |c| c.starting_chips);
    let mut sheets = [sheet(
        &row,
        &t.name,
        start,
        &hands.iter().collect::<Vec<_>>(),
        &names,
        &in_play,
    )];
    mark_hidden(ledger, &row.tournament, audience, &mut sheets)?;
    let [sheet] = sheets;
    Ok(sheet)
}

/// Every table's score sheet, by table number: the public's without voided tables.
/// With `session`, only the tables of that session (its sheets, a page per table).
pub fn tournament_sheets(
    ledger: &Ledger,
    id: &str,
    audience: Audience,
    session: Option<u32>,
) -> Result<(String, Vec<ScoreSheet>), AppError> {
    let (stream, t) = tournament_row(ledger, id)?;
    let hands = visible_hands(ledger, Hands::Tournament(&stream), audience)?;
    let in_play = crate::app::tournament::load_stream(ledger, stream.clone())?.state;
    let names = names(ledger, &stream)?;
    let start = t.config.as_ref().map_or(0, |c| c.starting_chips);
    let mut by_table: HashMap<&str, Vec<&HandRecord>> = HashMap::new();
    for h in &hands {
        by_table.entry(h.table.as_str()).or_default().push(h);
    }
    let mut sheets: Vec<ScoreSheet> = ledger
        .tables(&stream)?
        .iter()
        .filter(|row| audience == Audience::Officials || in_play.table_voided(&row.table).is_none())
        .filter(|row| session.is_none() || row.session == session)
        .map(|row| {
            let hands = by_table.remove(row.table.as_str()).unwrap_or_default();
            sheet(row, &t.name, start, &hands, &names, &in_play)
        })
        .collect();
    mark_hidden(ledger, &stream, audience, &mut sheets)?;
    Ok((t.name, sheets))
}
