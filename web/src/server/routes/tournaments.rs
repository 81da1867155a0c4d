//! A tournament's pages: creating one, its players and tables, standings, a player's history.

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;
use serde::Deserialize;

use super::problems::Problems;
use super::{render, see_other};
use crate::app::commands::tournament::{self as cmd, NewPlayer, NewTable, NewTournament};
use crate::app::queries::chips_chart::{self, ChipsChart};
use crate::app::queries::paging::{PageNumber, PageQuery, Paging};
use crate::app::queries::tournament::{self, PlayerHistoryView, TournamentView};
use crate::app::queries::{signed, Audience};
use crate::rules;
use crate::server::auth::{Official, Viewer};
use crate::server::error::{AppError, HtmlError};
use crate::server::form::Form;
use crate::server::nav::Nav;
use crate::server::roles::Action;
use crate::server::state::AppState;
use crate::server::writes::create_tournament;

/// The new-tournament form as typed (re-shown with a message when refused).
#[derive(Clone, Debug, Default, Deserialize)]
pub struct TournamentForm {
    #[serde(default)]
    pub csrf: String,
    #[serde(default)]
    pub id: String,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub ruleset: String,
    #[serde(default)]
    pub house_ruleset: String,
    #[serde(default)]
    pub limit: String,
    #[serde(default)]
    pub starting_chips: String,
    /// The tie-break chain's keys, separated by commas or spaces; empty for the default.
    #[serde(default)]
    pub tie_break: String,
}

impl TournamentForm {
    fn command(&self) -> Result<NewTournament, AppError> {
        let limit = match self.limit.trim() {
            "" => None,
            l => Some(l.parse::<u64>().map_err(|_| {
                AppError::unprocessable(format!("limit `{l}` is not a whole number"))
            })?),
        };
        let starting_chips = self.starting_chips.trim().parse::<i64>().map_err(|_| {
            AppError::unprocessable(format!(
                "starting chips `{}` is not a whole number",
                self.starting_chips.trim()
            ))
        })?;
        Ok(NewTournament {
            id: Some(self.id.clone()).filter(|s| !s.trim().is_empty()),
            name: self.name.clone(),
            ruleset: Some(self.ruleset.clone()),
            house_ruleset: Some(self.house_ruleset.clone()).filter(|s| !s.trim().is_empty()),
            limit,
            starting_chips,
            tie_break: Some(
                self.tie_break
                    .split(|c: char| c == ',' || c.is_whitespace())
                    .filter(|k| !k.is_empty())
                    .map(str::to_owned)
                    .collect::<Vec<_>>(),
            )
            .filter(|keys| !keys.is_empty()),
        })
    }
}

#[derive(Template)]
#[template(path = "tournament_new.html")]
struct NewPage {
    nav: Nav,
    form: TournamentForm,
    rulesets: Vec<(String, String)>,
    problems: Problems,
}

/// The new-tournament form's inputs, by the names its violations use.
const NEW_INPUTS: [&str; 7] = [
    "name",
    "id",
    "ruleset",
    "house_ruleset",
    "limit",
    "starting_chips",
    "tie_break",
];

fn new_form(
    o: &Official,
    form: TournamentForm,
    status: StatusCode,
    error: Option<AppError>,
) -> Result<HttpResponse, AppError> {
    render(
        status,
        &NewPage {
            nav: Nav::for_official(o),
            form,
            rulesets: rules::ruleset_names(),
            problems: Problems::of(error.as_ref(), &NEW_INPUTS, str::to_owned),
        },
    )
}

pub async fn new_page(viewer: Viewer) -> Result<HttpResponse, HtmlError> {
    let o = viewer.require()?;
    o.require_role(Action::CreateTournament)?;
    let form = TournamentForm {
        starting_chips: "2000".into(),
        ..Default::default()
    };
    Ok(new_form(o, form, StatusCode::OK, None)?)
}

