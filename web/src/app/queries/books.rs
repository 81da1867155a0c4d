//! The treasurer's books (issue 14): each player's balance over the hands that count, their
//! chips (the tournament's starting chips plus the balance), who has run out, and who pays
//! whom with the fewest transfers — the arithmetic is `referee::treasurer`'s; this module only
//! gathers the nets.
//!
//! [`visible_hands`] is **the single place where the public's view of a tournament's hands is
//! decided**: the books, the CSV exports and the printed score sheets all read hands through
//! it, so that a new reason to keep hands from the public (a session still in play, say) is
//! one more condition in the tournament's visibility (`referee::tournament::visibility`) and
//! nothing else.

use std::collections::HashMap;

use ledger::{Ledger, PlayerId, StreamId, TableId};
use readmodel::{HandRecord, Reads};
use serde::Serialize;

use super::common::{names, tournament_row};
use super::tournament::{summary, TournamentSummary};
use super::{signed, Audience};
use crate::app::error::AppError;
use referee::tournament::Audience as Viewing;

/// Which hands: a whole tournament's, or one table's.
#[derive(Clone, Copy, Debug)]
pub enum Hands<'a> {
    Tournament(&'a StreamId),
    Table(&'a TableId),
}

/// The hands `audience` may see, in the order they started. The public sees nothing of a
/// voided tournament (404) and no hand at a voided table; officials see every hand (the pages
/// mark what is voided). Every tournament-wide list of hands on the treasurer's pages, exports
/// and score sheets comes from here.
pub fn visible_hands(
    ledger: &Ledger,
    hands: Hands<'_>,
    audience: Audience,
) -> Result<Vec<HandRecord>, AppError> {
    let (tournament, mut records) = match hands {
        Hands::Tournament(t) => (t.clone(), ledger.tournament_hands(t)?),
        Hands::Table(table) => {
            let row = ledger
                .table(table)?
                .ok_or_else(|| AppError::not_found(format!("no table `{}`", table.as_str())))?;
            (row.tournament, ledger.table_hands(table)?)
        }
    };
    if audience == Audience::Officials {
        return Ok(records);
    }
    let t = crate::app::tournament::load_stream(ledger, tournament.clone())?.state;
    if t.hidden(Viewing::Public).is_some() {
        return Err(AppError::not_found(format!(
            "no tournament `{}`",
            tournament.id()
        )));
    }
    // Not a hand at a voided table, nor one while its table's session is in play.
    records.retain(|r| {
        TableId::new(&r.table).is_ok_and(|id| t.results_hidden(Viewing::Public, &id).is_none())
    });
    Ok(records)
}

/// One player's line in the books.
#[derive(Clone, Debug, Serialize)]
pub struct BookRow {
    pub player: String,
    pub name: String,
    /// Hands with a settlement in force the player sat in.
    pub hands: u32,
    /// The sum of the player's nets over those hands.
    pub balance: i64,
    #[serde(skip)]
    pub balance_text: String,
    /// The starting chips plus the balance.
    pub chips: i64,
    /// At or below zero: nothing left to pay with (`referee::treasurer::chips`).
    pub out_of_chips: bool,
    /// Why the player was voided (officials only).
    pub voided: Option<String>,
}

/// `from` pays `to` `amount`, by name.
#[derive(Clone, Debug, Serialize)]
pub struct TransferRow {
    pub from: String,
    pub from_name: String,
    pub to: String,
    pub to_name: String,
    pub amount: i64,
}

#[derive(Clone, Debug, Serialize)]
pub struct BooksView {
    pub tournament: TournamentSummary,
    /// The session these books are of; `None` for the whole tournament.
    pub session: Option<u32>,
    pub starting_chips: i64,
    /// Hands with a settlement in force, among those shown.
    pub hands_counted: u32,
    /// In registration order.
    pub players: Vec<BookRow>,
    /// Who pays whom to settle every balance.
    pub transfers: Vec<TransferRow>,
    /// Whether the transfers are proven the fewest (`referee::treasurer::fewest_transfers`
    /// is exact up to 18 players with a balance, a greedy beyond).
    pub fewest_proven: bool,
}

impl BooksView {
    /// The players who have run out of chips.
    pub fn out_of_chips(&self) -> Vec<&BookRow> {
        self.players.iter().filter(|r| r.out_of_chips).collect()
    }
}

/// Each player's net over the hands with a settlement in force, and how many such hands they
/// sat in: bookkeeping, summed from the settlements the referee recorded.
pub fn balances(hands: &[HandRecord]) -> (HashMap<String, (u32, i64)>, u32) {
    let mut sums: HashMap<String, (u32, i64)> = HashMap::new();
    let mut counted = 0;
    for r in hands {
        let Some(nets) = r.nets() else { continue };
        counted += 1;
        for (seat, player) in r.players.iter() {
            if let Some(p) = player {
                let e = sums.entry(p.clone()).or_default();
                e.0 += 1;
                e.1 += *nets.get(seat);
            }
        }
    }
    (sums, counted)
}

/// The books of a tournament as `audience` may see them.
///
/// The players are the registered ones; for the public, a voided player is left out unless
/// hands they sat in still count (a player is voided only once their table is closed or
/// voided, so at a closed table their chips changed hands and the books must still balance).
pub fn view(
    ledger: &Ledger,
    id: &str,
    audience: Audience,
    session: Option<u32>,
) -> Result<BooksView, AppError> {
    let (stream, row) = tournament_row(ledger, id)?;
    let mut hands = visible_hands(ledger, Hands::Tournament(&stream), audience)?;
    // A session's books: its hands alone, and what the sessions before it carried in.
    let mut carried = HashMap::new();
    if let Some(n) = session {
        if !ledger.sessions(&stream)?.iter().any(|s| s.session == n) {
            return Err(AppError::not_found(format!(
                "tournament `{id}` has no session {n}"
            )));
        }
        let session_of: HashMap<String, u32> = ledger
            .tables(&stream)?
            .into_iter()
            .filter_map(|t| Some((t.table.as_str().to_owned(), t.session?)))
            .collect();
        let (this, other): (Vec<HandRecord>, Vec<HandRecord>) = hands
            .into_iter()
            .partition(|h| session_of.get(&h.table) == Some(&n));
        let earlier: Vec<HandRecord> = other
            .into_iter()
            .filter(|h| session_of.get(&h.table).is_some_and(|&s| s < n))
            .collect();
        carried = balances(&earlier)
            .0
            .into_iter()
            .map(|(p, (_, balance))| (p, balance))
            .collect();
        hands = this;
    }
    let in_play = crate::app::tournament::load_stream(ledger, stream.clone())?.state;
    let names = names(ledger, &stream)?;
    let (sums, hands_counted) = balances(&hands);
    let mut ids: Vec<String> = ledger
        .players(&stream)?
        .into_iter()
        .map(|p| p.player.as_str().to_owned())
        .collect();
    // Anyone who sat in a counted hand without being registered still has a balance.
    let mut unregistered: Vec<&String> = sums.keys().filter(|p| !names.contains_key(*p)).collect();
    unregistered.sort();
    ids.extend(unregistered.into_iter().cloned());
    let starting_chips = row.config.as_ref().map_or(0, |c| c.starting_chips);
    let mut players = Vec::with_capacity(ids.len());
    for p in ids {
        let (hands, balance) = sums.get(&p).copied().unwrap_or_default();
        let voided = PlayerId::new(&p)
            .ok()
            .and_then(|pid| in_play.player_voided(&pid).map(str::to_owned));
        // A session's books list those who played in it.
        if hands == 0 && (session.is_some() || (audience == Audience::Public && voided.is_some())) {
            continue;
        }
        players.push(BookRow {
            name: names.get(&p).cloned().unwrap_or_else(|| p.clone()),
            player: p,
            hands,
            balance,
            balance_text: signed(balance),
            chips: 0,
            out_of_chips: false,
            voided: voided.filter(|_| audience == Audience::Officials),
        });
    }
    let nets: Vec<i64> = players.iter().map(|r| r.balance).collect();
    let treasurer = |e: referee::treasurer::TreasurerError| {
        AppError::internal(format!("the books of `{id}` do not settle: {e}"))
    };
    // A session's chips are what each player holds at its end: what the sessions before it
    // left him, and its own balance.
    let through: Vec<i64> = players
        .iter()
        .map(|r| r.balance + carried.get(&r.player).copied().unwrap_or(0))
        .collect();
    let chips = referee::treasurer::chips(starting_chips, &through).map_err(treasurer)?;
    for (row, c) in players.iter_mut().zip(&chips.chips) {
        row.chips = *c;
    }
    for &p in &chips.out {
        players[p].out_of_chips = true;
    }
    let settlement = referee::treasurer::fewest_transfers(&nets).map_err(treasurer)?;
    let transfers = settlement
        .transfers
        .iter()
        .map(|t| TransferRow {
            from: players[t.from].player.clone(),
            from_name: players[t.from].name.clone(),
            to: players[t.to].player.clone(),
            to_name: players[t.to].name.clone(),
            amount: t.amount,
        })
        .collect();
    Ok(BooksView {
        tournament: TournamentSummary {
            voided: in_play.tournament_voided().map(str::to_owned),
            ..summary(&row)
        },
        starting_chips,
        hands_counted,
        players,
        transfers,
        fewest_proven: settlement.exact,
        session,
    })
}

/// What the CSV exports read: the hands the viewer may see and how to name their players and
/// tables.
pub struct Export {
    pub starting_chips: i64,
    /// In the order they started.
    pub hands: Vec<HandRecord>,
    /// Player id → name.
    pub names: HashMap<String, String>,
    /// Table id → number.
    pub tables: HashMap<String, u32>,
    /// Table id → the session it was formed in (tables outside sessions are absent).
    pub sessions: HashMap<String, u32>,
}

impl Export {
    /// A player's name, or their id when they are not registered.
    pub fn name<'a>(&'a self, player: &'a str) -> &'a str {
        self.names.get(player).map_or(player, String::as_str)
    }

    /// A table's number as printed ("" for a table not in the tournament).
    pub fn table_number(&self, table: &str) -> String {
        self.tables
            .get(table)
            .map_or_else(String::new, u32::to_string)
    }

    /// The session a table was formed in, as printed ("" for none).
    pub fn session(&self, table: &str) -> String {
        self.sessions
            .get(table)
            .map_or_else(String::new, u32::to_string)
    }
}

/// The exports' data for a tournament, as `audience` may see it.
pub fn export(ledger: &Ledger, id: &str, audience: Audience) -> Result<Export, AppError> {
    let (stream, row) = tournament_row(ledger, id)?;
    let hands = visible_hands(ledger, Hands::Tournament(&stream), audience)?;
    let tables = ledger.tables(&stream)?;
    Ok(Export {
        starting_chips: row.config.as_ref().map_or(0, |c| c.starting_chips),
        hands,
        names: names(ledger, &stream)?,
        sessions: tables
            .iter()
            .filter_map(|t| Some((t.table.as_str().to_owned(), t.session?)))
            .collect(),
        tables: tables
            .into_iter()
            .map(|t| (t.table.as_str().to_owned(), t.number))
            .collect(),
    })
}
