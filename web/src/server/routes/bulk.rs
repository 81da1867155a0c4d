//! Bulk registration from the tournament page: a pasted list and/or a CSV file, shown back as
//! the players it would register before anything is recorded, and registered only when the
//! organiser confirms that list (a second tap of "Register" on the same list finds everyone
//! already registered, and is refused: nobody is registered twice).
//!
//! The confirmation carries the texts as they came (hidden fields), so what is confirmed is
//! exactly what was shown; the tournament's aggregate decides both times.

use actix_multipart::Multipart;
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;
use futures_util::TryStreamExt;
use ledger::event::PlayerRegistered;

use super::{render, see_other};
use crate::app::bulk;
use crate::app::commands::tournament::{self as t_cmd, NewPlayer};
use crate::app::queries::{tournament, Audience};
use crate::server::auth::Viewer;
use crate::server::error::{AppError, HtmlError};
use crate::server::nav::Nav;
use crate::server::state::AppState;

/// The most bytes a bulk registration may send (a thousand names fit in far less).
const MAX_UPLOAD: usize = 256 * 1024;

/// The form as posted: the texts, and what the organiser confirmed.
#[derive(Default)]
struct BulkForm {
    csrf: String,
    names: String,
    file: String,
    /// The organiser saw the list and confirms it.
    confirm: bool,
    /// The names the organiser confirmed are other people than those of the same name already
    /// registered (or listed with them), one field each.
    different_names: Vec<String>,
    /// The tournament's version the list was shown at (the confirmation's).
    version: Option<u64>,
}

#[derive(Template)]
#[template(path = "bulk_confirm.html")]
struct ConfirmPage {
    nav: Nav,
    tournament: String,
    tournament_name: String,
    names: String,
    file: String,
    /// The names confirmed as other people (posted again with the confirmation).
    different_names: Vec<String>,
    /// Who would be registered, when the list can be.
    players: Vec<PlayerRegistered>,
    /// The tournament's version the list was decided at.
    version: u64,
    /// What is wrong with the list, each with its line.
    problems: Vec<String>,
    /// The names refused as already registered or listed twice, each with whether it was
    /// confirmed as another person: a box each.
    namesakes: Vec<(String, bool)>,
}

async fn read_form(mut payload: Multipart) -> Result<BulkForm, AppError> {
    let bad = |m: String| AppError::bad_request(m);
    let mut form = BulkForm::default();
    let mut total = 0usize;
    while let Some(mut field) = payload
        .try_next()
        .await
        .map_err(|e| bad(format!("the form: {e}")))?
    {
        let name = field.name().unwrap_or_default().to_owned();
        let mut bytes = Vec::new();
        while let Some(chunk) = field
            .try_next()
            .await
            .map_err(|e| bad(format!("the form's `{name}`: {e}")))?
        {
            total += chunk.len();
            if total > MAX_UPLOAD {
                return Err(AppError::bad_request(format!(
                    "the list is larger than {} KB: register at most {} players at a time",
                    MAX_UPLOAD / 1024,
                    bulk::MAX_PLAYERS
                )));
            }
            bytes.extend_from_slice(&chunk);
        }
        let text = String::from_utf8(bytes).map_err(|e| {
            bad(format!(
                "the form's `{name}` is not UTF-8 text (byte {}): save the file as UTF-8 CSV",
                e.utf8_error().valid_up_to()
            ))
        })?;
        match name.as_str() {
            "csrf" => form.csrf = text,
            "names" => form.names = text,
            "file" => form.file = text,
            "confirm" => form.confirm = text == "yes",
            "different_name" => form.different_names.push(text),
            "version" => form.version = text.trim().parse().ok(),
            _ => {}
        }
    }
    Ok(form)
}

impl BulkForm {
    /// Whether the organiser confirmed `name` as another person than its namesakes.
    fn is_different(&self, name: &str) -> bool {
        let name = referee::tournament::same_name(name);
        self.different_names
            .iter()
            .any(|n| referee::tournament::same_name(n) == name)
    }
}

