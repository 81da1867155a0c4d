//! What pages and the JSON API show: view models built from the projections (never by
//! replaying events), kept apart from the ledger's rows. The same structs render the HTML
//! templates and serialize as the API's JSON, so the two always agree.

pub mod hand;
pub mod table;
pub mod tiles;
pub mod tournament;

use serde::Serialize;

use super::auth::{Official, Viewer};

/// The navigation bar: who is logged in, and the CSRF token their forms carry.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Nav {
    pub official: Option<String>,
    pub is_admin: bool,
    pub csrf: String,
}

impl Nav {
    pub fn anonymous() -> Nav {
        Nav::default()
    }

    pub fn for_viewer(viewer: &Viewer) -> Nav {
        match &viewer.0 {
            Some(o) => Nav::for_official(o),
            None => Nav::anonymous(),
        }
    }

    pub fn for_official(o: &Official) -> Nav {
        Nav {
            official: Some(o.name.clone()),
            is_admin: o.is_admin,
            csrf: o.csrf.clone().unwrap_or_default(),
        }
    }

    pub fn logged_in(&self) -> bool {
        self.official.is_some()
    }
}

/// A seat as a page names it: "East".
pub fn seat_title<K: referee::Place>(seat: K) -> &'static str {
    ["East", "South", "West", "North"][seat.index()]
}

/// A signed amount as shown: "+12", "−8", "0".
pub fn signed(n: i64) -> String {
    match n {
        0 => "0".to_owned(),
        n if n > 0 => format!("+{n}"),
        n => format!("−{}", n.unsigned_abs()),
    }
}
