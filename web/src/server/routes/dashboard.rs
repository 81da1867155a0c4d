//! The director's room, and the sheet the night ends with (`/t/<id>/sessions/<n>/night`).
//!
//! `GET /t/<id>/sessions/<n>/live`: every table of a session at a glance,
//! for a projector or a phone; and `GET /t/<id>/sessions/<n>/live/events`, Server-Sent Events
//! that say "something was recorded" (nothing more), after which the page reads itself again
//! as its reader may see it (`dashboard.js`). Without the script the page refreshes itself
//! every thirty seconds.

use std::time::Duration;

use actix_web::http::StatusCode;
use actix_web::web::Bytes;
use actix_web::{web, HttpResponse};
use askama::Template;
use futures_util::stream;

use super::render;
use super::sessions::session_number;
use crate::app::queries::dashboard::{self, DashboardView};
use crate::app::queries::Audience;
use crate::server::auth::Viewer;
use crate::server::error::HtmlError;
use crate::server::nav::Nav;
use crate::server::state::AppState;

/// How often an idle stream says it is still there.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

#[derive(Template)]
#[template(path = "night.html")]
struct NightPage {
    nav: Nav,
    n: crate::app::queries::night::NightSheet,
}

/// `GET /t/<id>/sessions/<n>/night`: the end-of-night sheet, to print or pin.
pub async fn night(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, HtmlError> {
    let (id, n) = path.into_inner();
    let n = session_number(&n)?;
    let audience = Audience::of(&viewer);
    let sheet = state
        .read(move |l| crate::app::queries::night::sheet(l, &id, n, audience))
        .await?;
    Ok(render(
        StatusCode::OK,
        &NightPage {
            nav: Nav::for_viewer(&viewer),
            n: sheet,
        },
    )?)
}

#[derive(Template)]
#[template(path = "dashboard.html")]
struct DashboardPage {
    nav: Nav,
    d: DashboardView,
}

/// `GET /t/<id>/sessions/<n>/live`.
pub async fn page(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, HtmlError> {
    let (id, n) = path.into_inner();
    let n = session_number(&n)?;
    let audience = Audience::of(&viewer);
    let d = state
        .read(move |l| dashboard::dashboard(l, &id, n, audience))
        .await?;
    Ok(render(
        StatusCode::OK,
        &DashboardPage {
            nav: Nav::for_viewer(&viewer),
            d,
        },
    )?)
}

/// `GET /t/<id>/sessions/<n>/live/events`: `event: written` after each write to the ledger
/// (a burst heard once), a comment every fifteen seconds. Which tournament was written is not
/// said; the page reads itself again, as cheap as a reload.
pub async fn events(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, HtmlError> {
    let (id, n) = path.into_inner();
    let n = session_number(&n)?;
    let audience = Audience::of(&viewer);
    // Only for a session the reader may see (asked, not the whole room read).
    state
        .read(move |l| dashboard::visible_session(l, &id, n, audience).map(drop))
        .await?;
    let rx = state.writes();
    let events = stream::unfold(rx, |mut rx| async move {
        match tokio::time::timeout(KEEP_ALIVE, rx.changed()).await {
            Ok(Ok(())) => {
                rx.borrow_and_update();
                let event = Bytes::from_static(b"event: written\ndata: \n\n");
                Some((Ok::<_, actix_web::Error>(event), rx))
            }
            Ok(Err(_)) => None,
            Err(_) => Some((Ok(Bytes::from_static(b": still here\n\n")), rx)),
        }
    });
    Ok(crate::server::sse::respond(&state, events))
}
