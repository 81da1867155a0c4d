//! `/check`: a public page that checks one hand (see [`crate::app::queries::check`]). A GET form, so
//! a check has an address to share (`/check?hand=...&win_from=discard&ruleset=british`), and
//! works without JavaScript; the picker and the live preview are added when it runs.

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use referee::{Ruleset, WinFrom};

use super::problems::Problems;
use super::render;
use crate::app::queries::check::{self, CheckQuery, Checked};
use crate::app::queries::Audience;
use crate::server::auth::Viewer;
use crate::server::error::HtmlError;
use crate::server::nav::Nav;
use crate::server::params::query;
use crate::server::state::AppState;

/// The form's inputs, by the names their problems are placed at.
const INPUTS: [&str; 5] = ["hand", "ruleset", "seat", "prevailing", "win_from"];

#[derive(Template)]
#[template(path = "check.html")]
struct Page {
    nav: Nav,
    q: CheckQuery,
    rulesets: Vec<(String, String)>,
    winds: [(&'static str, &'static str); 4],
    win_froms: Vec<&'static str>,
    problems: Problems,
    /// The circumstances' checkboxes: (name, label, ticked).
    circumstances: Vec<(&'static str, &'static str, bool)>,
    checked: Option<Checked>,
}

impl Page {
    fn ruleset_selected(&self, name: &str) -> bool {
        self.q.ruleset == name || (self.q.ruleset.is_empty() && name == "code-of-laws")
    }
}

pub async fn page(
    state: web::Data<AppState>,
    viewer: Viewer,
    req: HttpRequest,
) -> Result<HttpResponse, HtmlError> {
    let q = query(&req)?;
    let asked = !req.query_string().is_empty();
    let audience = Audience::of(&viewer);
    let result = if asked {
        let for_rules = q.clone();
        let rules = state
            .read(move |l| check::ruleset(l, &for_rules, audience))
            .await;
        Some(rules.and_then(|r| check::check(&q, r)))
    } else {
        None
    };
    let (checked, error, status) = match result {
        None => (None, None, StatusCode::OK),
        Some(Ok(c)) => (Some(c), None, StatusCode::OK),
        Some(Err(e)) if e.is_input_error() => {
            let status = e.kind.status();
            (None, Some(e), status)
        }
        Some(Err(e)) => return Err(e.into()),
    };
    let page_query = q.clone();
    let page = Page {
        nav: Nav::for_viewer(&viewer),
        problems: Problems::of(error.as_ref(), &INPUTS, str::to_owned),
        q,
        rulesets: crate::rules::ruleset_names(),
        winds: [
            ("east", "East"),
            ("south", "South"),
            ("west", "West"),
            ("north", "North"),
        ],
        win_froms: WinFrom::ALL
            .iter()
            .filter(|w| w.source() == **w)
            .map(|w| w.name())
            .collect(),
        circumstances: {
            let q = &page_query;
            super::hand_form::CIRCUMSTANCES
                .iter()
                .map(|&(name, label, _)| (name, label, check::ticked_in(q, name)))
                .collect()
        },
        checked,
    };
    // Every built-in is listed; a name only a house file could give is refused by the check.
    debug_assert!(Ruleset::builtin_names().count() == page.rulesets.len());
    Ok(render(status, &page)?)
}
