//! The director's room: one session's tables at a glance — each table's seats, whether it has
//! finished, and for officials how many hands it has played, who deals next and its last
//! entry — with the session's clock. The page (`/t/<id>/sessions/<n>/live`) follows the ledger
//! and reads this again whenever anything is recorded.
//!
//! Read for forty tables at once, so the tournament is folded once and each table only in
//! outline (`Focus::Outline`: who deals next, no hand replayed); the last entry is one event,
//! read by its version.

use chrono::{DateTime, Utc};
use ledger::{Ledger, StreamId};
use readmodel::{Reads, SessionRow, TournamentRow};
use referee::Seat;
use serde::Serialize;

use super::common::{names, seats_view, tournament_row, SeatView};
use super::table::SessionClockView;
use super::tournament::TournamentSummary;
use super::{seat_title, Audience};
use crate::app::error::AppError;
use crate::app::table::{conditions_of, Focus, TableContext};
use crate::app::tournament::Loaded;

/// One table as the dashboard shows it.
#[derive(Clone, Debug, Serialize)]
pub struct DashboardTable {
    pub id: String,
    pub number: u32,
    pub seats: Vec<SeatView>,
    /// Its play is over.
    pub finished: bool,
    pub voided: bool,
    /// A hand is being recorded play by play.
    pub in_play: bool,
    /// Hands recorded (officials; the public's view of an open session has none).
    pub hands: Option<u64>,
    /// The player who deals the hand in play or the next one, and his seat (officials).
    pub east: Option<String>,
    /// The last entry at the table, in words (officials).
    pub last: Option<String>,
    /// How long ago anything was last recorded there: "4 min ago".
    pub last_ago: Option<String>,
}

/// One session's room.
#[derive(Clone, Debug, Serialize)]
pub struct DashboardView {
    pub tournament: TournamentSummary,
    pub session: u32,
    pub open: bool,
    pub clock: SessionClockView,
    pub tables: Vec<DashboardTable>,
    /// Tables whose play is over, of those not voided.
    pub finished: usize,
    pub playing: usize,
    /// The public's view of an open session: no hands, no East, no entries.
    pub results_hidden: bool,
}

/// "just now", "4 min ago", "1 h 05 min ago".
fn ago(then: DateTime<Utc>, now: DateTime<Utc>) -> String {
    match (now - then).num_minutes() {
        m if m < 1 => "just now".to_owned(),
        m => format!("{} ago", super::table::duration_text(m)),
    }
}

/// The tournament (folded) and its session `number`, when `audience` may see them (404
/// otherwise): what the room and its event stream both ask first.
pub fn visible_session(
    ledger: &Ledger,
    id: &str,
    number: u32,
    audience: Audience,
) -> Result<(TournamentRow, Loaded, SessionRow), AppError> {
    let (stream, row) = tournament_row(ledger, id)?;
    let loaded = crate::app::tournament::load_stream(ledger, stream.clone())?;
    if audience == Audience::Public && loaded.state.tournament_voided().is_some() {
        return Err(AppError::not_found(format!("no tournament `{id}`")));
    }
    let session = ledger
        .sessions(&stream)?
        .into_iter()
        .find(|s| s.session == number)
        .ok_or_else(|| AppError::not_found(format!("tournament `{id}` has no session {number}")))?;
    Ok((row, loaded, session))
}

/// Session `number` of tournament `id`, as `audience` may see it.
pub fn dashboard(
    ledger: &Ledger,
    id: &str,
    number: u32,
    audience: Audience,
) -> Result<DashboardView, AppError> {
    let (row, loaded, session) = visible_session(ledger, id, number, audience)?;
    let stream = loaded.stream.clone();
    let now = Utc::now();
    let open = session.is_open();
    let results_hidden = open && audience == Audience::Public;
    let names = names(ledger, &stream)?;
    let conditions = conditions_of(&loaded.state)?;
    let mut tables = Vec::new();
    for t in ledger.tables(&stream)? {
        if t.session != Some(number) {
            continue;
        }
        let voided = loaded.state.table_voided(&t.table).is_some();
        if voided && audience == Audience::Public {
            continue;
        }
        let seats = seats_view(&t.seats, &names);
        let player = |seat: Seat| {
            t.seats
                .as_ref()
                .and_then(|s| names.get(s.get(seat).as_str()).cloned())
                .unwrap_or_default()
        };
        let last = ledger.last_hand(&t.table)?;
        let in_play = last
            .as_ref()
            .is_some_and(|h| h.result.settlement().is_none());
        let last_event = match &last {
            Some(h) => {
                let hand: StreamId = h.stream.parse().map_err(|e| {
                    AppError::internal(format!("hand stream of `{}`: {e}", t.table))
                })?;
                ledger.read_stream(&hand, h.version)?.pop()
            }
            None => None,
        };
        let (hands, east, last_text) = if results_hidden {
            (None, None, None)
        } else {
            let east = match &last {
                Some(h) if in_play => Some(h.east),
                _ if t.seats.is_some() => {
                    let ctx = TableContext::load_in(
                        ledger,
                        t.clone(),
                        &loaded,
                        conditions.clone(),
                        Focus::Outline,
                    )?;
                    Some(ctx.state.next().east)
                }
                _ => None,
            };
            (
                Some(ledger.table_hand_count(&t.table)?),
                east.map(|seat| format!("{} ({} seat)", player(seat), seat_title(seat))),
                last_event.as_ref().zip(last.as_ref()).map(|(e, h)| {
                    format!(
                        "g{}-h{}: {}",
                        h.game,
                        h.hand,
                        super::hand::describe(&e.event)
                    )
                }),
            )
        };
        tables.push(DashboardTable {
            id: t.table.as_str().to_owned(),
            number: t.number,
            seats,
            finished: loaded.state.table_closed(&t.table),
            voided,
            // The public's view of an open session says nothing of the play: not even when a
            // table last recorded something, which would count its hands.
            in_play: in_play && !results_hidden,
            hands,
            east,
            last: last_text,
            last_ago: last_event
                .filter(|_| !results_hidden)
                .map(|e| ago(e.recorded_at, now)),
        });
    }
    let counted = tables.iter().filter(|t| !t.voided);
    let finished = counted.clone().filter(|t| t.finished).count();
    let playing = counted.count() - finished;
    Ok(DashboardView {
        tournament: super::tournament::summary(&row),
        session: number,
        open,
        clock: SessionClockView::of(&session, now),
        tables,
        finished,
        playing,
        results_hidden,
    })
}
