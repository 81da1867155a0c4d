//! The scorer's page: recording a hand play by play at a real table, one tap per act.
//!
//! - `GET /tables/{table}/play`: the hand in play and its buttons, or the form to start the
//!   next hand.
//! - `POST /tables/{table}/play/start`: starts the next hand (the dice, what is seen of the
//!   deal).
//! - `POST /tables/{table}/play`: records one act (`act`, in the position notation; or `verb`
//!   and `tile` from the picker), decided on the hand's `version`. An act that ends the hand
//!   first asks for the hands laid down (`GET /tables/{table}/play/end?…`, each hand as it
//!   lies), then records them with it and lands on the hand's page.
//! - `POST /tables/{table}/play/strike`: strikes the scorer's own last entry (`EntryStruck`).
//!
//! Every form works without JavaScript; `scorer.js` posts them in the background and swaps the
//! page in place. A refused act is shown beside the buttons with its reason, and nothing is
//! recorded; a stale version shows the table as it now is.

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use ledger::event::{EntryStruck, HandEvent};
use referee::position::Act;
use referee::Seat;

use self::forms::{PlayForm, StartForm, StrikeForm};
use super::{render, see_other};
use crate::app::accounts::roles::Action;
use crate::app::commands::play::{self as cmd, PlayEvent};
use crate::app::error::ErrorKind;
use crate::app::queries::scorer::{self, LayDown, ScorerPage};
use crate::server::auth::{Official, Viewer};
use crate::server::error::{AppError, HtmlError};
use crate::server::form::Form;
use crate::server::nav::Nav;
use crate::server::state::AppState;

mod forms;

