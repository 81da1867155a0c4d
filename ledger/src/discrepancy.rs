//! One thing found not as it should be, with where it is.
//!
//! A leaf of the crate: the audit collects discrepancies, and so do the checks of the
//! accounts and of the signed checkpoints that it runs, each in its own module.

use std::fmt;

/// One thing that is not as it should be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Discrepancy {
    pub position: Option<u64>,
    pub stream: Option<String>,
    pub version: Option<u64>,
    pub what: String,
}

impl fmt::Display for Discrepancy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(p) = self.position {
            write!(f, "position {p}: ")?;
        }
        match (&self.stream, self.version) {
            (Some(s), Some(v)) => write!(f, "{s} version {v}: ")?,
            (Some(s), None) => write!(f, "{s}: ")?,
            _ => {}
        }
        f.write_str(&self.what)
    }
}
