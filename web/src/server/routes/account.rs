//! Logging in and out, the official's account (API tokens), and the administrator's list of
//! officials.

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use serde::Deserialize;

use super::{render, see_other};
use crate::server::auth::{self, Official, OfficialListing, Viewer};
use crate::server::error::{AppError, ErrorKind, HtmlError};
use crate::server::form::Form;
use crate::server::nav::Nav;
use crate::server::officials::{change_own_password, PasswordChange};
use crate::server::roles::Action;
use crate::server::state::AppState;
use crate::server::throttle::OfficialKey;
use crate::server::writes::{add_official, NewOfficial};

#[derive(Template)]
#[template(path = "login.html")]
struct LoginPage {
    nav: Nav,
    login_csrf: String,
    official: String,
    error: Option<String>,
    /// Where to go once logged in (a page of this site).
    next: String,
}

/// `next` when it is a page of this site (a path, not `//elsewhere` nor a full address), so
/// that a login never sends anyone off-site.
fn local(next: &str) -> Option<&str> {
    (next.starts_with('/')
        && !next.starts_with("//")
        && !next.contains('\\')
        && !next.chars().any(char::is_control))
    .then_some(next)
}

/// 303 to the login page, which comes back to `back` (a page of this site) once logged in.
pub fn log_in_and_return(back: &str) -> HttpResponse {
    let next: String = url_escape(back);
    see_other(&format!("/login?next={next}"))
}

fn url_escape(s: &str) -> String {
    percent_encoding::utf8_percent_encode(s, percent_encoding::NON_ALPHANUMERIC).to_string()
}

/// The login page's query: where to go next.
#[derive(Deserialize)]
pub struct NextQuery {
    #[serde(default)]
    next: String,
}

fn login_response(
    state: &AppState,
    req: &HttpRequest,
    status: StatusCode,
    official: String,
    error: Option<String>,
    next: &str,
) -> Result<HttpResponse, AppError> {
    let token = req
        .cookie(auth::LOGIN_CSRF_COOKIE)
        .map(|c| c.value().to_owned())
        .filter(|v| v.len() == 64)
        .unwrap_or_else(auth::random_token);
    let mut response = render(
        status,
        &LoginPage {
            nav: Nav::anonymous(),
            login_csrf: auth::login_csrf_value(state.login_key(), &token),
            official,
            error,
            next: local(next).unwrap_or_default().to_owned(),
        },
    )?;
    response
        .add_cookie(&auth::login_csrf_cookie(token, state.secure_cookies))
        .map_err(AppError::internal)?;
    Ok(response)
}

pub async fn login_page(
    state: web::Data<AppState>,
    req: HttpRequest,
    query: web::Query<NextQuery>,
) -> Result<HttpResponse, HtmlError> {
    Ok(login_response(
        &state,
        &req,
        StatusCode::OK,
        String::new(),
        None,
        &query.next,
    )?)
}

#[derive(Deserialize)]
pub struct LoginForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    official: String,
    #[serde(default)]
    password: String,
    /// Where to go once logged in.
    #[serde(default)]
    next: String,
}

/// The answer to a throttled login: 429 with `Retry-After`, after the tarpit, logged now and
/// then.
async fn throttled(
    state: &web::Data<AppState>,
    req: &HttpRequest,
    official: String,
    address: Option<std::net::IpAddr>,
    wait: std::time::Duration,
    next: &str,
) -> Result<HttpResponse, HtmlError> {
    // Whole seconds, rounded up: `Retry-After` takes no fractions.
    let seconds = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
    if let Some(refused) = state.login_throttle().log_refusal() {
        let named: String = official.chars().take(64).collect();
        tracing::warn!(official = %named, address = ?address, retry_after = seconds, refused, "login throttled");
    }
    // A tarpit: the refusal comes after up to a second, which costs a timer and no CPU, so a
    // client guessing as fast as it is answered guesses once a second per connection instead
    // of thousands of times (each answer costing the tables their share of the two cores).
    actix_web::rt::time::sleep(state.login_throttle().tarpit(wait)).await;
    let mut response = login_response(
        state,
        req,
        StatusCode::TOO_MANY_REQUESTS,
        official,
        Some(format!(
            "too many attempts to log in: try again in {seconds} seconds"
        )),
        next,
    )?;
    response.headers_mut().insert(
        actix_web::http::header::RETRY_AFTER,
        actix_web::http::header::HeaderValue::from(seconds),
    );
    Ok(response)
}

