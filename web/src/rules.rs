//! The one door between the web service and the rules engine: rulesets, scoring and
//! settlement all come through here, so pages and the API share one arithmetic — the referee's
//! (`referee::score`, `referee::settle::settle_hand`).
//!
//! Seats: the service keys everything by the seats *as drawn* at the table (`SeatsDrawn`), and
//! `HandInput::east` says which of them deals this hand. Scoring and settlement are defined on
//! the seat winds of the hand (East = the dealer, Code §108), so [`score_and_settle`] turns
//! drawn seats into hand winds, scores and settles, and turns the payments back.

use referee::score::{score, ScoreInput, ScoreSheet, Win};
use referee::settle::{derive_nets, settle_hand, HandOutcome, Outcome, SettlementError};
use referee::{BySeat, Hand, Ruleset, TileCounts, Wind};
use sha2::{Digest, Sha256};

pub use ledger::event::{
    Penalty as PenaltyInput, ScoreLine as SheetLine, ScoreSheet as SheetView, WinFrom,
};
pub use referee::settle::Payment;

/// Where a ruleset comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesetSource {
    /// A built-in ruleset, by name (see [`ruleset_names`]).
    BuiltIn(String),
    /// The text of an uploaded house ruleset.
    House(String),
}

/// A ruleset ready to score with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadedRuleset {
    pub name: String,
    pub title: String,
    /// The limit on one hand's score; `None` for no limit.
    pub limit: Option<u64>,
    /// SHA-256 of the ruleset file's text, so a game pins exactly what it was scored under.
    pub content_sha256: String,
    inner: Ruleset,
}

impl LoadedRuleset {
    /// Plays the ruleset with a different limit (a tournament's own), `None` for the roof off.
    pub fn with_limit(mut self, limit: Option<u64>) -> LoadedRuleset {
        self.inner.params.limit = limit;
        self.limit = limit;
        self
    }
}

/// Why a ruleset could not be loaded or a hand could not be scored.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    #[error("there is no built-in ruleset `{0}`")]
    UnknownRuleset(String),
    #[error("the house ruleset has {} problem(s): {}", .0.len(), join_lines(.0))]
    HouseRuleset(Vec<(usize, String)>),
    #[error("{0}")]
    Input(String),
    #[error("settlement refused: {0}")]
    Settlement(#[from] SettlementError),
}

fn join_lines(problems: &[(usize, String)]) -> String {
    problems
        .iter()
        .map(|(line, what)| format!("line {line}: {what}"))
        .collect::<Vec<_>>()
        .join("; ")
}

/// One player's hand, by seat as drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerHandInput {
    pub seat: Wind,
    pub hand: Hand,
}

/// Everything scoring a finished hand needs. Seats are the seats as drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandInput {
    /// The seat that is East (deals) this hand.
    pub east: Wind,
    pub prevailing: Wind,
    /// Each seat's hand as laid down; `None` when not shown.
    pub hands: BySeat<Option<Hand>>,
    /// `None` for a wash-out.
    pub winner: Option<Wind>,
    pub win_from: WinFrom,
    pub discarder: Option<Wind>,
    pub penalties: Vec<PenaltyInput>,
}

/// The scored and settled hand, by seat as drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandResult {
    pub sheets: BySeat<SheetView>,
    pub payments: Vec<Payment>,
    pub nets: BySeat<i64>,
}

/// The built-in rulesets: (name, title).
pub fn ruleset_names() -> Vec<(String, String)> {
    Ruleset::builtin_names()
        .filter_map(Ruleset::builtin)
        .map(|r| (r.name, r.title))
        .collect()
}

