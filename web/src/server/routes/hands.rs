//! A hand's page and correcting it.

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;
use referee::Seat;

use super::hand_form::{HandForm, HandFormPage, PreviewContext, PreviewRow};
use super::{render, see_other};
use crate::app::commands::hand::{self as cmd, CorrectHand, CorrectionPreview};
use crate::app::queries::hand::{self, HandView};
use crate::server::auth::{Official, Viewer};
use crate::server::error::{AppError, HtmlError};
use crate::server::form::Form;
use crate::server::nav::Nav;
use crate::server::state::AppState;
use crate::server::writes::correct_hand;

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
    let audience = crate::app::queries::Audience::of(&viewer);
    let h = state
        .read(move |l| hand::view(l, &id))
        .await?
        .for_audience(audience);
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
    error: Option<AppError>,
    preview: Option<CorrectionPreview>,
) -> Result<HttpResponse, AppError> {
    let id = hand_id.clone();
    let (h, recorded) = state
        .read(move |l| Ok((hand::view(l, &id)?, cmd::recorded_report(l, &id)?)))
        .await?;
    // A refused form keeps the version it was loaded at, so a conflict stays a conflict.
    let version = form
        .as_ref()
        .and_then(|f| f.version.trim().parse().ok())
        .unwrap_or(h.version);
    // Prefilled with every recorded fact, so only the mistake needs changing.
    let form = form.unwrap_or_else(|| HandForm::from_report(&recorded));
    let labels: [String; 4] = std::array::from_fn(|i| {
        let s = &h.seats[i];
        format!("{} — {} seat, {} this hand", s.name, s.seat, s.wind)
    });
    let preview_rows = preview
        .map(|p| {
            Seat::ALL
                .into_iter()
                .map(|seat| PreviewRow {
                    label: labels[seat.index()].clone(),
                    before: p.before.nets[seat],
                    after: p.after.nets[seat],
                })
                .collect()
        })
        .unwrap_or_default();
    let mut page = HandFormPage::new(
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
        PreviewContext {
            east: h.east_seat,
            prevailing: h.prevailing_wind,
            tournament: h.tournament.clone(),
        },
        &form,
        error,
    );
    page.preview = preview_rows;
    render(status, &page)
}

pub async fn correct_page(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
) -> Result<HttpResponse, HtmlError> {
    let o = viewer.require()?;
    o.require_role(crate::server::roles::Action::CorrectHand)?;
    Ok(form_page(
        &state,
        o,
        path.into_inner(),
        None,
        StatusCode::OK,
        None,
        None,
    )
    .await?)
}

pub async fn correct(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
    form: Form<HandForm>,
) -> Result<HttpResponse, HtmlError> {
    let o = viewer.require()?.clone();
    o.check_csrf(&form.csrf)?;
    // Who may correct is said before what is wrong with the form.
    o.require_role(crate::server::roles::Action::CorrectHand)?;
    let hand = path.into_inner();
    let form = form.into_inner();
    let result = match (form.report(), form.version.trim().parse::<u64>()) {
        (Ok(report), Ok(version)) => {
            let command =
                CorrectHand::stating(version, &form.reason, report, !form.preview.is_empty());
            correct_hand(&state, &o, hand.clone(), command).await
        }
        (Err(e), _) => Err(e),
        (_, Err(_)) => Err(AppError::bad_request("the form lacks the hand's version")),
    };
    match result {
        Ok((_, Some(preview))) => Ok(form_page(
            &state,
            &o,
            hand,
            Some(form),
            StatusCode::OK,
            None,
            Some(preview),
        )
        .await?),
        Ok((hand, None)) => Ok(see_other(&format!("/hands/{hand}"))),
        Err(e) if e.is_input_error() => {
            let status = e.kind.status();
            Ok(form_page(&state, &o, hand, Some(form), status, Some(e), None).await?)
        }
        Err(e) => Err(e.into()),
    }
}