pub async fn login(
    state: web::Data<AppState>,
    req: HttpRequest,
    form: Form<LoginForm>,
) -> Result<HttpResponse, HtmlError> {
    let form = form.into_inner();
    let official = form.official.trim().to_owned();
    let address = state.client_address(&req);
    // The address's allowance first: an attempt it refuses spends nothing of the official's.
    if let Err(wait) = state.login_throttle().from_address(address) {
        return throttled(&state, &req, official, address, wait, &form.next).await;
    }
    // Then the form's security token: a post without a good one spends nothing of the
    // official's allowance either (else anyone could keep an official out by posting in his
    // name).
    let cookie = req
        .cookie(auth::LOGIN_CSRF_COOKIE)
        .map(|c| c.value().to_owned());
    let csrf_ok = auth::login_csrf_ok(state.login_key(), cookie.as_deref(), &form.csrf);
    if !csrf_ok {
        return Ok(login_response(
            &state,
            &req,
            StatusCode::FORBIDDEN,
            official,
            Some("the form's security token is missing or stale: please try again".into()),
            &form.next,
        )?);
    }
    // The password is checked on a blocking thread without the officials' lock, which every
    // request with a session or a token needs: a flood of guesses must not slow them. A name
    // that is no official's counts against one allowance shared by all such names.
    let who = official.clone();
    let stored = state
        .auth(move |conn| auth::password_hash_of(conn, &who))
        .await?;
    let key = OfficialKey::of(&official, stored.is_some());
    if let Err(wait) = state.login_throttle().as_official(&key) {
        return throttled(&state, &req, official, address, wait, &form.next).await;
    }
    let password = form.password;
    let next = form.next;
    let matches = state
        .password_check(move || auth::password_matches(&password, stored.as_deref()))
        .await?;
    let result = if matches {
        let who = official.clone();
        state
            .write(move |ledger| auth::open_session(ledger, &who))
            .await
    } else {
        Err(auth::wrong_login())
    };
    match result {
        Ok((token, _csrf)) => {
            tracing::info!(official = %official, "logged in");
            let mut response = see_other(local(&next).unwrap_or("/"));
            response
                .add_cookie(&auth::session_cookie(token, state.secure_cookies))
                .map_err(AppError::internal)?;
            Ok(response)
        }
        Err(e) if e.kind == crate::server::error::ErrorKind::Unauthorized => {
            tracing::info!(official = %official, "login refused");
            Ok(login_response(
                &state,
                &req,
                StatusCode::UNAUTHORIZED,
                official,
                Some(e.message),
                &next,
            )?)
        }
        Err(e) => Err(e.into()),
    }
}

#[derive(Deserialize)]
pub struct CsrfOnly {
    #[serde(default)]
    pub csrf: String,
}

pub async fn logout(
    state: web::Data<AppState>,
    viewer: Viewer,
    req: HttpRequest,
    form: Form<CsrfOnly>,
) -> Result<HttpResponse, HtmlError> {
    if let Some(official) = &viewer.0 {
        official.check_csrf(&form.csrf)?;
        if let Some(c) = req.cookie(auth::SESSION_COOKIE) {
            let token = c.value().to_owned();
            state
                .write(move |ledger| auth::logout(ledger, &token))
                .await?;
        }
    }
    let mut response = see_other("/");
    let mut gone = auth::session_cookie(String::new(), state.secure_cookies);
    gone.make_removal();
    response.add_cookie(&gone).map_err(AppError::internal)?;
    Ok(response)
}

