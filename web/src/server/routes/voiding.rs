//! Voiding and closing from the pages, and the table and hand pages as the public may see them
//! (a voided table or tournament, and its hands, are not found for the public; officials see
//! them marked voided).

use actix_web::{web, HttpResponse};
use serde::Deserialize;

use super::confirm::{self, Confirmation};
use super::see_other;
use crate::app::accounts::roles::Action;
use crate::app::commands::voiding::{self, CloseTable, Void};
use crate::app::queries::paging::PageQuery;
use crate::app::queries::visibility;
use crate::app::queries::Audience;
use crate::server::auth::Viewer;
use crate::server::error::{AppError, HtmlError};
use crate::server::form::Form;
use crate::server::state::AppState;

/// The table page, after the public-visibility check.
pub async fn table_page(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
    query: web::Query<PageQuery>,
) -> Result<HttpResponse, HtmlError> {
    let table = path.into_inner();
    let id = table.clone();
    let hidden = state
        .read(move |l| visibility::table_voided(l, &id))
        .await?;
    visibility::require_visible(Audience::of(&viewer), hidden, || {
        format!("no table `{table}`")
    })?;
    super::tables::page(state, viewer, web::Path::from(table), query).await
}

/// The hand page, after the public-visibility check.
pub async fn hand_page(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
) -> Result<HttpResponse, HtmlError> {
    let hand = path.into_inner();
    let id = hand.clone();
    let hidden = state.read(move |l| visibility::hand_hidden(l, &id)).await?;
    visibility::require_visible(Audience::of(&viewer), hidden, || {
        format!("no hand `{hand}`")
    })?;
    super::hands::page(state, viewer, web::Path::from(hand)).await
}

/// A void form: the reason, the session's CSRF token, and whether the confirmation page was
/// seen.
#[derive(Deserialize)]
pub struct VoidForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    reason: String,
    #[serde(default)]
    confirm: String,
}

/// A form with nothing to say but its token and its confirmation.
#[derive(Deserialize)]
pub struct CsrfForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    confirm: String,
}

/// The undo that follows a voiding, said on its confirmation.
const VOID_FOLLOWS: [&str; 3] = [
    "It is left out of the public's pages, standings and exports; officials see it marked voided, with the reason.",
    "Nothing is deleted: the ledger keeps it, and the voiding, with who and why.",
    "An organiser can undo the voiding this evening (it is a fact of its own, with why).",
];

/// Who may be asked to confirm: an official with the form's token, whose role may do it (a
/// refusal comes before the question, as it would after).
fn asker(viewer: &Viewer, csrf: &str, action: Action) -> Result<(), AppError> {
    let o = viewer.require()?;
    o.check_csrf(csrf)?;
    o.require_role(action)
}

/// The confirmation of a voiding of `what`, posting `reason` again to `action`.
fn confirm_void(
    viewer: &Viewer,
    what: String,
    action: String,
    back: String,
    reason: &str,
) -> Result<HttpResponse, HtmlError> {
    // A reason the voiding would refuse is refused before the confirmation, as it would be
    // after.
    let reason = referee::tournament::checked_reason(reason).map_err(AppError::from)?;
    let mut follows = vec![format!("{what} is voided: “{reason}”.")];
    follows.extend(VOID_FOLLOWS.iter().map(|s| (*s).to_owned()));
    Ok(confirm::ask(
        viewer,
        Confirmation {
            title: format!("Void {what}"),
            follows,
            action,
            fields: vec![("reason", reason)],
            button: format!("Void {what}"),
            back,
        },
    )?)
}

/// Runs a write for an official with a checked CSRF token; a refusal is an error page that
/// says why.
pub(super) async fn run<F>(
    state: &web::Data<AppState>,
    viewer: &Viewer,
    csrf: &str,
    write: F,
) -> Result<(), AppError>
where
    F: FnOnce(&mut ledger::Ledger, &crate::server::auth::Official) -> Result<(), AppError>
        + Send
        + 'static,
{
    let o = viewer.require()?.clone();
    o.check_csrf(csrf)?;
    state.write(move |l| write(l, &o)).await
}

