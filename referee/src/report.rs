//! A finished hand as the table reports it, checked across the four hands, then scored and
//! settled under the table's ruleset.
//!
//! [`HandReport`] is the unchecked input (notation as typed, seats as drawn). [`HandReport::check`]
//! turns it into [`HandFacts`] or lists every problem with the field it concerns and the rule it
//! breaks: one set of tiles between the four hands (Code §1–5), a winner who lays down a
//! complete hand with its winning tile, a discarder exactly when the tile came from another
//! player, penalties that make sense. [`HandFacts::score_and_settle`] scores each hand in the
//! wind its player holds (East is the dealer, Code §108) and settles by the ruleset's method,
//! then turns the payments back to seats as drawn.

use serde::{Deserialize, Serialize};

use crate::by_seat::BySeat;
use crate::event::WinContext;
use crate::hand::Hand;
use crate::rotation::Position;
use crate::rules::Ruleset;
use crate::score::{
    prepare, Circumstances, LineValue, Prepared, ScoreInput, ScoreSheet, SheetLine, Win, WinFrom,
};
use crate::seat::Seat;
use crate::settle::{derive_nets, settle_hand, HandOutcome, Outcome, Payment, Penalty};
use crate::tile::Tile;
use crate::violation::{Violation, Violations};
use crate::TileCounts;

/// The most one free-form penalty may be (the web's forms and the API say so too).
pub const MAX_PENALTY: i64 = 1_000_000;

/// What the table reports of a finished hand, as typed: each seat's hand in the notation (`None`
/// when not shown), the winner, how the winning tile came, who gave it, and penalties agreed at
/// the table.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HandReport {
    #[serde(default)]
    pub hands: BySeat<Option<String>>,
    #[serde(default)]
    pub winner: Option<Seat>,
    #[serde(default)]
    pub win_from: Option<WinFrom>,
    #[serde(default)]
    pub discarder: Option<Seat>,
    /// The last tile, Kong upon Kong, an original call, a blessing.
    #[serde(default)]
    pub circumstances: Circumstances,
    #[serde(default)]
    pub penalties: Vec<Penalty<Seat>>,
    /// The discards left on the table, when the play was recorded (a hand replayed event by
    /// event): tiles seen, for "the only place" (Code §115(c)).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub discards: Vec<Tile>,
    /// The seats whose losing hands are short (Code §89(a): a replacement not drawn, §80; a
    /// discard out of turn claimed, §74; a set struck, §78), taken with fewer than thirteen
    /// tiles and scored as they are (§89(c)).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub short: Vec<Seat>,
}

/// A checked report: the hands parse, the four come from one set, the win is coherent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandFacts {
    pub hands: BySeat<Option<Hand>>,
    /// `None` for a wash-out.
    pub win: Option<WinContext>,
    pub penalties: Vec<Penalty<Seat>>,
    /// The discards left on the table, when known.
    pub discards: TileCounts,
}

/// A hand scored and settled, by seat as drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settled {
    pub sheets: BySeat<ScoreSheet>,
    pub payments: Vec<Payment<Seat>>,
    pub nets: BySeat<i64>,
}

/// The seats whose hands are short (Code §89(a)), in seat order.
pub fn short_hands(hands: &BySeat<Option<Hand>>) -> Vec<Seat> {
    hands
        .iter()
        .filter(|(_, h)| h.as_ref().is_some_and(Hand::is_short))
        .map(|(s, _)| s)
        .collect()
}

impl HandReport {
    /// The report that states `facts` again: where a correction starts from.
    pub fn from_facts(facts: &HandFacts) -> HandReport {
        HandReport {
            hands: facts
                .hands
                .as_ref()
                .map(|h| h.as_ref().map(ToString::to_string)),
            winner: facts.win.as_ref().map(|w| w.winner),
            win_from: facts.win.as_ref().map(|w| w.from),
            discarder: facts.win.as_ref().and_then(|w| w.discarder),
            circumstances: facts
                .win
                .as_ref()
                .map(|w| w.circumstances)
                .unwrap_or_default(),
            penalties: facts.penalties.clone(),
            discards: facts.discards.tiles().collect(),
            short: short_hands(&facts.hands),
        }
    }

