//! Checking one hand, for a player at a table with only a phone: `/check` (a page) and
//! `GET /api/check` (the same as JSON, which the hand forms' live preview also asks). A hand
//! and its context in — seat wind, prevailing wind, how the winning tile came, the
//! circumstances, a built-in ruleset or a tournament's — and out: its tiles, its arrangements
//! (Code §105) and special shapes for a Mah-Jongg hand, its waits for a calling hand (each
//! with what it would score from the wall), and its itemized score.
//!
//! What `mahjong-referee score` and `waits` do on the command line, by the same code: the
//! score's input is built as the `score` command builds it ([`crate::rules::score_input`]), and
//! everything else is the referee's (`Hand`, `Hand::calling`, `arrangements`,
//! `SpecialShape`, `Scorer`). Nothing here decides a rule.

use ledger::{Ledger, StreamId};
use readmodel::Reads;
use referee::score::{ScoreInput, ScoreSheet, Scorer, Win};
use referee::{arrangements, Hand, HandError, Ruleset, SpecialShape, Violation, Violations};
use referee::{WinFrom, Wind};
use serde::{Deserialize, Serialize};

use crate::app::error::AppError;
use crate::app::queries::hand::SheetView;
use crate::app::queries::tiles::{hand_groups, tile_glyph, Glyph, TileGroup};
use crate::app::queries::Audience;
use crate::rules::{self, score_input, RulesetSource, ScoreContext};

/// A hand and its context, as the page's form and the API's query give them. Every field is
/// text, so a bad value is named in the answer rather than refused by the query parser.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckQuery {
    #[serde(default)]
    pub hand: String,
    /// A built-in ruleset's name (default `code-of-laws`).
    #[serde(default)]
    pub ruleset: String,
    /// A tournament's id: its ruleset and limit (a house ruleset too), instead of `ruleset`.
    #[serde(default)]
    pub tournament: String,
    /// The player's seat wind this hand (default east).
    #[serde(default)]
    pub seat: String,
    /// The wind of the round (default east).
    #[serde(default)]
    pub prevailing: String,
    /// How the winning tile came: `wall`, `loose-tile`, `discard`, `robbed-kong` (a Mah-Jongg
    /// hand only; default wall).
    #[serde(default)]
    pub win_from: String,
    #[serde(default)]
    pub last_tile: String,
    #[serde(default)]
    pub kong_upon_kong: String,
    #[serde(default)]
    pub original_call: String,
    #[serde(default)]
    pub heavens_blessing: String,
    #[serde(default)]
    pub earths_blessing: String,
}

/// A checkbox or flag: ticked unless empty, `false`, `0` or `off`.
fn flag(value: &str) -> bool {
    !matches!(value.trim(), "" | "false" | "0" | "off")
}

/// Is the circumstance named `name` (one of the hand form's circumstance inputs) ticked in `q`?
pub fn ticked_in(q: &CheckQuery, name: &str) -> bool {
    flag(match name {
        "last_tile" => &q.last_tile,
        "kong_upon_kong" => &q.kong_upon_kong,
        "original_call" => &q.original_call,
        "heavens_blessing" => &q.heavens_blessing,
        "earths_blessing" => &q.earths_blessing,
        _ => "",
    })
}

/// One calling tile: the tile, the shape it completes, and what the hand would score won on
/// it from the wall (when the ruleset scores it).
#[derive(Clone, Debug, Serialize)]
pub struct Wait {
    pub tile: Glyph,
    /// `standard` (four sets and a pair) or a special shape's name.
    pub shapes: Vec<String>,
    pub if_drawn: Option<u64>,
}

/// What a check finds.
#[derive(Clone, Debug, Serialize)]
pub struct Checked {
    /// The hand in the canonical notation.
    pub hand: String,
    pub tiles: Vec<TileGroup>,
    pub mahjong: bool,
    pub ruleset: String,
    pub ruleset_title: String,
    pub seat: Wind,
    pub prevailing: Wind,
    /// A Mah-Jongg hand's concealed tiles (the winning tile with them) grouped every way they
    /// can be (Code §105: the player's freedom of count), sets laid down apart.
    pub arrangements: Vec<String>,
    /// The special shapes a Mah-Jongg hand makes.
    pub special_shapes: Vec<String>,
    /// A calling hand's waits.
    pub waits: Vec<Wait>,
    /// The itemized score, when the hand could be scored.
    pub sheet: Option<ScoreSheet>,
    /// Why the hand could not be scored, each problem apart.
    pub problems: Vec<String>,
}

impl Checked {
    /// The sheet as pages print it.
    pub fn sheet_view(&self) -> Option<SheetView> {
        self.sheet.as_ref().map(SheetView::from)
    }
}