#[derive(Template)]
#[template(path = "scorer.html")]
struct Page {
    nav: Nav,
    s: ScorerPage,
    error: Option<String>,
    notice: Option<String>,
    /// Each seat's own view of the hand in play, for its player's phone (the ledger's key to it
    /// in the link).
    seat_links: Vec<(&'static str, String)>,
}

#[derive(Template)]
#[template(path = "scorer_end.html")]
struct EndPage {
    nav: Nav,
    table: String,
    table_number: u32,
    hand: String,
    version: u64,
    reason: String,
    end: LayDown,
    error: Option<String>,
}

/// An error in words for the page: its message and each violation with its rule.
fn in_words(e: &AppError) -> String {
    let mut out = e.message.clone();
    for v in &e.violations {
        out.push_str("; ");
        out.push_str(&v.to_string());
    }
    out
}

/// The official, who must be allowed to record hands.
fn scorer(viewer: &Viewer) -> Result<Official, AppError> {
    let o = viewer.require()?.clone();
    o.require_role(Action::RecordHand)?;
    Ok(o)
}

/// The page as it now stands, with what happened to the last request.
async fn page_now(
    state: &web::Data<AppState>,
    viewer: &Viewer,
    table: String,
    status: StatusCode,
    error: Option<String>,
    notice: Option<String>,
) -> Result<HttpResponse, AppError> {
    // From the table the writes keep folded: a tap's page does not fold it again.
    let s = state
        .read_tables(move |l, t| scorer::page_in(l, t.load(l, &table)?))
        .await?;
    rendered(state, viewer, s, status, error, notice)
}

/// The page `s`, with each seat's own view linked.
fn rendered(
    state: &web::Data<AppState>,
    viewer: &Viewer,
    s: ScorerPage,
    status: StatusCode,
    error: Option<String>,
    notice: Option<String>,
) -> Result<HttpResponse, AppError> {
    let key = state.ledger_key();
    let seat_links = s
        .play
        .iter()
        .flat_map(|p| {
            let key = &key;
            Seat::ALL.into_iter().map(move |seat| {
                (
                    crate::app::queries::seat_title(seat),
                    format!(
                        "/hands/{}/at/now{}",
                        p.hand,
                        super::replay::seat_view_query(key, &p.hand, seat)
                    ),
                )
            })
        })
        .collect();
    render(
        status,
        &Page {
            nav: Nav::for_viewer(viewer),
            s,
            error,
            notice,
            seat_links,
        },
    )
}

/// The header `scorer.js` sends with a tap: answer with the page as it now stands (200) rather
/// than send the browser to it (303), one request instead of two.
const IN_PLACE: &str = "x-scorer-page";

fn in_place(req: &HttpRequest) -> bool {
    req.headers().contains_key(IN_PLACE)
}

pub async fn page(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
) -> Result<HttpResponse, HtmlError> {
    scorer(&viewer)?;
    Ok(page_now(
        &state,
        &viewer,
        path.into_inner(),
        StatusCode::OK,
        None,
        None,
    )
    .await?)
}

pub async fn start(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
    form: Form<StartForm>,
) -> Result<HttpResponse, HtmlError> {
    let o = scorer(&viewer)?;
    o.check_csrf(&form.csrf)?;
    let table = path.into_inner();
    let started = match form.command() {
        Ok(command) => {
            let id = table.clone();
            state
                .write_tables(move |l, t| cmd::start(l, t, &id, &o, &command))
                .await
        }
        Err(e) => Err(e),
    };
    match started {
        Ok(p) => {
            state.live.announce(&p);
            Ok(see_other(&format!("/tables/{table}/play")))
        }
        Err(e) => Ok(refused(&state, &viewer, table, e).await?),
    }
}

/// The page again with the refusal beside the buttons (or the table as it now is, for a
/// stale page).
async fn refused(
    state: &web::Data<AppState>,
    viewer: &Viewer,
    table: String,
    e: AppError,
) -> Result<HttpResponse, AppError> {
    match e.kind {
        ErrorKind::Conflict => {
            let notice = format!("{} — the table as it now is:", in_words(&e));
            page_now(
                state,
                viewer,
                table,
                StatusCode::CONFLICT,
                None,
                Some(notice),
            )
            .await
        }
        ErrorKind::BadRequest | ErrorKind::Unprocessable | ErrorKind::NotFound => {
            let status = e.kind.status();
            let text = format!("Not recorded: {}", in_words(&e));
            page_now(state, viewer, table, status, Some(text), None).await
        }
        _ => Err(e),
    }
}

pub async fn record(
    state: web::Data<AppState>,
    viewer: Viewer,
    req: HttpRequest,
    path: web::Path<String>,
    form: Form<PlayForm>,
) -> Result<HttpResponse, HtmlError> {
    let o = scorer(&viewer)?;
    o.check_csrf(&form.csrf)?;
    let table = path.into_inner();
    let form = form.into_inner();
    let decided = (|| {
        let act = form.act()?;
        Ok::<_, AppError>((form.version()?, act.clone(), form.event(&act)))
    })();
    let (version, act, event) = match decided {
        Ok(d) => d,
        Err(e) => return Ok(refused(&state, &viewer, table, e).await?),
    };
    // The act that ends the hand asks for the hands laid down first (a page of its own).
    if scorer::ends_play(&act) && form.laying.trim() != "1" {
        let query = serde_urlencoded::to_string([
            ("hand", form.hand.trim()),
            ("version", &version.to_string()),
            ("act", &act.to_string()),
            ("reason", form.reason.trim()),
        ])
        .map_err(|e| AppError::internal(format!("the end's address: {e}")))?;
        return Ok(see_other(&format!("/tables/{table}/play/end?{query}")));
    }
    let laid_down = match form.laid_down().and_then(|l| Ok((l, form.counts()?))) {
        Ok(l) => l,
        Err(e) => {
            return Ok(end_page(
                &state,
                &viewer,
                &table,
                &form,
                version,
                &act,
                Some(in_words(&e)),
            )
            .await?)
        }
    };
    let (laid_down, counts) = laid_down;
    let hand = form.hand.trim().to_owned();
    let command = PlayEvent {
        version,
        event: event.into(),
        seat: None,
        laid_down,
    };
    let id = hand.clone();
    let who = o.clone();
    let tbl = table.clone();
    let answer_here = in_place(&req);
    let recorded = state
        .write_tables(move |l, t| {
            let p = cmd::record(l, t, &id, &who, &command)?;
            // The page as the act leaves it, from the table just folded, in the same turn of
            // the writer. A hand whose result is now recorded goes to the hand's page instead
            // (a false call of Mah-Jongg leaves it in play, waiting, §82).
            let ctx = t.load(l, &tbl)?;
            let ended = ctx.state.in_play().is_none();
            let page = match answer_here && !ended {
                true => Some(scorer::page_in(l, ctx)?),
                false => None,
            };
            // The players' own counts given with the end, on the hand now settled (§110).
            if ended && !p.retried {
                for &(seat, points) in &counts {
                    let count = crate::app::commands::count::RecordCount {
                        version: l.stream_version(&p.stream)?,
                        seat,
                        points,
                        elements: Vec::new(),
                    };
                    crate::app::commands::count::record(l, &id, &who, &count).map_err(|e| {
                        AppError::new(
                            e.kind,
                            format!(
                                "the hand's end is recorded; {seat}'s own count was not: {}",
                                in_words(&e)
                            ),
                        )
                    })?;
                }
            }
            Ok((p, page, ended))
        })
        .await;
    match recorded {
        Ok((p, page, ended)) => {
            state.live.announce(&p);
            if let Some(s) = page {
                Ok(rendered(&state, &viewer, s, StatusCode::OK, None, None)?)
            } else if ended {
                Ok(see_other(&format!("/hands/{hand}")))
            } else {
                Ok(see_other(&format!("/tables/{table}/play")))
            }
        }
        Err(e) if form.laying.trim() == "1" && e.kind == ErrorKind::Unprocessable => Ok(end_page(
            &state,
            &viewer,
            &table,
            &form,
            version,
            &act,
            Some(in_words(&e)),
        )
        .await?),
        Err(e) => Ok(refused(&state, &viewer, table, e).await?),
    }
}

/// `GET /tables/{table}/play/end?hand=…&version=…&act=…`: the hands to lay down with the act
/// that ends the hand, each as it lies where its tiles are known.
pub async fn end(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
    query: web::Query<PlayForm>,
) -> Result<HttpResponse, HtmlError> {
    scorer(&viewer)?;
    let table = path.into_inner();
    let form = query.into_inner();
    let decided = form.version().and_then(|v| Ok((v, form.act()?)));
    match decided {
        Ok((version, act)) => {
            Ok(end_page(&state, &viewer, &table, &form, version, &act, None).await?)
        }
        Err(e) => Ok(refused(&state, &viewer, table, e).await?),
    }
}

/// The form laying the hands down with the act that ends the hand.
async fn end_page(
    state: &web::Data<AppState>,
    viewer: &Viewer,
    table: &str,
    form: &PlayForm,
    version: u64,
    act: &Act,
    error: Option<String>,
) -> Result<HttpResponse, AppError> {
    let id = table.to_owned();
    let a = act.clone();
    let end = match state.read(move |l| scorer::lay_down(l, &id, &a)).await {
        Ok(v) => v,
        Err(e) => return refused(state, viewer, table.to_owned(), e).await,
    };
    let mut end = end;
    // What the scorer wrote stays as written.
    let written = [
        &form.laid_east,
        &form.laid_south,
        &form.laid_west,
        &form.laid_north,
    ];
    for (s, w) in end.seats.iter_mut().zip(written) {
        if !w.trim().is_empty() {
            s.as_it_lies = w.trim().to_owned();
        }
    }
    render(
        if error.is_some() {
            StatusCode::UNPROCESSABLE_ENTITY
        } else {
            StatusCode::OK
        },
        &EndPage {
            nav: Nav::for_viewer(viewer),
            table: table.to_owned(),
            table_number: end.table_number,
            hand: form.hand.trim().to_owned(),
            version,
            reason: form.reason.trim().to_owned(),
            end,
            error,
        },
    )
}

pub async fn strike(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
    form: Form<StrikeForm>,
) -> Result<HttpResponse, HtmlError> {
    let o = scorer(&viewer)?;
    o.check_csrf(&form.csrf)?;
    let table = path.into_inner();
    let parsed = form
        .version
        .trim()
        .parse::<u64>()
        .ok()
        .zip(form.entry.trim().parse::<u32>().ok());
    let Some((version, entry)) = parsed else {
        let e = AppError::bad_request(
            "the form lacks the hand's version or the entry: reload the page",
        );
        return Ok(refused(&state, &viewer, table, e).await?);
    };
    let command = PlayEvent {
        version,
        event: HandEvent::EntryStruck(EntryStruck {
            entry,
            reason: form.reason.trim().to_owned(),
        })
        .into(),
        seat: None,
        laid_down: Vec::new(),
    };
    let hand = form.hand.trim().to_owned();
    let recorded = state
        .write_tables(move |l, t| cmd::record(l, t, &hand, &o, &command))
        .await;
    match recorded {
        Ok(p) => {
            state.live.announce(&p);
            Ok(see_other(&format!("/tables/{table}/play")))
        }
        Err(e) => Ok(refused(&state, &viewer, table, e).await?),
    }
}
