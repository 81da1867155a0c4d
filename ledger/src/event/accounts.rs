//! The payload of the accounts stream (`accounts:officials`): a change to an official's
//! account. What the change means for the officials' tables, and how the audit folds these
//! events to check them, is the `accounts` module's; the catalogue only names the fact.

use referee::event::OfficialRole;
use serde::{Deserialize, Serialize};

use crate::ids::OfficialId;

/// A change to an official's account, as recorded (the row's `recorded_by` is who made it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AccountChanged {
    pub official: OfficialId,
    pub change: AccountChange,
}

/// What changed. Secrets appear only as fingerprints (see the `accounts` module).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "what", rename_all = "kebab-case", deny_unknown_fields)]
pub enum AccountChange {
    /// The official was created (or, for a database adopted, found as it stood).
    Created {
        name: String,
        role: OfficialRole,
        admin: bool,
        password: String,
    },
    /// A new password was set; every session of the official ended with it.
    PasswordSet { password: String },
    /// The role or the administrator flag changed.
    RoleSet { role: OfficialRole, admin: bool },
    /// The official was disabled: every session ended, tokens refused until enabled.
    Disabled,
    /// The official was enabled again.
    Enabled,
    /// An API token was issued.
    TokenIssued {
        token: String,
        label: String,
        expires_at: Option<i64>,
    },
    /// An API token was revoked.
    TokenRevoked { token: String },
    /// The official logged in.
    SessionOpened { session: String, expires_at: i64 },
    /// The official logged out.
    SessionClosed { session: String },
}
