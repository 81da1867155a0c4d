//! `mahjong-referee score HAND`: score one hand under a ruleset and print the itemized sheet
//! (or JSON). A hand with a winning tile (`=5p`) is the Mah-Jongg hand and needs `--win-from`.

use std::process::ExitCode;

use anyhow::Context;
use referee::score::{score, ScoreInput, Win, WinFrom};
use referee::{parse_counts, Hand, TileCounts, Wind};

#[derive(clap::Args)]
pub struct Args {
    /// The hand in the notation, e.g. "[555p] 123m 789s EE 4s =4s" (see README).
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
    /// Print the sheet as JSON.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let mut rules = super::rulesets::load(&args.ruleset)?;
    for o in &args.options {
        rules.set_option(o, true).map_err(anyhow::Error::msg)?;
    }
    if args.no_limit {
        rules.params.limit = None;
    }
    let hand: Hand = args
        .hand
        .parse()
        .with_context(|| format!("the hand `{}`", args.hand))?;
    let visible: TileCounts = if args.visible.trim().is_empty() {
        TileCounts::EMPTY
    } else {
        parse_counts(&args.visible, None).context("--visible")?
    };
    let win = match (hand.winning(), args.win_from) {
        (Some(_), Some(from)) => Some(Win {
            from,
            last_tile: args.last_tile,
            kong_upon_kong: args.kong_upon_kong,
            original_call: args.original_call,
            heavens_blessing: args.heavens_blessing,
            earths_blessing: args.earths_blessing,
            east_wins: args.east_wins,
        }),
        (Some(w), None) => anyhow::bail!(
            "the hand is a Mah-Jongg hand (winning tile `{w}`): say how the tile came with --win-from"
        ),
        (None, Some(_)) => anyhow::bail!(
            "--win-from is for a Mah-Jongg hand; mark its winning tile with `=`, e.g. `=5p`"
        ),
        (None, None) => None,
    };
    let input = ScoreInput {
        hand,
        seat: args.seat,
        prevailing: args.prevailing,
        win,
        visible,
    };
    if args.best && !input.hand.groups().is_empty() {
        return print_best(&rules, input, args.json);
    }
    let sheet = score(&rules, &input)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&sheet)?);
    } else {
        print!("{sheet}");
    }
    Ok(ExitCode::SUCCESS)
}

/// The best arrangement's sheet, and what the hand scores as grouped (or why it does not).
fn print_best(rules: &referee::Ruleset, input: ScoreInput, json: bool) -> anyhow::Result<ExitCode> {
    let grouped = score(rules, &input);
    let best = score(
        rules,
        &ScoreInput {
            hand: input.hand.ungrouped(),
            ..input
        },
    )?;
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
    if json {
        let mut v = serde_json::to_value(&best)?;
        if let Some(o) = v.as_object_mut() {
            o.insert("as_grouped".into(), serde_json::json!(as_grouped));
            o.insert(
                "undervalued_by".into(),
                serde_json::json!(as_grouped.map(|g| best.total.saturating_sub(g))),
            );
            o.insert("note".into(), serde_json::json!(note));
        }
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        print!("{best}");
        println!("  {note}");
    }
    Ok(ExitCode::SUCCESS)
}
