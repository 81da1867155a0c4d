//! The navigation bar every page carries: who is logged in, the CSRF token their forms echo,
//! and which forms their role may use.
//!
//! Plain data with no knowledge of officials, so the error page (in `error`) can render it
//! without depending on `auth`; the constructors from an official (`Nav::for_official`,
//! `Nav::for_viewer`) live in `auth`, which knows officials. This keeps the modules free of
//! cycles: `auth → error → nav`, never back.

use serde::Serialize;

/// The navigation bar's content.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Nav {
    pub official: Option<String>,
    pub is_admin: bool,
    pub csrf: String,
    /// The official may record hands (scorer, referee, administrator).
    pub may_record: bool,
    /// The official may correct hands (referee, administrator).
    pub may_correct: bool,
    /// The official may create tournaments, register players, form, close and void
    /// (organiser, administrator).
    pub may_organise: bool,
}

impl Nav {
    /// A reader who is not logged in.
    pub fn anonymous() -> Nav {
        Nav::default()
    }

    pub fn logged_in(&self) -> bool {
        self.official.is_some()
    }
}
