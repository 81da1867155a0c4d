//! One module per subcommand.
//!
//! Their output goes through `out!` and `outln!`, never `print!`: a reader that went away
//! (`audit … | head`) ends the command quietly instead of making it panic.

/// `print!` to standard output through [`print_stdout`]: an `anyhow::Result<()>`.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::cmd::print_stdout(&format!($($arg)*))
    };
}

/// `println!` to standard output through [`print_stdout`]: an `anyhow::Result<()>`.
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::cmd::print_stdout(&format!("{}\n", format_args!($($arg)*)))
    };
}

pub mod adjudicate;
pub mod admin;
pub mod audit;
pub mod backup;
pub mod checkpoint;
pub mod export;
pub mod import;
pub mod import_game;
pub mod load_fixture;
pub mod load_history;
pub mod replay;
pub mod restore;
pub mod rulesets;
pub mod score;
pub mod seating;
pub mod settle;
pub mod settle_up;
pub mod waits;

/// Writes `text` to standard output. A reader that went away (`| head`) is not an error, and
/// never a panic, as `print!` would make it.
pub fn print_stdout(text: &str) -> anyhow::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        written => Ok(written?),
    }
}
