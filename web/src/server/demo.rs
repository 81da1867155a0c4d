//! The demo tournament: four players at one table playing hands taken from the rule books'
//! worked examples (`fixtures/scoring/`), so a newcomer sees real pages at once.
//!
//! Each hand's winner holds a book hand as the book won it; the three losers hold other book
//! hands less their winning tile (so every hand is one a book printed), chosen so the table
//! never holds a fifth copy of a tile. One wash-out and one correction show those pages too.

use actix_web::web;
use ledger::event::{Penalty, WinFrom};
use ledger::{Ledger, StreamId};
use readmodel::Reads;
use referee::table::HandReport;
use referee::{BySeat, Hand, Seat};

use super::auth::{self, Official};
use super::error::AppError;
use super::state::AppState;
use crate::app::commands::hand::{self as hand_cmd, CorrectHand, RecordHand};
use crate::app::commands::tournament::{self as t_cmd, NewPlayer, NewTable, NewTournament};
use crate::app::table::TableContext;

/// The demo tournament's id.
pub const DEMO_ID: &str = "demo";

const FIXTURES: &[&str] = &[
    include_str!("../../../fixtures/scoring/harr-unlimited.toml"),
    include_str!("../../../fixtures/scoring/babcock-standard.toml"),
];

/// A book hand: its notation and how it was won.
struct BookHand {
    hand: Hand,
    win_from: WinFrom,
}

/// The `hand = "…"` and `win_from = "…"` lines of each case, in order.
fn book_hands() -> Vec<BookHand> {
    let mut out = Vec::new();
    for text in FIXTURES {
        let mut hand: Option<String> = None;
        for line in text.lines() {
            let value = |l: &str, key: &str| {
                l.strip_prefix(key).map(|v| {
                    v.trim()
                        .trim_start_matches('=')
                        .trim()
                        .trim_matches('"')
                        .to_owned()
                })
            };
            if line.starts_with("[[case]]") {
                hand = None;
            } else if let Some(h) = value(line, "hand ") {
                hand = Some(h);
            } else if let Some(w) = value(line, "win_from ") {
                let parsed = hand.as_deref().and_then(|h| h.parse::<Hand>().ok());
                if let (Some(hand), Ok(win_from)) = (parsed, w.parse::<WinFrom>()) {
                    if hand.winning().is_some() {
                        out.push(BookHand { hand, win_from });
                    }
                }
            }
        }
    }
    out
}

/// A book hand less its winning tile: a 13-tile losing hand.
fn losing(hand: &Hand) -> Option<Hand> {
    let text = hand.to_string();
    let (before, _) = text.rsplit_once(" =")?;
    before.parse().ok()
}

/// Three losing hands that fit beside `winner` without a fifth copy of any tile.
fn losers_for(winner: &Hand, pool: &[Hand], start: usize) -> Option<Vec<Hand>> {
    let mut chosen: Vec<Hand> = Vec::new();
    for i in 0..pool.len() {
        let candidate = &pool[(start + i) % pool.len()];
        let mut all: Vec<&Hand> = chosen.iter().collect();
        all.push(winner);
        all.push(candidate);
        if referee::table::count_tiles(all.iter().copied())
            .iter()
            .all(|&c| c <= 4)
        {
            chosen.push(candidate.clone());
            if chosen.len() == 3 {
                return Some(chosen);
            }
        }
    }
    None
}

/// Builds the demo in the ledger (blocking); returns the tournament id.
pub fn build(
    ledger: &mut Ledger,
    officials: &[auth::OfficialListing],
    by: &Official,
) -> Result<String, AppError> {
    let stream = StreamId::tournament(DEMO_ID)?;
    if ledger.tournament(&stream)?.is_some() {
        return Ok(DEMO_ID.to_owned());
    }
    t_cmd::create(
        ledger,
        officials,
        by,
        &NewTournament {
            id: Some(DEMO_ID.to_owned()),
            name: "Demo: hands from the rule books".to_owned(),
            ruleset: Some("code-of-laws".to_owned()),
            house_ruleset: None,
            limit: Some(1000),
            starting_chips: 2000,
            tie_break: None,
        },
    )?;
    let names = ["Ada Babcock", "Joseph Harr", "Celia Code", "Dorothy Wind"];
    let mut ids = Vec::new();
    for name in names {
        let player = NewPlayer {
            id: None,
            name: name.to_owned(),
            substitute: false,
            different_person: false,
        };
        ids.push(t_cmd::register_player(ledger, DEMO_ID, by, &player)?.to_string());
    }
    let table = t_cmd::form_table(
        ledger,
        DEMO_ID,
        by,
        &NewTable {
            number: Some(1),
            players: ids,
            random: true,
            seed: Some(1923),
        },
    )?;
    let book = book_hands();
    let pool: Vec<Hand> = book.iter().filter_map(|b| losing(&b.hand)).collect();
    let winners = [
        Seat::South,
        Seat::South,
        Seat::East,
        Seat::West,
        Seat::North,
    ];
    for (i, book_hand) in book.iter().step_by(7).take(8).enumerate() {
        let ctx = TableContext::load(ledger, table.as_str())?;
        let next = ctx.next_hand_id();
        let report = if i == 3 {
            HandReport::default() // a wash-out (Code §97)
        } else {
            let winner = winners[i % winners.len()];
            let Some(losers) = losers_for(&book_hand.hand, &pool, i * 5 + 1) else {
                continue;
            };
            let mut losers = losers.into_iter();
            let mut hand_of = |seat: Seat| {
                if seat == winner {
                    Some(book_hand.hand.to_string())
                } else {
                    losers.next().map(|h| h.to_string())
                }
            };
            let hands = BySeat::from_fn(&mut hand_of);
            HandReport {
                discards: Vec::new(),
                short: Vec::new(),
                hands,
                winner: Some(winner),
                win_from: Some(book_hand.win_from),
                discarder: book_hand.win_from.needs_discarder().then(|| winner.next()),
                circumstances: Default::default(),
                penalties: if i == 5 {
                    vec![Penalty::Agreed {
                        payer: winner.next().next(),
                        payee: None,
                        amount: 10,
                        reason: "exposed a tile out of turn (demo)".to_owned(),
                    }]
                } else {
                    vec![]
                },
            }
        };
        hand_cmd::record(ledger, table.as_str(), by, &RecordHand::new(next, report))?;
    }
    // Correct the first hand: recorded with the wrong way of winning.
    if let Some(first) = ledger.table_hands(&table)?.first() {
        if let Some(win) = first.result.scored().and_then(|s| s.win.as_ref()) {
            // The correction states only what changes; the rest stays as recorded.
            let (from, discarder, reason) = if win.from == WinFrom::Wall {
                (
                    WinFrom::Discard,
                    Some(win.winner.next()),
                    "the winning tile was discarded, not drawn (demo correction)",
                )
            } else {
                (
                    WinFrom::Wall,
                    None,
                    "the winning tile was drawn from the wall, not discarded (demo correction)",
                )
            };
            let command = CorrectHand {
                version: first.version,
                reason: reason.to_owned(),
                win_from: Some(Some(from)),
                discarder: Some(discarder),
                ..CorrectHand::default()
            };
            hand_cmd::correct(ledger, first.id(), by, &command)?;
        }
    }
    Ok(DEMO_ID.to_owned())
}

/// Loads the demo through the server's writer.
pub async fn load(state: &web::Data<AppState>, by: &Official) -> Result<String, AppError> {
    let officials = state.auth(auth::list_officials).await?;
    let by = by.clone();
    state.write(move |l| build(l, &officials, &by)).await
}
