//! Every row of the projections' tables as text, for comparing the stored projections with a
//! fresh replay (the audit, and tests that rebuild). Generic: it reads whatever tables it is
//! given, by name.

use std::collections::BTreeMap;
use std::fmt::Write;

use rusqlite::types::ValueRef;
use rusqlite::Connection;

use crate::error::{Result, SqlContext};

/// Each projection table's rows, rendered `column=value, ...` and sorted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProjectionSnapshot {
    pub tables: BTreeMap<&'static str, Vec<String>>,
    /// The tables in the order they were read (the projections' order): the order in which
    /// differences are listed.
    order: Vec<&'static str>,
}

/// One row that is in one snapshot and not the other.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowDifference {
    pub table: &'static str,
    pub row: String,
    /// True when the row is stored but a replay does not produce it; false for the reverse.
    pub only_stored: bool,
}

impl ProjectionSnapshot {
    /// The rows of `self` (stored) missing from `replayed`, and the reverse, table by table.
    pub fn differences(&self, replayed: &ProjectionSnapshot) -> Vec<RowDifference> {
        let mut out = Vec::new();
        let empty = Vec::new();
        let mut tables = self.order.clone();
        tables.extend(replayed.order.iter().filter(|t| !self.order.contains(t)));
        for table in tables {
            let stored = self.tables.get(table).unwrap_or(&empty);
            let fresh = replayed.tables.get(table).unwrap_or(&empty);
            for row in stored.iter().filter(|r| fresh.binary_search(r).is_err()) {
                out.push(RowDifference {
                    table,
                    row: row.clone(),
                    only_stored: true,
                });
            }
            for row in fresh.iter().filter(|r| stored.binary_search(r).is_err()) {
                out.push(RowDifference {
                    table,
                    row: row.clone(),
                    only_stored: false,
                });
            }
        }
        out
    }
}

fn render(out: &mut String, v: ValueRef<'_>) {
    match v {
        ValueRef::Null => out.push_str("NULL"),
        ValueRef::Integer(i) => {
            let _ = write!(out, "{i}");
        }
        ValueRef::Real(f) => {
            let _ = write!(out, "{f:?}");
        }
        ValueRef::Text(t) => {
            let _ = write!(out, "{:?}", String::from_utf8_lossy(t));
        }
        ValueRef::Blob(b) if b.len() == 16 => {
            // Event ids: show them as UUIDs.
            let _ = write!(out, "{}", uuid::Uuid::from_slice(b).unwrap_or_default());
        }
        ValueRef::Blob(b) => b.iter().for_each(|x| {
            let _ = write!(out, "{x:02x}");
        }),
    }
}

/// The rows of `tables` in `conn`.
pub(crate) fn snapshot(conn: &Connection, tables: &[&'static str]) -> Result<ProjectionSnapshot> {
    let order = tables.to_vec();
    let mut tables = BTreeMap::new();
    for &table in &order {
        let mut stmt = conn
            .prepare(&format!("SELECT * FROM {table}"))
            .ctx("reading a projection")?;
        let names: Vec<String> = stmt.column_names().map(str::to_owned).collect();
        let mut rows = stmt.query([]).ctx("reading a projection")?;
        let mut rendered = Vec::new();
        while let Some(row) = rows.next().ctx("reading a projection")? {
            let mut s = String::new();
            for (i, name) in names.iter().enumerate() {
                if i > 0 {
                    s.push_str(", ");
                }
                s.push_str(name);
                s.push('=');
                render(&mut s, row.get_ref(i).ctx("reading a projection")?);
            }
            rendered.push(s);
        }
        rendered.sort();
        tables.insert(table, rendered);
    }
    Ok(ProjectionSnapshot { tables, order })
}