fn wind(field: &str, value: &str) -> Result<Wind, Violation> {
    match value.trim() {
        "" => Ok(Wind::East),
        v => v.to_lowercase().parse().map_err(|_| {
            Violation::new(
                field,
                format!("`{v}` is not a wind (east, south, west or north)"),
            )
        }),
    }
}

/// The ruleset a query names: a built-in's name, or a tournament's (read from the ledger; a
/// voided tournament's only for officials, as its pages are).
pub fn ruleset(ledger: &Ledger, q: &CheckQuery, audience: Audience) -> Result<Ruleset, AppError> {
    let tournament = q.tournament.trim();
    if tournament.is_empty() {
        let name = match q.ruleset.trim() {
            "" => "code-of-laws",
            name => name,
        };
        let known: Vec<&str> = Ruleset::builtin_names().collect();
        if !known.contains(&name) {
            return Err(AppError::violations(
                Violation::new(
                    "ruleset",
                    format!(
                        "there is no built-in ruleset `{name}` (there are: {})",
                        known.join(", ")
                    ),
                )
                .into(),
            ));
        }
        return Ok(rules::load_ruleset(RulesetSource::BuiltIn(name.to_owned()))?.into_ruleset());
    }
    let missing = || AppError::not_found(format!("no tournament `{tournament}`"));
    let stream = StreamId::tournament(tournament).map_err(|_| missing())?;
    let row = ledger.tournament(&stream)?.ok_or_else(missing)?;
    if audience == Audience::Public
        && crate::app::tournament::load_stream(ledger, stream.clone())?
            .state
            .tournament_voided()
            .is_some()
    {
        return Err(missing());
    }
    let config = row.config.ok_or_else(|| {
        AppError::unprocessable("the tournament has no ruleset recorded; it cannot be scored")
    })?;
    let source = match &config.house_ruleset {
        Some(text) => RulesetSource::House(text.clone()),
        None => RulesetSource::BuiltIn(config.ruleset.name.clone()),
    };
    Ok(rules::load_ruleset(source)?
        .with_limit(config.limit)
        .into_ruleset())
}

