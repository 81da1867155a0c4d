//! The ranges a tournament's numbers must lie in, refused at once with the field and the range.
//!
//! Why: a number accepted today must not make a later write impossible. A tournament limit of
//! 2^64−1 used to be accepted, and then every limit hand of that tournament was refused because
//! its payments overflowed. So each bound here is derived from the arithmetic the number feeds
//! later, and a request outside it is a 422 that names the field and the allowed range before
//! anything is written.

use crate::settle::MAX_AMOUNT;

/// The largest tournament limit (the most one hand may score).
///
/// Derivation: a hand's score is at most the limit `L`, so under every settlement method the
/// largest *single payment* is reached when East wins a limit hand and one player pays for all
/// (Code §96, `Penalty::PaysForAll` with full liability): he pays what each of the three losers
/// owed, and East collects double from each (Code §108), `3 × 2L = 6L`. Every other payment is
/// smaller: a winner collects at most `2L` from one loser, losers settle differences of at most
/// `L` doubled for East (§109), the New Method's discarder pays `2L`, a false Mah-Jongg under a
/// limit-share scheme costs half the limit doubled for East (`L`). Rounding to the nearest ten
/// adds at most 5. The referee refuses any payment above [`MAX_AMOUNT`], so we need
/// `6L + 5 ≤ MAX_AMOUNT` (10^12), i.e. `L ≤ 166,666,666,665`; we take the round 10^11, which
/// leaves room and is still fifty million times any limit a book prints (300 to 2,000). (A house
/// ruleset's own limit is capped lower still, at 10^9, by the ruleset loader.)
pub const MAX_LIMIT: u64 = 100_000_000_000;

// The derivation above, checked by the compiler.
const _: () = assert!(6 * MAX_LIMIT as i128 + 5 <= MAX_AMOUNT as i128);

/// The most starting chips a player may hold: far above any real game, and small enough that a
/// player's running total (starting chips plus up to 10^6 hands of nets, each bounded by a few
/// times [`MAX_AMOUNT`]) stays far inside an `i64`.
pub const MAX_STARTING_CHIPS: i64 = 1_000_000_000;

/// The highest table number. The next free number is the highest plus one, which must not
/// overflow; ten thousand tables seat forty thousand players.
pub const MAX_TABLE_NUMBER: u32 = 10_000;

/// The longest session clock, in minutes (a day).
pub const MAX_MINUTES: u32 = 24 * 60;

/// The longest reason kept for voiding something.
pub const MAX_VOID_REASON: usize = 500;

/// The longest reason kept for a player's withdrawal.
pub const MAX_WITHDRAW_REASON: usize = 200;

/// The longest tournament name.
pub const MAX_TOURNAMENT_NAME: usize = 200;

/// The longest player name.
pub const MAX_PLAYER_NAME: usize = 100;

/// An inclusive range of a named field, with the sentence that refuses a value outside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldRange {
    pub field: &'static str,
    pub min: i128,
    pub max: i128,
}

/// `limit`: 1 to [`MAX_LIMIT`].
pub const LIMIT: FieldRange = FieldRange {
    field: "limit",
    min: 1,
    max: MAX_LIMIT as i128,
};

/// `starting_chips`: 0 to [`MAX_STARTING_CHIPS`].
pub const STARTING_CHIPS: FieldRange = FieldRange {
    field: "starting_chips",
    min: 0,
    max: MAX_STARTING_CHIPS as i128,
};

/// `number` (of a table): 1 to [`MAX_TABLE_NUMBER`].
pub const TABLE_NUMBER: FieldRange = FieldRange {
    field: "number",
    min: 1,
    max: MAX_TABLE_NUMBER as i128,
};

impl FieldRange {
    /// `None` when `value` is in range, else the problem: "limit: 18446744073709551615 is out
    /// of range; allowed 1 to 100000000000".
    /// The violation of a value out of range, naming the field.
    pub fn violation(&self, value: impl Into<i128>) -> Option<crate::Violation> {
        let value = value.into();
        (!(self.min..=self.max).contains(&value)).then(|| {
            crate::Violation::new(
                self.field,
                format!(
                    "{value} is out of range; allowed {} to {}",
                    self.min, self.max
                ),
            )
        })
    }

    pub fn check(&self, value: impl Into<i128>) -> Option<String> {
        let value = value.into();
        (!(self.min..=self.max).contains(&value)).then(|| {
            format!(
                "{}: {value} is out of range; allowed {} to {}",
                self.field, self.min, self.max
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settle::{settle_hand, HandOutcome, Liability, Outcome, Penalty};
    use crate::{ByWind, Ruleset, Wind};

    /// East wins a limit hand, South pays for all, losers as far apart as the limit allows.
    fn worst_hand(rules: &Ruleset, limit: u64) -> Result<i64, String> {
        let mut rules = rules.clone();
        rules.params.limit = Some(limit);
        let scores = ByWind::new(limit, 0, limit, 0);
        let mut hand = HandOutcome::new(scores, Outcome::MahJongg { winner: Wind::East });
        hand.penalties.push(Penalty::PaysForAll {
            liable: Wind::South,
            liability: Liability::Full,
            second: None,
        });
        let s = settle_hand(&rules, &hand).map_err(|e| e.to_string())?;
        Ok(s.payments.iter().map(|p| p.amount).max().unwrap_or(0))
    }

    #[test]
    fn the_worst_limit_hand_settles_at_the_maximum_limit_under_every_ruleset() {
        for name in Ruleset::builtin_names() {
            let rules = Ruleset::builtin(name).unwrap();
            let largest = worst_hand(&rules, MAX_LIMIT)
                .unwrap_or_else(|e| panic!("{name}: a limit hand at the maximum limit: {e}"));
            assert_eq!(largest, 6 * MAX_LIMIT as i64, "{name}");
        }
    }

    #[test]
    fn the_derivation_is_tight_a_limit_past_it_overflows() {
        // Just past MAX_AMOUNT / 6 the same hand is refused by the referee: the bound is real.
        let rules = Ruleset::builtin("code-of-laws").unwrap();
        let past = (MAX_AMOUNT as u64) / 6 + 1;
        assert!(worst_hand(&rules, past).is_err());
    }

    #[test]
    fn ranges_name_the_field_and_the_range() {
        assert_eq!(LIMIT.check(MAX_LIMIT), None);
        assert_eq!(
            LIMIT.check(MAX_LIMIT + 1),
            Some("limit: 100000000001 is out of range; allowed 1 to 100000000000".to_owned())
        );
        assert!(LIMIT
            .check(u64::MAX)
            .unwrap()
            .contains("18446744073709551615"));
        assert!(LIMIT.check(0u64).is_some());
        assert_eq!(STARTING_CHIPS.check(0i64), None);
        assert!(STARTING_CHIPS.check(-1i64).is_some());
        assert_eq!(TABLE_NUMBER.check(MAX_TABLE_NUMBER), None);
        assert!(TABLE_NUMBER.check(u32::MAX).is_some());
    }
}
