//! `mahjong-referee score -`: score a stream of hands, one JSON object per line.
//!
//! Each line is an object with the keys of `score`'s flags ([`Args`]: `hand`, `ruleset`,
//! `seat`, `win_from`, …); a key left out takes the flag's default, an unknown key is an error.
//! Each line is answered by one line, in order: the sheet as `score --json` prints it (on one
//! line), or `{"line": N, "error": "line N: …"}`. A blank line is answered with an error too,
//! so the N-th answer is always the N-th line's. The exit status is 2 when any line failed.
//!
//! A referee's script runs thousands of hands under one or two rulesets, so each ruleset
//! (name or file, options, limit) is loaded once and kept. Lines are scored on every core and
//! answered in order ([`pipeline`]); output is flushed whenever no answer is waiting, so an
//! interactive pipe gets each answer at once and a file is answered at full speed.

use std::io::{self, BufWriter, ErrorKind, Read, Write};
use std::process::ExitCode;

use referee::score::{ScoreSheet, Scorer};

use super::{pipeline, Args};

pub fn run(flags: &Args) -> anyhow::Result<ExitCode> {
    let blank = Args {
        hand: String::new(),
        json: false,
        ..flags.clone()
    };
    if blank != Args::defaults() {
        anyhow::bail!(
            "`score -` takes every setting from its JSON lines: give the flags as keys in each \
             line instead, e.g. {{\"hand\": \"…\", \"ruleset\": \"british\", \"seat\": \"south\"}}"
        );
    }
    let mut output = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    match answer(io::stdin(), &mut output) {
        Ok(false) => Ok(ExitCode::SUCCESS),
        Ok(true) => Ok(ExitCode::from(2)),
        // The reader went away (`| head`): not an error of ours.
        Err(e) if e.kind() == ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        Err(e) => Err(e.into()),
    }
}

/// Answers every line of `input` on `output`, on every core, in order; returns whether any
/// line failed.
pub fn answer<R: Read + Send, W: Write>(input: R, output: &mut W) -> io::Result<bool> {
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    pipeline::answer_lines(input, output, workers, Rulesets::default, answer_line)
}

/// Appends line `line`'s answer to `out`; returns whether the line failed.
fn answer_line(rulesets: &mut Rulesets, raw: &[u8], line: usize, out: &mut Vec<u8>) -> bool {
    let written = match score_line(raw, rulesets) {
        Ok(Answer::Sheet(sheet)) => serde_json::to_writer(&mut *out, &sheet),
        Ok(Answer::Best(best)) => serde_json::to_writer(&mut *out, &best),
        Err(e) => {
            let error = serde_json::json!({ "line": line, "error": format!("line {line}: {e:#}") });
            // Writing JSON into a Vec fails on nothing but a map with non-string keys.
            let _ = serde_json::to_writer(&mut *out, &error);
            out.push(b'\n');
            return true;
        }
    };
    if let Err(e) = written {
        let error = serde_json::json!({ "line": line, "error": format!("line {line}: {e}") });
        let _ = serde_json::to_writer(&mut *out, &error);
        out.push(b'\n');
        return true;
    }
    out.push(b'\n');
    false
}

/// A line's answer: the sheet, or with `"best": true` on a grouped hand, the best sheet with
/// what the grouping scores (as `score --best --json` prints it).
enum Answer {
    Sheet(ScoreSheet),
    Best(serde_json::Value),
}

fn score_line(raw: &[u8], rulesets: &mut Rulesets) -> anyhow::Result<Answer> {
    let text = raw.trim_ascii();
    match text.first() {
        None => anyhow::bail!("blank line: expected a JSON object such as {{\"hand\": \"…\"}}"),
        Some(b'{') => {}
        Some(_) => anyhow::bail!("expected a JSON object such as {{\"hand\": \"…\"}}"),
    }
    let args: Args = serde_json::from_slice(text).map_err(|e| anyhow::anyhow!(json_problem(&e)))?;
    let input = args.input()?;
    let scorer = rulesets.get(&args)?;
    if args.best && !input.hand.groups().is_empty() {
        return Ok(Answer::Best(super::Best::score(scorer, input)?.to_json()?));
    }
    Ok(Answer::Sheet(scorer.score(&input)?))
}

/// serde_json's message with its position as a column of this line (it counts lines of the
/// one object it was given, always 1).
fn json_problem(e: &serde_json::Error) -> String {
    let message = e.to_string();
    let message = message
        .rsplit_once(" at line ")
        .map_or(message.as_str(), |(m, _)| m);
    format!("{message} (column {})", e.column())
}

