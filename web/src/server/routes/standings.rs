//! The standings: the page, sortable by any column and ranked by the tournament's tie-break
//! chain, and its CSV for a spreadsheet.

use actix_web::{web, HttpResponse};
use askama::Template;

use super::spreadsheet::{self, Csv};
use crate::app::queries::tournament::{self, SortBy, StandingsView};
use crate::app::queries::{visibility, Audience};
use crate::server::auth::Viewer;
use crate::server::error::{AppError, HtmlError};
use crate::server::nav::Nav;
use crate::server::params::SortQuery;
use crate::server::state::AppState;

impl SortQuery {
    pub fn parse(&self) -> (SortBy, bool) {
        let sort = SortBy::parse(self.sort.as_deref());
        let default_desc = sort != SortBy::Name;
        let descending = match self.dir.as_deref() {
            Some("asc") => false,
            Some("desc") => true,
            _ => default_desc,
        };
        (sort, descending)
    }
}

struct Column {
    key: &'static str,
    title: &'static str,
    class: &'static str,
    next_dir: &'static str,
    arrow: &'static str,
    /// `ascending` or `descending` on the column the rows are sorted by, else `none`.
    aria_sort: &'static str,
}

#[derive(Template)]
#[template(path = "standings.html")]
struct StandingsPage {
    nav: Nav,
    s: StandingsView,
    columns: Vec<Column>,
}

fn columns(s: &StandingsView) -> Vec<Column> {
    [
        ("name", "Player", "", SortBy::Name),
        ("net", "Net chips", "num", SortBy::Net),
        ("played", "Hands played", "num", SortBy::Played),
        ("won", "Hands won", "num", SortBy::Won),
        ("largest", "Largest hand", "num", SortBy::Largest),
    ]
    .into_iter()
    .map(|(key, title, class, by)| {
        let current = s.sort == by;
        Column {
            key,
            title,
            class,
            next_dir: if current && s.descending {
                "asc"
            } else {
                "desc"
            },
            arrow: match (current, s.descending) {
                (false, _) => "",
                (true, true) => " ▼",
                (true, false) => " ▲",
            },
            aria_sort: match (current, s.descending) {
                (false, _) => "none",
                (true, true) => "descending",
                (true, false) => "ascending",
            },
        }
    })
    .collect()
}

/// `GET /t/{id}/standings.csv`: the standings as a spreadsheet reads them — a header row, then
/// one row per player in rank order, as the page shows them to this viewer. A text cell a
/// spreadsheet would take for a formula (`=`, `+`, `-`, `@`) is prefixed with `'`.
pub async fn standings_csv(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
) -> Result<HttpResponse, HtmlError> {
    let id = path.into_inner();
    let audience = Audience::of(&viewer);
    let name = id.clone();
    let s = state
        .read(move |l| {
            let s = tournament::standings(l, &name, SortBy::Net, true, audience)?;
            visibility::standings_for(l, s, audience)
        })
        .await?;
    // Rank order: the tie-break chain's, whatever column the page sorts by.
    let mut rows = s.rows;
    // Substitutes and voided players take no place: after the placed players, with an empty
    // rank.
    rows.sort_by_key(|r| (r.rank.is_none(), r.rank));
    let mut out = Csv::new(&[
        "rank",
        "player",
        "name",
        "net",
        "hands_played",
        "hands_won",
        "largest_hand",
        "substitute",
        "withdrawn",
        "voided",
    ])?;
    for r in &rows {
        out.row(&[
            r.rank.map(|r| r.to_string()).unwrap_or_default(),
            spreadsheet::text(&r.player),
            spreadsheet::text(&r.name),
            r.net.to_string(),
            r.hands_played.to_string(),
            r.hands_won.to_string(),
            r.largest_hand.to_string(),
            yes_no(r.substitute),
            yes_no(r.withdrawn),
            yes_no(r.voided),
        ])?;
    }
    Ok(out.response(&format!("{id}-standings.csv"))?)
}

fn yes_no(b: bool) -> String {
    if b { "yes" } else { "no" }.to_owned()
}

pub async fn standings(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
    query: web::Query<SortQuery>,
    req: actix_web::HttpRequest,
) -> Result<HttpResponse, HtmlError> {
    let id = path.into_inner();
    let (sort, descending) = query.parse();
    // Visitors who are not logged in all see the same page: serve it from the cache while
    // nothing has been recorded since it was rendered.
    let slot = state.page_slot(&viewer, &req);
    let html = |body| {
        HttpResponse::Ok()
            .content_type("text/html; charset=utf-8")
            .insert_header(("cache-control", "no-store"))
            .body(body)
    };
    if let Some(body) = slot.get() {
        return Ok(html(body));
    }
    let audience = Audience::of(&viewer);
    let s = state
        .read(move |l| {
            let s = tournament::standings(l, &id, sort, descending, audience)?;
            visibility::standings_for(l, s, audience)
        })
        .await?;
    let page = StandingsPage {
        nav: Nav::for_viewer(&viewer),
        columns: columns(&s),
        s,
    };
    let body = actix_web::web::Bytes::from(page.render().map_err(AppError::from)?);
    slot.put(&body);
    Ok(html(body))
}
