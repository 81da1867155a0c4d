//! Recording a finished hand and correcting one: requests turned into the referee's table
//! commands, and the decided events appended to the ledger.
//!
//! The rules (who deals, what the four hands may hold, the score and the settlement, when a
//! correction may be made) are decided by `referee::table`; this module only loads the table
//! ([`TableContext`]), names the hand a request means, and stores what was decided with the
//! expected versions, so a write based on a stale view is refused with a conflict and nothing
//! is written.

use ledger::event::{Penalty, WinFrom};
use ledger::{Event, ExpectedVersion, Ledger, NewEvent, StreamId};
use readmodel::Reads;
use referee::score::Circumstances;
use referee::table::{Decided, HandKey, HandReport, TableCommand};
use referee::{BySeat, Seat};
use serde::{Deserialize, Deserializer};

use crate::app::accounts::roles::Action;
use crate::app::accounts::viewer::Official;
use crate::app::error::AppError;
use crate::app::table::{Focus, TableContext};

/// Record the next hand at a table: the hand it means (as the table page names it,
/// `<table>-g1-h3`) and the report of how it ended.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordHand {
    pub hand: String,
    #[serde(default)]
    pub hands: BySeat<Option<String>>,
    #[serde(default)]
    pub winner: Option<Seat>,
    #[serde(default)]
    pub win_from: Option<WinFrom>,
    #[serde(default)]
    pub discarder: Option<Seat>,
    /// The last tile, Kong upon Kong, an original call, a blessing: `{"last_tile": true}`.
    #[serde(default)]
    pub circumstances: Circumstances,
    #[serde(default)]
    pub penalties: Vec<Penalty<Seat>>,
}

impl RecordHand {
    /// Record `hand` as `report` states it.
    pub fn new(hand: String, report: HandReport) -> RecordHand {
        RecordHand {
            hand,
            hands: report.hands,
            winner: report.winner,
            win_from: report.win_from,
            discarder: report.discarder,
            circumstances: report.circumstances,
            penalties: report.penalties,
        }
    }

    fn report(&self) -> HandReport {
        HandReport {
            discards: Vec::new(),
            short: Vec::new(),
            hands: self.hands.clone(),
            winner: self.winner,
            win_from: self.win_from,
            discarder: self.discarder,
            circumstances: self.circumstances,
            penalties: self.penalties.clone(),
        }
    }
}

/// `Some(value)` for a field that was sent, even as `null`; absent fields stay `None`.
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

/// Each seat's hand in a correction: a seat not named keeps its recorded hand; `null` or `""`
/// takes the hand off the record (Code §106: not laid down).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HandsChange {
    #[serde(default, deserialize_with = "present")]
    pub east: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    pub south: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    pub west: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    pub north: Option<Option<String>>,
}

/// Correct a recorded hand. It starts from what was recorded: a field not sent keeps its
/// recorded value, a field sent as `null` clears it (`"discarder": null` with
/// `"win_from": "wall"` turns a discard win into a self-drawn one). A correction that changes
/// nothing is refused.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CorrectHand {
    /// The hand stream's version the corrector saw (the hand page shows it).
    pub version: u64,
    pub reason: String,
    #[serde(default)]
    pub hands: HandsChange,
    #[serde(default, deserialize_with = "present")]
    pub winner: Option<Option<Seat>>,
    #[serde(default, deserialize_with = "present")]
    pub win_from: Option<Option<WinFrom>>,
    #[serde(default, deserialize_with = "present")]
    pub discarder: Option<Option<Seat>>,
    /// Replaces the recorded circumstances as a whole; absent keeps them.
    #[serde(default)]
    pub circumstances: Option<Circumstances>,
    /// `null` clears every penalty; absent keeps them.
    #[serde(default, deserialize_with = "present")]
    pub penalties: Option<Option<Vec<Penalty<Seat>>>>,
    /// Decide and show the settlement before and after, but record nothing.
    #[serde(default)]
    pub preview: bool,
}

impl CorrectHand {
    /// A correction stating every fact (as a form does, prefilled with the record).
    pub fn stating(version: u64, reason: &str, report: HandReport, preview: bool) -> CorrectHand {
        let hand = |s: Seat| Some(report.hands[s].clone());
        CorrectHand {
            version,
            reason: reason.to_owned(),
            hands: HandsChange {
                east: hand(Seat::East),
                south: hand(Seat::South),
                west: hand(Seat::West),
                north: hand(Seat::North),
            },
            winner: Some(report.winner),
            win_from: Some(report.win_from),
            discarder: Some(report.discarder),
            circumstances: Some(report.circumstances),
            penalties: Some(Some(report.penalties)),
            preview,
        }
    }

