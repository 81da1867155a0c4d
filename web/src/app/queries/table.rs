//! A table: its seats, where the rotation stands (Code §11–14), its hands and running totals,
//! whether it is closed or voided, and whether its seat draw re-derives from its seed.

use ledger::{Ledger, PlayerId};
use readmodel::{Reads, TableRow};
use referee::{BySeat, Seat};
use serde::Serialize;

use super::common::{names, result_text, seats_view, SeatView};
use super::paging::{PageNumber, Paging};
use super::{seat_title, signed};
use crate::app::error::AppError;
use crate::app::table::TableContext;
use referee::tournament::draw::{self, registration_order, DrawCheck};

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
    /// The wind of the round, for the record form's live preview.
    #[serde(skip)]
    pub prevailing_wind: referee::Wind,
    pub new_game: bool,
    /// It is being recorded play by play now.
    pub in_play: bool,
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
    /// Its play is over: no more hands are recorded.
    pub closed: bool,
    /// Its play is open to the public while its session is in play.
    pub broadcast: bool,
    /// Why the table was voided (the public never sees a voided table).
    pub voided: Option<String>,
    /// Why its tournament was voided.
    pub tournament_voided: Option<String>,
    /// A random draw re-derived from its seed: `verified`, `mismatch` or `other-method`.
    pub draw_check: Option<&'static str>,
    /// The session the table plays in, with its clock.
    pub session: Option<SessionClockView>,
    /// Its session is open and the viewer is the public: the hands are not shown yet.
    pub results_hidden: bool,
}

/// A session's clock as the pages show it, kept by the server from the ledger's own times (it
/// survives a restart).
#[derive(Clone, Debug, Serialize)]
pub struct SessionClockView {
    pub session: u32,
    pub open: bool,
    /// When it opened, `HH:MM` UTC.
    pub opened: String,
    pub elapsed_minutes: i64,
    pub left_minutes: Option<i64>,
    /// "1 h 05 min played · 1 h 25 min left", "over by 5 min (1 h 35 min played)", "closed
    /// after 2 h".
    pub text: String,
    /// When it opened and, with a length, when its time is up (RFC 3339, UTC): the page's
    /// script counts down from them in the viewer's own time.
    pub opened_at: String,
    pub ends_at: Option<String>,
    /// Its length in minutes, when one was set.
    pub length_minutes: Option<u32>,
}

/// `95` → "1 h 35 min"; `40` → "40 min".
pub fn duration_text(minutes: i64) -> String {
    let m = minutes.abs();
    match (m / 60, m % 60) {
        (0, m) => format!("{m} min"),
        (h, 0) => format!("{h} h"),
        (h, m) => format!("{h} h {m:02} min"),
    }
}

impl SessionClockView {
    pub fn of(
        session: &readmodel::SessionRow,
        now: chrono::DateTime<chrono::Utc>,
    ) -> SessionClockView {
        let (elapsed_minutes, left_minutes) =
            (session.elapsed_minutes(now), session.left_minutes(now));
        let played = duration_text(elapsed_minutes);
        let text = match (session.is_open(), left_minutes) {
            (false, _) => format!("closed after {played}"),
            (true, Some(left)) if left > 0 => {
                format!("{played} played · {} left", duration_text(left))
            }
            (true, Some(0)) => format!("time is up ({played} played)"),
            (true, Some(left)) => {
                format!("over by {} ({played} played)", duration_text(left))
            }
            (true, None) => format!("{played} played · no time set"),
        };
        SessionClockView {
            session: session.session,
            open: session.is_open(),
            opened: session.opened_at.format("%H:%M").to_string(),
            elapsed_minutes,
            left_minutes,
            text,
            opened_at: session
                .opened_at
                .to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            length_minutes: session.minutes,
            ends_at: session.minutes.filter(|_| session.is_open()).map(|m| {
                (session.opened_at + chrono::Duration::minutes(i64::from(m)))
                    .to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
            }),
        }
    }
}

impl TableView {
    /// The table as `audience` may see it: while its session is open the public sees the seats
    /// and the clock, not the hands, the chips or which hand is next.
    pub fn for_audience(mut self, audience: super::Audience) -> TableView {
        let open = self.session.as_ref().is_some_and(|s| s.open);
        if open && audience == super::Audience::Public {
            // Not even which hand is next: East keeps the deal when he wins (Code §12), so the
            // next hand tells how the hands went — unless an organiser broadcasts the table's
            // play, when the hand in play is the public's to follow.
            self.hands.clear();
            if !(self.broadcast && self.next.as_ref().is_some_and(|n| n.in_play)) {
                self.next = None;
            }
            self.totals = vec![self.starting_chips; self.totals.len()];
            self.results_hidden = true;
        }
        self
    }
}

impl TableView {
    /// What the page says of the re-derived draw ("" when the seats were not drawn at random).
    pub fn draw_note(&self) -> &'static str {
        match self.draw_check {
            Some("verified") => "draw verified from its seed ✓",
            Some("mismatch") => "the seats do not match the seed ✗",
            Some(_) => "drawn by an earlier method, not re-derived",
            None => "",
        }
    }

    /// The note's style.
    pub fn draw_class(&self) -> &'static str {
        match self.draw_check {
            Some("verified") => "ok",
            Some("mismatch") => "error",
            _ => "",
        }
    }
}

