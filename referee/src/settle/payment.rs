//! Payments between seats and the nets they add up to: the one representation the settlement
//! rules produce and the ledger records and re-derives, so a hand's settlement always sums to
//! zero and an edited amount cannot go unnoticed.

use serde::{Deserialize, Serialize};

use crate::by_seat::{ByPlace, Place};
use crate::tile::Wind;

/// The largest amount one payment may carry. Far above any real score, and low enough that
/// no sum of payments in a tournament can overflow an `i64` (or SQLite's integers).
pub const MAX_AMOUNT: i64 = 1_000_000_000_000;

/// One place paying another: keyed by the winds of the hand while settling (`Payment`), by the
/// seats as drawn once recorded (`Payment<Seat>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Payment<K = Wind> {
    pub payer: K,
    pub payee: K,
    /// Chips or points, never negative: the direction is given by payer and payee.
    pub amount: i64,
}

/// A reason a settlement cannot be recorded. Each names the payment or seat at fault.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SettlementError {
    #[error("payment {index}: amount {amount} is negative")]
    NegativeAmount { index: usize, amount: i64 },
    #[error("payment {index}: amount {amount} exceeds the limit of {MAX_AMOUNT}")]
    AmountTooLarge { index: usize, amount: i64 },
    #[error("payment {index}: {seat} pays itself")]
    PaysItself { index: usize, seat: &'static str },
    #[error("payment {index}: the running total for {seat} overflows")]
    Overflow { index: usize, seat: &'static str },
    #[error("{seat}: recorded net {recorded} but the payments add up to {derived}")]
    NetMismatch {
        seat: &'static str,
        recorded: i64,
        derived: i64,
    },
    #[error("the nets sum to {sum}, not zero")]
    NonZeroSum { sum: i128 },
}

/// Each seat's net from the payments: what it received minus what it paid.
pub fn derive_nets<K: Place>(payments: &[Payment<K>]) -> Result<ByPlace<K, i64>, SettlementError> {
    let mut nets = ByPlace::<K, i64>::default();
    for (index, p) in payments.iter().enumerate() {
        if p.amount < 0 {
            return Err(SettlementError::NegativeAmount {
                index,
                amount: p.amount,
            });
        }
        if p.amount > MAX_AMOUNT {
            return Err(SettlementError::AmountTooLarge {
                index,
                amount: p.amount,
            });
        }
        if p.payer == p.payee {
            return Err(SettlementError::PaysItself {
                index,
                seat: p.payer.name(),
            });
        }
        let payer = nets.get_mut(p.payer);
        *payer = payer
            .checked_sub(p.amount)
            .ok_or(SettlementError::Overflow {
                index,
                seat: p.payer.name(),
            })?;
        let payee = nets.get_mut(p.payee);
        *payee = payee
            .checked_add(p.amount)
            .ok_or(SettlementError::Overflow {
                index,
                seat: p.payee.name(),
            })?;
    }
    Ok(nets)
}

#[cfg(test)]
mod tests {
    use super::*;
    use quickcheck::quickcheck;

    fn pay(payer: Wind, payee: Wind, amount: i64) -> Payment {
        Payment {
            payer,
            payee,
            amount,
        }
    }

    #[test]
    fn nets_are_received_minus_paid() {
        let nets = derive_nets(&[
            pay(Wind::South, Wind::East, 10),
            pay(Wind::West, Wind::East, 10),
        ])
        .unwrap();
        assert_eq!(nets, crate::ByWind::new(20, -10, -10, 0));
    }

    #[test]
    fn bad_payments_are_refused() {
        assert!(matches!(
            derive_nets(&[pay(Wind::East, Wind::East, 1)]),
            Err(SettlementError::PaysItself { .. })
        ));
        assert!(matches!(
            derive_nets(&[pay(Wind::East, Wind::West, -1)]),
            Err(SettlementError::NegativeAmount { .. })
        ));
        let huge = [
            pay(Wind::East, Wind::West, 1),
            pay(Wind::South, Wind::West, i64::MAX),
        ];
        assert!(matches!(
            derive_nets(&huge),
            Err(SettlementError::AmountTooLarge { index: 1, .. })
        ));
    }

    quickcheck! {
        fn derived_nets_sum_to_zero(raw: Vec<(u8, u8, u32)>) -> bool {
            let payments: Vec<Payment> = raw
                .iter()
                .filter(|(a, b, _)| a % 4 != b % 4)
                .map(|&(a, b, n)| pay(Wind::from_index(usize::from(a % 4)), Wind::from_index(usize::from(b % 4)), i64::from(n)))
                .collect();
            let nets = derive_nets(&payments).unwrap();
            nets.iter().map(|(_, n)| n).sum::<i64>() == 0
        }
    }
}
