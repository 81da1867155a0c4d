//! A player's own count of his hand, from the form on the hand's page (Code §110).

use actix_web::{web, HttpResponse};
use serde::Deserialize;

use super::see_other;
use crate::app::commands::count::RecordCount;
use crate::server::auth::Viewer;
use crate::server::error::{AppError, HtmlError};
use crate::server::form::Form;
use crate::server::state::AppState;
use crate::server::writes::record_count;

/// The form: the seat, his count, the elements he named (comma-separated).
#[derive(Clone, Debug, Default, Deserialize)]
pub struct CountForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    version: String,
    #[serde(default)]
    seat: String,
    #[serde(default)]
    points: String,
    #[serde(default)]
    elements: String,
}

impl CountForm {
    /// The command, or every problem with the form at once.
    fn command(&self) -> Result<RecordCount, AppError> {
        let mut problems = Vec::new();
        let version = self.version.trim().parse().unwrap_or_else(|_| {
            problems.push("the form lacks the hand's version: reload the page".to_owned());
            0
        });
        let seat = self.seat.trim().parse().ok();
        if seat.is_none() {
            problems.push(format!(
                "seat: `{}` is not a seat (east, south, west or north)",
                self.seat.trim()
            ));
        }
        let points = self.points.trim().parse().unwrap_or_else(|_| {
            problems.push(format!(
                "points: `{}` is not a whole number",
                self.points.trim()
            ));
            0
        });
        match (problems.is_empty(), seat) {
            (true, Some(seat)) => Ok(RecordCount {
                version,
                seat,
                points,
                elements: self
                    .elements
                    .split(',')
                    .map(str::trim)
                    .filter(|e| !e.is_empty())
                    .map(str::to_owned)
                    .collect(),
            }),
            _ => Err(AppError::unprocessable(problems.join("; "))),
        }
    }
}

pub async fn record(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
    form: Form<CountForm>,
) -> Result<HttpResponse, HtmlError> {
    let o = viewer.require()?.clone();
    o.check_csrf(&form.csrf)?;
    let hand = path.into_inner();
    let command = form.command()?;
    record_count(&state, &o, hand.clone(), command).await?;
    Ok(see_other(&format!("/hands/{hand}")))
}
