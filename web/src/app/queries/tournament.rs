//! Tournaments, their players and tables, standings, and a player's history.

use std::collections::HashMap;

use ledger::{Ledger, PlayerId, StreamId};
use readmodel::{Reads, StandingsScope};
use serde::Serialize;

pub use super::common::SeatView;
use super::common::{existing_tournament, names, result_text, seats_view, tournament_row};
use super::paging::{PageNumber, Paging};
use super::{seat_title, signed, Audience};
use crate::app::error::AppError;

#[derive(Clone, Debug, Serialize)]
pub struct TournamentSummary {
    pub id: String,
    pub name: String,
    pub ruleset: String,
    pub ruleset_title: String,
    pub limit: Option<u64>,
    pub starting_chips: i64,
    pub house_ruleset: bool,
    /// Why the tournament was voided (shown to officials only; the public never sees it).
    pub voided: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct PlayerView {
    pub id: String,
    pub name: String,
    /// Why the player was voided (officials only).
    pub voided: Option<String>,
    /// A substitute: seated in a withdrawn player's place, kept out of the places.
    pub substitute: bool,
    /// Why the player withdrew, if he did.
    pub withdrawn: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct TableSummary {
    pub id: String,
    pub number: u32,
    pub draw_seed: Option<u64>,
    pub seats: Vec<SeatView>,
    /// Its play is over: its players may sit at another table.
    pub closed: bool,
    /// Why the table was voided (officials only).
    pub voided: Option<String>,
    /// The session the table plays in, if any.
    pub session: Option<u32>,
}

#[derive(Clone, Debug, Serialize)]
pub struct TournamentView {
    #[serde(flatten)]
    pub summary: TournamentSummary,
    pub players: Vec<PlayerView>,
    pub tables: Vec<TableSummary>,
}

/// A tournament's summary line (not voided; the caller marks that).
pub fn summary(row: &readmodel::TournamentRow) -> TournamentSummary {
    let config = row.config.as_ref();
    TournamentSummary {
        id: row.stream.id().to_owned(),
        name: row.name.clone(),
        ruleset: row.ruleset.clone(),
        ruleset_title: config.map_or(row.ruleset.clone(), |c| c.title.clone()),
        limit: config.and_then(|c| c.limit),
        starting_chips: config.map_or(0, |c| c.starting_chips),
        house_ruleset: config.is_some_and(|c| c.house_ruleset.is_some()),
        voided: None,
    }
}

/// Every tournament, newest first; voided ones only for officials, marked.
pub fn list(ledger: &Ledger, audience: Audience) -> Result<Vec<TournamentSummary>, AppError> {
    let mut out = Vec::new();
    for row in ledger.tournaments()? {
        let in_play = crate::app::tournament::load_stream(ledger, row.stream.clone())?.state;
        let voided = in_play.tournament_voided().map(str::to_owned);
        if voided.is_some() && audience == Audience::Public {
            continue;
        }
        out.push(TournamentSummary {
            voided,
            ..summary(&row)
        });
    }
    Ok(out)
}

/// A tournament with its players and tables. The public sees neither a voided tournament
/// (404) nor voided players and tables; officials see them marked.
pub fn view(ledger: &Ledger, id: &str, audience: Audience) -> Result<TournamentView, AppError> {
    view_paged(ledger, id, audience, None).map(|(t, _)| t)
}

/// [`view`] with, given a page, only that page of tables (cut in the ledger's query, voided
/// tables left out of it for the public) and where the page stands.
pub fn view_paged(
    ledger: &Ledger,
    id: &str,
    audience: Audience,
    page: Option<PageNumber>,
) -> Result<(TournamentView, Option<Paging>), AppError> {
    let (stream, row) = tournament_row(ledger, id)?;
    let in_play = crate::app::tournament::load_stream(ledger, stream.clone())?.state;
    let public = audience == Audience::Public;
    let voided = in_play.tournament_voided().map(str::to_owned);
    if voided.is_some() && public {
        return Err(AppError::not_found(format!("no tournament `{id}`")));
    }
    let names = names(ledger, &stream)?;
    let players = ledger
        .players(&stream)?
        .into_iter()
        .map(|p| PlayerView {
            id: p.player.as_str().to_owned(),
            voided: in_play.player_voided(&p.player).map(str::to_owned),
            name: p.name,
            substitute: p.substitute,
            withdrawn: p.withdrawn,
        })
        .filter(|p| !(public && p.voided.is_some()))
        .collect();
    let (table_rows, paging) = match page {
        None => (ledger.tables(&stream)?, None),
        Some(page) => {
            let officials = audience == Audience::Officials;
            let count = ledger.table_count(&stream, officials)?;
            let paging = Paging::of(page, count, "this tournament's tables")?;
            (
                ledger.tables_slice(&stream, officials, paging.slice())?,
                Some(paging),
            )
        }
    };
    let tables = table_rows
        .into_iter()
        .map(|t| TableSummary {
            id: t.table.as_str().to_owned(),
            number: t.number,
            draw_seed: t.draw_seed,
            seats: seats_view(&t.seats, &names),
            closed: in_play.table_closed(&t.table),
            voided: in_play.table_voided(&t.table).map(str::to_owned),
            session: t.session,
        })
        .filter(|t| !(public && t.voided.is_some()))
        .collect();
    let view = TournamentView {
        summary: TournamentSummary {
            voided,
            ..summary(&row)
        },
        players,
        tables,
    };
    Ok((view, paging))
}

/// The columns the standings sort by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SortBy {
    Name,
    Net,
    Played,
    Won,
    Largest,
}

impl SortBy {
    pub fn parse(s: Option<&str>) -> SortBy {
        match s {
            Some("name") => SortBy::Name,
            Some("played") => SortBy::Played,
            Some("won") => SortBy::Won,
            Some("largest") => SortBy::Largest,
            _ => SortBy::Net,
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct StandingRow {
    /// The position under the tournament's tie-break chain, whatever the sort column; players
    /// equal on every key of the chain share it. None (`null`) for those who take no place: a
    /// substitute, a voided player.
    pub rank: Option<u32>,
    pub player: String,
    pub name: String,
    pub net: i64,
    pub net_text: String,
    pub hands_played: u32,
    pub hands_won: u32,
    pub largest_hand: i64,
    /// A substitute: plays, takes no place (`rank` is null).
    pub substitute: bool,
    /// Withdrew from the tournament: keeps his results and place.
    pub withdrawn: bool,
    /// Voided (officials' view only; the public never sees the line): takes no place.
    pub voided: bool,
}

impl StandingRow {
    /// A line of the standings as shown, named.
    pub fn of(s: &readmodel::Standing, names: &HashMap<String, String>) -> StandingRow {
        StandingRow {
            rank: s.placed().then_some(s.rank),
            name: names.get(s.player.as_str()).cloned().unwrap_or_default(),
            player: s.player.as_str().to_owned(),
            net: s.net,
            net_text: signed(s.net),
            hands_played: s.hands_played,
            hands_won: s.hands_won,
            largest_hand: s.largest_hand,
            substitute: s.substitute,
            withdrawn: s.withdrawn,
            voided: s.voided,
        }
    }

    /// The rank as a page shows it: the place, or why there is none.
    pub fn place(&self) -> String {
        match (self.rank, self.voided) {
            (Some(r), _) => r.to_string(),
            (None, true) => "void".to_owned(),
            (None, false) => "sub".to_owned(),
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct StandingsView {
    pub tournament: TournamentSummary,
    pub sort: SortBy,
    pub descending: bool,
    /// The tie-break chain's keys, in order (`["net", "hands_won", "largest_hand"]`).
    pub tie_break: Vec<&'static str>,
    /// The chain as a sentence: "net chips, then hands won, then largest hand".
    pub tie_break_text: String,
    pub rows: Vec<StandingRow>,
    /// Sessions still in play: left out of the public's standings until they close, counted in
    /// the officials'.
    pub open_sessions: Vec<u32>,
    /// Whether these standings leave the open sessions out (the public's).
    pub sessions_hidden: bool,
}

/// The standings, read from the standings projection, in the ledger's order (the tournament's
/// tie-break chain, then player id) and ranked by it; sorting by a column keeps that order
/// among rows equal in the column, so every request gives the same page. The public's leave
/// out the sessions still in play.
pub fn standings(
    ledger: &Ledger,
    id: &str,
    sort: SortBy,
    descending: bool,
    audience: Audience,
) -> Result<StandingsView, AppError> {
    let stream = existing_tournament(ledger, id)?;
    let row = ledger
        .tournament(&stream)?
        .ok_or_else(|| AppError::not_found(format!("no tournament `{id}`")))?;
    let names = names(ledger, &stream)?;
    let open_sessions = ledger.open_sessions(&stream)?;
    let scope = match audience {
        Audience::Public => StandingsScope::Public,
        Audience::Officials => StandingsScope::All,
    };
    let mut rows: Vec<StandingRow> = ledger
        .standings_in(&stream, scope)?
        .into_iter()
        .map(|s| StandingRow::of(&s, &names))
        .collect();
    // A stable sort: rows equal in the column stay in the ledger's order.
    rows.sort_by(|a, b| {
        let ord = match sort {
            SortBy::Name => a.name.cmp(&b.name),
            SortBy::Net => a.net.cmp(&b.net),
            SortBy::Played => a.hands_played.cmp(&b.hands_played),
            SortBy::Won => a.hands_won.cmp(&b.hands_won),
            SortBy::Largest => a.largest_hand.cmp(&b.largest_hand),
        };
        if descending {
            ord.reverse()
        } else {
            ord
        }
    });
    Ok(StandingsView {
        tournament: summary(&row),
        sort,
        descending,
        tie_break: row.tie_break.keys().iter().map(|k| k.name()).collect(),
        tie_break_text: row.tie_break.to_string(),
        rows,
        sessions_hidden: audience == Audience::Public && !open_sessions.is_empty(),
        open_sessions,
    })
}

#[derive(Clone, Debug, Serialize)]
pub struct PlayerHandRow {
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

#[derive(Clone, Debug, Serialize)]
pub struct PlayerHistoryView {
    pub tournament: TournamentSummary,
    pub player: String,
    pub name: String,
    pub net: i64,
    pub hands: Vec<PlayerHandRow>,
    /// The player's net of every hand, in order (whatever page `hands` holds): their chips
    /// hand by hand.
    #[serde(skip)]
    pub nets: Vec<i64>,
}

/// A player the audience may see: the tournament's stream and row, the player's id and name.
/// The public sees no voided player nor any player of a voided tournament (404).
fn visible_player(
    ledger: &Ledger,
    id: &str,
    player: &str,
    audience: Audience,
) -> Result<(StreamId, readmodel::TournamentRow, PlayerId, String), AppError> {
    let (stream, row) = tournament_row(ledger, id)?;
    let in_play = crate::app::tournament::load_stream(ledger, stream.clone())?.state;
    let missing = || AppError::not_found(format!("no player `{player}` in this tournament"));
    let pid = PlayerId::new(player).map_err(|_| missing())?;
    let name = ledger
        .players(&stream)?
        .into_iter()
        .find(|p| p.player == pid)
        .map(|p| p.name)
        .ok_or_else(missing)?;
    let hidden = in_play.tournament_voided().is_some() || in_play.player_voided(&pid).is_some();
    if hidden && audience == Audience::Public {
        return Err(missing());
    }
    Ok((stream, row, pid, name))
}

/// A player's name, starting chips and net of every hand in order (0 for one that does not
/// count): their chips hand by hand, read without the hands' records.
/// With `session`, only that session's hands, starting from the chips the player had when it
/// began.
pub fn player_chips(
    ledger: &Ledger,
    id: &str,
    player: &str,
    audience: Audience,
    session: Option<u32>,
) -> Result<(String, i64, Vec<i64>), AppError> {
    let (stream, row, pid, name) = visible_player(ledger, id, player, audience)?;
    let start = row.config.as_ref().map_or(0, |c| c.starting_chips);
    let hide = audience == Audience::Public;
    let Some(n) = session else {
        return Ok((name, start, ledger.player_nets(&stream, &pid, hide)?));
    };
    if !ledger.sessions(&stream)?.iter().any(|s| s.session == n) {
        return Err(AppError::not_found(format!(
            "tournament `{id}` has no session {n}"
        )));
    }
    let all = ledger.player_nets_by_session(&stream, &pid, hide)?;
    let first = all.iter().position(|&(s, _)| s == n).unwrap_or(all.len());
    let before: i64 = all[..first].iter().map(|&(_, net)| net).sum();
    let nets = all
        .iter()
        .filter(|&&(s, _)| s == n)
        .map(|&(_, net)| net)
        .collect();
    Ok((format!("{name}, session {n}"), start + before, nets))
}

/// A player's hands in order with their running total.
/// The public sees no voided player nor any player of a voided tournament (404).
pub fn player_history(
    ledger: &Ledger,
    id: &str,
    player: &str,
    audience: Audience,
) -> Result<PlayerHistoryView, AppError> {
    player_history_paged(ledger, id, player, audience, None).map(|(p, _)| p)
}

/// [`player_history`] with, given a page, only that page's hands (cut in the ledger's query)
/// and their running totals carried on from the hands before it.
pub fn player_history_paged(
    ledger: &Ledger,
    id: &str,
    player: &str,
    audience: Audience,
    page: Option<PageNumber>,
) -> Result<(PlayerHistoryView, Option<Paging>), AppError> {
    let (stream, row, pid, name) = visible_player(ledger, id, player, audience)?;
    let names = names(ledger, &stream)?;
    let start = row.config.as_ref().map_or(0, |c| c.starting_chips);
    // The public does not see the hands of a session still in play: left out in the query, so
    // pages stay full and running totals add up.
    let hide = audience == Audience::Public;
    let nets = ledger.player_nets(&stream, &pid, hide)?;
    let (records, paging) = match page {
        None => (
            ledger.player_hands_slice(&stream, &pid, readmodel::Slice::ALL, hide)?,
            None,
        ),
        Some(page) => {
            let paging = Paging::of(page, nets.len() as u64, "this player's hands")?;
            (
                ledger.player_hands_slice(&stream, &pid, paging.slice(), hide)?,
                Some(paging),
            )
        }
    };
    let before = paging.as_ref().map_or(0, |p| p.offset() as usize);
    let mut running = start + nets.iter().take(before).sum::<i64>();
    let hands = records
        .into_iter()
        .map(|ph| {
            let r = &ph.record;
            let net = r.nets().map_or(0, |n| *n.get(ph.seat));
            running += net;
            PlayerHandRow {
                hand: r.id().to_owned(),
                table: r.table.clone(),
                game: r.game,
                number: r.hand,
                seat: seat_title(ph.seat),
                result: result_text(r, &names),
                net,
                net_text: signed(net),
                running,
            }
        })
        .collect();
    let view = PlayerHistoryView {
        tournament: summary(&row),
        player: player.to_owned(),
        name,
        net: nets.iter().sum(),
        hands,
        nets,
    };
    Ok((view, paging))
}
