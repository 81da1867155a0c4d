//! A hand: each player's tiles drawn as tiles, the itemized score sheets, the settlement matrix
//! with its zero-sum check, and the hand's history with superseded entries marked.

use ledger::{Event, Ledger, StreamId};
use readmodel::{HandRecord, Reads};
use referee::event::HandEvent;
use referee::score::ScoreSheet;
use referee::Seat;
use serde::Serialize;

use super::common::names;
use super::tiles::{hand_groups, TileGroup};
use super::{seat_title, signed};
use crate::app::error::AppError;

/// One line of a score sheet as the page prints it.
#[derive(Clone, Debug, Serialize)]
pub struct SheetLineView {
    pub text: String,
    pub citation: String,
    pub value: String,
}

/// A seat's itemized sheet as the page prints it (the recorded `referee::ScoreSheet`).
#[derive(Clone, Debug, Serialize)]
pub struct SheetView {
    pub lines: Vec<SheetLineView>,
    pub basic: u64,
    pub doubles: u32,
    pub raw: u64,
    pub limited: bool,
    pub total: u64,
}

impl From<&ScoreSheet> for SheetView {
    fn from(s: &ScoreSheet) -> SheetView {
        SheetView {
            lines: s
                .lines
                .iter()
                .map(|l| SheetLineView {
                    text: l.label(),
                    citation: l.cite.to_string(),
                    value: l.value.to_string(),
                })
                .collect(),
            basic: s.basic,
            doubles: s.doubles,
            raw: s.raw,
            limited: s.limited,
            total: s.total,
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct HandSeat {
    /// The seat as drawn.
    pub seat: &'static str,
    pub seat_key: &'static str,
    /// The seat's wind in this hand (East deals).
    pub wind: &'static str,
    pub player: String,
    pub name: String,
    pub notation: String,
    pub groups: Vec<TileGroup>,
    pub sheet: Option<SheetView>,
    pub winner: bool,
    pub net: i64,
    pub net_text: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct MatrixRow {
    pub payer: String,
    /// What this seat pays each seat, East first (0 on the diagonal).
    pub cells: Vec<i64>,
    pub paid: i64,
}

#[derive(Clone, Debug, Serialize)]
pub struct HistoryEntry {
    pub version: u64,
    pub event_type: &'static str,
    pub summary: String,
    pub recorded_at: String,
    pub recorded_by: String,
    pub superseded: bool,
    /// What the public reads while the hand is in play ([`HandView::for_audience`]).
    #[serde(skip)]
    pub public_summary: String,
    /// An entry of the play the scorer struck as his own slip (`EntryStruck`): kept, shown, not
    /// played.
    pub struck: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct HandView {
    pub id: String,
    pub table: String,
    pub tournament: String,
    pub game: u32,
    pub number: u32,
    pub prevailing: &'static str,
    pub east: &'static str,
    /// The seat that dealt and the wind of the round, typed (the correction form's preview).
    #[serde(skip)]
    pub east_seat: Seat,
    #[serde(skip)]
    pub prevailing_wind: referee::Wind,
    pub result: String,
    /// Who won and how, each seat named by its player (the page's words).
    pub win: Option<String>,
    /// Each penalty and own count, headed ("Penalty: …", "Own count: …"), players named.
    pub penalties: Vec<String>,
    /// The same, seats named as drawn: the API's words (its seats are the seats as drawn).
    pub win_by_seat: Option<String>,
    pub penalties_by_seat: Vec<String>,
    pub seats: Vec<HandSeat>,
    pub matrix: Vec<MatrixRow>,
    pub received: Vec<i64>,
    pub nets: Vec<String>,
    pub net_sum: i64,
    pub zero_sum: bool,
    pub corrections: u32,
    /// The stream version a correction must name.
    pub version: u64,
    pub history: Vec<HistoryEntry>,
    /// The disputes raised about the hand: id and what is disputed.
    pub disputes: Vec<(String, String)>,
    /// Recorded play by play (or being recorded): the replay viewer shows it move by move.
    pub played: bool,
    /// Its result is not recorded yet: it is still being played.
    pub in_play: bool,
}

impl HandView {
    /// The page as `audience` may see it: while the hand is in play (recorded play by play,
    /// its table broadcast), the public reads its history without the tiles drawn (Code §27).
    pub fn for_audience(mut self, audience: super::Audience) -> HandView {
        if audience == super::Audience::Public && self.in_play {
            for e in &mut self.history {
                e.summary = std::mem::take(&mut e.public_summary);
            }
        }
        self
    }
}

/// One line saying what an event recorded: the referee's words for an event of a hand
/// (`referee::event::describe`), else its type.
pub(crate) fn describe(e: &Event) -> String {
    match HandEvent::try_from(e.clone()) {
        Ok(e) => referee::event::describe(&e),
        Err(_) => e.event_type().replace('_', " "),
    }
}

/// The same line as the public may read it while the hand is in play (Code §27): a tile drawn
/// is not named, and a hand laid down before the hand's result (a call of Mah-Jongg that may
/// yet be taken up, §82) is not shown.
fn describe_public(e: &Event) -> String {
    match HandEvent::try_from(e.clone()) {
        Ok(HandEvent::TileDrawn(mut d)) => {
            d.tile = None;
            referee::event::describe(&HandEvent::TileDrawn(d))
        }
        Ok(HandEvent::LooseTileDrawn(mut d)) => {
            d.tile = None;
            referee::event::describe(&HandEvent::LooseTileDrawn(d))
        }
        Ok(HandEvent::HandExposed(x)) => format!("{} laid the hand down", x.seat),
        _ => describe(e),
    }
}

/// The hand page's content: the record from the projection, the history from the hand's own
/// stream (a handful of events, read by its index).
pub fn view(ledger: &Ledger, id: &str) -> Result<HandView, AppError> {
    let missing = || AppError::not_found(format!("no hand `{id}`"));
    let stream = StreamId::hand(id).map_err(|_| missing())?;
    let r: HandRecord = ledger.hand_record(&stream)?.ok_or_else(missing)?;
    let tournament = r
        .tournament
        .as_deref()
        .and_then(|t| t.parse::<StreamId>().ok());
    let names = match &tournament {
        Some(t) => names(ledger, t)?,
        None => Default::default(),
    };
    // A seat named by its player (the seat as drawn where nobody is named).
    let seat_names = super::common::SeatNames::from(&r, &names);
    let who = |seat: Seat| seat_names.name(seat);
    let result = &r.result;
    let nets = r.nets().unwrap_or_default();
    let seats = Seat::ALL
        .iter()
        .map(|&seat| {
            let player = r.players.get(seat).clone().unwrap_or_default();
            let hand = result.hands().get(seat).as_ref();
            HandSeat {
                seat: seat_title(seat),
                seat_key: seat.name(),
                wind: seat_title(seat.wind(r.east)),
                name: names.get(&player).cloned().unwrap_or_default(),
                player,
                notation: hand.map(ToString::to_string).unwrap_or_default(),
                groups: hand.map(hand_groups).unwrap_or_default(),
                sheet: result.scored().map(|s| SheetView::from(&s.sheets[seat])),
                winner: result.winner() == Some(seat),
                net: nets[seat],
                net_text: signed(nets[seat]),
            }
        })
        .collect();
    let payments = result
        .settlement()
        .map(|(_, s)| s.payments.as_slice())
        .unwrap_or_default();
    let matrix: Vec<MatrixRow> = Seat::ALL
        .iter()
        .map(|&payer| {
            let cells: Vec<i64> = Seat::ALL
                .iter()
                .map(|&payee| {
                    payments
                        .iter()
                        .filter(|p| p.payer == payer && p.payee == payee)
                        .map(|p| p.amount)
                        .sum()
                })
                .collect();
            MatrixRow {
                payer: who(payer),
                paid: cells.iter().sum(),
                cells,
            }
        })
        .collect();
    let received = (0..4)
        .map(|j| matrix.iter().map(|row| row.cells[j]).sum())
        .collect();
    let net_sum: i64 = nets.values().sum();
    let scored = result.scored();
    let as_drawn = |seat: Seat| seat_title(seat).to_owned();
    let win_text = |who: &dyn Fn(Seat) -> String| {
        scored.and_then(|s| s.win.as_ref()).map(|w| {
            let from = match w.discarder {
                Some(d) => format!(" from {}", who(d)),
                None => String::new(),
            };
            format!("{} won on {} ({}{from})", who(w.winner), w.tile, w.from)
        })
    };
    let penalties_text = |who: &dyn Fn(Seat) -> String| -> Vec<String> {
        scored
            .map(|s| s.penalties.iter().map(|p| p.describe(who)).collect())
            .unwrap_or_default()
    };
    let (win, win_by_seat) = (win_text(&who), win_text(&as_drawn));
    // The page's lines carry their heading ("Penalty", "Own count"); the API's are the words.
    let penalties = scored
        .map(|s| {
            s.penalties
                .iter()
                .map(|p| format!("{}: {}", p.heading(), p.describe(&who)))
                .collect()
        })
        .unwrap_or_default();
    let penalties_by_seat = penalties_text(&as_drawn);
    let events = ledger.read_stream(&stream, 1)?;
    // Recorded play by play: a draw, a discard, a claim … (a hand recorded at its end has only
    // its start, the hands shown, its Mah-Jongg or wash-out and its result).
    let played = events.iter().any(|e| {
        HandEvent::try_from(e.event.clone())
            .is_ok_and(|h| h.is_play() && !h.ends_play() && !matches!(h, HandEvent::HandExposed(_)))
    });
    let in_play = !events
        .iter()
        .any(|e| matches!(e.event, Event::SettlementRecorded(_)));
    let disputes = events
        .iter()
        .filter_map(|e| match &e.event {
            Event::DisputeRaised(d) => Some((e.event_id.to_string(), d.description.clone())),
            _ => None,
        })
        .collect();
    let struck = {
        let mut play = referee::event::PlayPicker::default();
        for e in &events {
            if let Ok(h) = HandEvent::try_from(e.event.clone()) {
                play.push(e.event_id, h);
            }
        }
        play.struck().to_vec()
    };
    // A hand recorded play by play: its play, to the hands laid down, is what happened at the
    // table; a correction or ruling replaces its result (the sheets and settlement, and the
    // facts it restates), never the play itself.
    let play_end = if played {
        events
            .iter()
            .position(|e| matches!(e.event, Event::HandScored(_) | Event::SettlementRecorded(_)))
            .unwrap_or(events.len())
    } else {
        0
    };
    let history = events
        .iter()
        .enumerate()
        .map(|(i, e)| HistoryEntry {
            struck: struck.contains(&e.event_id),
            version: e.version,
            event_type: e.event.event_type(),
            summary: describe(&e.event),
            public_summary: describe_public(&e.event),
            recorded_at: e.recorded_at.format("%Y-%m-%d %H:%M:%S UTC").to_string(),
            recorded_by: e.recorded_by.as_str().to_owned(),
            // As the hand's record has it: a fact of the result a correction took out (not the
            // play, disputes or rulings), a settlement replaced, or what a withdrawn correction
            // brought, and the withdrawn correction itself.
            superseded: i >= play_end && result.is_superseded(e.event_id),
        })
        .collect();
    Ok(HandView {
        id: id.to_owned(),
        table: r.table.clone(),
        tournament: tournament.map(|t| t.id().to_owned()).unwrap_or_default(),
        game: r.game,
        number: r.hand,
        prevailing: seat_title(r.prevailing_wind),
        east: seat_title(r.east),
        east_seat: r.east,
        prevailing_wind: r.prevailing_wind,
        result: super::common::result_text(&r, &names),
        win,
        penalties,
        win_by_seat,
        penalties_by_seat,
        seats,
        matrix,
        received,
        nets: nets.into_array().map(signed).to_vec(),
        net_sum,
        zero_sum: net_sum == 0,
        corrections: result.corrections().len() as u32,
        version: r.version,
        history,
        disputes,
        played: played || in_play,
        in_play,
    })
}
