//! A hand recorded play by play, at one moment: what the replay viewer page and the play API
//! show. Built by replaying the hand's stream (`referee::play`), never stored.
//!
//! Who sees what (Code §27: each player sees his own tiles, and of the others only what is on
//! the table): officials see every concealed hand; a seat's tablet sees its own; the public sees
//! concealed tiles only once the hand is over and the hands are laid down.

use ledger::event::HandEvent;
use ledger::{Ledger, StreamId};
use readmodel::Reads;
use referee::adjudicate::{Replay, Replayed};
use referee::event::describe;
use referee::play::{Concealed, Formed, PlayState, Turn};
use referee::Seat;
use serde::Serialize;

use super::seat_title;
use super::tiles::{bonus_glyph, tile_glyph, Glyph};
use crate::app::error::AppError;
use crate::app::table::TableContext;

/// Whose eyes the state is shown to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shown {
    /// An official: every concealed hand.
    All,
    /// One seat: its own concealed tiles.
    Seat(Seat),
    /// Anyone: concealed tiles once the hand is over.
    Public,
}

impl Shown {
    fn sees(self, seat: Seat, over: bool) -> bool {
        match self {
            Shown::All => true,
            Shown::Seat(s) => s == seat || over,
            Shown::Public => over,
        }
    }
}

/// A set on the table and how it was formed.
#[derive(Clone, Debug, Serialize)]
pub struct SetView {
    pub tiles: Vec<Glyph>,
    /// "claimed from west", "concealed kong" …
    pub formed: String,
    pub concealed: bool,
}

/// A discard, and who claimed it.
#[derive(Clone, Debug, Serialize)]
pub struct DiscardView {
    pub tile: Glyph,
    /// The tile named when it was not the tile placed (§84).
    pub named: Option<Glyph>,
    pub claimed_by: Option<&'static str>,
}

/// One seat at the moment.
#[derive(Clone, Debug, Serialize)]
pub struct SeatPlay {
    pub seat: &'static str,
    /// The seat's player, when the hand's players are named (the replay, a dispute).
    pub player: Option<String>,
    pub wind: String,
    /// The concealed tiles, when shown and known.
    pub concealed: Option<Vec<Glyph>>,
    /// How many tiles are in the hand (concealed and undeclared bonus tiles).
    pub in_hand: u32,
    pub sets: Vec<SetView>,
    pub bonus: Vec<Glyph>,
    pub discards: Vec<DiscardView>,
    pub original_call: bool,
    /// It is this seat's move.
    pub to_move: bool,
}

/// A claim on the live discard.
#[derive(Clone, Debug, Serialize)]
pub struct ClaimView {
    pub seat: &'static str,
    pub claim: Option<String>,
    pub passed: bool,
}

/// One irregularity, with the event it came from.
#[derive(Clone, Debug, Serialize)]
pub struct IrregularView {
    pub event: usize,
    pub what: String,
    pub rule: &'static str,
}

impl IrregularView {
    pub fn new(event: usize, i: &referee::play::Irregularity) -> IrregularView {
        IrregularView {
            event,
            what: i.what.clone(),
            rule: i.rule,
        }
    }
}

/// The hand at one moment.
#[derive(Clone, Debug, Serialize)]
pub struct PlayView {
    pub hand: String,
    /// The events folded in (the start is event 0): this is the state after event `at`.
    pub at: usize,
    /// The last event of the play in the record.
    pub last: usize,
    /// The hand stream's version (what a recorder sends back with its next event).
    pub version: u64,
    /// Event `at` in words.
    pub event: String,
    pub turn: String,
    pub over: bool,
    pub live_wall: u32,
    pub kong_box: u32,
    pub live_discard: Option<Glyph>,
    pub claims: Vec<ClaimView>,
    pub seats: Vec<SeatPlay>,
    /// Irregularities up to this moment.
    pub irregular: Vec<IrregularView>,
    /// The event the replay could not apply, when the record holds one.
    pub refused: Option<String>,
}

fn glyphs(c: &Concealed) -> Option<Vec<Glyph>> {
    match c {
        Concealed::Known(t) => Some(t.tiles().map(tile_glyph).collect()),
        Concealed::Counted(_) => None,
    }
}

fn formed(f: Formed) -> (String, bool) {
    match f {
        Formed::Claimed { from } => (format!("claimed from {from}"), false),
        Formed::AnnexedKong { from } => (format!("kong annexing {from}'s discard"), false),
        Formed::AddedKong { from } => (format!("kong added to a pung from {from}"), false),
        Formed::ConcealedKong => ("concealed kong".to_owned(), true),
    }
}

