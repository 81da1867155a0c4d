//! Disputes and rulings on a hand: raising a dispute, ruling on it (the engine's finding
//! accepted or overruled), and appeals. The rules of it are the referee crate's
//! (`referee::table::Ruling`, `referee::adjudicate::findings`); this module reads what they
//! need from the ledger, turns a form or a JSON body into a ruling, and stores what the table
//! decides.
//!
//! The engine's findings are recomputed here, never taken from the request: a ruling names a
//! finding by its place in the list, and the finding is recorded as the engine gives it. The
//! penalty a finding brings is the ruleset's: accepting it orders that penalty unless the
//! settlement in force already holds it (a played hand settles the Code's cannons itself);
//! overruling it lifts it if it is in force.

use ledger::{Ledger, StreamId};
use referee::adjudicate::{findings, Finding};
use referee::adjudicate::{Replay, Replayed};
use referee::event::{Decision, DisputeRaised, HandEvent, RuledFinding, RulingSuperseded};
use referee::play::PlayRules;
use referee::position::Position;
use referee::settle::Penalty;
use referee::table::{Decided, Ruling, TableCommand};
use referee::Seat;
use serde::Deserialize;
use uuid::Uuid;

use super::hand::{hand_at, store_with_ids, unchanged_since};
use crate::app::accounts::roles::Action;
use crate::app::accounts::viewer::Official;
use crate::app::error::AppError;
use crate::app::queries::play::StoredPlay;

/// Raise a dispute about a hand.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RaiseDispute {
    /// The hand stream's version the dispute was written against.
    pub version: u64,
    /// The seat raising it, when a player did.
    #[serde(default)]
    pub raised_by: Option<Seat>,
    /// The event of the play disputed, by its number (the start is 0).
    #[serde(default)]
    pub event: Option<usize>,
    pub description: String,
    /// The table as the referee found it, in the position notation, with the acts disputed.
    #[serde(default)]
    pub position: Option<String>,
}

/// Rule on a dispute.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rule {
    pub version: u64,
    /// The engine's finding ruled on, by its place in the dispute's findings (from 0).
    #[serde(default)]
    pub finding: Option<usize>,
    pub decision: Decision,
    pub reason: String,
    /// The sections cited; a finding's own citations when left empty.
    #[serde(default)]
    pub sections: Vec<String>,
    /// Penalties ordered beyond the finding's own (priced by the ruleset, or agreed).
    #[serde(default)]
    pub penalties: Vec<Penalty<Seat>>,
    /// The hand is abandoned (as a finding that abandons it already says when accepted).
    #[serde(default)]
    pub abandons: bool,
    /// Decide and show the settlement before and after, recording nothing.
    #[serde(default)]
    pub preview: bool,
}

/// An appeal: a ruling superseded, and replaced when `replacement` is given.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Appeal {
    pub version: u64,
    pub reason: String,
    #[serde(default)]
    pub replacement: Option<Rule>,
}

/// The settlement before and after a ruling (the nets by seat as drawn), when it moves one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulingPreview {
    /// East seat to North seat.
    pub before: Option<[i64; 4]>,
    pub after: Option<[i64; 4]>,
    /// The ruling ends the play of a hand still in play, or waits for its end.
    pub waits: bool,
}

/// The engine's findings on a hand: from the position the dispute rests on, when it has one;
/// else from the hand's recorded play (none for a hand recorded only at its end).
pub fn findings_for(
    ledger: &Ledger,
    hand: &str,
    position: Option<&str>,
) -> Result<Vec<Finding>, AppError> {
    let (_, _, ctx) = hand_at(ledger, hand, false)?;
    Ok(match replayed_for(ledger, hand, &ctx, position)? {
        Some(replayed) => findings(&replayed, &ctx.conditions.ruleset),
        None => Vec::new(),
    })
}