fn sha256_hex(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Loads a built-in by name, or checks a house ruleset's text (every problem, with its line).
pub fn load_ruleset(source: RulesetSource) -> Result<LoadedRuleset, RulesError> {
    let (text, parsed) = match &source {
        RulesetSource::BuiltIn(name) => {
            let text = Ruleset::builtin_text(name)
                .ok_or_else(|| RulesError::UnknownRuleset(name.clone()))?;
            (text, Ruleset::parse(text))
        }
        RulesetSource::House(text) => (text.as_str(), Ruleset::parse(text)),
    };
    let inner = parsed.map_err(|e| {
        RulesError::HouseRuleset(
            e.problems
                .into_iter()
                .map(|p| (p.line, p.message))
                .collect(),
        )
    })?;
    Ok(LoadedRuleset {
        name: inner.name.clone(),
        title: inner.title.clone(),
        limit: inner.params.limit,
        content_sha256: sha256_hex(text),
        inner,
    })
}

/// The seat wind of the hand for a seat as drawn, when `east` deals.
fn hand_wind(seat: Wind, east: Wind) -> Wind {
    Wind::from_index(seat.index() + 4 - east.index())
}

/// The seat as drawn for a seat wind of the hand.
fn drawn_seat(wind: Wind, east: Wind) -> Wind {
    Wind::from_index(wind.index() + east.index())
}

fn view(sheet: &ScoreSheet) -> SheetView {
    SheetView {
        lines: sheet
            .lines
            .iter()
            .map(|l| SheetLine {
                text: match &l.tiles {
                    Some(t) => format!("{} ({t})", l.name),
                    None => l.name.clone(),
                },
                citation: l.cite.clone(),
                value: l.value.to_string(),
            })
            .collect(),
        basic: sheet.basic,
        doubles: sheet.doubles,
        raw: sheet.raw,
        limited: sheet.limited,
        total: sheet.total,
    }
}

/// Scores every hand under the ruleset and settles it by the ruleset's method; penalty payments
/// recorded with the hand are added.
pub fn score_and_settle(r: &LoadedRuleset, input: &HandInput) -> Result<HandResult, RulesError> {
    let from = input.win_from;
    let mut sheets = BySeat::<SheetView>::default();
    let mut winner_sheet: Option<ScoreSheet> = None;
    if let Some(winner) = input.winner {
        for seat in Wind::ALL {
            let Some(hand) = input.hands.get(seat) else {
                if seat == winner {
                    return Err(RulesError::Input(format!(
                        "the winner ({seat}) must lay down his hand"
                    )));
                }
                // Code §106: a hand not displayed claims no score.
                *sheets.get_mut(seat) = SheetView {
                    lines: vec![SheetLine {
                        text: "Hand not laid down: no score".to_owned(),
                        citation: "Code §106".to_owned(),
                        value: "0 points".to_owned(),
                    }],
                    ..SheetView::default()
                };
                continue;
            };
            let won = seat == winner;
            let input_for = ScoreInput {
                hand: hand.clone(),
                seat: hand_wind(seat, input.east),
                prevailing: input.prevailing,
                win: won.then(|| Win::from(from)),
                visible: TileCounts::EMPTY,
            };
            let sheet = score(&r.inner, &input_for)
                .map_err(|e| RulesError::Input(format!("{seat}'s hand: {e}")))?;
            *sheets.get_mut(seat) = view(&sheet);
            if won {
                winner_sheet = Some(sheet);
            }
        }
    }
    // Settle on the winds of the hand (East = the dealer).
    let scores = BySeat::from_fn(|w| sheets.get(drawn_seat(w, input.east)).total);
    let outcome = match input.winner {
        Some(winner) => Outcome::MahJongg {
            winner: hand_wind(winner, input.east),
        },
        None => Outcome::WashOut,
    };
    let mut hand = HandOutcome::new(scores, outcome);
    if let Some(s) = &winner_sheet {
        hand.limit_hand = s.limit_hand;
        hand.winner_doubles = s.doubles;
    }
    hand.discarder = input
        .discarder
        .filter(|_| !from.is_drawn())
        .map(|d| hand_wind(d, input.east));
    let settled = settle_hand(&r.inner, &hand).map_err(|e| RulesError::Input(e.to_string()))?;
    let mut payments: Vec<Payment> = settled
        .payments
        .iter()
        .map(|p| Payment {
            payer: drawn_seat(p.payer, input.east),
            payee: drawn_seat(p.payee, input.east),
            amount: p.amount,
        })
        .collect();
    for penalty in &input.penalties {
        let payees: Vec<Wind> = match penalty.payee {
            Some(p) => vec![p],
            None => Wind::ALL
                .into_iter()
                .filter(|&w| w != penalty.payer)
                .collect(),
        };
        for payee in payees {
            payments.push(Payment {
                payer: penalty.payer,
                payee,
                amount: penalty.amount,
            });
        }
    }
    let nets = derive_nets(&payments)?;
    Ok(HandResult {
        sheets,
        payments,
        nets,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(winner: Option<Wind>, east: Wind) -> HandInput {
        let losing: Hand = "123m 456p 789s EE 45p".parse().unwrap();
        let winning: Hand = "123m 456p 789s EE 45p 1f =6p".parse().unwrap();
        HandInput {
            east,
            prevailing: Wind::East,
            hands: BySeat::from_fn(|s| {
                Some(if Some(s) == winner {
                    winning.clone()
                } else {
                    losing.clone()
                })
            }),
            winner,
            win_from: WinFrom::Wall,
            discarder: None,
            penalties: vec![],
        }
    }

    #[test]
    fn settles_to_zero_and_the_winner_collects() {
        let r = load_ruleset(RulesetSource::BuiltIn("code-of-laws".into())).unwrap();
        for east in Wind::ALL {
            for winner in Wind::ALL {
                let res = score_and_settle(&r, &input(Some(winner), east)).unwrap();
                assert_eq!(res.nets.iter().map(|(_, n)| n).sum::<i64>(), 0);
                assert!(*res.nets.get(winner) > 0);
                // East (the dealer) pays the winner double (Code §108).
                if winner != east {
                    let from_east = res
                        .payments
                        .iter()
                        .find(|p| p.payer == east && p.payee == winner)
                        .unwrap();
                    let from_other = res
                        .payments
                        .iter()
                        .find(|p| p.payer != east && p.payee == winner)
                        .unwrap();
                    assert_eq!(from_east.amount, 2 * from_other.amount);
                }
            }
        }
    }

    #[test]
    fn wash_out_moves_nothing_and_penalties_are_paid() {
        let r = load_ruleset(RulesetSource::BuiltIn("code-of-laws".into())).unwrap();
        let mut i = input(None, Wind::South);
        assert!(score_and_settle(&r, &i).unwrap().payments.is_empty());
        i.penalties.push(PenaltyInput {
            payer: Wind::West,
            payee: None,
            amount: 10,
            reason: "false Mah-Jongg".into(),
        });
        let res = score_and_settle(&r, &i).unwrap();
        assert_eq!(res.nets.west, -30);
        assert_eq!(res.nets.iter().map(|(_, n)| n).sum::<i64>(), 0);
    }

    #[test]
    fn house_rulesets_report_every_problem_with_its_line() {
        let e = load_ruleset(RulesetSource::House(
            "name = \"ours\"\nbase = \"code-of-laws\"\n[params]\nlimit = \"lots\"\nfoo = 1\n"
                .into(),
        ))
        .unwrap_err();
        let RulesError::HouseRuleset(problems) = e else {
            panic!("{e:?}")
        };
        let lines: Vec<usize> = problems.iter().map(|p| p.0).collect();
        assert_eq!(lines, vec![4, 5]);
        let ok = load_ruleset(RulesetSource::House(
            "name = \"club\"\ntitle = \"Club rules\"\nbase = \"code-of-laws\"\n[params]\nlimit = 500\n"
                .into(),
        ))
        .unwrap();
        assert_eq!(ok.limit, Some(500));
        assert_eq!(ok.content_sha256.len(), 64);
    }

    #[test]
    fn hands_are_scored_by_the_referee() {
        // The winner's 45p + drawn 6p: Code §115(a) 10, §115(b) 2, a flower §114(a) 4, pair of
        // East... as East the pair of own and prevailing Wind scores 4: the sheet cites the Code.
        let r = load_ruleset(RulesetSource::BuiltIn("code-of-laws".into())).unwrap();
        let res = score_and_settle(&r, &input(Some(Wind::South), Wind::East)).unwrap();
        let sheet = &res.sheets.south;
        assert!(
            sheet.lines.iter().any(|l| l.citation == "Code §115(a)"),
            "{sheet:?}"
        );
        assert!(sheet.total > 0);
        assert_eq!(ruleset_names().len(), 7);
    }
}
