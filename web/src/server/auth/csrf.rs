//! CSRF tokens: the session's token every form echoes, and the login form's own.
//!
//! A logged-in official's forms carry the session's CSRF token (a synchronizer token, kept with
//! the session), checked by [`Official::check_csrf`]. Before login there is no session, so the
//! login form uses a double-submit cookie: a random pre-login cookie, and a field holding an
//! HMAC of it under a key only this server process holds ([`login_csrf_value`]); a cookie and a
//! field an attacker planted to be equal do not pass. Requests with an API token need none: a
//! browser never sends a bearer header on its own.

use actix_web::cookie::{Cookie, SameSite};
use sha2::Sha256;

use crate::app::accounts::secret::constant_time_eq;
use crate::app::accounts::viewer::Official;
use crate::server::error::AppError;

/// The login form's double-submit CSRF cookie.
pub const LOGIN_CSRF_COOKIE: &str = "mjr_login_csrf";

impl Official {
    /// Refuses a form whose CSRF token is not this session's.
    pub fn check_csrf(&self, sent: &str) -> Result<(), AppError> {
        match &self.csrf {
            Some(expected) if constant_time_eq(expected.as_bytes(), sent.as_bytes()) => Ok(()),
            Some(_) => Err(AppError::forbidden(
                "the form's security token does not match your session: reload the page and submit again",
            )),
            None => Ok(()),
        }
    }
}

/// The login form's CSRF value for the pre-login cookie `cookie`: HMAC-SHA-256 under the
/// server's `key`, in hex. Only the server can compute it, so a cookie and field an attacker
/// planted to be equal do not pass (a double-submit check alone would take any equal pair).
pub fn login_csrf_value(key: &[u8; 32], cookie: &str) -> String {
    use hmac::{KeyInit, Mac};
    let Ok(mut mac) = hmac::Hmac::<Sha256>::new_from_slice(key) else {
        // HMAC takes a key of any length: this cannot happen, and a value that never matches
        // refuses the login rather than panicking.
        return String::new();
    };
    mac.update(cookie.as_bytes());
    mac.finalize()
        .into_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Whether `field` is the login form's CSRF value for `cookie` ([`login_csrf_value`]).
pub fn login_csrf_ok(key: &[u8; 32], cookie: Option<&str>, field: &str) -> bool {
    cookie.is_some_and(|c| {
        let expected = login_csrf_value(key, c);
        !expected.is_empty() && constant_time_eq(expected.as_bytes(), field.as_bytes())
    })
}

/// The login form's CSRF cookie.
pub fn login_csrf_cookie(token: String, secure: bool) -> Cookie<'static> {
    Cookie::build(LOGIN_CSRF_COOKIE, token)
        .path("/")
        .http_only(true)
        .same_site(SameSite::Strict)
        .secure(secure)
        .finish()
}