    /// Checks the report, listing every problem.
    pub fn check(&self) -> Result<HandFacts, Violations> {
        let mut v = Violations::new();
        let hands = self.hands.as_ref().map_with_key(|seat, text| {
            let text = text.as_deref().map(str::trim).filter(|t| !t.is_empty())?;
            let field = format!("hands.{seat}");
            let parsed = if self.short.contains(&seat) {
                Hand::parse_short(text)
            } else {
                text.parse::<Hand>()
            };
            match parsed {
                Ok(h) => Some(h),
                Err(e) => {
                    v.push(Violation::new(field, e.to_string()));
                    None
                }
            }
        });
        self.check_hands(&hands, &mut v);
        let win = self.check_win(&hands, &mut v);
        check_penalties(&self.penalties, &mut v);
        let discards = self.check_discards(&hands, &mut v);
        v.into_result(HandFacts {
            hands,
            win,
            penalties: self.penalties.clone(),
            discards,
        })
    }

    /// The discards, no tile more than four times with the hands.
    fn check_discards(&self, hands: &BySeat<Option<Hand>>, v: &mut Violations) -> TileCounts {
        let mut all = TileCounts::EMPTY;
        for (_, hand) in hands.iter() {
            if let Some(h) = hand {
                for t in h.concealed().tiles().chain(h.winning()) {
                    let _ = all.try_add(t);
                }
                for m in h.melds() {
                    m.set.tiles().for_each(|t| {
                        let _ = all.try_add(t);
                    });
                }
            }
        }
        let mut discards = TileCounts::EMPTY;
        for (i, &t) in self.discards.iter().enumerate() {
            if all.try_add(t).is_err() || discards.try_add(t).is_err() {
                v.push(Violation::new(
                    format!("discards.{i}"),
                    format!("a fifth `{t}` between the hands and the discards"),
                ));
            }
        }
        discards
    }

    fn check_hands(&self, hands: &BySeat<Option<Hand>>, v: &mut Violations) {
        for (seat, hand) in hands.iter() {
            let Some(hand) = hand else {
                if self.winner == Some(seat) && self.hands[seat].is_none() {
                    v.push(Violation::rule(
                        format!("hands.{seat}"),
                        "Code §104",
                        "the winner lays down his whole hand: give it",
                    ));
                }
                continue;
            };
            let won = self.winner == Some(seat);
            if won && hand.winning().is_none() {
                v.push(Violation::new(
                    format!("hands.{seat}"),
                    "the winner's hand must end with its winning tile, `=tile`",
                ));
            }
            if !won && hand.winning().is_some() {
                v.push(Violation::new(
                    format!("hands.{seat}"),
                    "only the winner's hand has a winning tile (`=`)",
                ));
            }
        }
        // The four hands come from one set: four of each tile between them (Code §3–5).
        let all = count_tiles(hands.values().flatten());
        for t in Tile::ALL {
            if all[t.index()] > 4 {
                v.push(Violation::rule(
                    "hands",
                    "Code §3–5",
                    format!(
                        "the four hands hold {} `{t}` between them; the set has four",
                        all[t.index()]
                    ),
                ));
            }
        }
    }

    fn check_win(&self, hands: &BySeat<Option<Hand>>, v: &mut Violations) -> Option<WinContext> {
        let Some(winner) = self.winner else {
            if self.discarder.is_some() {
                v.push(Violation::new("discarder", "a wash-out has no discarder"));
            }
            if self.win_from.is_some() {
                v.push(Violation::new(
                    "win_from",
                    "a wash-out has no winning tile: name the winner, or leave this empty",
                ));
            }
            if !self.circumstances.is_none() {
                v.push(Violation::new(
                    "circumstances",
                    "a wash-out has no win, so no circumstances of one",
                ));
            }
            return None;
        };
        let Some(from) = self.win_from else {
            v.push(Violation::new(
                "win_from",
                "say how the winning tile came (wall, discard, …)",
            ));
            return None;
        };
        match (from.needs_discarder(), self.discarder) {
            (true, None) => v.push(Violation::new(
                "discarder",
                format!("a win from {from} needs the seat that gave the tile"),
            )),
            (true, Some(d)) if d == winner => v.push(Violation::new(
                "discarder",
                "the winner cannot have given the winning tile",
            )),
            (false, Some(_)) => v.push(Violation::new(
                "discarder",
                format!("a win from {from} has no discarder: the winner drew the tile"),
            )),
            _ => {}
        }
        let tile = hands[winner].as_ref().and_then(Hand::winning)?;
        Some(WinContext {
            winner,
            tile,
            from,
            discarder: self.discarder,
            circumstances: self.circumstances,
        })
    }
}

