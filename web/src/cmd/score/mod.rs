//! `mahjong-referee score HAND`: score one hand under a ruleset and print the itemized sheet
//! (or JSON). A hand with a winning tile (`=5p`) is the Mah-Jongg hand and needs `--win-from`.
//!
//! `score -` scores a stream of hands instead, one JSON object per line ([`batch`]). Its keys
//! are this command's flags: [`Args`] is both the clap arguments and the JSON line's schema,
//! so a flag added here is a JSON key too, with the same default.

pub mod batch;
mod pipeline;

use std::process::ExitCode;
use std::sync::OnceLock;

use clap::Parser;
use referee::score::{ScoreInput, ScoreSheet, Scorer, WinFrom};
use referee::{Ruleset, Wind};

/// The flags of `score`; in `score -` each line's JSON object has the same keys (the long
/// flags in snake_case), and a key left out takes the flag's default.
#[derive(clap::Args, serde::Deserialize, Clone, Debug, PartialEq)]
#[serde(default = "Args::defaults", deny_unknown_fields)]
pub struct Args {
    /// The hand in the notation, e.g. "[555p] 123m 789s EE 4s =4s" (see README), or `-` to
    /// read JSON Lines from standard input, one hand per line.
    pub hand: String,
    /// A built-in ruleset name or a house-ruleset file.
    #[arg(long, default_value = "code-of-laws")]
    pub ruleset: String,
    /// The player's seat wind.
    #[arg(long, default_value = "east")]
    pub seat: Wind,
    /// The wind of the round.
    #[arg(long, default_value = "east")]
    pub prevailing: Wind,
    /// Where the winning tile came from: wall, loose-tile, discard, robbed-kong. Required for
    /// a Mah-Jongg hand. (The older last-wall-tile, last-discard and kong-upon-kong are still
    /// read, as the source with its flag.)
    #[arg(long)]
    pub win_from: Option<WinFrom>,
    /// The winning tile was the last available tile of the live wall, or came after it (the
    /// last discard, a kong robbed then) (Code §117(i), (j)).
    #[arg(long)]
    pub last_tile: bool,
    /// Won with the loose tile of a second kong made in the same turn (Code §122(f)).
    #[arg(long)]
    pub kong_upon_kong: bool,
    /// Tiles visible on the table (discards and exposed sets), for "the only possible tile".
    #[arg(long, default_value = "")]
    pub visible: String,
    /// Switch on a ruleset option (repeatable); see `mahjong-referee rulesets NAME`.
    #[arg(long = "option")]
    pub options: Vec<String>,
    /// Play with the roof off (no limit).
    #[arg(long)]
    pub no_limit: bool,
    /// The winner had announced an original call.
    #[arg(long)]
    pub original_call: bool,
    /// East's dealt hand was complete.
    #[arg(long)]
    pub heavens_blessing: bool,
    /// Won on East's first discard with a dealt calling hand.
    #[arg(long)]
    pub earths_blessing: bool,
    /// For East: hands won running, this one included.
    #[arg(long, default_value_t = 0)]
    pub east_wins: u32,
    /// Score the best arrangement even when the hand is grouped, `(123m)(55p)`, and show what
    /// the player's grouping lost (Code §105 freedom of count; §110 an undervalued hand).
    #[arg(long)]
    pub best: bool,
    /// Print the sheet as JSON (`score -` always does; not a JSON key).
    #[arg(long)]
    #[serde(skip)]
    pub json: bool,
}

impl Args {
    /// Clap's defaults, so a JSON line that leaves a key out means what leaving the flag out
    /// means. Parsed once; the hand is empty (a line must give it).
    fn defaults() -> Args {
        #[derive(Parser)]
        struct Score {
            #[command(flatten)]
            args: Args,
        }
        static DEFAULTS: OnceLock<Args> = OnceLock::new();
        DEFAULTS
            .get_or_init(|| {
                Score::try_parse_from(["score", ""])
                    .expect("every flag of `score` has a default")
                    .args
            })
            .clone()
    }

    /// The ruleset these arguments name, with their options and limit.
    fn rules(&self) -> anyhow::Result<Ruleset> {
        super::rulesets::load_playing(&self.ruleset, &self.options, self.no_limit)
    }