pub async fn create(
    state: web::Data<AppState>,
    viewer: Viewer,
    form: Form<TournamentForm>,
) -> Result<HttpResponse, HtmlError> {
    let o = viewer.require()?.clone();
    o.check_csrf(&form.csrf)?;
    let form = form.into_inner();
    let result = match form.command() {
        Ok(command) => create_tournament(&state, &o, command).await,
        Err(e) => Err(e),
    };
    match result {
        Ok(id) => Ok(see_other(&format!("/t/{id}"))),
        Err(e) if e.is_input_error() => Ok(new_form(&o, form, e.kind.status(), Some(e))?),
        Err(e) => Err(e.into()),
    }
}

#[derive(Clone, Debug)]
struct SeatOption {
    id: String,
    name: String,
    selected: bool,
}

#[derive(Clone, Debug)]
struct SeatChoice {
    seat: &'static str,
    field: String,
    options: Vec<SeatOption>,
}

#[derive(Template)]
#[template(path = "tournament.html")]
struct Page {
    nav: Nav,
    t: TournamentView,
    seat_choices: Vec<SeatChoice>,
    problems: Problems,
    notice: Option<String>,
    /// A player was refused as one already registered: the form offers to confirm he is a
    /// different person.
    same_name_refused: bool,
    /// The tables are listed 50 to a page.
    paging: Option<Paging>,
    page_base: String,
    paging_label: &'static str,
}

/// The tournament page's inputs (registering a player, forming a table), by the names its
/// violations use once `players[i]` is read as the seat's select `player_{i+1}`.
const PAGE_INPUTS: [&str; 7] = [
    "name", "id", "number", "player_1", "player_2", "player_3", "player_4",
];

fn page_input(field: &str) -> String {
    match field
        .strip_prefix("players[")
        .and_then(|rest| rest.strip_suffix(']'))
        .and_then(|i| i.parse::<usize>().ok())
    {
        Some(i) => format!("player_{}", i + 1),
        None => field.to_owned(),
    }
}

async fn tournament_page(
    state: &web::Data<AppState>,
    viewer: &Viewer,
    id: String,
    status: StatusCode,
    error: Option<AppError>,
    registered: Option<usize>,
    page: PageNumber,
) -> Result<HttpResponse, AppError> {
    let problems = Problems::of(error.as_ref(), &PAGE_INPUTS, page_input);
    let same_name_refused = error.as_ref().is_some_and(|e| {
        e.messages()
            .iter()
            .any(|m| m.contains("already registered"))
    });
    let audience = Audience::of(viewer);
    let page_base = format!("/t/{id}");
    let (t, paging) = state
        .read(move |l| tournament::view_paged(l, &id, audience, Some(page)))
        .await?;
    // Just registered from a list: the last `n` in order of registration.
    let notice = registered.filter(|&n| n > 0).map(|n| {
        let names: Vec<&str> = t
            .players
            .iter()
            .rev()
            .take(n)
            .rev()
            .map(|p| p.name.as_str())
            .collect();
        format!("Registered {} players: {}.", names.len(), names.join(", "))
    });
    let seat_choices = ["East", "South", "West", "North"]
        .iter()
        .enumerate()
        .map(|(i, seat)| SeatChoice {
            seat,
            field: format!("player_{}", i + 1),
            options: t
                .players
                .iter()
                .enumerate()
                .map(|(j, p)| SeatOption {
                    id: p.id.clone(),
                    name: p.name.clone(),
                    selected: i == j,
                })
                .collect(),
        })
        .collect();
    render(
        status,
        &Page {
            nav: Nav::for_viewer(viewer),
            t,
            seat_choices,
            problems,
            notice,
            same_name_refused,
            paging,
            page_base,
            paging_label: "Pages of this tournament's tables",
        },
    )
}

pub async fn page(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
    query: web::Query<PageQuery>,
    registered: web::Query<Registered>,
) -> Result<HttpResponse, HtmlError> {
    let page = query.number()?;
    Ok(tournament_page(
        &state,
        &viewer,
        path.into_inner(),
        StatusCode::OK,
        None,
        registered
            .registered
            .as_deref()
            .and_then(|n| n.parse().ok()),
        page,
    )
    .await?)
}

