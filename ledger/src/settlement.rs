//! Checking a recorded settlement against its own payments.
//!
//! The payment type and the net derivation are the rules engine's (`referee::settle`); the
//! ledger re-derives each seat's net from the recorded payments, so a hand's settlement always
//! sums to zero and an edited amount cannot go unnoticed.

pub use referee::settle::{derive_nets, SettlementError, MAX_AMOUNT};

/// A payment between seats as drawn, as recorded.
pub type Payment = referee::settle::Payment<referee::Seat>;

use crate::event::SettlementRecorded;

/// Every way the recorded settlement disagrees with its own payments (empty when sound).
pub fn check(s: &SettlementRecorded) -> Vec<SettlementError> {
    let mut problems = Vec::new();
    let sum: i128 = s.nets.iter().map(|(_, &n)| i128::from(n)).sum();
    if sum != 0 {
        problems.push(SettlementError::NonZeroSum { sum });
    }
    match derive_nets(&s.payments) {
        Err(e) => problems.push(e),
        Ok(derived) => {
            for (seat, &recorded) in s.nets.iter() {
                let derived = *derived.get(seat);
                if recorded != derived {
                    problems.push(SettlementError::NetMismatch {
                        seat: seat.name(),
                        recorded,
                        derived,
                    });
                }
            }
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;
    use referee::{BySeat, Seat};

    fn pay(payer: Seat, payee: Seat, amount: i64) -> Payment {
        Payment {
            payer,
            payee,
            amount,
        }
    }

    #[test]
    fn a_tampered_net_is_named() {
        let s = SettlementRecorded {
            winner: Some(Seat::East),
            scores: BySeat::default(),
            payments: vec![pay(Seat::South, Seat::East, 10)],
            nets: BySeat::new(11, -10, 0, 0),
        };
        let problems = check(&s);
        assert!(problems.contains(&SettlementError::NonZeroSum { sum: 1 }));
        assert!(problems.contains(&SettlementError::NetMismatch {
            seat: "east",
            recorded: 11,
            derived: 10
        }));
    }
}
