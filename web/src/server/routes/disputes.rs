//! Disputes: raising one about a hand, the dispute page (the table at the moment, the engine's
//! findings, the settlement before and after a proposed ruling), ruling, and appeals.

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;
use referee::event::Decision;
use referee::settle::Penalty;
use referee::Seat;
use serde::Deserialize;
use uuid::Uuid;

use super::{render, see_other};
use crate::app::commands::ruling::{self as cmd, Appeal, RaiseDispute, Rule, RulingPreview};
use crate::app::queries::dispute::{self, DisputeView};
use crate::server::auth::{Official, Viewer};
use crate::server::error::{AppError, HtmlError};
use crate::server::form::Form;
use crate::server::nav::Nav;
use crate::server::roles::Action;
use crate::server::state::AppState;
use crate::server::writes::{appeal_ruling, raise_dispute, rule_on};

const SEAT_KEYS: [&str; 4] = ["east", "south", "west", "north"];

/// The form raising a dispute.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct DisputeForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    version: String,
    #[serde(default)]
    raised_by: String,
    #[serde(default)]
    event: String,
    #[serde(default)]
    description: String,
    #[serde(default)]
    position: String,
}

impl DisputeForm {
    fn command(&self) -> Result<RaiseDispute, AppError> {
        let mut problems = Vec::new();
        let version = self.version.trim().parse().unwrap_or_else(|_| {
            problems.push("the form lacks the hand's version: reload the page".to_owned());
            0
        });
        let raised_by = match self.raised_by.trim() {
            "" => None,
            s => s.parse::<Seat>().map(Some).unwrap_or_else(|_| {
                problems.push(format!("raised by: `{s}` is not a seat"));
                None
            }),
        };
        let event = match self.event.trim() {
            "" => None,
            s => s.parse::<usize>().map(Some).unwrap_or_else(|_| {
                problems.push(format!("event: `{s}` is not an event number"));
                None
            }),
        };
        if !problems.is_empty() {
            return Err(AppError::unprocessable(problems.join("; ")));
        }
        Ok(RaiseDispute {
            version,
            raised_by,
            event,
            description: self.description.clone(),
            position: Some(self.position.clone()),
        })
    }
}

#[derive(Template)]
#[template(path = "dispute_new.html")]
struct NewPage {
    nav: Nav,
    hand: String,
    version: u64,
    played: bool,
    /// Each seat's key and its player as the form names him: "Ann (East seat)".
    seats: Vec<(&'static str, String)>,
    /// The start of this hand's position line (`g1 h1 dealer:E prevailing:E`), for the
    /// form's example.
    position_head: String,
    raised_by: String,
    event: String,
    description: String,
    position: String,
    error: Option<String>,
}

#[derive(Deserialize)]
pub struct NewQuery {
    #[serde(default)]
    event: Option<usize>,
}

async fn new_form(
    state: &web::Data<AppState>,
    o: &Official,
    hand: String,
    form: DisputeForm,
    status: StatusCode,
    error: Option<String>,
) -> Result<HttpResponse, AppError> {
    let id = hand.clone();
    let h = state
        .read(move |l| crate::app::queries::hand::view(l, &id))
        .await?;
    let version = form.version.trim().parse().unwrap_or(h.version);
    render(
        status,
        &NewPage {
            nav: Nav::for_official(o),
            hand,
            version,
            played: h.played,
            seats: h
                .seats
                .iter()
                .map(|s| (s.seat_key, format!("{} ({} seat)", s.name, s.seat)))
                .collect(),
            position_head: format!(
                "g{} h{} dealer:{} prevailing:{}",
                h.game,
                h.number,
                &h.east[..1],
                &h.prevailing[..1]
            ),
            raised_by: form.raised_by,
            event: form.event,
            description: form.description,
            position: form.position,
            error,
        },
    )
}

pub async fn new_page(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
    query: web::Query<NewQuery>,
) -> Result<HttpResponse, HtmlError> {
    let o = viewer.require()?;
    o.require_role(Action::Rule)?;
    let form = DisputeForm {
        event: query.event.map(|n| n.to_string()).unwrap_or_default(),
        ..DisputeForm::default()
    };
    Ok(new_form(&state, o, path.into_inner(), form, StatusCode::OK, None).await?)
}

pub async fn raise(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
    form: Form<DisputeForm>,
) -> Result<HttpResponse, HtmlError> {
    let o = viewer.require()?.clone();
    o.check_csrf(&form.csrf)?;
    let hand = path.into_inner();
    let form = form.into_inner();
    let result = match form.command() {
        Ok(command) => raise_dispute(&state, &o, hand.clone(), command).await,
        Err(e) => Err(e),
    };
    match result {
        Ok(id) => Ok(see_other(&format!("/hands/{hand}/disputes/{id}"))),
        Err(e) if e.is_input_error() => {
            let status = e.kind.status();
            Ok(new_form(&state, &o, hand, form, status, Some(e.to_string())).await?)
        }
        Err(e) => Err(e.into()),
    }
}

/// The form ruling on a dispute.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct RuleForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    version: String,
    #[serde(default)]
    finding: String,
    #[serde(default)]
    decision: String,
    #[serde(default)]
    reason: String,
    #[serde(default)]
    sections: String,
    #[serde(default)]
    pay_payer: String,
    #[serde(default)]
    pay_payee: String,
    #[serde(default)]
    pay_amount: String,
    #[serde(default)]
    pay_reason: String,
    #[serde(default)]
    abandons: String,
    #[serde(default)]
    preview: String,
}

