//! The end-of-night sheet: one page to print or pin when a session closes — the standings as
//! they now stand, the session's own balances, who pays whom for it, and the line of the
//! checkpoint signed when it closed (anyone can later check the ledger still passes through
//! it: `mahjong-referee audit … --expect-head`).

use ledger::Ledger;
use readmodel::Reads;
use serde::Serialize;

use super::books::TransferRow;
use super::common::tournament_row;
use super::tournament::{SortBy, StandingRow, TournamentSummary};
use super::Audience;
use crate::app::error::AppError;

/// The checkpoint that seals the session: the first signed at or after its closing.
#[derive(Clone, Debug, Serialize)]
pub struct SealLine {
    /// Its number among the ledger's checkpoints, from 1 (its file on `/audit`).
    pub number: usize,
    pub position: u64,
    pub chain_hash: String,
    pub signed_at: String,
    /// The ledger's public key (hex).
    pub ledger: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct NightSheet {
    pub tournament: TournamentSummary,
    pub session: u32,
    /// The session is still in play: the sheet is made when it closes.
    pub open: bool,
    /// When it opened and closed, `YYYY-MM-DD HH:MM` UTC.
    pub opened: String,
    pub closed: Option<String>,
    /// The standings over every closed session.
    pub standings: Vec<StandingRow>,
    pub tie_break_text: String,
    /// The session's own balances.
    pub session_rows: Vec<StandingRow>,
    /// Who pays whom for the session.
    pub transfers: Vec<TransferRow>,
    pub seal: Option<SealLine>,
}

/// Session `number`'s sheet, as `audience` may see it (the public, nothing of it while open).
pub fn sheet(
    ledger: &Ledger,
    id: &str,
    number: u32,
    audience: Audience,
) -> Result<NightSheet, AppError> {
    let (stream, _) = tournament_row(ledger, id)?;
    let session = ledger
        .sessions(&stream)?
        .into_iter()
        .find(|s| s.session == number)
        .ok_or_else(|| AppError::not_found(format!("tournament `{id}` has no session {number}")))?;
    let standings_view = super::visibility::standings_for(
        ledger,
        super::tournament::standings(ledger, id, SortBy::Net, true, audience)?,
        audience,
    )?;
    let at = |t: chrono::DateTime<chrono::Utc>| t.format("%Y-%m-%d %H:%M").to_string();
    let open = session.is_open();
    let hidden = open && audience == Audience::Public;
    let (session_rows, transfers) = if hidden {
        (Vec::new(), Vec::new())
    } else {
        let s = super::sessions::session(ledger, id, number, audience)?;
        let books = super::books::view(ledger, id, audience, Some(number))?;
        (s.rows, books.transfers)
    };
    let seal = match session.closed_position {
        Some(closed) => ledger
            .checkpoints()?
            .into_iter()
            .enumerate()
            .find(|(_, c)| c.position >= closed)
            .map(|(i, c)| SealLine {
                number: i + 1,
                position: c.position,
                chain_hash: c.chain_hash,
                signed_at: c.signed_at,
                ledger: c.ledger,
            }),
        None => None,
    };
    Ok(NightSheet {
        tournament: standings_view.tournament.clone(),
        session: number,
        open,
        opened: at(session.opened_at),
        closed: session.closed_at.map(at),
        tie_break_text: standings_view.tie_break_text.clone(),
        standings: if hidden {
            Vec::new()
        } else {
            standings_view.rows
        },
        session_rows,
        transfers,
        seal,
    })
}
