//! A refused form's problems, placed beside the fields they concern.
//!
//! The rules refuse a command with every violation, each naming its field on the wire
//! (`starting_chips`, `players[2]`, `house_ruleset`); a page shows each beside the input of that
//! name, and whatever concerns no input of the form at the top.

use referee::Violation;

use crate::server::error::AppError;

/// The problems of one refused form.
#[derive(Clone, Debug, Default)]
pub struct Problems {
    /// Shown at the top: problems of the form as a whole, or of no input on it.
    pub general: Vec<String>,
    beside: Vec<(String, String)>,
}

fn described(v: &Violation) -> String {
    match &v.rule {
        Some(rule) => format!("{} ({rule})", v.message),
        None => v.message.clone(),
    }
}

impl Problems {
    /// The problems of `error`, placed beside the inputs named in `inputs`; `rename` maps a
    /// violation's field to the input that shows it (`players[0]` to `player_1`).
    pub fn of(
        error: Option<&AppError>,
        inputs: &[&str],
        rename: impl Fn(&str) -> String,
    ) -> Problems {
        let mut out = Problems::default();
        let Some(e) = error else {
            return out;
        };
        if e.violations.is_empty() {
            out.general.push(e.message.clone());
        }
        for v in &e.violations {
            let input = rename(&v.field);
            if inputs.contains(&input.as_str()) {
                out.beside.push((input, described(v)));
            } else {
                out.general.push(described(v));
            }
        }
        out
    }

    /// The problems shown beside `input`.
    pub fn at(&self, input: &str) -> Vec<&str> {
        self.beside
            .iter()
            .filter(|(i, _)| i == input)
            .map(|(_, p)| p.as_str())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use referee::Violations;

    #[test]
    fn violations_go_beside_their_inputs_and_the_rest_on_top() {
        let mut v = Violations::new();
        v.push(Violation::new("starting_chips", "out of range"));
        v.push(Violation::rule("players[1]", "Code §15", "listed twice"));
        v.push(Violation::new("", "the tournament is voided"));
        let e = AppError::violations(v);
        let p = Problems::of(Some(&e), &["starting_chips", "player_2"], |f| {
            match f.strip_prefix("players[").and_then(|r| r.strip_suffix(']')) {
                Some(i) => format!("player_{}", i.parse::<usize>().unwrap_or(0) + 1),
                None => f.to_owned(),
            }
        });
        assert_eq!(p.at("starting_chips"), ["out of range"]);
        assert_eq!(p.at("player_2"), ["listed twice (Code §15)"]);
        assert_eq!(p.general, ["the tournament is voided"]);
    }
}
