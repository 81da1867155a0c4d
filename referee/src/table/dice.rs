//! The dice recorded with a hand: the throws that breach the wall (Code §18–19).

use crate::violation::Violation;

/// What is wrong with the dice recorded for a hand: none (not recorded), or one or two throws of
/// two dice — East's, and the breaker's (Code §18–19) — each die showing 1 to 6.
pub(super) fn problem(dice: &[u8]) -> Option<Violation> {
    if !matches!(dice.len(), 0 | 2 | 4) {
        return Some(Violation::rule(
            "dice",
            "Code §18–19",
            format!(
                "{} dice: the wall is breached by East's throw of two dice and the breaker's throw of two (record two or four, or none)",
                dice.len()
            ),
        ));
    }
    dice.iter().find(|d| !(1..=6).contains(*d)).map(|d| {
        Violation::rule(
            "dice",
            "Code §18–19",
            format!("a die shows 1 to 6, not {d}"),
        )
    })
}
