//! Projections kept beside the events, as the store sees them: a [`Projection`] names its
//! tables and their schema and begins a [`Fold`]; a [`Projections`] registry is what a ledger
//! is opened with.
//!
//! Why a trait: the event store must not know what the application reads (issue 25, item 4).
//! It owns the guarantees instead, the same for every projection registered:
//!
//! * **in step**: every append and import folds its events into every registered projection in
//!   its own transaction, so a reader never sees an event without its effect or the reverse,
//!   and a fold that fails undoes the append;
//! * **built when needed**: the table `ledger_projections` records which projection a database
//!   keeps at which version; opening a ledger for writing builds a registered projection that is
//!   missing or at another version (its [`Projection::schema`], then every event replayed), in
//!   one transaction. A database that keeps a projection its opener did not register refuses
//!   appends rather than let it fall behind unnoticed;
//! * **checked**: the audit replays every event into a fresh in-memory database holding only the
//!   registered projections' schemas, and compares every row of every table they name.
//!
//! A fold only folds: every check of an event happened before it was written. Because it is a
//! pure fold over events in global order, a replay reproduces the rows exactly. Each projection
//! keeps to its own tables; it may read the event log through [`Target`], never another
//! projection's tables (the projections of one registry are folded side by side, and each is
//! rebuilt alone when its version changes).

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use rusqlite::{params, Connection, OptionalExtension};
use uuid::Uuid;

use crate::error::{Error, Result, SqlContext};
use crate::event::Event;
use crate::ids::StreamId;
use crate::record::{RecordedEvent, RowRef, COLUMNS};

/// Where an event sits, for the projections that record it.
#[derive(Clone, Copy, Debug)]
pub struct EventMeta<'a> {
    /// Its global position in this database.
    pub position: u64,
    pub stream: &'a StreamId,
    /// Its version within the stream.
    pub version: u64,
    pub event_id: Uuid,
}

/// What a fold writes to and may read from: the database holding the projection's tables, and
/// the one holding the events (the same connection, except when the audit replays into a fresh
/// database).
#[derive(Clone, Copy)]
pub struct Target<'a> {
    rows: &'a Connection,
    events: &'a Connection,
}

impl<'a> Target<'a> {
    pub(crate) fn new(rows: &'a Connection, events: &'a Connection) -> Target<'a> {
        Target { rows, events }
    }

    /// The database the projection's tables live in: where its rows are read and written.
    pub fn rows(&self) -> &'a Connection {
        self.rows
    }

    /// The wire name of the event recorded with `id`, if there is one (e.g. to tell whether a
    /// correction supersedes another correction).
    pub fn event_type(&self, id: Uuid) -> Result<Option<String>> {
        self.events
            .prepare_cached("SELECT event_type FROM events WHERE event_id = ?1")
            .and_then(|mut s| {
                s.query_row([id.as_bytes().as_slice()], |r| r.get(0))
                    .optional()
            })
            .ctx("looking up an event by id")
    }

    /// The events of `stream` recorded at `position` or before, in version order, decoded:
    /// for a fold that must derive something again from a stream's history. A stored event
    /// that does not decode is [`Error::Corrupt`].
    pub fn stream_until(&self, stream: &StreamId, position: u64) -> Result<Vec<RecordedEvent>> {
        let sql = format!(
            "SELECT {COLUMNS} FROM events WHERE stream = ?1 AND position <= ?2 ORDER BY version"
        );
        let what = "reading a stream's events";
        let mut stmt = self.events.prepare_cached(&sql).ctx(what)?;
        let position = i64::try_from(position).unwrap_or(i64::MAX);
        let mut rows = stmt.query(params![stream.as_str(), position]).ctx(what)?;
        let mut out = Vec::new();
        while let Some(row) = rows.next().ctx(what)? {
            let r = RowRef::from_row(row).ctx("reading an event row")?;
            out.push(r.decode().map_err(|what| Error::Corrupt {
                position: r.position_u64(),
                stream: r.stream_text().to_owned(),
                version: r.version_u64(),
                what,
            })?);
        }
        Ok(out)
    }
}

/// A read model kept beside the events: its tables, their schema, and how events fold into
/// them.
pub trait Projection: Send + Sync {
    /// The name the database records it by (`ledger_projections.name`); never reused for
    /// another projection.
    fn name(&self) -> &'static str;

    /// Its version: bump it with any change to [`Projection::schema`] or to the fold, and every
    /// database is rebuilt once, when next opened for writing.
    fn version(&self) -> u32;

    /// The tables it owns: cleared on a rebuild, and compared row by row by the audit.
    fn tables(&self) -> &'static [&'static str];

    /// SQL creating its tables from nothing, whatever is there before (`DROP TABLE IF EXISTS`,
    /// then `CREATE`): run when it is built, and in the audit's fresh database.
    fn schema(&self) -> &'static str;

    /// A fold of events, one at a time and in order, for one append, import or replay. It may
    /// keep state in memory between events; [`Fold::finish`] writes what is left.
    fn begin(&self) -> Box<dyn Fold + '_>;
}