    /// The full report: the recorded one with this correction's changes.
    pub fn apply_to(&self, mut report: HandReport) -> HandReport {
        let h = &self.hands;
        for (seat, change) in [
            (Seat::East, &h.east),
            (Seat::South, &h.south),
            (Seat::West, &h.west),
            (Seat::North, &h.north),
        ] {
            if let Some(text) = change {
                report.hands[seat] = text.clone().filter(|t| !t.trim().is_empty());
            }
        }
        if let Some(w) = self.winner {
            report.winner = w;
        }
        if let Some(w) = self.win_from {
            report.win_from = w;
        }
        if let Some(d) = self.discarder {
            report.discarder = d;
        }
        if let Some(c) = self.circumstances {
            report.circumstances = c;
        }
        if let Some(p) = &self.penalties {
            report.penalties = p.clone().unwrap_or_default();
        }
        report
    }
}

/// A correction decided but not recorded: the settlement in force and the one it would bring.
#[derive(Clone, Debug)]
pub struct CorrectionPreview {
    pub before: ledger::event::SettlementRecorded,
    pub after: ledger::event::SettlementRecorded,
}

/// A hand to record, decided but not recorded: each seat's sheet and the settlement.
#[derive(Clone, Debug)]
pub struct RecordPreview {
    pub sheets: BySeat<referee::ScoreSheet>,
    pub settlement: ledger::event::SettlementRecorded,
}

/// Decides the next hand at a table as [`record`] would, and returns its scores and settlement
/// without recording anything: the record form's "show the score and settlement" button.
pub fn preview_record(
    ledger: &Ledger,
    table: &str,
    by: &Official,
    cmd: &RecordHand,
) -> Result<RecordPreview, AppError> {
    by.require_role(Action::RecordHand)?;
    let ctx = TableContext::load(ledger, table)?;
    next_hand(ledger, &ctx, &cmd.hand)?;
    let decided = ctx.state.decide(
        &ctx.conditions,
        &TableCommand::RecordHand {
            report: cmd.report(),
        },
    )?;
    let mut sheets = None;
    let mut settlement = None;
    for d in decided {
        match d {
            Decided::Hand(_, referee::event::HandEvent::HandScored(s)) => sheets = Some(*s.sheets),
            Decided::Hand(_, referee::event::HandEvent::SettlementRecorded(s)) => {
                settlement = Some(s)
            }
            _ => {}
        }
    }
    match (sheets, settlement) {
        (Some(sheets), Some(settlement)) => Ok(RecordPreview { sheets, settlement }),
        _ => Err(AppError::internal(
            "a decided hand has no score or settlement",
        )),
    }
}

/// Records the next hand at a table. Returns the hand's stream.
pub fn record(
    ledger: &mut Ledger,
    table: &str,
    by: &Official,
    cmd: &RecordHand,
) -> Result<StreamId, AppError> {
    by.require_role(Action::RecordHand)?;
    let ctx = TableContext::load(ledger, table)?;
    let expected = next_hand(ledger, &ctx, &cmd.hand)?;
    let decided = ctx.state.decide(
        &ctx.conditions,
        &TableCommand::RecordHand {
            report: cmd.report(),
        },
    )?;
    let hand_stream = StreamId::hand(&expected)?;
    // A hand being recorded play by play is finished by the report: its result follows its
    // play in its stream.
    let version = ledger.stream_version(&hand_stream)?;
    store(ledger, &ctx, &hand_stream, version, decided, by)?;
    Ok(hand_stream)
}

/// Records the next hand at `table` play by play: its deal and every event of its play; the
/// referee replays it and scores and settles its final state (`TableCommand::RecordPlayedHand`).
pub fn record_played(
    ledger: &mut Ledger,
    table: &str,
    by: &Official,
    hand: PlayedHand,
) -> Result<StreamId, AppError> {
    let mut streams = record_played_game(ledger, table, by, vec![hand]).map_err(|(_, e)| e)?;
    streams
        .pop()
        .ok_or_else(|| AppError::internal("a recorded hand has no stream"))
}

