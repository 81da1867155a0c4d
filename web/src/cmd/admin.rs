//! `mahjong-referee admin reset-password --db DB OFFICIAL [--password P]`: for whoever holds the
//! database file, when the administrator's password (or any official's) is lost.
//!
//! The new password is the one given, or a generated one printed once. The official's sessions
//! end at once. The database must exist: this never creates one.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use web::app::accounts::passwords::reset_password;
use web::app::accounts::secret::random_token;
use web::app::accounts::store::system;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub command: AdminCommand,
}

#[derive(clap::Subcommand)]
pub enum AdminCommand {
    /// Set an official's password (a generated one unless given) and end its sessions.
    ResetPassword {
        /// The ledger database (must exist).
        #[arg(long)]
        db: PathBuf,
        /// The official, e.g. `admin`.
        official: String,
        /// The new password (at least eight characters); generated and printed when absent.
        #[arg(long)]
        password: Option<String>,
    },
}

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    match &args.command {
        AdminCommand::ResetPassword {
            db,
            official,
            password,
        } => {
            // Refuses a missing file or one that is not a ledger, rather than creating one.
            let mut ledger = readmodel::open_existing(db)
                .with_context(|| format!("opening {}", db.display()))?;
            let generated = password.is_none().then(|| random_token()[..20].to_owned());
            let new = password.clone().or(generated.clone()).unwrap_or_default();
            // Recorded as done by `system`: whoever holds the database file.
            ledger
                .adopt_accounts()
                .map_err(web::app::error::AppError::from)
                .and_then(|_| reset_password(&mut ledger, &system(), official, &new))
                .map_err(|e| anyhow::anyhow!("{}: {e}", db.display()))?;
            match generated {
                // Printed once, to the terminal that asked; never logged.
                Some(p) => outln!("the password of `{official}` is now `{p}` (shown once); its sessions have ended")?,
                None => outln!("the password of `{official}` is set; its sessions have ended")?,
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}
