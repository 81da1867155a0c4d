//! The treasurer of a club tournament (issue 14): who pays whom, with the fewest transfers,
//! from each player's net at the end of a session or of the tournament; and each player's
//! chips (starting chips plus net), with a warning for those who have run out.
//!
//! The table's own settlement (`crate::settle`) pays hand by hand between the four at a table;
//! the treasurer settles up once, between everybody, from the nets those hands add up to.
//!
//! ```
//! use referee::treasurer::{fewest_transfers, Transfer};
//!
//! // Player 0 lost 30, player 1 won 10, player 2 won 20: two transfers.
//! let settlement = fewest_transfers(&[-30, 10, 20]).unwrap();
//! assert_eq!(settlement.transfers.len(), 2);
//! assert!(settlement.exact);
//! ```

mod chips;
mod transfers;

pub use chips::{chips, Chips};
pub use transfers::{fewest_transfers, Settlement, Transfer, EXACT_UP_TO, MAX_NET};

/// Nets or chips the treasurer cannot settle.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TreasurerError {
    #[error("the nets add up to {sum}, not 0: someone's net is wrong")]
    NotZeroSum { sum: i128 },
    #[error("player {player}: net {net} is beyond ±{MAX_NET}")]
    NetTooLarge { player: usize, net: i64 },
    #[error("player {player}: {starting} chips and a net of {net} overflow")]
    ChipsOverflow {
        player: usize,
        starting: i64,
        net: i64,
    },
}