/// The hand replayed from the position (when given) or from its recorded play; `None` for a
/// hand recorded only at its end.
fn replayed_for(
    ledger: &Ledger,
    hand: &str,
    ctx: &crate::app::table::TableContext,
    position: Option<&str>,
) -> Result<Option<Replayed>, AppError> {
    let play_rules = PlayRules::of(&ctx.conditions.ruleset);
    Ok(Some(match position {
        Some(line) => {
            let p: Position = line
                .parse()
                .map_err(|e| AppError::unprocessable(format!("the dispute's position: {e}")))?;
            Replay::replay_from_position(play_rules, &p).map_err(|e| {
                AppError::unprocessable(format!("the dispute's position: {}", e.kind))
            })?
        }
        None => match StoredPlay::load(ledger, hand)? {
            Some(stored) => Replay::replay(play_rules, &stored.started, &stored.events)
                .map_err(|e| AppError::internal(format!("hand `{hand}`: {e}")))?,
            None => return Ok(None),
        },
    }))
}

/// A dispute raised on a hand, with what the page shows of it.
pub struct DisputeCase {
    pub dispute: DisputeRaised,
    /// The hand's disputes and rulings.
    pub rulings: referee::table::Rulings,
    /// The hand replayed from the dispute's position, or from its recorded play (`None` for a
    /// hand recorded only at its end).
    pub replayed: Option<Replayed>,
    /// The engine's findings on that replay.
    pub findings: Vec<Finding>,
}

/// Dispute `id` about hand `hand`: the table loaded once, the hand replayed once.
pub fn dispute_case(ledger: &Ledger, hand: &str, id: Uuid) -> Result<DisputeCase, AppError> {
    let (_, key, ctx) = hand_at(ledger, hand, false)?;
    let rulings = ctx
        .state
        .hands
        .get(&key)
        .map(|h| h.rulings().clone())
        .unwrap_or_default();
    let dispute = rulings
        .disputes
        .iter()
        .find(|(i, _)| *i == id)
        .map(|(_, d)| d.clone())
        .ok_or_else(|| AppError::not_found(format!("no dispute {id} about hand `{hand}`")))?;
    let replayed = replayed_for(ledger, hand, &ctx, dispute.position.as_deref())?;
    let findings = replayed
        .as_ref()
        .map(|r| findings(r, &ctx.conditions.ruleset))
        .unwrap_or_default();
    Ok(DisputeCase {
        dispute,
        rulings,
        replayed,
        findings,
    })
}

/// Raises a dispute; returns the hand's stream and the dispute's event id.
pub fn raise(
    ledger: &mut Ledger,
    hand: &str,
    by: &Official,
    cmd: &RaiseDispute,
) -> Result<(StreamId, Uuid), AppError> {
    by.require_role(Action::Rule)?;
    let (stream, key, ctx) = hand_at(ledger, hand, false)?;
    unchanged_since(ledger, &stream, cmd.version, "ruling")?;
    let about = match cmd.event {
        Some(n) => Some(play_event_id(ledger, &stream, n)?),
        None => None,
    };
    let position = cmd
        .position
        .as_deref()
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(str::to_owned);
    if let Some(line) = &position {
        let problems = ctx.state.dispute_position_problems(key, line);
        if !problems.is_empty() {
            return Err(AppError::violations(problems));
        }
    }
    let decided = ctx.state.decide(
        &ctx.conditions,
        &TableCommand::RaiseDispute {
            hand: key,
            dispute: DisputeRaised {
                raised_by: cmd.raised_by,
                official: by.id.as_str().to_owned(),
                about,
                description: cmd.description.clone(),
                position,
            },
        },
    )?;
    let stored = store_with_ids(ledger, &ctx, &stream, cmd.version, decided, by)?;
    let id = stored
        .recorded
        .iter()
        .find(|(_, d)| matches!(d, Decided::Hand(_, HandEvent::DisputeRaised(_))))
        .map(|(id, _)| *id)
        .ok_or_else(|| AppError::internal("a raised dispute was not recorded"))?;
    Ok((stream, id))
}