/// Checks agreed payments; a rule's penalty is checked by the settlement, which knows its
/// ruleset's amounts.
fn check_penalties(penalties: &[Penalty<Seat>], v: &mut Violations) {
    for (i, p) in penalties.iter().enumerate() {
        if let Penalty::OwnCount { seat, .. } = p {
            let twice = penalties[..i]
                .iter()
                .any(|q| matches!(q, Penalty::OwnCount { seat: s, .. } if s == seat));
            if twice {
                v.push(Violation::rule(
                    format!("penalties[{i}].seat"),
                    "Code §110",
                    format!("{seat}'s own count is given twice: give the one that stands"),
                ));
            }
            continue;
        }
        let Penalty::Agreed {
            payer,
            payee,
            amount,
            reason,
        } = p
        else {
            continue;
        };
        let field = |f: &str| format!("penalties[{i}].{f}");
        if !(1..=MAX_PENALTY).contains(amount) {
            v.push(Violation::new(
                field("amount"),
                format!("the amount must be 1 to {MAX_PENALTY}"),
            ));
        }
        if *payee == Some(*payer) {
            v.push(Violation::new(field("payee"), "a seat cannot pay itself"));
        }
        if reason.trim().is_empty() {
            v.push(Violation::new(
                field("reason"),
                "give the reason (it is recorded)",
            ));
        }
    }
}

/// `report` checked, then scored and settled under `rules` at `position`: the report again
/// with its settlement, or every problem found.
pub fn settle(
    report: HandReport,
    rules: &Ruleset,
    position: &Position,
) -> Result<(HandReport, Settled), Violations> {
    let settled = report.check()?.score_and_settle(rules, position)?;
    Ok((report, settled))
}

/// How many of each tile `hands` hold between them: concealed, winning and in sets. A table's
/// hands come from one set, so no count may pass four (Code §3–5).
pub fn count_tiles<'a>(hands: impl IntoIterator<Item = &'a Hand>) -> [u32; Tile::COUNT] {
    let mut all = [0u32; Tile::COUNT];
    for hand in hands {
        let sets = hand.melds().iter().flat_map(|m| m.set.tiles());
        for t in hand.concealed().tiles().chain(hand.winning()).chain(sets) {
            all[t.index()] += 1;
        }
    }
    all
}

/// The sheet of a hand that was not laid down (Code §106: it claims no score).
fn not_laid_down(ruleset: &str) -> ScoreSheet {
    ScoreSheet {
        ruleset: ruleset.to_owned(),
        lines: vec![SheetLine {
            element: "not-laid-down".into(),
            name: "Hand not laid down: no score".into(),
            tiles: None,
            cite: "Code §106".into(),
            value: LineValue::Points(0),
        }],
        ..ScoreSheet::default()
    }
}

/// The tiles of every set the other three players exposed or declared: what the table shows
/// of their hands when this one is scored (for "the only tile that could complete the hand",
/// Code §115(c)). Discards are not known to a hand recorded after the play.
fn exposed_by_others(hands: &BySeat<Option<Hand>>, seat: Seat) -> TileCounts {
    let mut shown = TileCounts::EMPTY;
    for (other, hand) in hands.iter() {
        if other == seat {
            continue;
        }
        for m in hand.iter().flat_map(|h| h.melds()) {
            for t in m.set.tiles() {
                // At most four of each: `check` refused more between the hands.
                let _ = shown.try_add(t);
            }
        }
    }
    shown
}

