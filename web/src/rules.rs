//! The one door between the web service and the rules engine's scoring, settlement and
//! rulesets. Every page and API call that scores a hand comes through here, so the service
//! does not care how scoring is implemented.
//!
//! INTEGRATION: the scoring engine (issue #3) is being written in `referee` in parallel. Until
//! it lands, this module scores with a deliberately minimal interim count (marked below) and
//! settles with the real `referee::settle::settle` (Code of Laws §108–109). Its body is
//! replaced against `referee::score` at merge; its interface stays.
//!
//! Seats: the service keys everything by the seats *as drawn* at the table (`SeatsDrawn`), and
//! `HandInput::east` says which of them deals this hand. Settlement is defined on the seat winds
//! of the hand (East = the dealer, Code §108), so [`score_and_settle`] turns drawn seats into
//! hand winds, settles, and turns the payments back.

use referee::settle::{self, derive_nets, Outcome, SettlementError, SettlementRules};
use referee::{BySeat, Hand, Wind};
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
    /// SHA-256 of the ruleset's text, so a game pins exactly what it was scored under.
    pub content_sha256: String,
    inner: Interim,
}

/// INTEGRATION: replaced by referee's ruleset at merge.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Interim {
    settlement: SettlementRules,
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
    /// Each seat's hand as laid down; `None` when not shown (a wash-out).
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
    // INTEGRATION: replaced by the engine's list of shipped rulesets at merge.
    vec![(
        "code-of-laws".to_owned(),
        "The Code of Laws (interim scoring)".to_owned(),
    )]
}

/// INTEGRATION: the text whose hash pins the interim built-in; replaced at merge.
const CODE_OF_LAWS_INTERIM: &str =
    "name = code-of-laws\ntitle = The Code of Laws\n# interim: settlement §108-109 only\n";

fn sha256_hex(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Loads a built-in by name, or checks a house ruleset's text (every problem, with its line).
pub fn load_ruleset(source: RulesetSource) -> Result<LoadedRuleset, RulesError> {
    match source {
        RulesetSource::BuiltIn(name) => match name.as_str() {
            "code-of-laws" => Ok(LoadedRuleset {
                name,
                title: "The Code of Laws (interim scoring)".to_owned(),
                limit: None,
                content_sha256: sha256_hex(CODE_OF_LAWS_INTERIM),
                inner: Interim {
                    settlement: SettlementRules::CODE_OF_LAWS,
                },
            }),
            _ => Err(RulesError::UnknownRuleset(name)),
        },
        RulesetSource::House(text) => load_house(&text),
    }
}

/// INTEGRATION: the interim house format, `key = value` lines (`name`, `title`, `limit`,
/// `base`, `#` comments); replaced by the engine's ruleset files at merge.
fn load_house(text: &str) -> Result<LoadedRuleset, RulesError> {
    let mut problems = Vec::new();
    let (mut name, mut title, mut limit) = (None, None, None);
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            problems.push((line_no, format!("`{line}` is not `key = value`")));
            continue;
        };
        let (key, value) = (key.trim(), value.trim().trim_matches('"'));
        match key {
            "name" if ledger::PlayerId::new(value).is_ok() => name = Some(value.to_owned()),
            "name" => problems.push((
                line_no,
                format!("name `{value}` must be 1–128 of A–Z a–z 0–9 - _ ."),
            )),
            "title" if !value.is_empty() => title = Some(value.to_owned()),
            "title" => problems.push((line_no, "the title is empty".to_owned())),
            "limit" if value == "none" => limit = None,
            "limit" => match value.parse::<u64>() {
                Ok(n) if n > 0 => limit = Some(n),
                _ => problems.push((
                    line_no,
                    format!("limit `{value}` is not a positive whole number or `none`"),
                )),
            },
            "base" if value == "code-of-laws" => {}
            "base" => problems.push((line_no, format!("base `{value}` is not a built-in ruleset"))),
            other => problems.push((line_no, format!("unknown key `{other}`"))),
        }
    }
    if name.is_none() {
        problems.push((text.lines().count().max(1), "no `name = …` line".to_owned()));
    }
    if !problems.is_empty() {
        return Err(RulesError::HouseRuleset(problems));
    }
    let name = name.unwrap_or_default();
    Ok(LoadedRuleset {
        title: title.unwrap_or_else(|| name.clone()),
        name,
        limit,
        content_sha256: sha256_hex(text),
        inner: Interim {
            settlement: SettlementRules::CODE_OF_LAWS,
        },
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

/// INTEGRATION: replaced by `referee::score` at merge. A minimal interim count so the service
/// can be built and tested: Mah-Jongg 20 points, each bonus tile 4 (Code §114(a)), no doubles.
fn interim_sheet(hand: Option<&Hand>, won: bool, limit: Option<u64>) -> SheetView {
    let mut lines = Vec::new();
    if won {
        lines.push(SheetLine {
            text: "Mah-Jongg".to_owned(),
            citation: "Code §114 (interim count)".to_owned(),
            value: "20 points".to_owned(),
        });
    }
    for b in hand.map(Hand::bonus).unwrap_or_default() {
        let kind = if b.is_flower() { "flower" } else { "season" };
        lines.push(SheetLine {
            text: format!("{kind} {}", b.number()),
            citation: "Code §114(a)".to_owned(),
            value: "4 points".to_owned(),
        });
    }
    let basic = if won { 20 } else { 0 } + 4 * hand.map_or(0, |h| h.bonus().len() as u64);
    let raw = basic;
    let total = limit.map_or(raw, |l| raw.min(l));
    SheetView {
        lines,
        basic,
        doubles: 0,
        raw,
        limited: total < raw,
        total,
    }
}

/// Scores every hand under the ruleset and settles (Code §108–109), penalties added.
pub fn score_and_settle(r: &LoadedRuleset, input: &HandInput) -> Result<HandResult, RulesError> {
    let washed_out = input.winner.is_none();
    let sheets = BySeat::from_fn(|seat| {
        if washed_out {
            // Code §97: a wash-out counts no score.
            SheetView::default()
        } else {
            interim_sheet(
                input.hands.get(seat).as_ref(),
                input.winner == Some(seat),
                r.limit,
            )
        }
    });
    let scores = BySeat::from_fn(|w| sheets.get(drawn_seat(w, input.east)).total);
    let outcome = match input.winner {
        Some(winner) => Outcome::MahJongg {
            winner: hand_wind(winner, input.east),
        },
        None => Outcome::WashOut,
    };
    let settled = settle::settle(&scores, outcome, r.inner.settlement)?;
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
            "title = Ours\nlimit = lots\nfoo = 1\n".into(),
        ))
        .unwrap_err();
        let RulesError::HouseRuleset(problems) = e else {
            panic!("{e:?}")
        };
        let lines: Vec<usize> = problems.iter().map(|p| p.0).collect();
        assert_eq!(lines, vec![2, 3, 3]);
        let ok = load_ruleset(RulesetSource::House(
            "name = club\ntitle = Club rules\nlimit = 500\n".into(),
        ))
        .unwrap();
        assert_eq!(ok.limit, Some(500));
        assert_eq!(ok.content_sha256.len(), 64);
    }
}
