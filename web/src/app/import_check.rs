//! An import cannot forge history: an exported stream is checked against the ledger it is
//! imported into as a live write would be, before anything is written.
//!
//! The ledger's own import verifies that the file is what some ledger recorded (hashes, links,
//! the vocabulary, a settlement that sums to zero). That is not enough: a hand made up with a
//! valid hash chain — recorded by an official who does not exist, dated years before its table
//! was formed, placed in a game the table has not reached, paying far past the ruleset's limit
//! — verifies perfectly, and so does a continuation of a stream the ledger holds. What only the
//! service knows is checked here, and any problem refuses the whole import, naming the line
//! and why:
//!
//! - no event is dated in the future, a stream's events are in order of time, and a hand is not
//!   dated before its table was formed;
//! - every event, whatever stream it starts or extends, is decided again as a live write would
//!   be (`app::redecide`): by the tournament and table aggregates folded from this ledger, its
//!   recorder an enabled official whose role then permitted the command, and nothing added to
//!   what a signed checkpoint sealed.
//!
//! Events already in the ledger (a repeated import) are not checked again. A ledger with no
//! events at all takes an export as a copy of another ledger's record (to audit or replay it):
//! there is no history of its own to forge, and the export's signature says whose it is; the
//! command line checks only a live ledger.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use ledger::{Event, ExportedEvent, Ledger, StreamId};

use super::redecide::{Recorded, Redecider};
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
    let now = Utc::now();
    let mut fresh: Vec<Recorded> = Vec::new();
    let mut last_time: BTreeMap<&StreamId, (DateTime<Utc>, usize)> = BTreeMap::new();
    for e in events {
        match already_recorded(ledger, e) {
            Ok(true) => continue,
            Ok(false) => {}
            Err(err) => {
                problems.push(format!("line {}: {err}", e.line));
                continue;
            }
        }
        let at = format!("line {}: {} version {}", e.line, e.stream, e.version);
        let Some(t) = time(&e.recorded_at) else {
            problems.push(format!("{at}: `{}` is not a time", e.recorded_at));
            continue;
        };
        if (t - now).num_seconds() > CLOCK_SKEW_SECONDS {
            problems.push(format!("{at}: dated {}, in the future", e.recorded_at));
        }
        if let Some((before, line)) = last_time.get(&e.stream) {
            if t < *before {
                problems.push(format!(
                    "{at}: dated {}, before the event of line {line}",
                    e.recorded_at
                ));
            }
        }
        last_time.insert(&e.stream, (t, e.line));
        fresh.push(Recorded {
            at,
            stream: e.stream.clone(),
            event_id: e.event_id,
            recorded_at: t,
            recorded_by: e.recorded_by.clone(),
            event: e.event.clone(),
        });
    }
    if fresh.is_empty() {
        return problems;
    }
    problems.extend(formed_before(ledger, &fresh));
    // Decided in the order of their dates: a table is formed before its hands are played.
    fresh.sort_by_key(|e| e.recorded_at);
    let mut redecider = Redecider::for_import();
    let folded = ledger.replay(|e| {
        let position = e.position;
        let recorded = Recorded::from(e);
        if let Err(why) = redecider.fold(position, &recorded) {
            problems.push(format!("this ledger's {}: {why}", recorded.at));
        }
    });
    if let Err(e) = folded {
        problems.push(format!("this ledger cannot be read: {e}"));
        return problems;
    }
    problems.extend(redecider.decide(&fresh));
    problems
}

/// The events of `events` the ledger does not hold yet.
pub fn unrecorded<'a>(
    ledger: &Ledger,
    events: &'a [ExportedEvent],
) -> rusqlite::Result<Vec<&'a ExportedEvent>> {
    let mut out = Vec::new();
    for e in events {
        if !already_recorded(ledger, e)? {
            out.push(e);
        }
    }
    Ok(out)
}

fn already_recorded(ledger: &Ledger, e: &ExportedEvent) -> rusqlite::Result<bool> {
    ledger
        .connection()
        .prepare_cached("SELECT 1 FROM events WHERE event_id = ?1")?
        .exists([e.event_id.as_bytes().as_slice()])
}

/// New hands dated before their table was formed in this ledger.
fn formed_before(ledger: &Ledger, fresh: &[Recorded]) -> Vec<String> {
    let mut problems = Vec::new();
    for e in fresh {
        let Event::HandStarted(started) = &e.event else {
            continue;
        };
        let Ok(ctx) = TableContext::load(ledger, started.table.as_str()) else {
            continue;
        };
        if let Some(formed) = formed_at(ledger, &ctx) {
            if e.recorded_at < formed {
                problems.push(format!(
                    "{}: dated {}, before its table `{}` was formed ({})",
                    e.at,
                    e.recorded_at.to_rfc3339(),
                    started.table,
                    formed.to_rfc3339()
                ));
            }
        }
    }
    problems
}

/// When the table was formed in this ledger.
fn formed_at(ledger: &Ledger, ctx: &TableContext) -> Option<DateTime<Utc>> {
    let events = ledger.read_stream(&ctx.table.tournament, 1).ok()?;
    events.into_iter().find_map(|e| match &e.event {
        Event::TableFormed(f) if f.table == ctx.table.table => Some(e.recorded_at),
        _ => None,
    })
}