impl HandFacts {
    /// What scoring `seat`'s hand at `position` takes: its hand, its wind, the win when it won,
    /// and the tiles it could see; `None` for a hand not laid down.
    pub(crate) fn score_input(&self, seat: Seat, position: &Position) -> Option<ScoreInput> {
        let hand = self.hands[seat].as_ref()?;
        Some(ScoreInput {
            hand: hand.clone(),
            seat: position.wind_of(seat),
            prevailing: position.prevailing,
            win: self.win.as_ref().filter(|w| w.winner == seat).map(|w| Win {
                // §122(r): East's wins in succession, this one included.
                east_wins: if seat == position.east {
                    position.east_wins + 1
                } else {
                    0
                },
                ..w.circumstances.win(w.from)
            }),
            visible: {
                let mut seen = exposed_by_others(&self.hands, seat);
                // At most four of each: `check` refused more.
                let _ = seen.try_merge(&self.discards);
                seen
            },
        })
    }

    /// The score sheets of the seats `which` names (a hand not laid down claims no score,
    /// §106); `None` for the others. Every hand that cannot be scored is a violation.
    pub(crate) fn sheets(
        &self,
        score: &Prepared<'_>,
        position: &Position,
        which: impl Fn(Seat) -> bool,
    ) -> Result<BySeat<Option<ScoreSheet>>, Violations> {
        let mut v = Violations::new();
        let sheets = BySeat::from_fn(|seat| {
            if !which(seat) {
                return None;
            }
            let Some(input) = self.score_input(seat, position) else {
                return Some(not_laid_down(score.rules_name()));
            };
            Some(score.score(&input).unwrap_or_else(|e| {
                v.push(Violation::new(format!("hands.{seat}"), e.to_string()));
                ScoreSheet::default()
            }))
        });
        if v.is_empty() {
            Ok(sheets)
        } else {
            Err(v)
        }
    }