/// Appends decided events: the table's own first (a game starting), then the hand's, each at
/// the version it was decided on. Returns the hand stream's new version.
pub(super) fn store(
    ledger: &mut Ledger,
    ctx: &TableContext,
    hand_stream: &StreamId,
    hand_version: u64,
    decided: Vec<Decided>,
    by: &Official,
) -> Result<u64, AppError> {
    store_with_ids(ledger, ctx, hand_stream, hand_version, decided, by).map(|s| s.hand_version)
}

/// What [`store_with_ids`] recorded: the hand stream's new version, the table stream's (when
/// it was written), and each decided event with the id it was recorded under.
pub(super) struct Stored {
    pub(super) hand_version: u64,
    pub(super) table_version: Option<u64>,
    pub(super) recorded: Vec<(uuid::Uuid, Decided)>,
}

/// As [`store`], and returns what it recorded, to fold into the context.
pub(super) fn store_with_ids(
    ledger: &mut Ledger,
    ctx: &TableContext,
    hand_stream: &StreamId,
    hand_version: u64,
    decided: Vec<Decided>,
    by: &Official,
) -> Result<Stored, AppError> {
    let (mut table_events, mut hand_events) = (Vec::new(), Vec::new());
    let mut recorded = Vec::with_capacity(decided.len());
    for d in decided {
        let id = uuid::Uuid::now_v7();
        match &d {
            Decided::Table(e) => table_events.push(NewEvent::with_id(id, Event::from(e.clone()))),
            Decided::Hand(_, e) => hand_events.push(NewEvent::with_id(id, Event::from(e.clone()))),
        }
        recorded.push((id, d));
    }
    let mut batches = Vec::new();
    let wrote_table = !table_events.is_empty();
    if wrote_table {
        // The table's stream at the version the table was loaded at: a game started by someone
        // else since is a conflict, like a hand recorded by someone else.
        let stream = StreamId::table(ctx.table.table.as_str())?;
        batches.push((
            stream,
            ExpectedVersion::Exact(ctx.table_version),
            table_events,
        ));
    }
    batches.push((
        hand_stream.clone(),
        ExpectedVersion::Exact(hand_version),
        hand_events,
    ));
    // One transaction: a game never starts without its hand, nor a hand without its game.
    let appended = ledger.append_all(batches, &by.id)?;
    Ok(Stored {
        hand_version: appended.last().map_or(hand_version, |a| a.stream_version),
        table_version: wrote_table
            .then(|| appended.first().map(|a| a.stream_version))
            .flatten(),
        recorded,
    })
}

/// One hand of a game recorded play by play ([`record_played_game`]).
pub struct PlayedHand {
    pub dice: Vec<u8>,
    pub deal: referee::event::Deal,
    pub events: Vec<referee::event::HandEvent>,
    /// The seat the record says dealt, checked against the table's rotation.
    pub east: Option<Seat>,
}

/// Records `hands` at `table`, in order, each as [`record_played`] does, loading the table
/// once and folding each hand into it after it is stored. Returns the hands' streams; on a
/// refusal, the index of the refused hand and why (the hands before it stay recorded).
pub fn record_played_game(
    ledger: &mut Ledger,
    table: &str,
    by: &Official,
    hands: Vec<PlayedHand>,
) -> Result<Vec<StreamId>, (usize, AppError)> {
    let mut streams = Vec::with_capacity(hands.len());
    by.require_role(Action::RecordHand).map_err(|e| (0, e))?;
    let mut ctx = TableContext::load(ledger, table).map_err(|e| (0, e))?;
    for (i, h) in hands.into_iter().enumerate() {
        let fail = |e: AppError| (i, e);
        let expected = ctx.next_hand_id();
        let decision = ctx
            .state
            .decision(
                &ctx.conditions,
                &TableCommand::RecordPlayedHand {
                    dice: h.dice,
                    deal: h.deal,
                    events: h.events,
                    east: h.east,
                },
            )
            .map_err(|v| fail(v.into()))?;
        let hand_stream = StreamId::hand(&expected).map_err(|e| fail(e.into()))?;
        let stored = store_with_ids(ledger, &ctx, &hand_stream, 0, decision.events.clone(), by)
            .map_err(fail)?;
        if let Some(v) = stored.table_version {
            ctx.table_version = v;
        }
        // The table takes the decision's replay of the hand: its play is not replayed again.
        let ids: Vec<_> = stored.recorded.iter().map(|(id, _)| *id).collect();
        ctx.state
            .apply_decision(&ids, decision)
            .map_err(|e| fail(AppError::internal(format!("table `{table}`: {e}"))))?;
        streams.push(hand_stream);
    }
    Ok(streams)
}

