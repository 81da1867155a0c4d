//! How the server is configured: where the database is, where it listens, and the first
//! administrator's password. Flags win over environment variables, which win over defaults.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use ipnet::IpNet;

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
    /// Copy the ledger (and its key) into this folder on a schedule, off the request path:
    /// SQLite's online backup, audited, each copy named by its time and chain head.
    #[arg(long, env = "MAHJONG_REFEREE_BACKUP_DIR")]
    pub backup_dir: Option<PathBuf>,
    /// How often to copy (with --backup-dir): `30m`, `1h`, `1day` …
    #[arg(long, default_value = "1h", value_parser = parse_interval)]
    pub backup_every: Duration,
    /// How many copies to keep in the folder (the newest; older ones are removed).
    #[arg(long, default_value_t = 48, value_parser = clap::value_parser!(u32).range(1..))]
    pub backup_keep: u32,
    /// Reverse proxies (address ranges: `127.0.0.1/32 ::1/128` for one on this machine) whose
    /// forwarding header names the client: the login throttle then counts that client, not the
    /// proxy. A request
    /// from any other peer is counted by its own address, whatever header it sends.
    #[arg(long, num_args = 1.., value_name = "CIDR")]
    pub trusted_proxy: Vec<IpNet>,
    /// The header the trusted proxies set: `x-forwarded-for` (Caddy, nginx) or `forwarded`
    /// (RFC 7239).
    #[arg(long, default_value = "x-forwarded-for", value_enum)]
    pub forwarded_header: ForwardedHeader,
    /// Addresses (ranges) allowed to read /metrics without logging in, such as the
    /// Prometheus server's; officials logged in may always read it.
    #[arg(long, num_args = 1.., value_name = "CIDR")]
    pub metrics_from: Vec<IpNet>,
    /// Log lines as text (for a terminal) or JSON (one object per line, for a log collector).
    #[arg(
        long,
        default_value = "text",
        value_enum,
        env = "MAHJONG_REFEREE_LOG_FORMAT"
    )]
    pub log_format: LogFormat,
}

/// The header a trusted proxy names the client in.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ForwardedHeader {
    #[default]
    XForwardedFor,
    Forwarded,
}

/// How log lines are written.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LogFormat {
    #[default]
    Text,
    Json,
}

/// An interval such as `30m` or `1h` (humantime), at least a minute: a copy audits the whole
/// ledger, which is not a thing to do every second.
fn parse_interval(s: &str) -> Result<Duration, String> {
    let d = humantime::parse_duration(s)
        .map_err(|e| format!("`{s}`: {e} (say `30m`, `1h`, `1day`)"))?;
    if d < Duration::from_secs(60) {
        return Err(format!("`{s}` is less than a minute: each copy is audited whole, so copy at most once a minute"));
    }
    Ok(d)
}
