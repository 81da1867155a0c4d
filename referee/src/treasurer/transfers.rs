//! The fewest transfers that settle a set of nets.
//!
//! The nets add up to zero. Each transfer can settle one player for good, so n players with a
//! non-zero net can always be settled with n − 1 transfers; fewer are possible exactly when
//! the players split into groups whose nets each add up to zero (settled separately, a group
//! of g takes g − 1). The fewest transfers are therefore n − (the most zero-sum groups the
//! players can be split into), and finding that split is NP-hard in general (it contains
//! subset sum). So:
//!
//! - **up to [`EXACT_UP_TO`] players with a non-zero net, exactly**: a dynamic programme over
//!   the subsets (`most[S]` = the most zero-sum groups of an ordering of S = max over i in S
//!   of `most[S − i]`, plus one when S adds up to zero), O(2^n · n);
//! - **beyond, a good greedy**: players whose nets cancel exactly (−x and +x) settle each
//!   other first; then the largest debtor pays the largest creditor until all are settled.
//!   Every transfer settles at least one player, so it never takes more than n − 1.
//!
//! Within a group, the largest debtor pays the largest creditor. Properties (quickcheck, below):
//! every net is settled exactly, no transfer is zero, at most n − 1 transfers, and the exact
//! count equals a brute-force search over all splits.

use std::collections::{BinaryHeap, HashMap};

use super::TreasurerError;

/// The most players with a non-zero net settled exactly (2^18 subsets).
pub const EXACT_UP_TO: usize = 18;
/// The largest net the treasurer takes, either way (far beyond any tournament).
pub const MAX_NET: i64 = 1_000_000_000_000_000;

/// `from` pays `to` `amount` (> 0). Players are indices into the nets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Transfer {
    pub from: usize,
    pub to: usize,
    pub amount: i64,
}

/// The transfers that settle a set of nets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settlement {
    pub transfers: Vec<Transfer>,
    /// Whether the count is proven the fewest (the exact method), or the greedy's.
    pub exact: bool,
}

/// The fewest transfers settling `nets` (index = player): exact up to [`EXACT_UP_TO`]
/// players with a non-zero net, greedy beyond.
pub fn fewest_transfers(nets: &[i64]) -> Result<Settlement, TreasurerError> {
    check(nets)?;
    let owed: Vec<usize> = (0..nets.len()).filter(|&p| nets[p] != 0).collect();
    if owed.len() <= EXACT_UP_TO {
        let mut transfers = Vec::new();
        for group in zero_sum_groups(nets, &owed) {
            settle_group(nets, &group, &mut transfers);
        }
        Ok(Settlement {
            transfers,
            exact: true,
        })
    } else {
        Ok(Settlement {
            transfers: greedy(nets),
            exact: false,
        })
    }
}

/// The greedy settlement, for any number of players.
pub(crate) fn greedy(nets: &[i64]) -> Vec<Transfer> {
    let mut transfers = Vec::new();
    // Exact opposites first: a debtor of x and a creditor of x settle each other in one.
    let mut waiting: HashMap<i64, Vec<usize>> = HashMap::new();
    let mut rest = Vec::new();
    for p in (0..nets.len()).filter(|&p| nets[p] != 0) {
        match waiting.get_mut(&-nets[p]).and_then(Vec::pop) {
            Some(q) => {
                let (from, to) = if nets[p] < 0 { (p, q) } else { (q, p) };
                transfers.push(Transfer {
                    from,
                    to,
                    amount: nets[p].abs(),
                });
            }
            None => waiting.entry(nets[p]).or_default().push(p),
        }
    }
    rest.extend(waiting.into_values().flatten());
    rest.sort_unstable();
    settle_group(nets, &rest, &mut transfers);
    transfers
}

fn check(nets: &[i64]) -> Result<(), TreasurerError> {
    if let Some((player, &net)) = nets
        .iter()
        .enumerate()
        .find(|(_, n)| n.unsigned_abs() > MAX_NET.unsigned_abs())
    {
        return Err(TreasurerError::NetTooLarge { player, net });
    }
    let sum: i128 = nets.iter().map(|&n| i128::from(n)).sum();
    if sum != 0 {
        return Err(TreasurerError::NotZeroSum { sum });
    }
    Ok(())
}