/// Rules on dispute `dispute` of hand `hand` (or previews the ruling).
pub fn rule(
    ledger: &mut Ledger,
    hand: &str,
    dispute: Uuid,
    by: &Official,
    cmd: &Rule,
) -> Result<(StreamId, Option<RulingPreview>), AppError> {
    by.require_role(Action::Rule)?;
    let (stream, key, ctx) = hand_at(ledger, hand, false)?;
    unchanged_since(ledger, &stream, cmd.version, "ruling")?;
    let ruling = ruling_of(ledger, hand, &ctx, key, dispute, by, cmd)?;
    let decided = ctx
        .state
        .decide(&ctx.conditions, &TableCommand::Rule { hand: key, ruling })?;
    finish(
        ledger,
        &ctx,
        key,
        &stream,
        cmd.version,
        decided,
        by,
        cmd.preview,
    )
}

/// Supersedes ruling `ruling` of hand `hand` on appeal, replacing it if asked.
pub fn appeal(
    ledger: &mut Ledger,
    hand: &str,
    ruling: Uuid,
    by: &Official,
    cmd: &Appeal,
) -> Result<(StreamId, Option<RulingPreview>), AppError> {
    by.require_role(Action::Rule)?;
    let (stream, key, ctx) = hand_at(ledger, hand, false)?;
    unchanged_since(ledger, &stream, cmd.version, "ruling")?;
    let state =
        ctx.state.hands.get(&key).ok_or_else(|| {
            AppError::internal(format!("hand `{hand}` is not in its table's record"))
        })?;
    let replacement = match &cmd.replacement {
        Some(r) => {
            let dispute = state
                .rulings()
                .issued
                .iter()
                .find(|(id, _, _)| *id == ruling)
                .and_then(|(_, r, _)| r.dispute)
                .ok_or_else(|| {
                    AppError::not_found(format!("no ruling {ruling} on hand `{hand}`"))
                })?;
            Some(ruling_of(ledger, hand, &ctx, key, dispute, by, r)?)
        }
        None => None,
    };
    let preview = cmd.replacement.as_ref().is_some_and(|r| r.preview);
    let decided = ctx.state.decide(
        &ctx.conditions,
        &TableCommand::Appeal {
            hand: key,
            superseded: RulingSuperseded {
                ruling,
                official: by.id.as_str().to_owned(),
                reason: cmd.reason.clone(),
            },
            replacement,
        },
    )?;
    finish(
        ledger,
        &ctx,
        key,
        &stream,
        cmd.version,
        decided,
        by,
        preview,
    )
}

/// The ruling a command asks for, with the finding it names as the engine gives it now.
fn ruling_of(
    ledger: &Ledger,
    hand: &str,
    ctx: &crate::app::table::TableContext,
    key: referee::table::HandKey,
    dispute: Uuid,
    by: &Official,
    cmd: &Rule,
) -> Result<Ruling, AppError> {
    let state =
        ctx.state.hands.get(&key).ok_or_else(|| {
            AppError::internal(format!("hand `{hand}` is not in its table's record"))
        })?;
    let position = state
        .rulings()
        .disputes
        .iter()
        .find(|(id, _)| *id == dispute)
        .map(|(_, d)| d.position.clone())
        .ok_or_else(|| AppError::not_found(format!("no dispute {dispute} about hand `{hand}`")))?;
    let found = replayed_for(ledger, hand, ctx, position.as_deref())?
        .map(|r| findings(&r, &ctx.conditions.ruleset))
        .unwrap_or_default();
    let finding = match cmd.finding {
        Some(i) => Some(found.get(i).ok_or_else(|| {
            AppError::unprocessable(format!(
                "there is no finding {i}: the engine finds {} on this dispute",
                found.len()
            ))
        })?),
        None => None,
    };
    let in_force = state.facts().map(|f| f.penalties).unwrap_or_default();
    let mut penalties = cmd.penalties.clone();
    let mut withdrawn = Vec::new();
    let mut abandons = cmd.abandons;
    if let Some(p) = finding.and_then(Finding::penalty) {
        match cmd.decision {
            Decision::Accepted => {
                abandons |= p.abandons_hand(Seat::East).is_some();
                if !in_force.contains(&p) {
                    penalties.insert(0, p);
                }
            }
            Decision::Overruled => {
                if in_force.contains(&p) {
                    withdrawn.push(p);
                }
            }
        }
    }
    let sections = match (cmd.sections.iter().any(|s| !s.trim().is_empty()), finding) {
        (false, Some(f)) => f.citations().into_iter().map(str::to_owned).collect(),
        _ => cmd.sections.clone(),
    };
    Ok(Ruling {
        dispute,
        official: by.id.as_str().to_owned(),
        finding: finding.map(|f| RuledFinding {
            kind: f.kind().to_owned(),
            offender: f.offender(),
            events: f.events(),
            citations: f.citations().into_iter().map(str::to_owned).collect(),
            text: f.to_string(),
        }),
        decision: cmd.decision,
        reason: cmd.reason.clone(),
        sections,
        penalties,
        withdrawn,
        abandons,
    })
}

