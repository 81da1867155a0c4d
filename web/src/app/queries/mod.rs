//! What pages show: view models built from the projections (never by replaying events), kept
//! apart from the ledger's rows. The JSON API has its own response types (`api::responses`),
//! built from these, so a page can change its layout without changing the API.

pub mod books;
pub mod check;
pub mod chips_chart;
pub mod common;
pub mod dashboard;
pub mod dispute;
pub mod hand;
pub mod night;
pub mod paging;
pub mod play;
pub mod scorer;
pub mod sessions;
pub mod sheets;
pub mod table;
pub mod tile_art;
pub mod tiles;
pub mod tournament;
pub mod visibility;

use crate::app::accounts::viewer::Viewer;

/// Who a page is for. The public sees nothing voided; officials see it, marked voided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    Public,
    Officials,
}

impl Audience {
    pub fn of(viewer: &Viewer) -> Audience {
        if viewer.0.is_some() {
            Audience::Officials
        } else {
            Audience::Public
        }
    }
}

/// A seat as a page names it: "East".
pub fn seat_title<K: referee::Place>(seat: K) -> &'static str {
    ["East", "South", "West", "North"][seat.index()]
}

/// A signed amount as shown: "+12", "−8", "0" (the referee's wording).
pub use referee::event::signed;