pub async fn void_tournament(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
    form: Form<VoidForm>,
) -> Result<HttpResponse, HtmlError> {
    let id = path.into_inner();
    if !confirm::confirmed(&form.confirm) {
        asker(&viewer, &form.csrf, Action::Void)?;
        let what = format!("the tournament `{id}`");
        return confirm_void(
            &viewer,
            what,
            format!("/t/{id}/void"),
            format!("/t/{id}"),
            &form.reason,
        );
    }
    let t = id.clone();
    let cmd = Void {
        reason: form.reason.clone(),
    };
    run(&state, &viewer, &form.csrf, move |l, o| {
        voiding::void_tournament(l, &t, o, &cmd)
    })
    .await?;
    Ok(see_other(&format!("/t/{id}")))
}

pub async fn void_player(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<(String, String)>,
    form: Form<VoidForm>,
) -> Result<HttpResponse, HtmlError> {
    let (id, player) = path.into_inner();
    if !confirm::confirmed(&form.confirm) {
        asker(&viewer, &form.csrf, Action::Void)?;
        return confirm_void(
            &viewer,
            format!("the player `{player}`"),
            format!("/t/{id}/players/{player}/void"),
            format!("/t/{id}#players"),
            &form.reason,
        );
    }
    let t = id.clone();
    let cmd = Void {
        reason: form.reason.clone(),
    };
    run(&state, &viewer, &form.csrf, move |l, o| {
        voiding::void_player(l, &t, &player, o, &cmd)
    })
    .await?;
    Ok(see_other(&format!("/t/{id}")))
}

pub async fn void_table(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
    form: Form<VoidForm>,
) -> Result<HttpResponse, HtmlError> {
    let table = path.into_inner();
    if !confirm::confirmed(&form.confirm) {
        asker(&viewer, &form.csrf, Action::Void)?;
        return confirm_void(
            &viewer,
            format!("table `{table}`"),
            format!("/tables/{table}/void"),
            format!("/tables/{table}"),
            &form.reason,
        );
    }
    let t = table.clone();
    let cmd = Void {
        reason: form.reason.clone(),
    };
    run(&state, &viewer, &form.csrf, move |l, o| {
        voiding::void_table(l, &t, o, &cmd)
    })
    .await?;
    Ok(see_other(&format!("/tables/{table}")))
}

pub async fn close_table(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
    form: Form<CsrfForm>,
) -> Result<HttpResponse, HtmlError> {
    let table = path.into_inner();
    if !confirm::confirmed(&form.confirm) {
        asker(&viewer, &form.csrf, Action::CloseTable)?;
        return Ok(confirm::ask(
            &viewer,
            Confirmation {
                title: format!("Close table `{table}`"),
                follows: vec![
                    "Its play is over: no more hands are recorded there (recorded hands are still corrected by a referee).".into(),
                    "Its four players may sit at another table.".into(),
                    "A checkpoint of the ledger is signed: the head to publish.".into(),
                    "An organiser can reopen it this evening, saying why.".into(),
                ],
                action: format!("/tables/{table}/close"),
                fields: Vec::new(),
                button: "Close the table".into(),
                back: format!("/tables/{table}"),
            },
        )?);
    }
    let t = table.clone();
    let key = state.ledger_key();
    run(&state, &viewer, &form.csrf, move |l, o| {
        voiding::close_table(l, &t, o, &CloseTable::default(), Some(&key))
    })
    .await?;
    Ok(see_other(&format!("/tables/{table}")))
}

/// The broadcast form: on or off.
#[derive(Clone, Debug, Default, serde::Deserialize)]
pub struct BroadcastForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    broadcast: String,
}

/// `POST /tables/{table}/broadcast`: an organiser opens the table's play to the public while
/// its session is in play (`broadcast=on`), or stops (`off`).
pub async fn broadcast(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
    form: Form<BroadcastForm>,
) -> Result<HttpResponse, HtmlError> {
    let table = path.into_inner();
    let on = match form.broadcast.trim() {
        "on" => true,
        "off" => false,
        other => {
            return Err(AppError::bad_request(format!(
                "broadcast: `{other}` is neither `on` nor `off`"
            ))
            .into())
        }
    };
    let t = table.clone();
    run(&state, &viewer, &form.csrf, move |l, o| {
        voiding::broadcast(l, &t, o, on)
    })
    .await?;
    Ok(see_other(&format!("/tables/{table}")))
}
