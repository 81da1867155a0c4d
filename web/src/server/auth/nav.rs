//! The navigation bar of whoever sent the request.
//!
//! The constructors live here, beside the official they read, so that `server::nav` (which the
//! error page renders) depends on nothing.

use crate::app::accounts::roles::Action;
use crate::app::accounts::viewer::{Official, Viewer};
use crate::server::nav::Nav;

impl Nav {
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
            may_record: o.may(Action::RecordHand),
            may_correct: o.may(Action::CorrectHand),
            may_organise: o.may(Action::CreateTournament),
        }
    }
}