/// Folding events into one projection's tables.
pub trait Fold {
    /// Folds one event (events a projection does not need are ignored).
    fn apply(&mut self, target: &Target<'_>, meta: &EventMeta<'_>, event: &Event) -> Result<()>;

    /// Writes whatever is still held in memory: called before anything reads the tables.
    fn finish(&mut self, target: &Target<'_>) -> Result<()>;
}

/// The projections a ledger keeps, in the order they are folded. Cheap to clone (shared).
#[derive(Clone, Default)]
pub struct Projections(Arc<[Arc<dyn Projection>]>);

impl Projections {
    /// The registry of `projections`; refused when two share a name or a table.
    pub fn new(projections: impl IntoIterator<Item = Arc<dyn Projection>>) -> Result<Projections> {
        let list: Vec<Arc<dyn Projection>> = projections.into_iter().collect();
        for (i, a) in list.iter().enumerate() {
            for b in &list[..i] {
                let clash = |what: String| Error::ProjectionClash {
                    first: b.name(),
                    second: a.name(),
                    what,
                };
                if a.name() == b.name() {
                    return Err(clash("a name".into()));
                }
                if let Some(t) = a.tables().iter().find(|t| b.tables().contains(t)) {
                    return Err(clash(format!("table `{t}`")));
                }
            }
        }
        Ok(Projections(list.into()))
    }

    /// The registry of one projection (nothing to clash with).
    pub fn one(projection: impl Projection + 'static) -> Projections {
        Projections(Arc::new([Arc::new(projection) as Arc<dyn Projection>]))
    }

    /// Each projection, in the order they are folded.
    pub fn iter(&self) -> impl Iterator<Item = &dyn Projection> {
        self.0.iter().map(|p| &**p)
    }

    /// The projection registered as `name`.
    pub fn get(&self, name: &str) -> Option<&dyn Projection> {
        self.iter().find(|p| p.name() == name)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Every table of every projection, in order.
    pub fn tables(&self) -> Vec<&'static str> {
        self.iter()
            .flat_map(|p| p.tables().iter().copied())
            .collect()
    }

    /// Begins a fold of every projection, for one append or import.
    pub(crate) fn begin(&self) -> Folds<'_> {
        Folds(self.iter().map(|p| p.begin()).collect())
    }
}

impl fmt::Debug for Projections {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.iter().map(|p| (p.name(), p.version())))
            .finish()
    }
}

/// The folds of several projections, fed the same events.
pub(crate) struct Folds<'p>(Vec<Box<dyn Fold + 'p>>);

impl Folds<'_> {
    pub(crate) fn apply(
        &mut self,
        target: &Target<'_>,
        meta: &EventMeta<'_>,
        event: &Event,
    ) -> Result<()> {
        self.0
            .iter_mut()
            .try_for_each(|f| f.apply(target, meta, event))
    }

    pub(crate) fn finish(&mut self, target: &Target<'_>) -> Result<()> {
        self.0.iter_mut().try_for_each(|f| f.finish(target))
    }
}

/// Replays every event stored in `events` into `projections`' tables in `rows` (empty, or just
/// created). Events that do not decode are skipped and returned as `(position, why)`, so the
/// audit can report them while still comparing the rest.
pub(crate) fn replay_into(
    events: &Connection,
    rows: &Connection,
    projections: &[&dyn Projection],
) -> Result<Vec<(u64, String)>> {
    let mut skipped = Vec::new();
    if projections.is_empty() {
        return Ok(skipped);
    }
    let target = Target::new(rows, events);
    let mut folds = Folds(projections.iter().map(|p| p.begin()).collect());
    let sql = format!("SELECT {COLUMNS} FROM events ORDER BY position");
    let mut stmt = events.prepare(&sql).ctx("reading the events")?;
    let mut stored = stmt.query([]).ctx("reading the events")?;
    while let Some(row) = stored.next().ctx("reading the events")? {
        let r = RowRef::from_row(row).ctx("reading an event row")?;
        match r.decode() {
            Ok(e) => {
                let meta = EventMeta {
                    position: e.position,
                    stream: &e.stream,
                    version: e.version,
                    event_id: e.event_id,
                };
                folds.apply(&target, &meta, &e.event)?;
            }
            Err(why) => skipped.push((r.position_u64(), why)),
        }
    }
    folds.finish(&target)?;
    Ok(skipped)
}

/// The projections a database keeps, by name, with the version each was built at.
pub(crate) fn recorded(conn: &Connection) -> Result<BTreeMap<String, i64>> {
    let what = "reading which projections the database keeps";
    let mut stmt = conn
        .prepare_cached("SELECT name, version FROM ledger_projections")
        .ctx(what)?;
    let rows = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .ctx(what)?;
    rows.collect::<rusqlite::Result<_>>().ctx(what)
}

/// Records that the database keeps `p` at its current version.
pub(crate) fn record(conn: &Connection, p: &dyn Projection) -> Result<()> {
    conn.prepare_cached(
        "INSERT INTO ledger_projections (name, version) VALUES (?1, ?2) \
         ON CONFLICT (name) DO UPDATE SET version = excluded.version",
    )
    .and_then(|mut s| s.execute(params![p.name(), p.version()]))
    .ctx("recording a projection's version")
    .map(drop)
}
