//! The hand form (recording and correcting): its fields as typed, and turning them into the
//! command's facts. Shared by the table's record page and the hand's correction page.

use askama::Template;
use ledger::event::{Penalty, WinFrom};
use referee::Wind;
use serde::Deserialize;

use crate::server::commands::hand::{HandFacts, SeatHands};
use crate::server::error::AppError;
use crate::server::views::Nav;

/// The form's fields as typed.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct HandForm {
    #[serde(default)]
    pub csrf: String,
    #[serde(default)]
    pub hand: String,
    #[serde(default)]
    pub version: String,
    #[serde(default)]
    pub reason: String,
    #[serde(default)]
    pub hand_east: String,
    #[serde(default)]
    pub hand_south: String,
    #[serde(default)]
    pub hand_west: String,
    #[serde(default)]
    pub hand_north: String,
    #[serde(default)]
    pub winner: String,
    #[serde(default)]
    pub win_from: String,
    #[serde(default)]
    pub discarder: String,
    #[serde(default)]
    pub penalty_payer: String,
    #[serde(default)]
    pub penalty_payee: String,
    #[serde(default)]
    pub penalty_amount: String,
    #[serde(default)]
    pub penalty_reason: String,
}

fn seat(field: &str, value: &str) -> Result<Option<Wind>, AppError> {
    match value.trim() {
        "" => Ok(None),
        v => v
            .parse::<Wind>()
            .map(Some)
            .map_err(|_| AppError::bad_request(format!("{field}: `{v}` is not a seat"))),
    }
}

impl HandForm {
    pub fn hand_text(&self, seat: Wind) -> &str {
        match seat {
            Wind::East => &self.hand_east,
            Wind::South => &self.hand_south,
            Wind::West => &self.hand_west,
            Wind::North => &self.hand_north,
        }
    }

    /// The facts the form states.
    pub fn facts(&self) -> Result<HandFacts, AppError> {
        let winner = seat("winner", &self.winner)?;
        let win_from = match (winner, self.win_from.trim()) {
            (None, _) | (_, "") => None,
            (Some(_), w) => Some(
                w.parse::<WinFrom>()
                    .map_err(|e| AppError::bad_request(e.to_string()))?,
            ),
        };
        let mut penalties = Vec::new();
        if let Some(payer) = seat("penalty payer", &self.penalty_payer)? {
            let amount = self.penalty_amount.trim().parse::<i64>().map_err(|_| {
                AppError::unprocessable(format!(
                    "penalty amount `{}` is not a whole number",
                    self.penalty_amount.trim()
                ))
            })?;
            penalties.push(Penalty {
                payer,
                payee: seat("penalty payee", &self.penalty_payee)?,
                amount,
                reason: self.penalty_reason.trim().to_owned(),
            });
        }
        let text = |s: &str| Some(s.to_owned()).filter(|s| !s.trim().is_empty());
        Ok(HandFacts {
            hands: SeatHands {
                east: text(&self.hand_east),
                south: text(&self.hand_south),
                west: text(&self.hand_west),
                north: text(&self.hand_north),
            },
            winner,
            win_from,
            discarder: seat("discarder", &self.discarder)?,
            penalties,
        })
    }
}

/// One way of winning in the form's list.
#[derive(Clone, Debug)]
pub struct WinFromOption {
    pub name: &'static str,
    pub selected: bool,
}

/// One seat's line on the form.
#[derive(Clone, Debug)]
pub struct FormSeat {
    pub key: &'static str,
    pub label: String,
    pub value: String,
}

#[derive(Template)]
#[template(path = "record_hand.html")]
pub struct HandFormPage {
    pub nav: Nav,
    pub heading: String,
    pub context: String,
    pub action: String,
    pub hand_id: String,
    pub version: Option<u64>,
    pub seats: Vec<FormSeat>,
    pub winner: String,
    pub discarder: String,
    pub win_froms: Vec<WinFromOption>,
    pub penalty_payer: String,
    pub penalty_payee: String,
    pub penalty_amount: String,
    pub penalty_reason: String,
    pub reason: String,
    pub submit: &'static str,
    pub error: Option<String>,
}

impl HandFormPage {
    /// The page for a form as typed; `labels` name each seat (player, wind this hand).
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        nav: Nav,
        heading: String,
        context: String,
        action: String,
        hand_id: String,
        version: Option<u64>,
        labels: [String; 4],
        form: &HandForm,
        error: Option<String>,
    ) -> HandFormPage {
        let [e, s, w, n] = labels;
        let seats = [
            (Wind::East, e),
            (Wind::South, s),
            (Wind::West, w),
            (Wind::North, n),
        ]
        .into_iter()
        .map(|(seat, label)| FormSeat {
            key: seat.name(),
            label,
            value: form.hand_text(seat).to_owned(),
        })
        .collect();
        HandFormPage {
            nav,
            heading,
            context,
            action,
            hand_id,
            version,
            seats,
            winner: form.winner.clone(),
            discarder: form.discarder.clone(),
            win_froms: WinFrom::ALL
                .iter()
                .map(|w| WinFromOption {
                    name: w.name(),
                    selected: w.name() == form.win_from
                        || (form.win_from.is_empty() && *w == WinFrom::Wall),
                })
                .collect(),
            penalty_payer: form.penalty_payer.clone(),
            penalty_payee: form.penalty_payee.clone(),
            penalty_amount: form.penalty_amount.clone(),
            penalty_reason: form.penalty_reason.clone(),
            reason: form.reason.clone(),
            submit: if version.is_some() {
                "Record the correction"
            } else {
                "Record the hand"
            },
            error,
        }
    }
}
