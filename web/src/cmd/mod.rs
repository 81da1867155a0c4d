//! One module per subcommand.

pub mod waits;
