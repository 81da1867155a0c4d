//! Who may write, as the web sees it: a request's official, from a cookie or a bearer token,
//! and the CSRF tokens its forms carry.
//!
//! Reading is public; every write needs an official. A person logs in with a password and gets
//! a session cookie (`HttpOnly`, `SameSite=Strict`) holding a random token (`extractor`). Each
//! session has a CSRF token that every form must echo (synchronizer token); the login form
//! itself uses a double-submit cookie whose value only the server can compute (`csrf`).
//! Programs send `Authorization: Bearer <token>`; a bearer token is not sent by browsers on their
//! own, so the API needs no CSRF token. Passwords and tokens are never logged.
//!
//! The accounts themselves (passwords, login sessions, API tokens, the officials' listing,
//! roles) are plain logic over the ledger's tables in the application layer,
//! [`crate::app::accounts`]; they are re-exported here under the names the pages, the API,
//! the command line and the tests have always used.

mod csrf;
mod extractor;
mod nav;

pub use csrf::{login_csrf_cookie, login_csrf_ok, login_csrf_value, LOGIN_CSRF_COOKIE};
pub use extractor::{bearer_token, session_cookie, SESSION_COOKIE};

pub use crate::app::accounts::officials::{
    create_official, create_official_hashed, ensure_admin, list_officials, official_listing,
    AdminSetup, OfficialListing,
};
pub(crate) use crate::app::accounts::passwords::set_password_hash_in;
pub use crate::app::accounts::passwords::{
    hash_password, password_hash_of, password_long_enough, password_matches, reset_password,
    set_password_hash, too_short, MIN_PASSWORD,
};
pub use crate::app::accounts::roles::{parse_role, role_name};
pub use crate::app::accounts::secret::{constant_time_eq, random_token};
pub(crate) use crate::app::accounts::sessions::open_session_in;
pub use crate::app::accounts::sessions::{login, logout, open_session, wrong_login};
pub use crate::app::accounts::store::system;
pub(crate) use crate::app::accounts::store::{changed, now};
pub use crate::app::accounts::tokens::{
    create_api_token, create_api_token_until, list_api_tokens, revoke_api_token, TokenListing,
};
pub use crate::app::accounts::viewer::{Official, Viewer};
