//! Running a tournament in sessions from the pages: the sessions page with its seating
//! generator, closing a session, one session's balances, and withdrawals.

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;
use serde::Deserialize;

use super::problems::Problems;
use super::{render, see_other};
use crate::app::commands::session::{self as cmd, OpenSession};
use crate::app::commands::tournament::{self as t_cmd, Withdraw};
use crate::app::queries::sessions::{self, SessionStandingsView, SessionsView};
use crate::app::queries::Audience;
use crate::server::auth::Viewer;
use crate::server::error::{AppError, HtmlError};
use crate::server::form::Form;
use crate::server::nav::Nav;
use crate::server::params::SessionQuery;
use crate::server::state::AppState;

#[derive(Template)]
#[template(path = "sessions.html")]
struct SessionsPage {
    nav: Nav,
    s: SessionsView,
    problems: Problems,
    form: SessionForm,
}

/// The generator's form as typed (re-shown when refused).
#[derive(Clone, Debug, Default, Deserialize)]
pub struct SessionForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    method: String,
    #[serde(default)]
    seed: String,
    #[serde(default)]
    sessions: String,
    #[serde(default)]
    minutes: String,
}

fn number<T: std::str::FromStr>(field: &str, text: &str) -> Result<Option<T>, AppError> {
    match text.trim() {
        "" => Ok(None),
        t => t.parse().map(Some).map_err(|_| {
            AppError::violations(referee::Violations(vec![referee::Violation::new(
                field,
                format!("`{t}` is not a whole number"),
            )]))
        }),
    }
}

impl SessionForm {
    fn command(&self) -> Result<OpenSession, AppError> {
        Ok(OpenSession {
            method: self.method.clone(),
            seed: number("seed", &self.seed)?,
            sessions: number("sessions", &self.sessions)?,
            minutes: number("minutes", &self.minutes)?,
        })
    }
}

const INPUTS: [&str; 4] = ["method", "seed", "sessions", "minutes"];

async fn sessions_page(
    state: &web::Data<AppState>,
    viewer: &Viewer,
    id: String,
    status: StatusCode,
    error: Option<AppError>,
    form: Option<SessionForm>,
) -> Result<HttpResponse, AppError> {
    let problems = Problems::of(error.as_ref(), &INPUTS, str::to_owned);
    let audience = Audience::of(viewer);
    let s = state
        .read(move |l| sessions::view(l, &id, audience))
        .await?;
    let form = form.unwrap_or_else(|| SessionForm {
        method: s.last_method.clone(),
        sessions: s.event_sessions.map(|n| n.to_string()).unwrap_or_default(),
        ..SessionForm::default()
    });
    render(
        status,
        &SessionsPage {
            nav: Nav::for_viewer(viewer),
            s,
            problems,
            form,
        },
    )
}

/// `GET /t/<id>/sessions`.
pub async fn page(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
) -> Result<HttpResponse, HtmlError> {
    Ok(sessions_page(
        &state,
        &viewer,
        path.into_inner(),
        StatusCode::OK,
        None,
        None,
    )
    .await?)
}

/// Re-shows a page with a refused form's problems when the refusal is about the input; any
/// other failure is an error page.
async fn refused(
    state: &web::Data<AppState>,
    viewer: &Viewer,
    id: String,
    e: AppError,
    form: Option<SessionForm>,
) -> Result<HttpResponse, HtmlError> {
    if e.is_input_error() {
        let status = e.kind.status();
        Ok(sessions_page(state, viewer, id, status, Some(e), form).await?)
    } else {
        Err(e.into())
    }
}

/// `POST /t/<id>/sessions`: opens the next session, seated by the generator.
pub async fn open(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
    form: Form<SessionForm>,
) -> Result<HttpResponse, HtmlError> {
    let o = viewer.require()?.clone();
    o.check_csrf(&form.csrf)?;
    let id = path.into_inner();
    let form = form.into_inner();
    let command = match form.command() {
        Ok(c) => c,
        Err(e) => return refused(&state, &viewer, id, e, Some(form)).await,
    };
    let t = id.clone();
    match state.write(move |l| cmd::open(l, &t, &o, &command)).await {
        Ok(n) => Ok(see_other(&format!("/t/{id}/sessions#session-{n}"))),
        Err(e) => refused(&state, &viewer, id, e, Some(form)).await,
    }
}

#[derive(Deserialize)]
pub struct CsrfForm {
    #[serde(default)]
    csrf: String,
    /// The confirmation page was seen.
    #[serde(default)]
    confirm: String,
}

/// `POST /t/<id>/sessions/<n>/close`: closes its tables and reveals its results.
pub async fn close(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<(String, u32)>,
    form: Form<CsrfForm>,
) -> Result<HttpResponse, HtmlError> {
    let o = viewer.require()?.clone();
    o.check_csrf(&form.csrf)?;
    let (id, n) = path.into_inner();
    if !super::confirm::confirmed(&form.confirm) {
        o.require_role(crate::app::accounts::roles::Action::CloseTable)?;
        return Ok(super::confirm::ask(
            &viewer,
            super::confirm::Confirmation {
                title: format!("Close session {n}"),
                follows: vec![
                    "Its tables still open close: no more hands are recorded there.".into(),
                    "Every result of the session is published: the standings, its hands, its balances.".into(),
                    "A checkpoint of the ledger is signed: the head to publish.".into(),
                    "An organiser can reopen it this evening, saying why (its results are hidden again until it closes).".into(),
                ],
                action: format!("/t/{id}/sessions/{n}/close"),
                fields: Vec::new(),
                button: format!("Close session {n}"),
                back: format!("/t/{id}/sessions/{n}"),
            },
        )?);
    }
    let t = id.clone();
    let key = state.ledger_key();
    match state
        .write(move |l| cmd::close(l, &t, n, &o, Some(&key)))
        .await
    {
        Ok(()) => Ok(see_other(&format!("/t/{id}/sessions/{n}"))),
        Err(e) => refused(&state, &viewer, id, e, None).await,
    }
}