/// Re-derives a random seat draw from its recorded seed and method.
fn draw_check(ledger: &Ledger, table: &TableRow) -> Result<Option<&'static str>, AppError> {
    let (Some(seed), Some(seats)) = (table.draw_seed, &table.seats) else {
        return Ok(None);
    };
    let Some(method) = ledger.draw_method(&table.table)? else {
        return Ok(None);
    };
    let registered = ledger.players(&table.tournament)?;
    let drawn: [PlayerId; 4] = seats.clone().into_array();
    let check = draw::verify(
        &method,
        seed,
        registration_order(
            drawn.clone(),
            &registered
                .iter()
                .map(|r| r.player.clone())
                .collect::<Vec<_>>(),
        ),
        &drawn,
    );
    Ok(Some(match check {
        DrawCheck::Verified => "verified",
        DrawCheck::Mismatch => "mismatch",
        DrawCheck::OtherMethod => "other-method",
    }))
}

/// The table page's content.
pub fn view(ledger: &Ledger, table: &str) -> Result<TableView, AppError> {
    view_paged(ledger, table, None).map(|(t, _)| t)
}

/// What every page of a table heads with: its number, its seats' players, and the next hand
/// (the hand in play, while one is).
#[derive(Clone, Debug, Serialize)]
pub struct TableHeading {
    pub id: String,
    pub number: u32,
    pub seats: Vec<SeatView>,
    pub next: Option<NextHand>,
}

/// The heading of the table `ctx` holds.
pub fn heading(ledger: &Ledger, ctx: &TableContext) -> Result<TableHeading, AppError> {
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
    // A game after one that completed its four rounds; the first hand begins no "new" game.
    let new_game = ctx.state.games_started > 0 && position.game > ctx.state.games_started;
    let next = ctx.table.seats.as_ref().map(|_| NextHand {
        hand: position.hand_id(ctx.table.table.as_str()),
        game: position.game,
        number: position.hand,
        east: position.east,
        east_seat: seat_title(position.east),
        east_player: player_name(position.east),
        prevailing: seat_title(position.prevailing),
        prevailing_wind: position.prevailing,
        new_game,
        in_play: ctx.state.in_play().is_some(),
    });
    Ok(TableHeading {
        id: ctx.table.table.as_str().to_owned(),
        number: ctx.table.number,
        seats,
        next,
    })
}

/// [`view`] with, given a page, only that page's hands (cut in the ledger's query) and their
/// running totals carried on from the hands before it; the chips now are over every hand.
pub fn view_paged(
    ledger: &Ledger,
    table: &str,
    page: Option<PageNumber>,
) -> Result<(TableView, Option<Paging>), AppError> {
    let ctx = TableContext::load(ledger, table)?;
    let tournament = ledger
        .tournament(&ctx.table.tournament)?
        .ok_or_else(|| AppError::internal("a table's tournament is missing"))?;
    let TableHeading { seats, next, .. } = heading(ledger, &ctx)?;
    let names = names(ledger, &ctx.table.tournament)?;
    let starting_chips = ctx.conditions.starting_chips;
    let start = BySeat::from_fn(|_| starting_chips);
    let (records, paging, before, now) = match page {
        None => (ledger.table_hands(&ctx.table.table)?, None, start, None),
        Some(page) => {
            let count = ledger.table_hand_count(&ctx.table.table)?;
            let paging = Paging::of(page, count, "this table's hands")?;
            let before = ledger.table_nets_before(&ctx.table.table, paging.offset())?;
            let all = ledger.table_nets_before(&ctx.table.table, count)?;
            let records = ledger.table_hands_slice(&ctx.table.table, paging.slice())?;
            let now = start.zip(all).map(|(s, n)| s + n);
            let before = start.zip(before).map(|(s, n)| s + n);
            (records, Some(paging), before, Some(now))
        }
    };
    let mut totals = before;
    let hands = records
        .iter()
        .map(|r| {
            let nets = r.nets().unwrap_or_default();
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
                corrected: !r.result.corrections().is_empty(),
                nets: nets.into_array().map(signed).to_vec(),
                totals: totals.into_array().to_vec(),
            }
        })
        .collect();
    let in_play = crate::app::tournament::load_stream(ledger, ctx.table.tournament.clone())?.state;
    let session = match ctx.table.session {
        Some(n) => ledger
            .sessions(&ctx.table.tournament)?
            .iter()
            .find(|s| s.session == n)
            .map(|s| SessionClockView::of(s, chrono::Utc::now())),
        None => None,
    };
    let view = TableView {
        session,
        results_hidden: false,
        closed: in_play.table_closed(&ctx.table.table),
        broadcast: in_play.table(&ctx.table.table).is_some_and(|t| t.broadcast),
        voided: in_play.table_voided(&ctx.table.table).map(str::to_owned),
        tournament_voided: in_play.tournament_voided().map(str::to_owned),
        draw_check: draw_check(ledger, &ctx.table)?,
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
        totals: now.unwrap_or(totals).into_array().to_vec(),
    };
    Ok((view, paging))
}