/// The players of the form's texts with the line each came from, or every problem by line.
fn players_of(form: &BulkForm) -> Result<(Vec<NewPlayer>, Vec<String>), referee::Violations> {
    let mut players = Vec::new();
    let mut labels = Vec::new();
    let mut problems = referee::Violations::new();
    for (from, text, source) in [
        ("the list", &form.names, bulk::Source::Pasted),
        ("the file", &form.file, bulk::Source::File),
    ] {
        if text.trim().is_empty() {
            continue;
        }
        match bulk::parse(text, source) {
            Ok(ps) => {
                for (line, mut p) in ps {
                    p.different_person = form.is_different(&p.name);
                    labels.push(format!("{from}, line {line}"));
                    players.push(p);
                }
            }
            Err(v) => problems.0.extend(v.0.into_iter().map(|mut v| {
                v.field = format!("{from}, {}", v.field);
                v
            })),
        }
    }
    if form.names.trim().is_empty() && form.file.trim().is_empty() {
        problems.push(referee::Violation::new(
            "players",
            "paste names or choose a CSV file",
        ));
    }
    if problems.is_empty() {
        Ok((players, labels))
    } else {
        Err(problems)
    }
}

/// `POST /t/<id>/players/bulk` (multipart): a pasted list (`names`) and/or a CSV file
/// (`file`). Without `confirm=yes`, shows who would be registered (or what is wrong) and
/// records nothing; with it, registers them all or none and goes back to the tournament,
/// which names who was registered.
pub async fn register_bulk(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
    payload: Multipart,
) -> Result<HttpResponse, HtmlError> {
    let o = viewer.require()?.clone();
    let id = path.into_inner();
    let form = read_form(payload).await?;
    o.check_csrf(&form.csrf)?;
    o.require_role(crate::app::accounts::roles::Action::RegisterPlayer)?;
    let parsed = players_of(&form);
    if let (true, Some(version)) = (form.confirm, form.version) {
        if let Ok((players, labels)) = &parsed {
            let (t, by, players, labels) = (id.clone(), o.clone(), players.clone(), labels.clone());
            match state
                .write(move |l| t_cmd::register_previewed(l, &t, &by, &players, &labels, version))
                .await
            {
                Ok(ids) => {
                    return Ok(see_other(&format!(
                        "/t/{id}?registered={}#players",
                        ids.len()
                    )))
                }
                // Refused (the tournament changed since the list was shown): shown again.
                Err(e) if e.is_input_error() => {}
                Err(e) => return Err(e.into()),
            }
        }
    }
    // The names refused as already registered or listed twice: each offered a box to confirm
    // another person of that name.
    let listed: Vec<(String, String)> = match &parsed {
        Ok((players, labels)) => labels
            .iter()
            .cloned()
            .zip(players.iter().map(|p| p.name.trim().to_owned()))
            .collect(),
        Err(_) => Vec::new(),
    };
    let t = id.clone();
    let (checked, name) = state
        .read(move |l| {
            let name = tournament::view(l, &t, Audience::Officials)?.summary.name;
            let checked = match parsed {
                Ok((players, labels)) => {
                    match t_cmd::preview_registration(l, &t, &o, &players, &labels) {
                        Err(e) if !e.is_input_error() => return Err(e),
                        checked => checked,
                    }
                }
                Err(v) => Err(AppError::violations(v)),
            };
            Ok((checked, name))
        })
        .await?;
    let mut namesakes: Vec<(String, bool)> = Vec::new();
    let (players, version, problems, status) = match checked {
        Ok((players, version)) => (players, version, Vec::new(), StatusCode::OK),
        Err(e) => {
            // A list of one is refused in a sentence, not by line.
            if let ([(_, name)], true) = (
                listed.as_slice(),
                e.violations.is_empty() && e.message.contains("already registered"),
            ) {
                namesakes.push((name.clone(), form.is_different(name)));
            }
            for v in &e.violations {
                let namesake = v.message.contains("already registered")
                    || v.message.contains("is listed twice");
                if let Some((_, name)) = listed.iter().find(|(label, _)| *label == v.field) {
                    if namesake && !namesakes.iter().any(|(n, _)| n == name) {
                        namesakes.push((name.clone(), form.is_different(name)));
                    }
                }
            }
            let status = e.kind.status();
            (Vec::new(), 0, e.messages(), status)
        }
    };
    Ok(render(
        status,
        &ConfirmPage {
            nav: Nav::for_viewer(&viewer),
            tournament: id,
            tournament_name: name,
            names: form.names,
            file: form.file,
            different_names: form.different_names,
            players,
            version,
            problems,
            namesakes,
        },
    )?)
}
