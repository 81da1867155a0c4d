//! The request's official: a [`Viewer`] read from the session cookie or an
//! `Authorization: Bearer` header, and the session cookie itself.
//!
//! Any handler that takes a `Viewer` gets one: anonymous when the request carries neither, or
//! when what it carries is unknown, expired, revoked or a disabled official's. A bearer token
//! wins over a cookie (a program's request). The look-ups are the application's
//! ([`by_session`], [`by_api_token`]), run on the officials' connection off the async threads.

use std::future::Future;
use std::pin::Pin;

use actix_web::cookie::{Cookie, SameSite};
use actix_web::{dev::Payload, web, FromRequest, HttpMessage, HttpRequest};

use crate::app::accounts::sessions::{by_session, SESSION_SECONDS};
use crate::app::accounts::tokens::by_api_token;
use crate::app::accounts::viewer::Viewer;
use crate::server::error::HtmlError;
use crate::server::state::AppState;

/// The session cookie's name.
pub const SESSION_COOKIE: &str = "mjr_session";

impl FromRequest for Viewer {
    type Error = actix_web::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Viewer, actix_web::Error>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let state = req.app_data::<web::Data<AppState>>().cloned();
        let bearer = req
            .headers()
            .get("authorization")
            .and_then(|h| h.to_str().ok())
            .and_then(bearer_token)
            .map(str::to_owned);
        let session = req.cookie(SESSION_COOKIE).map(|c| c.value().to_owned());
        let req = req.clone();
        Box::pin(async move {
            let Some(state) = state else {
                return Ok(Viewer(None));
            };
            if bearer.is_none() && session.is_none() {
                return Ok(Viewer(None));
            }
            let found = state
                .auth(move |conn| match (bearer, session) {
                    (Some(token), _) => by_api_token(conn, &token),
                    (None, Some(token)) => by_session(conn, &token),
                    (None, None) => Ok(None),
                })
                .await;
            match found {
                Ok(official) => {
                    // The error page, rendered after the handler, shows the same menu.
                    if let Some(o) = &official {
                        req.extensions_mut()
                            .insert(crate::server::nav::Nav::for_official(o));
                    }
                    Ok(Viewer(official))
                }
                Err(e) => Err(HtmlError(e).into()),
            }
        })
    }
}

/// The token of an `Authorization: Bearer <token>` header; the scheme's name is
/// case-insensitive (RFC 7235 §2.1), so `bearer` and `BEARER` do as well.
pub fn bearer_token(header: &str) -> Option<&str> {
    let (scheme, token) = header.trim_start().split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

/// The session cookie: lives as long as the session ([`SESSION_SECONDS`]).
pub fn session_cookie(token: String, secure: bool) -> Cookie<'static> {
    Cookie::build(SESSION_COOKIE, token)
        .path("/")
        .http_only(true)
        .same_site(SameSite::Strict)
        .secure(secure)
        .max_age(actix_web::cookie::time::Duration::seconds(SESSION_SECONDS))
        .finish()
}