    /// The hand and its circumstances, checked (by the library's definition, which the
    /// service's `/check` shares).
    fn input(&self) -> anyhow::Result<ScoreInput> {
        web::rules::score_input(
            &self.hand,
            &web::rules::ScoreContext {
                seat: self.seat,
                prevailing: self.prevailing,
                win_from: self.win_from,
                last_tile: self.last_tile,
                kong_upon_kong: self.kong_upon_kong,
                original_call: self.original_call,
                heavens_blessing: self.heavens_blessing,
                earths_blessing: self.earths_blessing,
                east_wins: self.east_wins,
                visible: self.visible.clone(),
            },
        )
    }
}

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    if args.hand == "-" {
        return batch::run(args);
    }
    let scorer = Scorer::new(args.rules()?);
    let input = args.input()?;
    if args.best && !input.hand.groups().is_empty() {
        let best = Best::score(&scorer, input)?;
        let text = if args.json {
            format!("{}\n", serde_json::to_string_pretty(&best.to_json()?)?)
        } else {
            format!("{}  {}\n", best.sheet, best.note)
        };
        super::print_stdout(&text)?;
        return Ok(ExitCode::SUCCESS);
    }
    let sheet = scorer.score(&input)?;
    let text = if args.json {
        format!("{}\n", serde_json::to_string_pretty(&sheet)?)
    } else {
        sheet.to_string()
    };
    super::print_stdout(&text)?;
    Ok(ExitCode::SUCCESS)
}

/// `--best` on a grouped hand: the best arrangement's sheet, and what the hand scores as
/// grouped (or why it does not).
struct Best {
    sheet: ScoreSheet,
    as_grouped: Option<u64>,
    note: String,
}

impl Best {
    fn score(scorer: &Scorer, input: ScoreInput) -> anyhow::Result<Best> {
        let grouped = scorer.score(&input);
        let best = scorer.score(&ScoreInput {
            hand: input.hand.ungrouped(),
            ..input
        })?;
        let (as_grouped, note) = match &grouped {
            Ok(g) if g.total < best.total => (
                Some(g.total),
                format!(
                    "as grouped the hand scores {}: the grouping undervalues it by {} (Code §105: the player chooses the arrangement; §110: an undervalued hand stands, and whoever points it out reimburses the others)",
                    g.total,
                    best.total - g.total
                ),
            ),
            Ok(g) => (
                Some(g.total),
                format!("as grouped the hand scores {}, its best", g.total),
            ),
            Err(e) => (None, format!("as grouped: {e}")),
        };
        Ok(Best {
            sheet: best,
            as_grouped,
            note,
        })
    }

    /// The sheet as `--json` prints it, with `as_grouped`, `undervalued_by` and `note`.
    fn to_json(&self) -> serde_json::Result<serde_json::Value> {
        let mut v = serde_json::to_value(&self.sheet)?;
        if let Some(o) = v.as_object_mut() {
            o.insert("as_grouped".into(), serde_json::json!(self.as_grouped));
            o.insert(
                "undervalued_by".into(),
                serde_json::json!(self.as_grouped.map(|g| self.sheet.total.saturating_sub(g))),
            );
            o.insert("note".into(), serde_json::json!(self.note));
        }
        Ok(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_defaults_are_the_flags_defaults() {
        let d = Args::defaults();
        assert_eq!(d.ruleset, "code-of-laws");
        assert_eq!((d.seat, d.prevailing), (Wind::East, Wind::East));
        assert_eq!(d.win_from, None);
        assert_eq!(d.hand, "");
        let from_json: Args = serde_json::from_str("{}").unwrap();
        assert_eq!(from_json, d);
    }

    #[test]
    fn every_flag_is_a_json_key_and_json_is_not() {
        let a: Args = serde_json::from_str(
            r#"{"hand": "EE", "ruleset": "british", "seat": "south", "prevailing": "west",
                "win_from": "loose-tile", "last_tile": true, "kong_upon_kong": true, "best": true,
                "visible": "1m", "options": ["x"], "no_limit": true,
                "original_call": true, "heavens_blessing": true, "earths_blessing": true,
                "east_wins": 3}"#,
        )
        .unwrap();
        assert_eq!(a.win_from, Some(WinFrom::LooseTile));
        assert_eq!(a.east_wins, 3);
        let e = serde_json::from_str::<Args>(r#"{"json": true}"#).unwrap_err();
        assert!(e.to_string().contains("unknown field `json`"), "{e}");
    }
}
