//! The scorer's forms, read: the start of a hand, one act of the play (a button, the picker,
//! an act written out, the hands laid down with the end), the scorer's strike. Each problem is
//! named with its field; nothing is decided here (the referee decides what the form says).

use ledger::event::{Deal, DealOrder, HandEvent, HandExposed};
use referee::position::Act;
use referee::{AnyTile, BySeat, Seat};
use serde::Deserialize;

use crate::app::commands::play::StartHand;
use crate::app::queries::scorer;
use crate::server::error::AppError;

/// The start form.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct StartForm {
    pub(super) csrf: String,
    pub(super) hand: String,
    pub(super) dice: String,
    pub(super) deal: String,
    pub(super) hand_east: String,
    pub(super) hand_south: String,
    pub(super) hand_west: String,
    pub(super) hand_north: String,
    pub(super) wall: String,
    pub(super) order: String,
}

/// Tiles written in the notation, each problem named with its field.
fn tiles(field: &str, text: &str) -> Result<Vec<AnyTile>, String> {
    referee::notation::parse_any(text, 0)
        .map(|v| v.into_iter().map(|l| l.tile).collect())
        .map_err(|e| format!("{field}: {e}"))
}

impl StartForm {
    pub(super) fn command(&self) -> Result<StartHand, AppError> {
        let mut problems = Vec::new();
        let dice = self
            .dice
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|d| !d.is_empty())
            .filter_map(|d| match d.parse::<u8>() {
                Ok(n) if (1..=6).contains(&n) => Some(n),
                _ => {
                    problems.push(format!("dice: `{d}` is not a die's face (1 to 6)"));
                    None
                }
            })
            .collect();
        let deal = match self.deal.trim() {
            "" | "unknown" => Deal::Unknown,
            "hands" => {
                let fields = [
                    ("hand_east", &self.hand_east),
                    ("hand_south", &self.hand_south),
                    ("hand_west", &self.hand_west),
                    ("hand_north", &self.hand_north),
                ];
                let mut hands = BySeat::from_fn(|_| Vec::new());
                for (seat, (field, text)) in Seat::ALL.into_iter().zip(fields) {
                    match tiles(field, text) {
                        Ok(t) => hands[seat] = t,
                        Err(e) => problems.push(e),
                    }
                }
                Deal::Hands { hands }
            }
            "wall" => match tiles("wall", &self.wall) {
                Ok(t) => Deal::Wall {
                    tiles: t,
                    order: if self.order.trim() == "four-four-four-one" {
                        DealOrder::FourFourFourOne
                    } else {
                        DealOrder::Code
                    },
                },
                Err(e) => {
                    problems.push(e);
                    Deal::Unknown
                }
            },
            other => {
                problems.push(format!(
                    "deal: `{other}` is not what may be known of a deal (unknown, hands, wall)"
                ));
                Deal::Unknown
            }
        };
        if !problems.is_empty() {
            return Err(AppError::unprocessable(problems.join("; ")));
        }
        Ok(StartHand {
            hand: self.hand.trim().to_owned(),
            dice,
            deal,
        })
    }
}

/// One act of the play, from a button, the picker or the "something else happened" form.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct PlayForm {
    pub(super) csrf: String,
    pub(super) version: String,
    pub(super) hand: String,
    pub(super) act: String,
    pub(super) seat: String,
    pub(super) verb: String,
    pub(super) tile: String,
    pub(super) reason: String,
    pub(super) laying: String,
    pub(super) laid_east: String,
    pub(super) laid_south: String,
    pub(super) laid_west: String,
    pub(super) laid_north: String,
    pub(super) count_east: String,
    pub(super) count_south: String,
    pub(super) count_west: String,
    pub(super) count_north: String,
}

impl PlayForm {
    pub(super) fn version(&self) -> Result<u64, AppError> {
        self.version.trim().parse().map_err(|_| {
            AppError::bad_request("the form lacks the hand's version: reload the page")
        })
    }

    /// The act posted: written out, or a verb and the tile picked.
    pub(super) fn act(&self) -> Result<Act, AppError> {
        if !self.act.trim().is_empty() {
            return self.act.trim().parse::<Act>().map_err(|e| {
                AppError::unprocessable(format!("the act `{}` does not read: {e}", self.act.trim()))
            });
        }
        let seat =
            self.seat.trim().parse::<Seat>().map_err(|_| {
                AppError::bad_request(format!("`{}` is not a seat", self.seat.trim()))
            })?;
        scorer::picked_act(seat, self.verb.trim(), &self.tile)
    }

    /// The event the act records, with the scorer's reason where it carries one.
    pub(super) fn event(&self, act: &Act) -> HandEvent {
        let reason = self.reason.trim().to_owned();
        match act.event() {
            HandEvent::ClaimRetracted(mut r) => {
                r.reason = reason;
                HandEvent::ClaimRetracted(r)
            }
            HandEvent::WashOut(mut w) => {
                w.reason = reason;
                HandEvent::WashOut(w)
            }
            e => e,
        }
    }

    /// Each player's own count of his hand given with the end (Code §107, §110), each
    /// problem with its seat: the seats and points.
    pub(super) fn counts(&self) -> Result<Vec<(Seat, i64)>, AppError> {
        let fields = [
            &self.count_east,
            &self.count_south,
            &self.count_west,
            &self.count_north,
        ];
        let mut out = Vec::new();
        let mut problems = Vec::new();
        for (seat, text) in Seat::ALL.into_iter().zip(fields) {
            match text.trim() {
                "" => {}
                t => match t.parse::<i64>() {
                    Ok(n) if n >= 0 => out.push((seat, n)),
                    _ => problems.push(format!(
                        "{seat}'s own count: `{t}` is not a whole number of points"
                    )),
                },
            }
        }
        if problems.is_empty() {
            Ok(out)
        } else {
            Err(AppError::unprocessable(problems.join("; ")))
        }
    }

    /// The hands laid down, each problem with its seat.
    pub(super) fn laid_down(&self) -> Result<Vec<HandExposed>, AppError> {
        let mut out = Vec::new();
        let mut problems = Vec::new();
        let fields = [
            &self.laid_east,
            &self.laid_south,
            &self.laid_west,
            &self.laid_north,
        ];
        for (seat, text) in Seat::ALL.into_iter().zip(fields) {
            if text.trim().is_empty() {
                continue;
            }
            match text.trim().parse() {
                Ok(hand) => out.push(HandExposed { seat, hand }),
                Err(e) => problems.push(format!("{seat}: {e}")),
            }
        }
        if problems.is_empty() {
            Ok(out)
        } else {
            Err(AppError::unprocessable(problems.join("; ")))
        }
    }
}

/// The scorer's strike of his own last entry.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct StrikeForm {
    pub(super) csrf: String,
    pub(super) version: String,
    pub(super) hand: String,
    pub(super) entry: String,
    pub(super) reason: String,
}