#[derive(Template)]
#[template(path = "session.html")]
struct SessionPage {
    nav: Nav,
    s: SessionStandingsView,
}

#[derive(Template)]
#[template(path = "cards.html")]
struct CardsPage {
    nav: Nav,
    s: SessionStandingsView,
}

/// `GET /t/<id>/sessions/<n>/cards`: the seating chart and a card per table, to print for the
/// wall and the tables (seats only: nothing of the results).
pub async fn cards(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, HtmlError> {
    let (id, n) = path.into_inner();
    let n = session_number(&n)?;
    let audience = Audience::of(&viewer);
    let s = state
        .read(move |l| sessions::session(l, &id, n, audience))
        .await?;
    Ok(render(
        StatusCode::OK,
        &CardsPage {
            nav: Nav::for_viewer(&viewer),
            s,
        },
    )?)
}

/// `GET /t/<id>/sessions/<n>`: a session's tables, clock and end-of-session balances.
pub async fn session(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, HtmlError> {
    let (id, n) = path.into_inner();
    let n = session_number(&n)?;
    let audience = Audience::of(&viewer);
    let s = state
        .read(move |l| sessions::session(l, &id, n, audience))
        .await?;
    Ok(render(
        StatusCode::OK,
        &SessionPage {
            nav: Nav::for_viewer(&viewer),
            s,
        },
    )?)
}

#[derive(Deserialize)]
pub struct WithdrawForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    reason: String,
}

/// `POST /t/<id>/players/<p>/withdraw`.
pub async fn withdraw(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<(String, String)>,
    form: Form<WithdrawForm>,
) -> Result<HttpResponse, HtmlError> {
    let o = viewer.require()?.clone();
    o.check_csrf(&form.csrf)?;
    let (id, player) = path.into_inner();
    let t = id.clone();
    let command = Withdraw {
        reason: form.reason.clone(),
    };
    match state
        .write(move |l| t_cmd::withdraw_player(l, &t, &player, &o, &command))
        .await
    {
        Ok(()) => Ok(see_other(&format!("/t/{id}"))),
        Err(e) => super::tournaments::refused(&state, &viewer, id, e).await,
    }
}

#[derive(Template)]
#[template(path = "seating_plan.html")]
struct PlanPage {
    nav: Nav,
    p: sessions::PlanPreview,
    /// The chairs of a planned table, in the order its names are listed.
    winds: [&'static str; 4],
}

/// The preview's query: `method`, `seed`, `sessions`.
#[derive(Deserialize)]
pub struct PlanQuery {
    #[serde(default)]
    method: Option<String>,
    #[serde(default)]
    seed: Option<String>,
    #[serde(default)]
    sessions: Option<String>,
}

/// `GET /t/<id>/seating?method=no-repeat&seed=7&sessions=5` (officials): a whole plan for the
/// players present, with its repeated meetings, before anything is recorded.
pub async fn plan(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
    query: web::Query<PlanQuery>,
) -> Result<HttpResponse, HtmlError> {
    // Officials only: a plan is search work (up to a million tabu steps), not to be asked for
    // by anyone at will.
    viewer.require()?;
    let id = path.into_inner();
    let method = query.method.clone().unwrap_or_else(|| "no-repeat".into());
    let seed = number::<u64>("seed", query.seed.as_deref().unwrap_or(""))?.unwrap_or(1);
    let sessions = number::<u32>("sessions", query.sessions.as_deref().unwrap_or(""))?
        .unwrap_or(1)
        .clamp(1, 100);
    let audience = Audience::of(&viewer);
    let p = state
        .read(move |l| sessions::preview(l, &id, &method, seed, sessions, audience))
        .await?;
    Ok(render(
        StatusCode::OK,
        &PlanPage {
            nav: Nav::for_viewer(&viewer),
            p,
            winds: ["East", "South", "West", "North"],
        },
    )?)
}

impl SessionQuery {
    /// The session asked for; a number that is not one is a 404 that says so.
    pub fn session(&self) -> Result<Option<u32>, AppError> {
        match self.session.as_deref().map(str::trim) {
            None | Some("") => Ok(None),
            Some(t) => t.parse().map(Some).map_err(|_| {
                AppError::not_found(format!("no session `{t}`: sessions are numbered 1, 2, …"))
            }),
        }
    }
}

/// A session's number in a path; one that is not a number is a 404 that says so.
pub(super) fn session_number(n: &str) -> Result<u32, AppError> {
    n.parse().map_err(|_| {
        AppError::not_found(format!("no session `{n}`: sessions are numbered 1, 2, …"))
    })
}