/// `?registered=n` after a list was registered: the page names those `n`.
#[derive(Deserialize)]
pub struct Registered {
    #[serde(default)]
    registered: Option<String>,
}

#[derive(Deserialize)]
pub struct PlayerForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    id: String,
    #[serde(default)]
    substitute: Option<String>,
    #[serde(default)]
    different_person: Option<String>,
}

/// Re-shows the tournament page with the message of a refused form, or fails.
pub(super) async fn refused(
    state: &web::Data<AppState>,
    viewer: &Viewer,
    id: String,
    e: AppError,
) -> Result<HttpResponse, HtmlError> {
    if e.is_input_error() {
        let status = e.kind.status();
        Ok(tournament_page(state, viewer, id, status, Some(e), None, PageNumber::FIRST).await?)
    } else {
        Err(e.into())
    }
}

pub async fn register_player(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
    form: Form<PlayerForm>,
) -> Result<HttpResponse, HtmlError> {
    let o = viewer.require()?.clone();
    o.check_csrf(&form.csrf)?;
    let id = path.into_inner();
    let command = NewPlayer {
        id: Some(form.id.clone()).filter(|s| !s.trim().is_empty()),
        name: form.name.clone(),
        substitute: form.substitute.is_some(),
        different_person: form.different_person.is_some(),
    };
    let t = id.clone();
    match state
        .write(move |l| cmd::register_player(l, &t, &o, &command))
        .await
    {
        Ok(_) => Ok(see_other(&format!("/t/{id}"))),
        Err(e) => refused(&state, &viewer, id, e).await,
    }
}

#[derive(Deserialize)]
pub struct TableForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    number: String,
    #[serde(default)]
    player_1: String,
    #[serde(default)]
    player_2: String,
    #[serde(default)]
    player_3: String,
    #[serde(default)]
    player_4: String,
    #[serde(default)]
    random: Option<String>,
}

pub async fn form_table(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
    form: Form<TableForm>,
) -> Result<HttpResponse, HtmlError> {
    let o = viewer.require()?.clone();
    o.check_csrf(&form.csrf)?;
    let id = path.into_inner();
    let number = match form.number.trim() {
        "" => None,
        n => match n.parse::<u32>() {
            Ok(n) => Some(n),
            Err(_) => {
                let e =
                    AppError::unprocessable(format!("table number `{n}` is not a whole number"));
                return refused(&state, &viewer, id, e).await;
            }
        },
    };
    let command = NewTable {
        number,
        players: vec![
            form.player_1.clone(),
            form.player_2.clone(),
            form.player_3.clone(),
            form.player_4.clone(),
        ],
        random: form.random.is_some(),
        seed: None,
    };
    let t = id.clone();
    match state
        .write(move |l| cmd::form_table(l, &t, &o, &command))
        .await
    {
        Ok(table) => Ok(see_other(&format!("/tables/{table}"))),
        Err(e) => refused(&state, &viewer, id, e).await,
    }
}

#[derive(Template)]
#[template(path = "player.html")]
struct PlayerPage {
    nav: Nav,
    p: PlayerHistoryView,
    net_text: String,
    /// The player's chips hand by hand (`app::queries::chips_chart`).
    chart: ChipsChart,
    /// The hands are listed 50 to a page.
    paging: Option<Paging>,
    page_base: String,
    paging_label: &'static str,
}

pub async fn player(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<(String, String)>,
    query: web::Query<PageQuery>,
) -> Result<HttpResponse, HtmlError> {
    let (id, player) = path.into_inner();
    let number = query.number()?;
    let audience = Audience::of(&viewer);
    let page_base = format!("/t/{id}/players/{player}");
    let (p, paging) = state
        .read(move |l| tournament::player_history_paged(l, &id, &player, audience, Some(number)))
        .await?;
    Ok(render(
        StatusCode::OK,
        &PlayerPage {
            nav: Nav::for_viewer(&viewer),
            net_text: signed(p.net),
            chart: chips_chart::chart(&p.name, p.tournament.starting_chips, &p.nets),
            p,
            paging,
            page_base,
            paging_label: "Pages of this player's hands",
        },
    )?)
}
