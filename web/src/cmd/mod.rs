//! One module per subcommand.

pub mod audit;
pub mod export;
pub mod import;
pub mod rulesets;
pub mod score;
pub mod waits;