impl RuleForm {
    fn command(&self) -> Result<Rule, AppError> {
        let mut problems = Vec::new();
        let version = self.version.trim().parse().unwrap_or_else(|_| {
            problems.push("the form lacks the hand's version: reload the page".to_owned());
            0
        });
        let finding = match self.finding.trim() {
            "" => None,
            s => s.parse().map(Some).unwrap_or_else(|_| {
                problems.push(format!("finding: `{s}` is not a finding's number"));
                None
            }),
        };
        let decision = match self.decision.trim() {
            "" | "accepted" => Decision::Accepted,
            "overruled" => Decision::Overruled,
            s => {
                problems.push(format!("decision: `{s}` is neither accepted nor overruled"));
                Decision::Accepted
            }
        };
        let mut penalties = Vec::new();
        match self.pay_payer.trim() {
            "" => {
                if !self.pay_amount.trim().is_empty() {
                    problems.push("payment: name who pays".to_owned());
                }
            }
            payer => {
                let payer = payer.parse::<Seat>().map_err(|_| {
                    problems.push(format!("payment: `{payer}` is not a seat"));
                });
                let payee = match self.pay_payee.trim() {
                    "" => Ok(None),
                    s => s.parse::<Seat>().map(Some).map_err(|_| {
                        problems.push(format!("payment: `{s}` is not a seat"));
                    }),
                };
                let amount = self.pay_amount.trim().parse::<i64>().map_err(|_| {
                    problems.push(format!(
                        "payment: `{}` is not a number of points",
                        self.pay_amount.trim()
                    ));
                });
                if let (Ok(payer), Ok(payee), Ok(amount)) = (payer, payee, amount) {
                    penalties.push(Penalty::Agreed {
                        payer,
                        payee,
                        amount,
                        reason: self.pay_reason.trim().to_owned(),
                    });
                }
            }
        }
        if !problems.is_empty() {
            return Err(AppError::unprocessable(problems.join("; ")));
        }
        Ok(Rule {
            version,
            finding,
            decision,
            reason: self.reason.clone(),
            sections: self
                .sections
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect(),
            penalties,
            abandons: self.abandons == "on",
            preview: !self.preview.is_empty(),
        })
    }
}

#[derive(Template)]
#[template(path = "dispute.html")]
struct Page {
    nav: Nav,
    d: DisputeView,
    may_rule: bool,
    form: RuleForm,
    preview: Option<RulingPreview>,
    error: Option<String>,
    seats: Vec<SeatOption>,
}

/// A seat in the payment's selects.
struct SeatOption {
    key: &'static str,
    /// The seat's player with the seat: "Ann (East seat)".
    name: String,
    payer: bool,
    payee: bool,
}

/// What the dispute page shows besides the dispute: the ruling form as typed, a preview, an
/// error, and the status to answer with.
struct Shown {
    form: RuleForm,
    status: StatusCode,
    preview: Option<RulingPreview>,
    error: Option<String>,
}

