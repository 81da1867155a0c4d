//! A table's page and recording its next hand.

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;
use referee::Seat;

use super::hand_form::{HandForm, HandFormPage, PreviewContext, SettlementRow};
use super::{render, see_other};
use crate::app::commands::hand::{self as cmd, RecordHand};
use crate::app::queries::paging::{PageQuery, Paging};
use crate::app::queries::table::{self, TableView};
use crate::app::queries::{seat_title, signed};
use crate::server::auth::{Official, Viewer};
use crate::server::error::{AppError, HtmlError};
use crate::server::form::Form;
use crate::server::nav::Nav;
use crate::server::state::AppState;
use crate::server::writes::record_hand;

#[derive(Template)]
#[template(path = "table.html")]
struct Page {
    nav: Nav,
    t: TableView,
    /// The hands are listed 50 to a page.
    paging: Option<Paging>,
    page_base: String,
    paging_label: &'static str,
    /// The "start" row (the starting chips) heads the first page only.
    show_start: bool,
}

pub async fn page(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
    query: web::Query<PageQuery>,
) -> Result<HttpResponse, HtmlError> {
    let id = path.into_inner();
    let number = query.number()?;
    let page_base = format!("/tables/{id}");
    let audience = crate::app::queries::Audience::of(&viewer);
    let (t, paging) = state
        .read(move |l| {
            // While its session is in play the public sees no hands, nor how many pages of
            // them there are: no paging at all, so no page number tells the count.
            let hidden = audience == crate::app::queries::Audience::Public
                && crate::app::queries::visibility::open_session_of(l, &id)?.is_some();
            let (t, paging) = table::view_paged(l, &id, (!hidden).then_some(number))?;
            let t = t.for_audience(audience);
            // While its session is in play the public sees no hands, nor how many pages of them.
            let paging = paging.filter(|_| !t.results_hidden);
            Ok((t, paging))
        })
        .await?;
    Ok(render(
        StatusCode::OK,
        &Page {
            nav: Nav::for_viewer(&viewer),
            t,
            show_start: paging.as_ref().is_none_or(|p| p.prev().is_none()),
            paging,
            page_base,
            paging_label: "Pages of this table's hands",
        },
    )?)
}

async fn form_page(
    state: &web::Data<AppState>,
    o: &Official,
    table_id: String,
    form: HandForm,
    status: StatusCode,
    error: Option<AppError>,
    preview: Option<cmd::RecordPreview>,
) -> Result<HttpResponse, AppError> {
    let id = table_id.clone();
    let t = state.read(move |l| table::view(l, &id)).await?;
    let next = t
        .next
        .as_ref()
        .ok_or_else(|| AppError::unprocessable("the seats at this table have not been drawn"))?;
    let labels: [String; 4] = std::array::from_fn(|i| {
        let seat = &t.seats[i];
        let wind = seat_title(Seat::from_index(i).wind(next.east));
        format!("{} — {} seat, {wind} this hand", seat.name, seat.seat)
    });
    let context_of = PreviewContext {
        east: next.east,
        prevailing: next.prevailing_wind,
        tournament: t.tournament.clone(),
    };
    let settlement = preview
        .map(|p| {
            Seat::ALL
                .into_iter()
                .map(|seat| SettlementRow {
                    label: labels[seat.index()].clone(),
                    score: p.sheets[seat].total,
                    net: signed(p.settlement.nets[seat]),
                })
                .collect()
        })
        .unwrap_or_default();
    let mut page = HandFormPage::new(
        Nav::for_official(o),
        format!(
            "Table {}: record game {}, hand {}",
            t.number, next.game, next.number
        ),
        format!(
            "{} wind prevails; {} is East (deals).",
            next.prevailing, next.east_player
        ),
        format!("/tables/{table_id}/hands"),
        if form.hand.is_empty() {
            next.hand.clone()
        } else {
            form.hand.clone()
        },
        None,
        labels,
        context_of,
        &form,
        error,
    );
    page.settlement = settlement;
    page.clock = t.session.clone().filter(|c| c.open);
    render(status, &page)
}

/// `GET /tables/<t>/record`, empty, or filled from its query (the form as typed when a
/// login ran out under it: see [`record`]).
pub async fn record_page(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
    typed: web::Query<HandForm>,
) -> Result<HttpResponse, HtmlError> {
    let table = path.into_inner();
    let Some(o) = &viewer.0 else {
        return Ok(super::account::log_in_and_return(&format!(
            "/tables/{table}/record"
        )));
    };
    o.require_role(crate::server::roles::Action::RecordHand)?;
    let mut typed = typed.into_inner();
    typed.csrf.clear();
    Ok(form_page(&state, o, table, typed, StatusCode::OK, None, None).await?)
}

pub async fn record(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
    form: Form<HandForm>,
) -> Result<HttpResponse, HtmlError> {
    // A login that ran out while the hand was typed: log in, and come back to the form as it
    // was typed (nothing is recorded on the way).
    let Some(o) = viewer.0.clone() else {
        let mut typed = form.into_inner();
        typed.csrf.clear();
        typed.preview.clear();
        let query = serde_urlencoded::to_string(&typed).map_err(AppError::internal)?;
        let back = format!("/tables/{}/record?{query}", path.into_inner());
        return Ok(super::account::log_in_and_return(&back));
    };
    o.check_csrf(&form.csrf)?;
    // Who may record is said before what is wrong with the form.
    o.require_role(crate::server::roles::Action::RecordHand)?;
    let table = path.into_inner();
    let form = form.into_inner();
    let command = form
        .report()
        .map(|report| RecordHand::new(form.hand.clone(), report));
    if !form.preview.trim().is_empty() {
        // Show the scores and the settlement; record nothing.
        let (by, id) = (o.clone(), table.clone());
        let previewed = match command {
            Ok(c) => {
                state
                    .read(move |l| cmd::preview_record(l, &id, &by, &c))
                    .await
            }
            Err(e) => Err(e),
        };
        return Ok(match previewed {
            Ok(p) => form_page(&state, &o, table, form, StatusCode::OK, None, Some(p)).await?,
            Err(e) if e.is_input_error() => {
                form_page(&state, &o, table, form, e.kind.status(), Some(e), None).await?
            }
            Err(e) => return Err(e.into()),
        });
    }
    let result = match command {
        Ok(command) => record_hand(&state, &o, table.clone(), command).await,
        Err(e) => Err(e),
    };
    match result {
        Ok(hand) => Ok(see_other(&format!("/hands/{hand}"))),
        Err(e) if e.is_input_error() => {
            Ok(form_page(&state, &o, table, form, e.kind.status(), Some(e), None).await?)
        }
        Err(e) => Err(e.into()),
    }
}
