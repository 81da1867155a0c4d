//! One module per subcommand.

pub mod audit;
pub mod export;
pub mod import;
pub mod load_fixture;
pub mod rulesets;
pub mod score;
pub mod settle;
pub mod waits;
