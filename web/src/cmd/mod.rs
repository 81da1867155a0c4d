//! One module per subcommand.

pub mod audit;
pub mod export;
pub mod import;
pub mod load_fixture;
pub mod waits;