/// The hand a stream id names at its table, and the loaded table: with `last`, loaded for its
/// next event (the hand in play is the table's last); otherwise for this hand, in full.
pub(super) fn hand_at(
    ledger: &Ledger,
    hand: &str,
    last: bool,
) -> Result<(StreamId, HandKey, TableContext), AppError> {
    let missing = || AppError::not_found(format!("no hand `{hand}`"));
    let stream = StreamId::hand(hand).map_err(|_| missing())?;
    let record = ledger.hand_record(&stream)?.ok_or_else(missing)?;
    let key = HandKey {
        game: record.game,
        hand: record.hand,
    };
    let focus = if last { Focus::Last } else { Focus::Hand(key) };
    let ctx = TableContext::load_focused(ledger, &record.table, focus)?;
    Ok((stream, key, ctx))
}

/// The table's next hand, which `requested` must name: a conflict otherwise (someone recorded
/// it first, or the page was stale).
pub(super) fn next_hand(
    ledger: &Ledger,
    ctx: &TableContext,
    requested: &str,
) -> Result<String, AppError> {
    let expected = ctx.next_hand_id();
    if requested.trim() == expected {
        return Ok(expected);
    }
    let already = StreamId::hand(requested.trim())
        .ok()
        .map(|s| ledger.stream_version(&s))
        .transpose()?
        .unwrap_or(0)
        > 0;
    Err(AppError::conflict(if already {
        format!(
            "hand `{}` is already recorded (someone else recorded it first); the next hand at this table is `{expected}`: reload and check before recording again",
            requested.trim()
        )
    } else {
        format!(
            "the next hand at this table is `{expected}`, not `{}`: reload the table page",
            requested.trim()
        )
    }))
}

/// The hand stream's version, when it is still `seen`; a conflict otherwise (someone wrote
/// since the page was loaded), saying what to check before `doing` it again.
pub(super) fn unchanged_since(
    ledger: &Ledger,
    stream: &StreamId,
    seen: u64,
    doing: &str,
) -> Result<u64, AppError> {
    let now = ledger.stream_version(stream)?;
    if now != seen {
        return Err(AppError::conflict(format!(
            "the hand changed since you loaded it (version {now} now, you saw {seen}): reload and check before {doing}"
        )));
    }
    Ok(now)
}

/// What a correction starts from: the report of the facts in force.
pub fn recorded_report(ledger: &Ledger, hand: &str) -> Result<HandReport, AppError> {
    let (_, key, ctx) = hand_at(ledger, hand, false)?;
    let facts = ctx
        .state
        .hands
        .get(&key)
        .and_then(|h| h.facts())
        .ok_or_else(|| AppError::unprocessable("the hand has no result in force to correct"))?;
    Ok(HandReport::from_facts(&facts))
}

/// Corrects a recorded hand (or, with `preview`, decides the correction and returns the
/// settlement before and after without recording it).
pub fn correct(
    ledger: &mut Ledger,
    hand: &str,
    by: &Official,
    cmd: &CorrectHand,
) -> Result<(StreamId, Option<CorrectionPreview>), AppError> {
    by.require_role(Action::CorrectHand)?;
    let (stream, key, ctx) = hand_at(ledger, hand, false)?;
    let current = unchanged_since(ledger, &stream, cmd.version, "correcting")?;
    let state =
        ctx.state.hands.get(&key).ok_or_else(|| {
            AppError::internal(format!("hand `{hand}` is not in its table's record"))
        })?;
    let recorded = state
        .facts()
        .as_ref()
        .map(HandReport::from_facts)
        .unwrap_or_default();
    let decided = ctx.state.decide(
        &ctx.conditions,
        &TableCommand::CorrectHand {
            hand: key,
            reason: cmd.reason.clone(),
            report: cmd.apply_to(recorded),
        },
    )?;
    if cmd.preview {
        let after = decided.iter().find_map(|d| match d {
            Decided::Hand(_, referee::event::HandEvent::SettlementRecorded(s)) => Some(s.clone()),
            _ => None,
        });
        let before = state.settlement().map(|(_, s)| s.clone());
        let (Some(before), Some(after)) = (before, after) else {
            return Err(AppError::internal("a decided correction has no settlement"));
        };
        return Ok((stream, Some(CorrectionPreview { before, after })));
    }
    store(ledger, &ctx, &stream, current, decided, by)?;
    Ok((stream, None))
}
