//! Recording a hand play by play, one action per request: starting the hand, then each event
//! of its play with the version of the hand's stream it was decided on.
//!
//! Whether an event may happen is the referee's (`referee::table`, which replays the hand in
//! play with `referee::play`): an inconsistent event is refused with its reason and nothing is
//! written; an irregular one is recorded and its irregularities are answered; the event that
//! ends the hand brings the hands laid down, the score and the settlement, decided by the same
//! code as a hand recorded at its end.

use ledger::event::{Deal, HandEvent};
use ledger::{Event, Ledger, StreamId};
use referee::adjudicate::Replay;
use referee::play::Applied;
use referee::table::{Decided, TableCommand};
use serde::Deserialize;

use super::hand::store_with_ids;
use crate::app::accounts::roles::Action;
use crate::app::accounts::viewer::Official;
use crate::app::error::AppError;
use crate::app::queries::play::StoredPlay;
use crate::app::table::TableContext;
use crate::app::table_cache::{locate, TableCache};

/// Start the next hand at a table play by play.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartHand {
    /// The hand it means, as the table page names it (`<table>-g1-h3`).
    pub hand: String,
    /// The dice thrown for the breach (Code §19–20), if recorded.
    #[serde(default)]
    pub dice: Vec<u8>,
    /// What is known of the deal: `{"known": "unknown"}` (the default), the whole wall in
    /// drawing order, or each seat's dealt tiles.
    #[serde(default = "unknown")]
    pub deal: Deal,
}

fn unknown() -> Deal {
    Deal::Unknown
}

/// One event of the play, decided on `version` of the hand's stream.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayEvent {
    pub version: u64,
    /// As the ledger writes it: `{"type": "tile_discarded", "data": {...}}`.
    pub event: Event,
    /// Answer with what this seat could see (a seat's own tablet); an official sees all.
    #[serde(default)]
    pub seat: Option<referee::Seat>,
    /// With the event that ends the hand: the hands as the players laid them down, grouped
    /// as each scores them (Code §104–105), `[{"seat": "north", "hand": "(123m)(55p) … =5p"}]`.
    /// A seat not named lays its hand down as it lies.
    #[serde(default)]
    pub laid_down: Vec<ledger::event::HandExposed>,
}

/// A hand's play after a write: its stream, version, replayed state, and how the event applied.
pub struct Played {
    pub stream: StreamId,
    pub version: u64,
    pub play: Replay,
    pub applied: Applied,
    /// The event recorded (for a start, the hand's start).
    pub event: HandEvent,
    /// The request was one already recorded, sent again (a lost answer, a second tap): nothing
    /// new was recorded, and the hand is answered as it now stands.
    pub retried: bool,
}

/// Starts the next hand at `table` play by play.
pub fn start(
    ledger: &mut Ledger,
    tables: &mut TableCache,
    table: &str,
    by: &Official,
    cmd: &StartHand,
) -> Result<Played, AppError> {
    by.require_role(Action::RecordHand)?;
    // A table starting a hand is folded afresh after it (its read model moves with the start).
    tables.forget(table);
    let ctx = TableContext::load(ledger, table)?;
    let expected = super::hand::next_hand(ledger, &ctx, &cmd.hand)?;
    let decided = ctx.state.decide(
        &ctx.conditions,
        &TableCommand::StartHand {
            dice: cmd.dice.clone(),
            deal: cmd.deal.clone(),
        },
    )?;
    let started = decided.iter().find_map(|d| match d {
        Decided::Hand(_, HandEvent::HandStarted(s)) => Some(s.clone()),
        _ => None,
    });
    let (play, event) = started
        .and_then(|s| {
            let play = Replay::start(ctx.state.play_rules.clone(), &s).ok()?;
            Some((play, HandEvent::HandStarted(s)))
        })
        .ok_or_else(|| AppError::internal("a decided start has no hand that can be dealt"))?;
    let stream = StreamId::hand(&expected)?;
    let version = super::hand::store(ledger, &ctx, &stream, 0, decided, by)?;
    Ok(Played {
        stream,
        version,
        play,
        applied: Applied::Legal,
        event,
        retried: false,
    })
}