impl Shown {
    fn fresh() -> Shown {
        Shown {
            form: RuleForm::default(),
            status: StatusCode::OK,
            preview: None,
            error: None,
        }
    }
}

async fn dispute_page(
    state: &web::Data<AppState>,
    viewer: &Viewer,
    hand: String,
    id: Uuid,
    shown: Shown,
) -> Result<HttpResponse, AppError> {
    let Shown {
        form,
        status,
        preview,
        error,
    } = shown;
    let d = state.read(move |l| dispute::view(l, &hand, id)).await?;
    let o = viewer.require()?;
    let names = d.seat_names.clone();
    render(
        status,
        &Page {
            nav: Nav::for_official(o),
            may_rule: o.may(Action::Rule),
            d,
            preview,
            seats: SEAT_KEYS
                .into_iter()
                .zip(names)
                .map(|(key, name)| SeatOption {
                    key,
                    name,
                    payer: form.pay_payer == key,
                    payee: form.pay_payee == key,
                })
                .collect(),
            error,
            form,
        },
    )
}

fn dispute_id(s: &str) -> Result<Uuid, AppError> {
    s.parse()
        .map_err(|_| AppError::not_found(format!("no dispute `{s}`")))
}

pub async fn page(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, HtmlError> {
    let (hand, id) = path.into_inner();
    let id = dispute_id(&id)?;
    Ok(dispute_page(&state, &viewer, hand, id, Shown::fresh()).await?)
}

pub async fn rule(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<(String, String)>,
    form: Form<RuleForm>,
) -> Result<HttpResponse, HtmlError> {
    let o = viewer.require()?.clone();
    o.check_csrf(&form.csrf)?;
    let (hand, id) = path.into_inner();
    let id = dispute_id(&id)?;
    let form = form.into_inner();
    let result = match form.command() {
        Ok(command) => rule_on(&state, &o, hand.clone(), id, command).await,
        Err(e) => Err(e),
    };
    match result {
        Ok(Some(preview)) => Ok(dispute_page(
            &state,
            &viewer,
            hand,
            id,
            Shown {
                form,
                status: StatusCode::OK,
                preview: Some(preview),
                error: None,
            },
        )
        .await?),
        Ok(None) => Ok(see_other(&format!("/hands/{hand}/disputes/{id}"))),
        Err(e) if e.is_input_error() => {
            let status = e.kind.status();
            Ok(dispute_page(
                &state,
                &viewer,
                hand,
                id,
                Shown {
                    form,
                    status,
                    preview: None,
                    error: Some(e.to_string()),
                },
            )
            .await?)
        }
        Err(e) => Err(e.into()),
    }
}

/// The appeal form: why the ruling no longer stands.
#[derive(Clone, Debug, Deserialize)]
pub struct AppealForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    version: String,
    #[serde(default)]
    reason: String,
}

pub async fn appeal(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<(String, String)>,
    form: Form<AppealForm>,
) -> Result<HttpResponse, HtmlError> {
    let o = viewer.require()?.clone();
    o.check_csrf(&form.csrf)?;
    let (hand, ruling) = path.into_inner();
    let ruling: Uuid = ruling
        .parse()
        .map_err(|_| AppError::not_found(format!("no ruling `{ruling}`")))?;
    let version = form
        .version
        .trim()
        .parse()
        .map_err(|_| AppError::bad_request("the form lacks the hand's version"))?;
    let command = Appeal {
        version,
        reason: form.reason.clone(),
        replacement: None,
    };
    let h = hand.clone();
    let dispute = state
        .read(move |l| cmd::dispute_of_ruling(l, &h, ruling))
        .await?;
    match appeal_ruling(&state, &o, hand.clone(), ruling, command).await {
        Ok(_) => Ok(see_other(&format!("/hands/{hand}/disputes/{dispute}"))),
        Err(e) if e.is_input_error() => {
            let status = e.kind.status();
            Ok(dispute_page(
                &state,
                &viewer,
                hand,
                dispute,
                Shown {
                    status,
                    error: Some(e.to_string()),
                    ..Shown::fresh()
                },
            )
            .await?)
        }
        Err(e) => Err(e.into()),
    }
}
