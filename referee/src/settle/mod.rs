//! Settling a hand: who pays whom, from the four scores.
//!
//! Code of Laws §108: "The winner collects according to the value of his hand from each of the
//! losers, and pays no one … If the winner is East, he collects twice his total score from each
//! opponent; if the winner is South, West or North, he collects twice his total score from East,
//! and his total score from each of the other two losers." §109: "The three losers settle with
//! each other according to the difference between their scores", East paying or receiving twice
//! the difference. The same arithmetic is Babcock's (pp. 26–28) and the Chinese classical rules';
//! the variants other rulesets need (New Method, limit hands cancelling the losers' settlement,
//! the Dreamer) are switches on [`SettlementRules`], added as those rulesets land.
//!
//! Seats are the seat winds of the hand being settled: East is the dealer.

mod hand;
mod payment;
mod words;

pub use hand::{
    settle_hand, settle_new_deal, HandOutcome, HandSettlement, HandSettlementError, Liability,
    NamingClaim, Penalty,
};

pub use payment::{derive_nets, Payment, SettlementError, MAX_AMOUNT};

use crate::by_seat::ByWind;
use crate::tile::Wind;

/// How the hand ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A player went Mah-Jongg.
    MahJongg { winner: Wind },
    /// Wash-out: the wall ran out with no Mah-Jongg (Code §97); nobody scores or pays.
    WashOut,
}

/// The switches of a ruleset's settlement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SettlementRules {
    /// East pays and receives double (Code §108–109). Babcock's Chinese "New Method" turns it off.
    pub east_doubles: bool,
    /// The losers settle their differences among themselves (Code §109).
    pub losers_settle: bool,
}

impl SettlementRules {
    /// Code of Laws §108–109.
    pub const CODE_OF_LAWS: SettlementRules = SettlementRules {
        east_doubles: true,
        losers_settle: true,
    };
}

/// Every payment of a hand and each player's net, which always sum to zero.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settlement {
    pub payments: Vec<Payment>,
    pub net: ByWind<i64>,
}

/// Settles a hand from the four players' final scores. Fails only for scores so large that a
/// payment would exceed [`MAX_AMOUNT`].
pub fn settle(
    scores: &ByWind<u64>,
    outcome: Outcome,
    rules: SettlementRules,
) -> Result<Settlement, SettlementError> {
    let factor = |a: Wind, b: Wind| {
        if rules.east_doubles && (a == Wind::East || b == Wind::East) {
            2
        } else {
            1
        }
    };
    let mut payments = Vec::new();
    if let Outcome::MahJongg { winner } = outcome {
        // §108: the winner collects from each loser and pays no one.
        for loser in Wind::ALL.into_iter().filter(|&w| w != winner) {
            let amount = amount(*scores.get(winner), factor(winner, loser), payments.len())?;
            if amount > 0 {
                payments.push(Payment {
                    payer: loser,
                    payee: winner,
                    amount,
                });
            }
        }
        // §109: the losers settle the differences, in order of rotation.
        if rules.losers_settle {
            let losers: Vec<Wind> = Wind::ALL.into_iter().filter(|&w| w != winner).collect();
            for (i, &a) in losers.iter().enumerate() {
                for &b in &losers[i + 1..] {
                    let (sa, sb) = (*scores.get(a), *scores.get(b));
                    let (payer, payee) = if sa < sb { (a, b) } else { (b, a) };
                    let amount = amount(sa.abs_diff(sb), factor(a, b), payments.len())?;
                    if amount > 0 {
                        payments.push(Payment {
                            payer,
                            payee,
                            amount,
                        });
                    }
                }
            }
        }
    }
    let net = derive_nets(&payments)?;
    Ok(Settlement { payments, net })
}

/// `difference × factor` as a payment amount, refused past [`MAX_AMOUNT`].
pub(crate) fn amount(difference: u64, factor: u64, index: usize) -> Result<i64, SettlementError> {
    difference
        .checked_mul(factor)
        .and_then(|a| i64::try_from(a).ok())
        .filter(|&a| a <= MAX_AMOUNT)
        .ok_or(SettlementError::AmountTooLarge {
            index,
            amount: i64::try_from(difference.saturating_mul(factor)).unwrap_or(i64::MAX),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_109_example() {
        // North Mah-Jonggs with 48; East 20, South 256, West 4.
        let scores = ByWind::new(20, 256, 4, 48);
        let s = settle(
            &scores,
            Outcome::MahJongg {
                winner: Wind::North,
            },
            SettlementRules::CODE_OF_LAWS,
        )
        .unwrap();
        assert_eq!(s.net, ByWind::new(-536, 676, -332, 192));
        assert!(s.payments.contains(&Payment {
            payer: Wind::East,
            payee: Wind::South,
            amount: 472
        }));
    }

    #[test]
    fn east_winner_collects_double_from_everyone() {
        let scores = ByWind::new(30, 8, 8, 0);
        let s = settle(
            &scores,
            Outcome::MahJongg { winner: Wind::East },
            SettlementRules::CODE_OF_LAWS,
        )
        .unwrap();
        assert_eq!(s.net.east, 180);
        // South and West tie: nothing passes between them.
        assert!(!s
            .payments
            .iter()
            .any(|p| (p.payer, p.payee) == (Wind::South, Wind::West)
                || (p.payer, p.payee) == (Wind::West, Wind::South)));
        assert_eq!(s.net.north, -60 - 8 - 8);
    }

    #[test]
    fn wash_out_moves_nothing() {
        let s = settle(
            &ByWind::from_fn(|_| 40),
            Outcome::WashOut,
            SettlementRules::CODE_OF_LAWS,
        )
        .unwrap();
        assert!(s.payments.is_empty());
        assert_eq!(s.net, ByWind::from_fn(|_| 0));
    }

    #[test]
    fn absurd_scores_are_refused_not_wrapped() {
        let scores = ByWind::from_fn(|w| if w == Wind::East { u64::MAX } else { 0 });
        let e = settle(
            &scores,
            Outcome::MahJongg { winner: Wind::East },
            SettlementRules::CODE_OF_LAWS,
        );
        assert!(matches!(e, Err(SettlementError::AmountTooLarge { .. })));
    }
}
