//! Each player's chips: the starting chips plus the net, and who has run out.
//!
//! A player at or below zero has nothing left to pay with (Babcock p. 4 gives each player
//! 2,000 points of counters at the start; the club decides what an empty tray means), so the
//! treasurer warns rather than refuses.

use super::TreasurerError;

/// Chips after the nets, and the players at or below zero.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chips {
    /// Index = player.
    pub chips: Vec<i64>,
    /// The players (indices) with no chips left: at or below zero.
    pub out: Vec<usize>,
}

/// `starting` chips each, plus each player's net.
pub fn chips(starting: i64, nets: &[i64]) -> Result<Chips, TreasurerError> {
    let chips = nets
        .iter()
        .enumerate()
        .map(|(player, &net)| {
            starting
                .checked_add(net)
                .ok_or(TreasurerError::ChipsOverflow {
                    player,
                    starting,
                    net,
                })
        })
        .collect::<Result<Vec<i64>, _>>()?;
    let out = (0..chips.len()).filter(|&p| chips[p] <= 0).collect();
    Ok(Chips { chips, out })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warns_at_zero_and_below() {
        let c = chips(2_000, &[-2_000, 500, 1_700, -200]).unwrap();
        assert_eq!(c.chips, vec![0, 2_500, 3_700, 1_800]);
        assert_eq!(c.out, vec![0]);
        let c = chips(100, &[-150, 150]).unwrap();
        assert_eq!(c.out, vec![0]);
        assert!(chips(i64::MAX, &[1]).is_err());
    }
}