/// Checks the hand under `rules`. A hand that is not written right, or cannot exist, is a 422
/// listing every problem (field `hand`); a bad context value is a 422 naming its field. A hand
/// that exists but does not score (not complete, a chow too many) is answered, with its tiles,
/// and the reasons in `problems`.
pub fn check(q: &CheckQuery, rules: Ruleset) -> Result<Checked, AppError> {
    let mut violations = Violations::new();
    let text = q.hand.trim();
    let hand: Option<Hand> = if text.is_empty() {
        violations.push(Violation::new(
            "hand",
            "no hand: write it in the notation, e.g. `123m 456m 789p 234s E =E`",
        ));
        None
    } else {
        match text.parse::<Hand>() {
            Ok(h) => Some(h),
            Err(HandError::Syntax(e)) => {
                violations.push(Violation::new("hand", e.to_string()));
                None
            }
            Err(HandError::Invalid(problems)) => {
                for p in problems {
                    violations.push(Violation::new("hand", p.to_string()));
                }
                None
            }
        }
    };
    let seat = wind("seat", &q.seat).map_err(|v| violations.push(v)).ok();
    let prevailing = wind("prevailing", &q.prevailing)
        .map_err(|v| violations.push(v))
        .ok();
    let win_from = match q.win_from.trim() {
        "" => None,
        w => w
            .parse::<WinFrom>()
            .map_err(|e| violations.push(Violation::new("win_from", e.to_string())))
            .ok(),
    };
    let (Some(hand), Some(seat), Some(prevailing)) = (hand, seat, prevailing) else {
        return Err(AppError::violations(violations));
    };
    if !violations.is_empty() {
        return Err(AppError::violations(violations));
    }
    let scorer = Scorer::new(rules);
    // The input as `mahjong-referee score` builds it from its flags. A losing hand has no
    // winning tile to say anything about: the form's choice is ignored for it.
    let context = ScoreContext {
        seat,
        prevailing,
        win_from: hand.winning().map(|_| win_from.unwrap_or(WinFrom::Wall)),
        last_tile: flag(&q.last_tile),
        kong_upon_kong: flag(&q.kong_upon_kong),
        original_call: flag(&q.original_call),
        heavens_blessing: flag(&q.heavens_blessing),
        earths_blessing: flag(&q.earths_blessing),
        east_wins: 0,
        visible: String::new(),
    };
    let mut problems = Vec::new();
    let sheet = match score_input(&hand.to_string(), &context) {
        Ok(input) => scorer
            .score(&input)
            .map_err(|e| problems.push(e.to_string()))
            .ok(),
        Err(e) => {
            problems.push(format!("{e:#}"));
            None
        }
    };
    let (mut arrangements_found, mut special_shapes, mut waits) =
        (Vec::new(), Vec::new(), Vec::new());
    if let Some(w) = hand.winning() {
        // Every way of grouping the concealed tiles, whatever grouping the player wrote.
        if let Some(all) = hand.concealed().with(w) {
            let laid: Vec<String> = hand.melds().iter().map(|m| m.to_string()).collect();
            for a in arrangements(&all) {
                let mut parts = laid.clone();
                parts.push(a.to_string());
                arrangements_found.push(parts.join(" "));
            }
        }
        if let Some(all) = hand.concealed().with(w) {
            if hand.melds().is_empty() {
                special_shapes = SpecialShape::ALL
                    .into_iter()
                    .filter(|s| s.is_complete(&all, w))
                    .map(|s| s.to_string())
                    .collect();
            }
        }
    } else {
        let standard = hand.calling();
        for t in referee::Tile::ALL {
            let mut shapes = Vec::new();
            if standard.contains(t) {
                shapes.push("standard".to_owned());
            }
            for s in SpecialShape::ALL {
                if s.waits(hand.concealed()).contains(t) {
                    shapes.push(s.to_string());
                }
            }
            if shapes.is_empty() {
                continue;
            }
            let if_drawn = hand.completed_by(t).and_then(|h| {
                scorer
                    .score(&ScoreInput {
                        hand: h,
                        seat,
                        prevailing,
                        win: Some(Win::from(WinFrom::Wall)),
                        visible: referee::TileCounts::EMPTY,
                    })
                    .ok()
                    .map(|s| s.total)
            });
            waits.push(Wait {
                tile: tile_glyph(t),
                shapes,
                if_drawn,
            });
        }
    }
    let rules = scorer.rules();
    Ok(Checked {
        hand: hand.to_string(),
        tiles: hand_groups(&hand),
        mahjong: hand.winning().is_some(),
        ruleset: rules.name.clone(),
        ruleset_title: rules.title.clone(),
        seat,
        prevailing,
        arrangements: arrangements_found,
        special_shapes,
        waits,
        sheet,
        problems,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code() -> Ruleset {
        Ruleset::builtin("code-of-laws").unwrap()
    }

    fn query(hand: &str) -> CheckQuery {
        CheckQuery {
            hand: hand.to_owned(),
            ..CheckQuery::default()
        }
    }

    #[test]
    fn a_mahjong_hand_is_scored_with_its_arrangements() {
        let mut q = query("(123m)(123m)(123m) 44m 55s =5s");
        q.win_from = "discard".into();
        let c = check(&q, code()).unwrap();
        assert!(c.mahjong);
        // 111m 222m 333m or three chows: the arrangements of the concealed tiles.
        assert!(c.arrangements.len() >= 2, "{:?}", c.arrangements);
        let sheet = c.sheet.expect("scored");
        let cli = Scorer::new(code())
            .score(&ScoreInput {
                hand: "(123m)(123m)(123m) 44m 55s =5s".parse().unwrap(),
                seat: Wind::East,
                prevailing: Wind::East,
                win: Some(Win::from(WinFrom::Discard)),
                visible: referee::TileCounts::EMPTY,
            })
            .unwrap();
        assert_eq!(sheet.total, cli.total);
    }

    #[test]
    fn a_calling_hand_gives_its_waits_and_what_each_would_score() {
        let c = check(&query("123m 456m 789s EE 45p"), code()).unwrap();
        let tiles: Vec<&str> = c.waits.iter().map(|w| w.tile.name.as_str()).collect();
        assert_eq!(tiles, ["3p", "6p"]);
        assert!(c.waits.iter().all(|w| w.if_drawn.is_some_and(|v| v > 0)));
        assert!(c.sheet.is_some(), "a losing hand scores too");
        let c = check(&query("1188m 55p 33s NN 11p 9s"), code()).unwrap();
        assert_eq!(c.waits.len(), 1);
        assert_eq!(c.waits[0].shapes, ["seven-twins"]);
    }

    #[test]
    fn every_problem_is_named_with_its_field() {
        let mut q = query("123m 456m 789s EE 45x");
        q.seat = "sideways".into();
        q.win_from = "sky".into();
        let e = check(&q, code()).unwrap_err();
        let fields: Vec<&str> = e.violations.iter().map(|v| v.field.as_str()).collect();
        assert_eq!(fields, ["hand", "seat", "win_from"], "{e:?}");
        assert!(e.violations[0].message.contains("column 21"), "{e:?}");
        let e = check(&query("11111m 23p"), code()).unwrap_err();
        assert!(
            e.violations.iter().any(|v| v.message.contains("fifth")),
            "{e:?}"
        );
        assert!(check(&query("  "), code()).is_err());
    }

    #[test]
    fn a_hand_that_exists_but_does_not_score_says_why() {
        let c = check(&query("123m 456m 789s EE 46p =9p"), code()).unwrap();
        assert!(c.sheet.is_none());
        assert!(!c.problems.is_empty());
        assert!(!c.tiles.is_empty());
    }
}
