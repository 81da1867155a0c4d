//! Bulk registration's input: a pasted list of names, or a CSV file as a spreadsheet saves it,
//! read into players with the line each came from, so a refusal names the line.
//!
//! - **A list**: one player per line; blank lines and lines starting with `#` are skipped.
//! - **A CSV**: the first line is a header naming the columns, one of them `name`; optional
//!   columns `id` and `substitute` (`yes`, `y`, `true`, `1` or `x` for a substitute; empty,
//!   `no`, `n`, `false` or `0` for a player). Other columns are refused by name, so a column
//!   meant for us and misspelt is not silently dropped. Quoting is the `csv` crate's.
//!
//! Which it is: a first line that, read as CSV, has a cell `name` (any case) is a header. A
//! file must be such a CSV (a spreadsheet's file without that header is refused, never read
//! as a list of names); a pasted list whose every line holds a comma, semicolon or tab is
//! refused as a CSV without its header. Every row of a CSV has the header's number of cells:
//! a name with a comma must be quoted, and an unquoted one is refused, not cut.

use referee::{Violation, Violations};

use crate::app::commands::tournament::NewPlayer;

/// The most players one paste or file may register.
pub const MAX_PLAYERS: usize = 1_000;

/// Where a list came from: a file must be a CSV with a header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    Pasted,
    File,
}

/// The players of `text`, each with its line number (from 1), or every problem by line.
pub fn parse(text: &str, source: Source) -> Result<Vec<(usize, NewPlayer)>, Violations> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // Blank lines before the first are skipped; line numbers still count them.
    let skipped = text.lines().take_while(|l| l.trim().is_empty()).count();
    let body: String = text.lines().skip(skipped).collect::<Vec<_>>().join("\n");
    let first = body.lines().next().unwrap_or("");
    let header = csv_row(first);
    let separated = |l: &&str| l.contains([',', ';', '\t']);
    let players = if header.iter().any(|c| c.eq_ignore_ascii_case("name")) {
        parse_csv(&body, skipped)?
    } else if source == Source::File && !body.trim().is_empty() {
        return Err(Violations(vec![Violation::new(
            format!("line {}", skipped + 1),
            format!(
                "the file's first line must be a header naming its columns, one of them `name` (it reads `{}`); save the spreadsheet as CSV with such a header",
                first.chars().take(60).collect::<String>()
            ),
        )]));
    } else if !body.trim().is_empty()
        && body
            .lines()
            .filter(|l| !l.trim().is_empty())
            .all(|l| separated(&l))
    {
        return Err(Violations(vec![Violation::new(
            "players",
            "every line holds a comma, semicolon or tab: for a CSV, give a header row naming the columns (name, and optionally id and substitute); for a list, one name per line",
        )]));
    } else {
        text.lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
            .map(|(line, name)| {
                (
                    line,
                    NewPlayer {
                        id: None,
                        name: name.to_owned(),
                        substitute: false,
                        different_person: false,
                    },
                )
            })
            .collect()
    };
    if players.is_empty() {
        return Err(Violations(vec![Violation::new(
            "players",
            "no names: paste one name per line, or a CSV with a `name` column",
        )]));
    }
    if players.len() > MAX_PLAYERS {
        return Err(Violations(vec![Violation::new(
            "players",
            format!(
                "{} players in one list; at most {MAX_PLAYERS} at a time",
                players.len()
            ),
        )]));
    }
    Ok(players)
}

fn csv_row(line: &str) -> Vec<String> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(line.as_bytes())
        .records()
        .next()
        .and_then(Result::ok)
        .map(|r| r.iter().map(|c| c.trim().to_owned()).collect())
        .unwrap_or_default()
}

