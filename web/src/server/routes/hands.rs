//! A hand's page and correcting it.

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;

use super::hand_form::{HandForm, HandFormPage};
use super::{render, see_other};
use crate::server::auth::{Official, Viewer};
use crate::server::commands::hand::{self as cmd, CorrectHand};
use crate::server::error::{AppError, HtmlError};
use crate::server::state::AppState;
use crate::server::views::hand::{self, HandView};
use crate::server::views::Nav;

#[derive(Template)]
#[template(path = "hand.html")]
struct Page {
    nav: Nav,
    h: HandView,
}

pub async fn page(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
) -> Result<HttpResponse, HtmlError> {
    let id = path.into_inner();
    let h = state.read(move |l| hand::view(l, &id)).await?;
    Ok(render(
        StatusCode::OK,
        &Page {
            nav: Nav::for_viewer(&viewer),
            h,
        },
    )?)
}

async fn form_page(
    state: &web::Data<AppState>,
    o: &Official,
    hand_id: String,
    form: Option<HandForm>,
    status: StatusCode,
    error: Option<String>,
) -> Result<HttpResponse, AppError> {
    let id = hand_id.clone();
    let h = state.read(move |l| hand::view(l, &id)).await?;
    // A refused form keeps the version it was loaded at, so a conflict stays a conflict.
    let version = form
        .as_ref()
        .and_then(|f| f.version.trim().parse().ok())
        .unwrap_or(h.version);
    // Prefilled with what is recorded, so only the mistake needs changing.
    let form = form.unwrap_or_else(|| {
        let notation = |i: usize| h.seats[i].notation.clone();
        let win = h
            .seats
            .iter()
            .find(|s| s.winner)
            .map(|s| s.seat_key.to_owned());
        HandForm {
            hand_east: notation(0),
            hand_south: notation(1),
            hand_west: notation(2),
            hand_north: notation(3),
            winner: win.unwrap_or_default(),
            ..Default::default()
        }
    });
    let labels: [String; 4] = std::array::from_fn(|i| {
        let s = &h.seats[i];
        format!("{} — {} seat, {} this hand", s.name, s.seat, s.wind)
    });
    let page = HandFormPage::new(
        Nav::for_official(o),
        format!("Correct game {}, hand {}", h.game, h.number),
        format!(
            "Table {}. The recorded entry stays in the hand's history, marked superseded.",
            h.table
        ),
        format!("/hands/{hand_id}/corrections"),
        hand_id,
        Some(version),
        labels,
        &form,
        error,
    );
    render(status, &page)
}

pub async fn correct_page(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
) -> Result<HttpResponse, HtmlError> {
    let o = viewer.require()?;
    o.require_role(crate::server::roles::Action::CorrectHand)?;
    Ok(form_page(&state, o, path.into_inner(), None, StatusCode::OK, None).await?)
}

/// Records a correction (shared with the API).
pub async fn correct_hand(
    state: &web::Data<AppState>,
    o: &Official,
    hand: String,
    command: CorrectHand,
) -> Result<String, AppError> {
    o.require_role(crate::server::roles::Action::CorrectHand)?;
    let by = o.clone();
    let stream = state
        .write(move |l| cmd::correct(l, &hand, &by, &command))
        .await?;
    Ok(stream.id().to_owned())
}

pub async fn correct(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
    form: web::Form<HandForm>,
) -> Result<HttpResponse, HtmlError> {
    let o = viewer.require()?.clone();
    o.check_csrf(&form.csrf)?;
    let hand = path.into_inner();
    let form = form.into_inner();
    let result = match (form.facts(), form.version.trim().parse::<u64>()) {
        (Ok(facts), Ok(version)) => {
            let command = CorrectHand {
                version,
                reason: form.reason.clone(),
                facts,
            };
            correct_hand(&state, &o, hand.clone(), command).await
        }
        (Err(e), _) => Err(e),
        (_, Err(_)) => Err(AppError::bad_request("the form lacks the hand's version")),
    };
    match result {
        Ok(hand) => Ok(see_other(&format!("/hands/{hand}"))),
        Err(e) if e.is_input_error() => Ok(form_page(
            &state,
            &o,
            hand,
            Some(form),
            e.kind.status(),
            Some(e.message),
        )
        .await?),
        Err(e) => Err(e.into()),
    }
}