/// Stores what the table decided, or with `preview` shows the settlement before and after.
#[allow(clippy::too_many_arguments)]
fn finish(
    ledger: &mut Ledger,
    ctx: &crate::app::table::TableContext,
    key: referee::table::HandKey,
    stream: &StreamId,
    version: u64,
    decided: Vec<Decided>,
    by: &Official,
    preview: bool,
) -> Result<(StreamId, Option<RulingPreview>), AppError> {
    if preview {
        let before = ctx
            .state
            .hands
            .get(&key)
            .and_then(|h| h.settlement())
            .map(|(_, s)| s.nets.into_array());
        let after = decided.iter().find_map(|d| match d {
            Decided::Hand(_, HandEvent::SettlementRecorded(s)) => Some(s.nets.into_array()),
            _ => None,
        });
        let waits = after.is_none();
        return Ok((
            stream.clone(),
            Some(RulingPreview {
                before,
                after: after.or(before),
                waits,
            }),
        ));
    }
    store_with_ids(ledger, ctx, stream, version, decided, by)?;
    Ok((stream.clone(), None))
}

/// The id of event `n` of a hand's play (the start is 0), as the replay numbers them.
fn play_event_id(ledger: &Ledger, stream: &StreamId, n: usize) -> Result<Uuid, AppError> {
    let events = play_event_ids(ledger, stream)?;
    events.get(n).copied().ok_or_else(|| {
        AppError::unprocessable(format!(
            "the hand's play has no event {n} (it has {})",
            events.len()
        ))
    })
}

/// The ids of a hand's start and the events of its play, in the replay's numbering.
fn play_event_ids(ledger: &Ledger, stream: &StreamId) -> Result<Vec<Uuid>, AppError> {
    let mut play = referee::event::PlayPicker::default();
    let mut start = None;
    for e in ledger.read_stream(stream, 1)? {
        let event_id = e.event_id;
        match HandEvent::try_from(e.event) {
            Ok(HandEvent::HandStarted(_)) => start = start.or(Some(event_id)),
            Ok(h) => {
                play.push(event_id, h);
            }
            Err(_) => {}
        }
    }
    Ok(start
        .into_iter()
        .chain(play.finish().into_iter().map(|(id, _)| id))
        .collect())
}

/// The number of event `id` in a hand's play (the start is 0), as the replay numbers them;
/// `None` when it is not an event of the play.
pub fn play_event_number(
    ledger: &Ledger,
    stream: &StreamId,
    id: Uuid,
) -> Result<Option<usize>, AppError> {
    Ok(play_event_ids(ledger, stream)?
        .iter()
        .position(|e| *e == id))
}

/// The dispute ruling `ruling` of hand `hand` ruled on.
pub fn dispute_of_ruling(ledger: &Ledger, hand: &str, ruling: Uuid) -> Result<Uuid, AppError> {
    let (_, key, ctx) = hand_at(ledger, hand, false)?;
    ctx.state
        .hands
        .get(&key)
        .and_then(|s| {
            s.rulings()
                .issued
                .iter()
                .find(|(id, _, _)| *id == ruling)
                .and_then(|(_, r, _)| r.dispute)
        })
        .ok_or_else(|| AppError::not_found(format!("no ruling {ruling} on hand `{hand}`")))
}
