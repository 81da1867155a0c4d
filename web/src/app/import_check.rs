//! An import cannot forge history: an exported stream is checked against the ledger it is
//! imported into as a live write would be, before anything is written.
//!
//! The ledger's own import verifies that the file is what some ledger recorded (hashes, links,
//! the vocabulary, a settlement that sums to zero). That is not enough: a hand made up with a
//! valid hash chain — recorded by an official who does not exist, dated years before its table
//! was formed, placed in a game the table has not reached, paying far past the ruleset's limit
//! — verifies perfectly. What only the service knows is checked here, and any problem refuses
//! the whole import, naming the line and why:
//!
//! - every event is recorded by an official of this ledger;
//! - no event is dated in the future, a stream's events are in order of time, and a hand is not
//!   dated before its table was formed;
//! - a new hand is its table's next hand: the game and hand the rotation gives, with the seat
//!   the rotation makes East and the prevailing wind (Code §11–14); the table has no hand in
//!   play;
//! - the hand's events fold into the table as recorded ones do, and its settlement in force is
//!   the ruleset's settlement of its facts (the hands laid down, the win, the penalties).
//!
//! Events already in the ledger (a repeated import) are not checked again. A ledger with no
//! events at all takes an export as a copy of another ledger's record (to audit or replay it):
//! there is no history of its own to forge, and the export's signature says whose it is; the
//! command line checks only a live ledger.

use std::collections::{BTreeMap, BTreeSet};

use chrono::{DateTime, Utc};
use ledger::event::HandEvent;
use ledger::{Event, ExportedEvent, Ledger, StreamId, StreamKind};
use referee::table::{Decided, HandKey};

use super::table::TableContext;

/// How far in the future an event may be dated (clocks differ a little).
const CLOCK_SKEW_SECONDS: i64 = 300;

fn time(s: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(s)
        .ok()
        .map(|t| t.with_timezone(&Utc))
}

/// Every problem with importing `events` into `ledger`, each as "line N: why"; none when the
/// import may go ahead.
pub fn check(ledger: &Ledger, events: &[ExportedEvent]) -> Vec<String> {
    let mut problems = Vec::new();
    let officials: BTreeSet<String> =
        match super::accounts::officials::list_officials(ledger.connection()) {
            Ok(listed) => listed.into_iter().map(|o| o.official).collect(),
            Err(e) => return vec![format!("cannot read the officials: {e}")],
        };
    let now = Utc::now();
    let mut fresh: Vec<&ExportedEvent> = Vec::new();
    for e in events {
        match already_recorded(ledger, e) {
            Ok(true) => continue,
            Ok(false) => fresh.push(e),
            Err(err) => problems.push(format!("line {}: {err}", e.line)),
        }
    }
    let mut last_time: BTreeMap<&StreamId, (DateTime<Utc>, usize)> = BTreeMap::new();
    for e in &fresh {
        let at =
            |why: String| format!("line {}: {} version {}: {why}", e.line, e.stream, e.version);
        if !officials.contains(e.recorded_by.as_str()) {
            problems.push(at(format!(
                "recorded by `{}`, who is not an official of this ledger",
                e.recorded_by
            )));
        }
        match time(&e.recorded_at) {
            None => problems.push(at(format!("`{}` is not a time", e.recorded_at))),
            Some(t) => {
                if (t - now).num_seconds() > CLOCK_SKEW_SECONDS {
                    problems.push(at(format!("dated {} , in the future", e.recorded_at)));
                }
                if let Some((before, line)) = last_time.get(&e.stream) {
                    if t < *before {
                        problems.push(at(format!(
                            "dated {}, before the event of line {line}",
                            e.recorded_at
                        )));
                    }
                }
                last_time.insert(&e.stream, (t, e.line));
            }
        }
    }
    let mut hands: BTreeMap<&StreamId, Vec<&ExportedEvent>> = BTreeMap::new();
    for e in &fresh {
        if e.stream.kind() == StreamKind::Hand {
            hands.entry(&e.stream).or_default().push(e);
        }
    }
    for (stream, events) in hands {
        problems.extend(check_hand(ledger, stream, &events));
    }
    problems
}