/// The rulesets loaded so far and prepared for scoring, by what names them (options in the
/// order given); a failure is kept too, so a missing file is not looked for again on every
/// line.
#[derive(Default)]
struct Rulesets(Vec<(RulesetKey, Result<Scorer, String>)>);

struct RulesetKey {
    ruleset: String,
    options: Vec<String>,
    no_limit: bool,
}

impl Rulesets {
    /// The ruleset `args` name, loaded on first use. Looked up without allocating: a batch
    /// names few rulesets, and this runs once per line.
    fn get(&mut self, args: &Args) -> anyhow::Result<&Scorer> {
        let i = match self.0.iter().position(|(k, _)| k.names(args)) {
            Some(i) => i,
            None => {
                let key = RulesetKey {
                    ruleset: args.ruleset.clone(),
                    options: args.options.clone(),
                    no_limit: args.no_limit,
                };
                let scorer = args.rules().map(Scorer::new);
                self.0.push((key, scorer.map_err(|e| format!("{e:#}"))));
                self.0.len() - 1
            }
        };
        self.0[i].1.as_ref().map_err(|e| anyhow::anyhow!("{e}"))
    }
}

impl RulesetKey {
    fn names(&self, args: &Args) -> bool {
        self.ruleset == args.ruleset
            && self.options == args.options
            && self.no_limit == args.no_limit
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_on(input: &str) -> (Vec<serde_json::Value>, bool) {
        let mut out = Vec::new();
        let failed = answer(input.as_bytes(), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        (lines, failed)
    }

    #[test]
    fn one_sheet_per_line_in_order() {
        let (out, failed) = run_on(concat!(
            r#"{"hand": "[RRR] [234p] 567s 99m 11s =1s", "seat": "south", "win_from": "discard"}"#,
            "\n",
            r#"{"hand": "777m 89m GG WWW 1p 5s 9s", "seat": "west"}"#,
            "\r\n",
        ));
        assert!(!failed);
        assert_eq!(out.len(), 2);
        assert_eq!(out[0]["total"], 36);
        assert!(out[1]["total"].is_u64(), "{}", out[1]);
    }

    #[test]
    fn each_bad_line_says_what_and_where_and_the_rest_are_scored() {
        let (out, failed) = run_on(concat!(
            "{\"hand\": \"EE\", \"colour\": \"red\"}\n",
            "not json\n",
            "\n",
            "{\"hand\": \"123m 456m 789p 234s E =E\"}\n",
            "{\"hand\": \"123m 456m 789p 234s E =E\", \"win_from\": \"wall\", \"ruleset\": \"nope\"}\n",
            "{\"hand\": \"123m 456m 789p 234s EEEEE\"}\n",
            "{\"hand\": 5}\n",
            "{\"hand\": \"123m 456m 789p 234s E =E\", \"win_from\": \"wall\"}\n",
            "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\n",
        ));
        assert!(failed);
        let error = |i: usize| out[i]["error"].as_str().unwrap_or("").to_owned();
        assert!(
            error(0).starts_with("line 1: unknown field `colour`"),
            "{}",
            error(0)
        );
        assert!(
            error(1).starts_with("line 2: expected a JSON object"),
            "{}",
            error(1)
        );
        assert!(error(2).starts_with("line 3: blank line"), "{}", error(2));
        assert!(error(3).contains("--win-from"), "{}", error(3));
        assert!(
            error(4).contains("`nope` is neither a built-in"),
            "{}",
            error(4)
        );
        assert!(error(5).contains("line 6: the hand"), "{}", error(5));
        assert!(error(6).contains("invalid type: integer"), "{}", error(6));
        assert!(out[7]["total"].is_u64(), "{}", out[7]);
        assert_eq!(out[8]["line"], 9);
        assert_eq!(out.len(), 9);
    }

    #[test]
    fn rulesets_are_loaded_once_per_name_options_and_limit() {
        let mut cache = Rulesets::default();
        let mut args = Args::defaults();
        cache.get(&args).unwrap();
        args.options = vec![];
        args.no_limit = true;
        cache.get(&args).unwrap();
        cache.get(&args).unwrap();
        args.ruleset = "nope".into();
        assert!(cache.get(&args).is_err());
        assert!(cache.get(&args).is_err());
        assert_eq!(cache.0.len(), 3);
    }
}