#[derive(Template)]
#[template(path = "account.html")]
struct AccountPage {
    nav: Nav,
    name: String,
    official: String,
    is_admin: bool,
    new_token: Option<String>,
    tokens: Vec<TokenRow>,
    notice: Option<String>,
    /// Why a password change was refused: every problem, with the field it concerns.
    problems: Vec<referee::Violation>,
}

/// An API token as the account page lists it.
struct TokenRow {
    id: i64,
    label: String,
    created: String,
    /// "never", a date, or "expired on" a date.
    expires: String,
    expired: bool,
}

/// Unix seconds as a date and time in UTC.
fn date(seconds: i64) -> String {
    chrono::DateTime::from_timestamp(seconds, 0).map_or_else(
        || seconds.to_string(),
        |d| d.format("%Y-%m-%d %H:%M UTC").to_string(),
    )
}

async fn account_page(
    state: &web::Data<AppState>,
    o: &Official,
    new_token: Option<String>,
    notice: Option<String>,
) -> Result<HttpResponse, AppError> {
    account_page_with(state, o, StatusCode::OK, new_token, notice, Vec::new()).await
}

async fn account_page_with(
    state: &web::Data<AppState>,
    o: &Official,
    status: StatusCode,
    new_token: Option<String>,
    notice: Option<String>,
    problems: Vec<referee::Violation>,
) -> Result<HttpResponse, AppError> {
    let id = o.id.to_string();
    let tokens = state
        .auth(move |conn| auth::list_api_tokens(conn, &id))
        .await?
        .into_iter()
        .map(|t| TokenRow {
            id: t.id,
            label: t.label,
            created: date(t.created_at),
            expires: match t.expires_at {
                None => "never".into(),
                Some(e) if t.expired => format!("expired {}", date(e)),
                Some(e) => date(e),
            },
            expired: t.expired,
        })
        .collect();
    render(
        status,
        &AccountPage {
            nav: Nav::for_official(o),
            name: o.name.clone(),
            official: o.id.to_string(),
            is_admin: o.is_admin,
            new_token,
            tokens,
            notice,
            problems,
        },
    )
}

/// `POST /account/password`: the official changes their own password. Every other session of
/// theirs ends; this one is renewed (a new session token and CSRF token), so the page goes on
/// working while a session someone else may hold does not.
pub async fn change_password(
    state: web::Data<AppState>,
    viewer: Viewer,
    req: HttpRequest,
    form: Form<PasswordChange>,
) -> Result<HttpResponse, HtmlError> {
    let official = viewer.require()?.clone();
    official.check_csrf(&form.csrf)?;
    let address = state.client_address(&req);
    match change_own_password(&state, &official, address, true, form.into_inner()).await {
        Ok(renewed) => {
            tracing::info!(official = %official.id, "password changed");
            let (token, csrf) = renewed.ok_or_else(|| AppError::internal("no session renewed"))?;
            let renewed_official = Official {
                csrf: Some(csrf),
                ..official
            };
            let mut response = account_page(
                &state,
                &renewed_official,
                None,
                Some("Your password is changed; your other sessions have ended".into()),
            )
            .await?;
            response
                .add_cookie(&auth::session_cookie(token, state.secure_cookies))
                .map_err(AppError::internal)?;
            Ok(response)
        }
        Err(e) if e.kind == ErrorKind::Unprocessable => {
            let problems = if e.violations.is_empty() {
                vec![referee::Violation::new("", e.message)]
            } else {
                e.violations
            };
            Ok(account_page_with(&state, &official, e.kind.status(), None, None, problems).await?)
        }
        Err(e) => Err(e.into()),
    }
}

pub async fn page(state: web::Data<AppState>, viewer: Viewer) -> Result<HttpResponse, HtmlError> {
    Ok(account_page(&state, viewer.require()?, None, None).await?)
}