    /// Scores every hand under `rules` in the wind its player holds at `position`, settles by
    /// the ruleset's method, and adds the penalties agreed at the table.
    pub fn score_and_settle(
        &self,
        rules: &Ruleset,
        position: &Position,
    ) -> Result<Settled, Violations> {
        let winner = self.win.as_ref().map(|w| w.winner);
        let prepared = prepare(rules);
        let sheets = self
            .sheets(&prepared, position, |_| true)?
            .map(|s| s.unwrap_or_default());
        // A wash-out scores nothing (Code §97): the sheets are kept, no one is paid.
        let scores = sheets
            .as_ref()
            .map(|s| if winner.is_some() { s.total } else { 0 })
            .to_winds(position.east);
        let outcome = match winner {
            Some(w) => Outcome::MahJongg {
                winner: position.wind_of(w),
            },
            None => Outcome::WashOut,
        };
        let mut hand = HandOutcome::new(scores, outcome);
        hand.penalties = self
            .penalties
            .iter()
            .map(|p| p.clone().map(|s| position.wind_of(s)))
            .collect();
        if let Some(w) = &self.win {
            let sheet = &sheets[w.winner];
            hand.limit_hand = sheet.limit_hand;
            hand.winner_doubles = sheet.doubles;
            hand.discarder = w.discarder.map(|d| position.wind_of(d));
        }
        let settled = settle_hand(rules, &hand).map_err(|e| {
            Violations::from(Violation::new("penalties", format!("settlement: {e}")))
        })?;
        let payments: Vec<Payment<Seat>> = settled
            .payments
            .iter()
            .map(|p| Payment {
                payer: Seat::holding(p.payer, position.east),
                payee: Seat::holding(p.payee, position.east),
                amount: p.amount,
            })
            .collect();
        // Four at the table, no Dreamer: the nets are what the payments add up to.
        let nets = derive_nets(&payments).map_err(|e| {
            Violations::from(Violation::new("penalties", format!("settlement: {e}")))
        })?;
        Ok(Settled {
            sheets,
            payments,
            nets,
        })
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Four hands from one set: the winner's, and three losing hands in seat order.
    pub(crate) fn four_hands(winner: Option<Seat>) -> BySeat<Option<String>> {
        let mut losing = [
            "234m 567m 789p WW 12s",
            "345s 678s 111p NN 99m",
            "SSS RRR GGG 234s 9p",
        ]
        .into_iter();
        BySeat::from_fn(|s| {
            Some(if Some(s) == winner {
                "123m 456p 789s EE 45p 1f =6p".to_owned()
            } else {
                losing.next().unwrap_or("").to_owned()
            })
        })
    }

    fn report(winner: Option<Seat>) -> HandReport {
        HandReport {
            hands: four_hands(winner),
            winner,
            win_from: winner.map(|_| WinFrom::Wall),
            ..HandReport::default()
        }
    }

    #[test]
    fn every_problem_is_listed_with_its_field() {
        // Given a report with a bad hand, a win from a discard with no discarder, and a
        // penalty paid to oneself,
        let mut r = report(Some(Seat::South));
        r.hands[Seat::West] = Some("123x".into());
        r.win_from = Some(WinFrom::Discard);
        r.penalties.push(Penalty::Agreed {
            payer: Seat::North,
            payee: Some(Seat::North),
            amount: 0,
            reason: " ".into(),
        });
        // when it is checked, then every problem is named with its field.
        let v = r.check().unwrap_err();
        let fields: Vec<&str> = v.iter().map(|v| v.field.as_str()).collect();
        assert_eq!(
            fields,
            [
                "hands.west",
                "discarder",
                "penalties[0].amount",
                "penalties[0].payee",
                "penalties[0].reason"
            ],
            "{v}"
        );
    }

    #[test]
    fn five_of_a_tile_between_the_hands_is_refused_with_the_rule() {
        let mut r = report(None);
        r.hands = BySeat::new(
            Some("1111m 222p 333s 444s".into()),
            Some("1m 234p 567s 888s 99p 9s".into()),
            None,
            None,
        );
        let v = r.check().unwrap_err();
        assert!(
            v.iter().any(|v| v.rule.as_deref() == Some("Code §3–5")),
            "{v}"
        );
    }

    #[test]
    fn the_dealer_pays_double_whoever_sits_where() {
        let rules = Ruleset::builtin("code-of-laws").unwrap();
        for east in Seat::ALL {
            for winner in Seat::ALL {
                let p = Position {
                    east,
                    ..Position::FIRST
                };
                let s = report(Some(winner))
                    .check()
                    .unwrap()
                    .score_and_settle(&rules, &p)
                    .unwrap();
                assert_eq!(s.nets.values().sum::<i64>(), 0);
                assert!(s.nets[winner] > 0);
                if winner != east {
                    let paid = |payer: Seat| {
                        s.payments
                            .iter()
                            .find(|p| p.payer == payer && p.payee == winner)
                            .unwrap()
                            .amount
                    };
                    let other = Seat::ALL
                        .into_iter()
                        .find(|&s| s != east && s != winner)
                        .unwrap();
                    assert_eq!(paid(east), 2 * paid(other), "Code §108: East pays double");
                }
            }
        }
    }

    #[test]
    fn a_wash_out_moves_nothing_but_penalties() {
        let rules = Ruleset::builtin("code-of-laws").unwrap();
        let mut r = report(None);
        let s = r
            .check()
            .unwrap()
            .score_and_settle(&rules, &Position::FIRST)
            .unwrap();
        assert!(s.payments.is_empty());
        r.penalties.push(Penalty::Agreed {
            payer: Seat::West,
            payee: None,
            amount: 10,
            reason: "agreed at the table".into(),
        });
        let s = r
            .check()
            .unwrap()
            .score_and_settle(&rules, &Position::FIRST)
            .unwrap();
        assert_eq!(s.nets[Seat::West], -30);
    }

    #[test]
    fn a_hand_not_laid_down_scores_nothing_under_section_106() {
        let rules = Ruleset::builtin("code-of-laws").unwrap();
        let mut r = report(Some(Seat::East));
        r.hands[Seat::North] = None;
        let s = r
            .check()
            .unwrap()
            .score_and_settle(&rules, &Position::FIRST)
            .unwrap();
        assert_eq!(s.sheets[Seat::North].lines[0].cite.as_ref(), "Code §106");
        assert_eq!(s.sheets[Seat::North].total, 0);
        // The winner's hand, though, must be laid down.
        r.hands[Seat::East] = None;
        let v = r.check().unwrap_err();
        assert_eq!(v.iter().next().unwrap().rule.as_deref(), Some("Code §104"));
    }

    #[test]
    fn a_report_round_trips_through_its_facts() {
        let r = report(Some(Seat::West));
        let facts = r.check().unwrap();
        assert_eq!(HandReport::from_facts(&facts).check().unwrap(), facts);
    }
}
