//! How the server is configured: where the database is, where it listens, and the first
//! administrator's password. Flags win over environment variables, which win over defaults.

use std::net::SocketAddr;
use std::path::PathBuf;

/// The default database file, in the working directory.
pub const DEFAULT_DB: &str = "mahjong-referee.db";
/// The default address: loopback only, so a fresh install is not exposed by accident.
pub const DEFAULT_BIND: &str = "127.0.0.1:8080";

/// `mahjong-referee serve` arguments.
#[derive(clap::Args, Clone, Debug)]
pub struct ServeArgs {
    /// The ledger database (created on first run, migrations applied).
    #[arg(long, env = "MAHJONG_REFEREE_DB", default_value = DEFAULT_DB)]
    pub db: PathBuf,
    /// The address to listen on.
    #[arg(long, env = "MAHJONG_REFEREE_BIND", default_value = DEFAULT_BIND)]
    pub bind: SocketAddr,
    /// Load the demo tournament (built from the book fixtures) if the database has none.
    #[arg(long)]
    pub demo: bool,
    /// The password of the administrator created on first run; when absent a random one is
    /// generated and printed once.
    #[arg(long, env = "MAHJONG_REFEREE_ADMIN_PASSWORD", hide_env_values = true)]
    pub admin_password: Option<String>,
    /// Mark cookies `Secure` (serve behind HTTPS).
    #[arg(long, env = "MAHJONG_REFEREE_SECURE_COOKIES")]
    pub secure_cookies: bool,
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub workers: Option<usize>,
    /// Go on with the key file as it is (or a new key when it is missing) although the
    /// ledger's checkpoints were signed with another key: the key was lost or replaced.
    #[arg(long)]
    pub new_key: bool,
}
