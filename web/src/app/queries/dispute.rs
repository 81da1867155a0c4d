//! The dispute page's view: the table at the moment disputed, the engine's findings with their
//! reasoning and citations, the rulings made (standing and superseded), and the settlement.

use ledger::{Ledger, StreamId};
use readmodel::Reads;
use referee::adjudicate::Finding;
use referee::event::{Decision, RulingIssued};
use referee::Seat;
use serde::Serialize;
use uuid::Uuid;

use super::common::SeatNames;
use super::play::{view as play_view, PlayView, Shown, StoredPlay};
use crate::app::commands::ruling::{dispute_case, DisputeCase};
use crate::app::error::AppError;

/// One finding of the engine, as the page lists it.
#[derive(Clone, Debug, Serialize)]
pub struct FindingView {
    /// Its place in the list: what a ruling names.
    pub index: usize,
    pub kind: &'static str,
    /// The player at fault, with his seat: "Ben (South seat)".
    pub offender: Option<String>,
    pub events: Vec<usize>,
    pub citations: Vec<&'static str>,
    pub text: String,
    /// The penalty it brings, in words, and whether the settlement in force holds it.
    pub penalty: Option<String>,
    pub in_force: bool,
}

/// A ruling made on the dispute.
#[derive(Clone, Debug, Serialize)]
pub struct RulingView {
    pub id: String,
    pub official: String,
    pub decision: &'static str,
    pub finding: Option<String>,
    pub reason: String,
    pub sections: String,
    pub penalties: Vec<String>,
    pub withdrawn: Vec<String>,
    pub abandons: bool,
    /// Superseded on appeal.
    pub superseded: bool,
}

/// Everything the dispute page shows.
#[derive(Clone, Debug, Serialize)]
pub struct DisputeView {
    pub hand: String,
    pub id: String,
    pub version: u64,
    /// Who raised it, with his seat: "Ann (East seat)".
    pub raised_by: Option<String>,
    pub official: String,
    pub description: String,
    pub position: Option<String>,
    /// The table at the moment disputed (or at the end, or at the position).
    pub table: Option<PlayView>,
    pub findings: Vec<FindingView>,
    pub rulings: Vec<RulingView>,
    /// A ruling stands: a new one comes by appeal.
    pub ruled: bool,
    /// The nets in force, East seat to North seat.
    pub nets: Option<[i64; 4]>,
    /// Each seat's player with the seat, East seat to North seat.
    pub seat_names: Vec<String>,
}

/// The view of dispute `id` about hand `hand`.
pub fn view(ledger: &Ledger, hand: &str, id: Uuid) -> Result<DisputeView, AppError> {
    let DisputeCase {
        dispute: d,
        rulings,
        replayed,
        findings: found,
    } = dispute_case(ledger, hand, id)?;
    let stream =
        StreamId::hand(hand).map_err(|_| AppError::not_found(format!("no hand `{hand}`")))?;
    let version = ledger.stream_version(&stream)?;
    let record = ledger
        .hand_record(&stream)?
        .ok_or_else(|| AppError::not_found(format!("no hand `{hand}`")))?;
    let in_force: Vec<_> = record
        .result
        .scored()
        .map(|s| s.penalties.clone())
        .unwrap_or_default();
    let names = SeatNames::of(ledger, &record)?;
    let findings = found
        .iter()
        .enumerate()
        .map(|(index, f)| finding_view(index, f, &in_force, &names))
        .collect();
    let table = table_at(ledger, hand, &stream, &d, replayed)?;
    let issued: Vec<RulingView> = rulings
        .issued
        .iter()
        .filter(|(_, r, _)| r.dispute == Some(id))
        .map(|(rid, r, by)| ruling_view(*rid, r, by.is_some(), &names))
        .collect();
    Ok(DisputeView {
        hand: hand.to_owned(),
        id: id.to_string(),
        version,
        raised_by: d.raised_by.map(|s| names.with_seat(s)),
        official: d.official,
        description: d.description,
        position: d.position,
        table,
        findings,
        ruled: rulings.on(id).is_some(),
        rulings: issued,
        nets: record.nets().map(|n| n.into_array()),
        seat_names: Seat::ALL.iter().map(|&s| names.with_seat(s)).collect(),
    })
}

fn finding_view(
    index: usize,
    f: &Finding,
    in_force: &[referee::settle::Penalty<Seat>],
    names: &SeatNames,
) -> FindingView {
    let penalty = f.penalty();
    FindingView {
        index,
        kind: f.kind(),
        offender: f.offender().map(|s| names.with_seat(s)),
        events: f.events(),
        citations: f.citations(),
        text: f.to_string(),
        in_force: penalty.as_ref().is_some_and(|p| in_force.contains(p)),
        penalty: penalty
            .as_ref()
            .map(|p| p.describe(&|s| names.with_seat(s))),
    }
}

fn ruling_view(id: Uuid, r: &RulingIssued, superseded: bool, names: &SeatNames) -> RulingView {
    let seat_named = |s: Seat| names.with_seat(s);
    RulingView {
        id: id.to_string(),
        official: r.official.clone(),
        decision: match r.decision {
            Decision::Accepted => "accepted",
            Decision::Overruled => "overruled",
        },
        finding: r
            .finding
            .as_ref()
            .map(|f| format!("{}: {}", f.kind, f.text)),
        reason: r.reason.clone(),
        sections: r.sections.join(", "),
        penalties: r
            .penalties
            .iter()
            .map(|p| p.describe(&seat_named))
            .collect(),
        withdrawn: r
            .withdrawn
            .iter()
            .map(|p| p.describe(&seat_named))
            .collect(),
        abandons: r.abandons,
        superseded,
    }
}

/// The table as the dispute concerns it: at the position it rests on; else just after the
/// event disputed, or at the end of the recorded play; none for a hand recorded at its end.
fn table_at(
    ledger: &Ledger,
    hand: &str,
    stream: &StreamId,
    d: &referee::event::DisputeRaised,
    replayed: Option<referee::adjudicate::Replayed>,
) -> Result<Option<PlayView>, AppError> {
    if d.position.is_some() {
        let Some(replayed) = replayed else {
            return Ok(None);
        };
        let last = replayed.replay.events().saturating_sub(1);
        return Ok(Some(play_view(
            hand,
            &replayed.replay,
            last,
            last,
            0,
            "the position disputed, and its acts".to_owned(),
            Vec::new(),
            replayed.refused.map(|e| e.to_string()),
            Shown::All,
        )));
    }
    let Some(stored) = StoredPlay::load(ledger, hand)? else {
        return Ok(None);
    };
    let at = match d.about {
        Some(event) => crate::app::commands::ruling::play_event_number(ledger, stream, event)?,
        None => None,
    };
    stored.at(at, Shown::All).map(Some)
}