fn to_move(turn: &Turn) -> Option<Seat> {
    match turn {
        Turn::Draw(s) | Turn::Discard(s) => Some(*s),
        Turn::Replace { seat, .. } | Turn::Expose { seat, .. } => Some(*seat),
        Turn::Robbable { .. } | Turn::Over(_) => None,
    }
}

/// The seats of `state` as `shown` may see them.
pub fn seats(state: &PlayState, shown: Shown) -> Vec<SeatPlay> {
    let over = matches!(state.turn, Turn::Over(_));
    let moving = to_move(&state.turn);
    Seat::ALL
        .iter()
        .map(|&seat| {
            let s = &state.seats[seat];
            SeatPlay {
                seat: seat_title(seat),
                player: None,
                wind: state.wind_of(seat).to_string(),
                concealed: if shown.sees(seat, over) {
                    glyphs(&s.concealed)
                } else {
                    None
                },
                in_hand: s.in_hand(),
                sets: s
                    .sets
                    .iter()
                    .map(|p| {
                        let (formed, concealed) = formed(p.formed);
                        SetView {
                            tiles: p.set.tiles().map(tile_glyph).collect(),
                            formed,
                            concealed,
                        }
                    })
                    .collect(),
                bonus: s.bonus.iter().map(|&b| bonus_glyph(b)).collect(),
                discards: s
                    .discards
                    .iter()
                    .map(|&i| {
                        let d = &state.discards[i];
                        DiscardView {
                            tile: tile_glyph(d.placed),
                            named: (d.named != d.placed).then(|| tile_glyph(d.named)),
                            claimed_by: d.claimed_by.map(seat_title),
                        }
                    })
                    .collect(),
                original_call: s.original_call,
                to_move: moving == Some(seat),
            }
        })
        .collect()
}

/// The claims on the live discard.
fn claims(state: &PlayState) -> Vec<ClaimView> {
    let Some(w) = &state.window else {
        return Vec::new();
    };
    Seat::ALL
        .iter()
        .filter(|&&s| w.claims[s].is_some() || w.passed[s])
        .map(|&s| ClaimView {
            seat: seat_title(s),
            claim: w.claims[s].map(|c| format!("{c:?}").to_lowercase()),
            passed: w.passed[s],
        })
        .collect()
}

/// A hand's play as stored: its start, the events of its play, and the stream's version.
pub struct StoredPlay {
    pub hand: String,
    pub started: ledger::event::HandStarted,
    pub events: Vec<HandEvent>,
    pub version: u64,
    pub rules: referee::play::PlayRules,
    /// Its result (score and settlement) is recorded: the hand is over.
    pub settled: bool,
    /// Its players' names, seat by seat.
    pub players: super::common::SeatNames,
}

impl StoredPlay {
    /// Reads hand `id`; `None` when it was not recorded play by play (its stream holds nothing
    /// but its start and its result).
    pub fn load(ledger: &Ledger, id: &str) -> Result<Option<StoredPlay>, AppError> {
        let missing = || AppError::not_found(format!("no hand `{id}`"));
        let stream = StreamId::hand(id).map_err(|_| missing())?;
        let record = ledger.hand_record(&stream)?.ok_or_else(missing)?;
        let ctx = TableContext::load(ledger, &record.table)?;
        StoredPlay::load_in(ledger, id, &ctx)
    }

    /// [`StoredPlay::load`], the hand's table already loaded as `ctx`.
    pub fn load_in(
        ledger: &Ledger,
        id: &str,
        ctx: &TableContext,
    ) -> Result<Option<StoredPlay>, AppError> {
        let missing = || AppError::not_found(format!("no hand `{id}`"));
        let stream = StreamId::hand(id).map_err(|_| missing())?;
        let record = ledger.hand_record(&stream)?.ok_or_else(missing)?;
        let mut started = None;
        let mut play = referee::event::PlayPicker::default();
        let mut version = 0;
        let mut settled = false;
        for e in ledger.read_stream(&stream, 1)? {
            version = e.version;
            match HandEvent::try_from(e.event) {
                Ok(HandEvent::HandStarted(s)) => started = Some(s),
                Ok(e @ HandEvent::SettlementRecorded(_)) => {
                    settled = true;
                    play.push((), e);
                }
                Ok(e) => {
                    play.push((), e);
                }
                _ => {}
            }
        }
        let events: Vec<HandEvent> = play.finish().into_iter().map(|(_, e)| e).collect();
        let started =
            started.ok_or_else(|| AppError::internal(format!("hand `{id}` has no start")))?;
        // A hand recorded at its end has a Mah-Jongg or wash-out and nothing before it.
        let played = events.len() > 1
            || !matches!(
                events.first(),
                None | Some(HandEvent::MahJonggDeclared(_) | HandEvent::WashOut(_))
            )
            || ctx
                .state
                .in_play()
                .is_some_and(|(k, _)| k.game == record.game && k.hand == record.hand);
        if !played {
            return Ok(None);
        }
        Ok(Some(StoredPlay {
            players: super::common::SeatNames::of(ledger, &record)?,
            hand: id.to_owned(),
            started,
            events,
            version,
            rules: ctx.state.play_rules.clone(),
            settled,
        }))
    }