fn already_recorded(ledger: &Ledger, e: &ExportedEvent) -> rusqlite::Result<bool> {
    ledger
        .connection()
        .prepare_cached("SELECT 1 FROM events WHERE event_id = ?1")?
        .exists([e.event_id.as_bytes().as_slice()])
}

/// A hand stream's events (those not yet recorded), checked against its table.
fn check_hand(ledger: &Ledger, stream: &StreamId, events: &[&ExportedEvent]) -> Vec<String> {
    let Some(first) = events.first() else {
        return Vec::new();
    };
    let at = |e: &ExportedEvent, why: String| {
        format!("line {}: {stream} version {}: {why}", e.line, e.version)
    };
    if first.version != 1 {
        // More events of a hand this ledger holds: they continue it, checked by its own links.
        return Vec::new();
    }
    let Event::HandStarted(started) = &first.event else {
        return vec![at(first, "a hand begins with `hand_started`".into())];
    };
    let table = started.table.as_str();
    let ctx = match TableContext::load(ledger, table) {
        Ok(c) => c,
        Err(e) => return vec![at(first, format!("its table `{table}`: {e}"))],
    };
    let mut problems = Vec::new();
    if let Some(formed) = formed_at(ledger, &ctx) {
        if let Some(t) = time(&first.recorded_at) {
            if t < formed {
                problems.push(at(
                    first,
                    format!(
                        "dated {}, before its table `{table}` was formed ({})",
                        first.recorded_at,
                        formed.to_rfc3339()
                    ),
                ));
            }
        }
    }
    if let Some((key, _)) = ctx.state.in_play() {
        problems.push(at(
            first,
            format!(
                "table `{table}` has game {} hand {} in play: finish it before importing another hand",
                key.game, key.hand
            ),
        ));
        return problems;
    }
    let next = ctx.state.next();
    if (
        started.game,
        started.hand,
        started.east,
        started.prevailing_wind,
    ) != (next.game, next.hand, next.east, next.prevailing)
    {
        problems.push(at(
            first,
            format!(
                "game {} hand {} with the {} seat dealing and {} prevailing, but table `{table}`'s next hand is game {} hand {} with the {} seat dealing and {} prevailing (Code §11–14)",
                started.game,
                started.hand,
                started.east,
                started.prevailing_wind,
                next.game,
                next.hand,
                next.east,
                next.prevailing
            ),
        ));
        return problems;
    }
    let key = HandKey {
        game: started.game,
        hand: started.hand,
    };
    let mut state = ctx.state.clone();
    for e in events {
        let Ok(h) = HandEvent::try_from(e.event.clone()) else {
            problems.push(at(e, "is not an event of a hand".into()));
            return problems;
        };
        let decided = Decided::Hand(key, h);
        if let Err(err) = state.apply(e.event_id, &decided) {
            problems.push(at(
                e,
                format!("does not follow from the hand before it: {err}"),
            ));
            return problems;
        }
    }
    let Some(hand) = state.hands.get(&key) else {
        return problems;
    };
    if let (Some(facts), Some((_, recorded))) = (hand.facts(), hand.settlement()) {
        match facts.score_and_settle(&ctx.conditions.ruleset, &hand.position) {
            Ok(settled) if settled.nets == recorded.nets => {}
            Ok(settled) => {
                let last = events.last().unwrap_or(first);
                problems.push(at(
                    last,
                    format!(
                        "the settlement pays {}, but the ruleset `{}` settles these hands {} (the same hands, win and penalties)",
                        nets(&recorded.nets),
                        ctx.conditions.ruleset.name,
                        nets(&settled.nets)
                    ),
                ));
            }
            Err(v) => {
                let last = events.last().unwrap_or(first);
                problems.push(at(last, format!("its facts do not score: {v}")));
            }
        }
    }
    problems
}

fn nets(n: &referee::BySeat<i64>) -> String {
    n.iter()
        .map(|(seat, v)| format!("{seat} {v:+}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// When the table was formed in this ledger.
fn formed_at(ledger: &Ledger, ctx: &TableContext) -> Option<DateTime<Utc>> {
    let events = ledger.read_stream(&ctx.table.tournament, 1).ok()?;
    events.into_iter().find_map(|e| match &e.event {
        Event::TableFormed(f) if f.table == ctx.table.table => Some(e.recorded_at),
        _ => None,
    })
}