/// Records one event of the play of `hand`, deciding it on the table kept folded in `tables`
/// (folded afresh when a stream it was folded from has moved) and keeping the table as the
/// decision leaves it: the event is applied once, by the decision.
pub fn record(
    ledger: &mut Ledger,
    tables: &mut TableCache,
    hand: &str,
    by: &Official,
    cmd: &PlayEvent,
) -> Result<Played, AppError> {
    by.require_role(Action::RecordHand)?;
    let event = HandEvent::try_from(cmd.event.clone()).map_err(|_| {
        AppError::bad_request(format!(
            "`{}` is not an event of a hand",
            cmd.event.event_type()
        ))
    })?;
    let (stream, key, table) = locate(ledger, hand)?;
    let current = ledger.stream_version(&stream)?;
    if cmd.version < current {
        if let Some(again) = retried(ledger, &stream, hand, by, cmd, &event)? {
            return Ok(again);
        }
    }
    if cmd.version != current {
        return Err(AppError::conflict(format!(
            "the hand changed since you saw it (version {current} now, you sent {}): see the current state and decide again",
            cmd.version
        )));
    }
    let ctx = tables.load(ledger, &table)?;
    let decision = ctx.state.decision(
        &ctx.conditions,
        &TableCommand::Play {
            hand: key,
            event: event.clone(),
            laid_down: cmd.laid_down.clone(),
        },
    )?;
    let (play, applied) = match &decision.played {
        Some(p) => ((*p.replay).clone(), p.applied.clone()),
        None => {
            return Err(AppError::internal(
                "a decided event of the play has no hand in play",
            ))
        }
    };
    let stored = match store_with_ids(ledger, ctx, &stream, current, decision.events.clone(), by) {
        Ok(stored) => stored,
        Err(e) => {
            tables.forget(&table);
            return Err(e);
        }
    };
    // The table takes the decision's own replay: the event is not applied again.
    let ids: Vec<_> = stored.recorded.iter().map(|(id, _)| *id).collect();
    let kept = match ctx.state.apply_decision(&ids, decision) {
        Ok(()) => ctx.state.in_play().is_some(),
        Err(e) => {
            tracing::warn!(table = %table, "a recorded decision did not fold: {e}");
            false
        }
    };
    if kept {
        if let Some(v) = stored.table_version {
            ctx.table_version = v;
            ctx.folded_from.table = v;
        }
        ctx.folded_from.in_play = Some((stream.as_str().to_owned(), stored.hand_version));
    } else {
        // The hand is over (the read model's positions move with it), or the fold failed.
        tables.forget(&table);
    }
    Ok(Played {
        stream,
        version: stored.hand_version,
        play,
        applied,
        event,
        retried: false,
    })
}

/// The answer to `cmd` when it was recorded already: the same official's same event decided on
/// the same version is one action, sent twice (two different actions cannot both be decided on
/// one version: the second is stale). Nothing is recorded again; the answer is the hand as it
/// now stands, with how the event applied when it was recorded.
fn retried(
    ledger: &Ledger,
    stream: &StreamId,
    hand: &str,
    by: &Official,
    cmd: &PlayEvent,
    event: &HandEvent,
) -> Result<Option<Played>, AppError> {
    let Some(next) = ledger
        .read_stream(stream, cmd.version + 1)?
        .into_iter()
        .next()
    else {
        return Ok(None);
    };
    let same = next.version == cmd.version + 1
        && next.recorded_by == by.id
        && HandEvent::try_from(next.event).is_ok_and(|e| &e == event);
    if !same {
        return Ok(None);
    }
    let Some(stored) = StoredPlay::load(ledger, hand)? else {
        return Ok(None);
    };
    let (_, replayed) = stored.replayed_at(None)?;
    let n = super::ruling::play_event_number(ledger, stream, next.event_id)?;
    let found: Vec<_> = replayed
        .irregular
        .iter()
        .filter(|(at, _)| Some(*at) == n)
        .map(|(_, i)| i.clone())
        .collect();
    Ok(Some(Played {
        stream: stream.clone(),
        version: stored.version,
        play: replayed.replay,
        applied: if found.is_empty() {
            Applied::Legal
        } else {
            Applied::Irregular(found)
        },
        event: event.clone(),
        retried: true,
    }))
}