    /// Every event in words as `shown` may read it, the start first: until the hand's result
    /// is recorded (a call of Mah-Jongg may yet be taken up, §82) a tile drawn is named only to
    /// whoever may see that seat's tiles (Code §27).
    pub fn described_for(&self, shown: Shown) -> Vec<String> {
        let over = self.settled;
        let hidden = |seat: Seat| !shown.sees(seat, over);
        std::iter::once(describe(&HandEvent::HandStarted(self.started.clone())))
            .chain(self.events.iter().map(|e| match e {
                HandEvent::TileDrawn(d) if d.tile.is_some() && hidden(d.seat) => {
                    describe(&HandEvent::TileDrawn(referee::event::TileDrawn {
                        seat: d.seat,
                        tile: None,
                    }))
                }
                HandEvent::LooseTileDrawn(d) if d.tile.is_some() && hidden(d.seat) => {
                    describe(&HandEvent::LooseTileDrawn(referee::event::LooseTileDrawn {
                        seat: d.seat,
                        tile: None,
                    }))
                }
                e => describe(e),
            }))
            .collect()
    }

    /// Every event in words, the start first.
    pub fn described(&self) -> Vec<String> {
        std::iter::once(describe(&HandEvent::HandStarted(self.started.clone())))
            .chain(self.events.iter().map(describe))
            .collect()
    }

    /// The hand replayed through event `at` (the last event when `None` or beyond the end),
    /// with `at` as it was taken.
    pub fn replayed_at(&self, at: Option<usize>) -> Result<(usize, Replayed), AppError> {
        let last = self.events.len();
        let at = at.unwrap_or(last).min(last);
        let replayed = Replay::replay(self.rules.clone(), &self.started, &self.events[..at])
            .map_err(|e| AppError::internal(format!("hand `{}`: {e}", self.hand)))?;
        Ok((at, replayed))
    }

    /// Event `at` (the start is event 0).
    pub fn event(&self, at: usize) -> HandEvent {
        match at.checked_sub(1).and_then(|n| self.events.get(n)) {
            Some(e) => e.clone(),
            None => HandEvent::HandStarted(self.started.clone()),
        }
    }

    /// The state after event `at` (the last event when `None` or beyond the end).
    pub fn at(&self, at: Option<usize>, shown: Shown) -> Result<PlayView, AppError> {
        let (at, replayed) = self.replayed_at(at)?;
        Ok(self.view_of(at, replayed, shown))
    }

    /// The state after event `at`, replayed as `replayed`, as `shown` may see it.
    pub fn view_of(&self, at: usize, replayed: Replayed, shown: Shown) -> PlayView {
        let words = self
            .described_for(shown)
            .into_iter()
            .nth(at)
            .unwrap_or_default();
        let mut v = view(
            &self.hand,
            &replayed.replay,
            at,
            self.events.len(),
            self.version,
            words,
            replayed
                .irregular
                .iter()
                .map(|(event, i)| IrregularView::new(*event, i))
                .collect(),
            replayed.refused.map(|e| e.to_string()),
            shown,
        );
        for (s, seat) in v.seats.iter_mut().zip(Seat::ALL) {
            s.player = self.players.player(seat).map(str::to_owned);
        }
        v
    }
}

/// The view of `play` after event `at` of `last`.
#[allow(clippy::too_many_arguments)]
pub fn view(
    hand: &str,
    play: &Replay,
    at: usize,
    last: usize,
    version: u64,
    event: String,
    irregular: Vec<IrregularView>,
    refused: Option<String>,
    shown: Shown,
) -> PlayView {
    let state = play.state();
    PlayView {
        hand: hand.to_owned(),
        at,
        last,
        version,
        event,
        turn: state.turn.to_string(),
        over: matches!(state.turn, Turn::Over(_)),
        live_wall: state.wall.live,
        kong_box: state.wall.kong_box,
        live_discard: state.live_discard().map(|d| tile_glyph(d.placed)),
        claims: claims(state),
        seats: seats(state, shown),
        irregular,
        refused,
    }
}