fn parse_csv(text: &str, skipped: usize) -> Result<Vec<(usize, NewPlayer)>, Violations> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let mut problems = Violations::new();
    let headers: Vec<String> = match reader.headers() {
        Ok(h) => h.iter().map(str::to_ascii_lowercase).collect(),
        Err(e) => {
            problems.push(Violation::new(
                format!("line {}", skipped + 1),
                format!("the header: {e}"),
            ));
            return Err(problems);
        }
    };
    let column = |name: &str| headers.iter().position(|h| h == name);
    for (i, h) in headers.iter().enumerate() {
        if !["name", "id", "substitute"].contains(&h.as_str()) {
            problems.push(Violation::new(
                format!("line {}", skipped + 1),
                format!(
                    "column {} is `{h}`: the columns are name, id and substitute",
                    i + 1
                ),
            ));
        }
    }
    let (name, id, substitute) = (column("name"), column("id"), column("substitute"));
    let mut out = Vec::new();
    for record in reader.records() {
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                let at = e.position().map_or_else(
                    || "the CSV".to_owned(),
                    |p| format!("line {}", p.line() as usize + skipped),
                );
                problems.push(Violation::new(at, e.to_string()));
                continue;
            }
        };
        let line = record.position().map_or(0, |p| p.line()) as usize + skipped;
        if record.iter().all(str::is_empty) {
            continue;
        }
        if record.len() != headers.len() {
            problems.push(Violation::new(
                format!("line {line}"),
                format!(
                    "{} cells under a header of {}: quote a name that holds a comma (\"Babcock, Ada\")",
                    record.len(),
                    headers.len()
                ),
            ));
            continue;
        }
        let cell = |c: Option<usize>| c.and_then(|c| record.get(c)).unwrap_or("");
        let is_sub = match cell(substitute).to_ascii_lowercase().as_str() {
            "" | "no" | "n" | "false" | "0" => false,
            "yes" | "y" | "true" | "1" | "x" => true,
            other => {
                problems.push(Violation::new(
                    format!("line {line}"),
                    format!("substitute is `{other}`: write yes or no"),
                ));
                continue;
            }
        };
        out.push((
            line,
            NewPlayer {
                id: Some(cell(id).to_owned()).filter(|s| !s.is_empty()),
                name: cell(name).to_owned(),
                substitute: is_sub,
                different_person: false,
            },
        ));
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(problems)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str) -> Vec<(usize, String, Option<String>, bool)> {
        parse(text, Source::File)
            .or_else(|_| parse(text, Source::Pasted))
            .unwrap()
            .into_iter()
            .map(|(l, p)| (l, p.name, p.id, p.substitute))
            .collect()
    }

    #[test]
    fn a_pasted_list_is_one_name_per_line_with_its_line() {
        assert_eq!(
            names("Ada Babcock\n\n  Joseph Harr  \n# a comment\nCelia Code"),
            [
                (1, "Ada Babcock".into(), None, false),
                (3, "Joseph Harr".into(), None, false),
                (5, "Celia Code".into(), None, false),
            ]
        );
    }

    #[test]
    fn a_csv_with_a_header_gives_ids_and_substitutes() {
        let text = "\u{feff}Name,id,Substitute\n\"Babcock, Ada\",ada,\nJoe Harr,,yes\n";
        assert_eq!(
            names(text),
            [
                (2, "Babcock, Ada".into(), Some("ada".into()), false),
                (3, "Joe Harr".into(), None, true),
            ]
        );
    }

    #[test]
    fn every_problem_is_named_by_its_line() {
        let err = parse("name,club\nAda,x\nBen,y", Source::File).unwrap_err();
        assert!(err
            .0
            .iter()
            .any(|v| v.field == "line 1" && v.message.contains("`club`")));
        let err = parse(
            "name,substitute\nAda,perhaps\nBen,no\nCel,maybe",
            Source::Pasted,
        )
        .unwrap_err();
        let lines: Vec<&str> = err.0.iter().map(|v| v.field.as_str()).collect();
        assert_eq!(lines, ["line 2", "line 4"]);
        assert!(parse("\n  \n", Source::Pasted).is_err());
    }

    #[test]
    fn a_name_with_an_unquoted_comma_is_refused_not_cut() {
        let err = parse("\n\nname,id\nBabcock, Ada,ada\n", Source::File).unwrap_err();
        assert_eq!(err.0[0].field, "line 4", "{err:?}");
        assert!(err.0[0].message.contains("quote a name"));
    }

    #[test]
    fn a_file_without_a_name_header_is_refused_and_so_is_a_headerless_csv_pasted() {
        let err = parse("Player,Club\nAda,Leeds\n", Source::File).unwrap_err();
        assert!(err.0[0].message.contains("header"), "{err:?}");
        let err = parse("Ada;Leeds\nBen;York\n", Source::Pasted).unwrap_err();
        assert!(err.0[0].message.contains("header row"), "{err:?}");
        // One name with a comma among plain names is a name.
        assert_eq!(
            parse("Babcock, Ada\nJoseph Harr\n", Source::Pasted)
                .unwrap()
                .len(),
            2
        );
    }
}
