//! Who is asking: an official (by login session or API token) or an anonymous reader.
//!
//! Commands take the [`Official`] who gives them, to check the role ([`Official::require_role`])
//! and to record who did it; queries take the [`Viewer`], since what the public may see differs
//! from what officials may. How a request names its official (a cookie, a bearer header) is the
//! server's extractor (`server::auth`); the form's CSRF check is the server's too.

use ledger::event::OfficialRole;
use ledger::OfficialId;

use super::roles::{role_name, Action};
use crate::app::error::AppError;

/// A logged-in official (by session or API token).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Official {
    pub id: OfficialId,
    pub name: String,
    pub role: OfficialRole,
    pub is_admin: bool,
    /// The session's CSRF token; `None` for an API token (no cookie, no CSRF).
    pub csrf: Option<String>,
}

impl Official {
    /// Whether this official may do `action`: the administrator may do everything, anyone
    /// else what the role permits ([`Action::permitted`], the one table of the policy).
    pub fn may(&self, action: Action) -> bool {
        self.is_admin || action.permitted(self.role)
    }

    /// Refuses (403, saying who may) an action the official's role does not permit.
    pub fn require_role(&self, action: Action) -> Result<(), AppError> {
        if self.may(action) {
            Ok(())
        } else {
            Err(AppError::forbidden(format!(
                "only {} may {}; you are logged in as {} ({})",
                action.who(),
                action.describe(),
                self.id,
                role_name(self.role)
            )))
        }
    }
}

/// Whoever sent the request: an official or an anonymous reader.
#[derive(Clone, Debug, Default)]
pub struct Viewer(pub Option<Official>);

impl Viewer {
    /// The official, or 401.
    pub fn require(&self) -> Result<&Official, AppError> {
        self.0.as_ref().ok_or_else(AppError::unauthorized)
    }
}