#[derive(Deserialize)]
pub struct TokenForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    label: String,
    /// Days until the token expires; empty: until revoked.
    #[serde(default)]
    days: String,
}

/// The longest expiry a token may be given, in days (ten years).
const MAX_TOKEN_DAYS: i64 = 3650;

pub async fn create_token(
    state: web::Data<AppState>,
    viewer: Viewer,
    form: Form<TokenForm>,
) -> Result<HttpResponse, HtmlError> {
    let official = viewer.require()?.clone();
    official.check_csrf(&form.csrf)?;
    let label = form.label.trim().to_owned();
    if label.is_empty() {
        return Err(AppError::unprocessable("give the token a label").into());
    }
    let days = form.days.trim();
    let expires_at = if days.is_empty() {
        None
    } else {
        let n: i64 = days
            .parse()
            .ok()
            .filter(|n| (1..=MAX_TOKEN_DAYS).contains(n))
            .ok_or_else(|| {
                AppError::unprocessable(format!(
                    "`{days}` is not a number of days from 1 to {MAX_TOKEN_DAYS} (leave it empty for a token that lasts until revoked)"
                ))
            })?;
        Some(chrono::Utc::now().timestamp() + n * 86_400)
    };
    let id = official.id.clone();
    let token = state
        .write(move |ledger| auth::create_api_token_until(ledger, &id, &label, expires_at))
        .await?;
    Ok(account_page(&state, &official, Some(token), None).await?)
}

/// `POST /account/tokens/{id}/revoke`: one of the official's own tokens stops working at once.
pub async fn revoke_token(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<i64>,
    form: Form<CsrfOnly>,
) -> Result<HttpResponse, HtmlError> {
    let official = viewer.require()?.clone();
    official.check_csrf(&form.csrf)?;
    let (who, id) = (official.id.to_string(), path.into_inner());
    state
        .write(move |ledger| auth::revoke_api_token(ledger, &who, id))
        .await?;
    tracing::info!(official = %official.id, token = id, "API token revoked");
    Ok(account_page(
        &state,
        &official,
        None,
        Some(format!("API token {id} revoked: it no longer works")),
    )
    .await?)
}

#[derive(Template)]
#[template(path = "officials.html")]
struct OfficialsPage {
    nav: Nav,
    officials: Vec<OfficialListing>,
    error: Option<String>,
    notice: Option<String>,
}

pub(super) async fn officials_response(
    state: &web::Data<AppState>,
    o: &Official,
    status: StatusCode,
    error: Option<String>,
    notice: Option<String>,
) -> Result<HttpResponse, AppError> {
    let officials = state.auth(auth::list_officials).await?;
    render(
        status,
        &OfficialsPage {
            nav: Nav::for_official(o),
            officials,
            error,
            notice,
        },
    )
}

pub async fn officials_page(
    state: web::Data<AppState>,
    viewer: Viewer,
) -> Result<HttpResponse, HtmlError> {
    let o = viewer.require()?;
    o.require_role(Action::ManageOfficials)?;
    Ok(officials_response(&state, o, StatusCode::OK, None, None).await?)
}

pub async fn create_official(
    state: web::Data<AppState>,
    viewer: Viewer,
    form: Form<NewOfficial>,
) -> Result<HttpResponse, HtmlError> {
    let o = viewer.require()?.clone();
    o.require_role(Action::ManageOfficials)?;
    o.check_csrf(&form.csrf)?;
    match add_official(&state, &o, form.into_inner()).await {
        Ok(l) => Ok(officials_response(
            &state,
            &o,
            StatusCode::OK,
            None,
            Some(format!("{} ({}) can now log in", l.name, l.official)),
        )
        .await?),
        Err(e) if e.is_input_error() => {
            Ok(officials_response(&state, &o, e.kind.status(), Some(e.message), None).await?)
        }
        Err(e) => Err(e.into()),
    }
}