/// Settles `group` (players whose nets add up to zero): the largest debtor pays the largest
/// creditor, the lower index first among equals, until all are settled; each transfer
/// settles at least one of the two.
fn settle_group(nets: &[i64], group: &[usize], transfers: &mut Vec<Transfer>) {
    use std::cmp::Reverse;
    let mut debtors: BinaryHeap<(i64, Reverse<usize>)> = BinaryHeap::new();
    let mut creditors: BinaryHeap<(i64, Reverse<usize>)> = BinaryHeap::new();
    for &p in group {
        match nets[p] {
            n if n < 0 => debtors.push((-n, Reverse(p))),
            n if n > 0 => creditors.push((n, Reverse(p))),
            _ => {}
        }
    }
    while let (Some((owes, Reverse(from))), Some((due, Reverse(to)))) =
        (debtors.pop(), creditors.pop())
    {
        let amount = owes.min(due);
        transfers.push(Transfer { from, to, amount });
        if owes > amount {
            debtors.push((owes - amount, Reverse(from)));
        }
        if due > amount {
            creditors.push((due - amount, Reverse(to)));
        }
    }
}

/// The players of `owed` split into the most groups whose nets each add up to zero.
fn zero_sum_groups(nets: &[i64], owed: &[usize]) -> Vec<Vec<usize>> {
    let n = owed.len();
    if n == 0 {
        return Vec::new();
    }
    let full = (1usize << n) - 1;
    let mut sum = vec![0i64; full + 1];
    let mut most = vec![0u8; full + 1];
    for mask in 1..=full {
        let low = mask.trailing_zeros() as usize;
        sum[mask] = sum[mask & (mask - 1)] + nets[owed[low]];
        let best = (0..n)
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| most[mask ^ (1 << i)])
            .max()
            .unwrap_or(0);
        most[mask] = best + u8::from(sum[mask] == 0);
    }
    // Walk back: the order in which players were added; groups end at zero-sum prefixes.
    let mut order = Vec::with_capacity(n);
    let mut mask = full;
    while mask != 0 {
        let target = most[mask] - u8::from(sum[mask] == 0);
        let i = (0..n)
            .find(|&i| mask & (1 << i) != 0 && most[mask ^ (1 << i)] == target)
            .expect("some player leads to the best");
        order.push(i);
        mask ^= 1 << i;
    }
    order.reverse();
    let mut groups = Vec::new();
    let mut group = Vec::new();
    let mut prefix = 0;
    for i in order {
        group.push(owed[i]);
        prefix |= 1 << i;
        if sum[prefix] == 0 {
            groups.push(std::mem::take(&mut group));
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use quickcheck::{quickcheck, Arbitrary, Gen, TestResult};

    use super::*;

    /// Nets that add up to zero, often with subsets that do too (small values).
    #[derive(Clone, Debug)]
    struct Nets(Vec<i64>);

    impl Arbitrary for Nets {
        fn arbitrary(g: &mut Gen) -> Nets {
            let len = usize::arbitrary(g) % 12;
            let small = bool::arbitrary(g);
            let mut nets: Vec<i64> = (0..len)
                .map(|_| {
                    let x = i64::from(i32::arbitrary(g));
                    if small {
                        x % 6 * 10
                    } else {
                        x
                    }
                })
                .collect();
            let sum: i64 = nets.iter().sum();
            nets.push(-sum);
            Nets(nets)
        }

        fn shrink(&self) -> Box<dyn Iterator<Item = Nets>> {
            let nets = self.0.clone();
            Box::new((0..nets.len()).filter(move |_| nets.len() > 1).map({
                let nets = self.0.clone();
                move |i| {
                    let mut fewer = nets.clone();
                    let gone = fewer.remove(i);
                    *fewer.last_mut().unwrap() += gone;
                    Nets(fewer)
                }
            }))
        }
    }

    fn settles(nets: &[i64], transfers: &[Transfer]) -> bool {
        let mut left: Vec<i128> = nets.iter().map(|&n| i128::from(n)).collect();
        for t in transfers {
            left[t.from] += i128::from(t.amount);
            left[t.to] -= i128::from(t.amount);
        }
        left.iter().all(|&n| n == 0)
    }

    /// The most zero-sum groups, by trying every split (slow and obviously right).
    fn most_groups_slowly(values: &[i64]) -> usize {
        fn go(rest: &[i64], groups: &mut Vec<i64>) -> usize {
            match rest.split_first() {
                None => groups.iter().filter(|&&s| s == 0).count(),
                Some((&x, rest)) => {
                    let mut best = 0;
                    for i in 0..groups.len() {
                        groups[i] += x;
                        best = best.max(go(rest, groups));
                        groups[i] -= x;
                    }
                    groups.push(x);
                    best = best.max(go(rest, groups));
                    groups.pop();
                    best
                }
            }
        }
        go(values, &mut Vec::new())
    }

    quickcheck! {
        fn every_net_is_settled_exactly_by_positive_transfers(nets: Nets) -> bool {
            let s = fewest_transfers(&nets.0).unwrap();
            let g = greedy(&nets.0);
            [&s.transfers, &g].iter().all(|t| {
                settles(&nets.0, t) && t.iter().all(|t| t.amount > 0 && t.from != t.to)
            })
        }

        fn never_more_than_one_fewer_than_the_players_owed(nets: Nets) -> bool {
            let owed = nets.0.iter().filter(|&&n| n != 0).count();
            let s = fewest_transfers(&nets.0).unwrap();
            s.transfers.len() <= owed.saturating_sub(1)
                && greedy(&nets.0).len() <= owed.saturating_sub(1)
                && s.transfers.len() <= greedy(&nets.0).len()
        }

        fn the_exact_count_is_the_fewest(nets: Nets) -> TestResult {
            let owed: Vec<i64> = nets.0.iter().copied().filter(|&n| n != 0).collect();
            if owed.len() > 8 {
                return TestResult::discard();
            }
            let fewest = owed.len() - most_groups_slowly(&owed);
            TestResult::from_bool(fewest_transfers(&nets.0).unwrap().transfers.len() == fewest)
        }
    }

    #[test]
    fn two_pairs_that_cancel_take_two_transfers_not_three() {
        let s = fewest_transfers(&[-50, 20, -20, 50]).unwrap();
        assert_eq!(s.transfers.len(), 2);
        assert!(settles(&[-50, 20, -20, 50], &s.transfers));
    }

    #[test]
    fn hidden_zero_sum_groups_are_found_exactly() {
        // {10, 80, -90} and {60, 70, -130}: 2 + 2 = 4 transfers; the greedy takes 5 (-130
        // pays 80, then the groups are broken).
        let nets = [10, 60, -90, 80, 70, -130];
        let s = fewest_transfers(&nets).unwrap();
        assert_eq!(s.transfers.len(), 4);
        assert!(settles(&nets, &s.transfers));
        assert_eq!(greedy(&nets).len(), 5);
    }

    #[test]
    fn many_players_are_settled_by_the_greedy() {
        let mut nets: Vec<i64> = (1..=40).map(|p| p * 7 % 23 - 11).collect();
        let sum: i64 = nets.iter().sum();
        nets.push(-sum);
        let s = fewest_transfers(&nets).unwrap();
        assert!(!s.exact);
        assert!(settles(&nets, &s.transfers));
    }

    #[test]
    fn nets_that_do_not_add_up_are_refused() {
        assert_eq!(
            fewest_transfers(&[10, -5]),
            Err(TreasurerError::NotZeroSum { sum: 5 })
        );
        assert!(matches!(
            fewest_transfers(&[i64::MIN, 0]),
            Err(TreasurerError::NetTooLarge { player: 0, .. })
        ));
        assert_eq!(fewest_transfers(&[]).unwrap().transfers, vec![]);
    }
}
