//! Login throttling: guessing passwords is slowed per official and per client address, and
//! password checks are bounded for the whole server.
//!
//! Every login attempt takes a cell from the address's limiter first (governor's GCRA), then,
//! only if that one let it through and its form's security token is good, from the official's:
//! an attempt the address limiter refuses, or a post without a valid token, spends nothing of
//! the official's allowance, so nobody can keep an official out by posting in his name. When
//! either limiter is empty the attempt is refused before any password is checked, with `429 Too
//! Many Requests` and `Retry-After`, after a pause of up to [`TARPIT`], and logged (the first
//! refusal, then one in a thousand with the count). An official's limiter refills one attempt
//! every few seconds, so the rightful owner gets in shortly after a flood stops; a guesser
//! spreading over many officials meets the address's limiter. The address is the connection's
//! peer (behind a reverse proxy, the proxy's own): a forwarded-for header is not trusted, since a
//! guesser could write any. An IPv6 address counts by its /64 (one subscriber's network), and
//! an IPv4 address mapped into IPv6 as itself.
//!
//! The keys are bounded: the official's key is an official's id ([`OfficialKey::of`]) — a name
//! that is no official's shares one key with every other unknown name, whatever its length —
//! and idle keys are forgotten now and then, at once when there are more than [`MAX_KEYS`].
//!
//! Password checks themselves (argon2, deliberately slow) are bounded for the whole server by
//! [`PasswordChecks`]: at most one at a time per two cores, a short queue behind them, and
//! `429` beyond it — so guesses sprayed from many addresses, each within its own allowance,
//! cannot take every core from the officials recording hands.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use std::net::Ipv6Addr;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

/// The longest a refused attempt waits for its answer (see the login route).
pub const TARPIT: Duration = Duration::from_secs(1);

/// How many attempts, and how fast they come back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Allowance {
    /// Attempts allowed at once.
    pub burst: u32,
    /// One attempt comes back every this long.
    pub every: Duration,
}

impl Allowance {
    fn quota(self) -> Quota {
        let burst = NonZeroU32::new(self.burst.max(1)).unwrap_or(NonZeroU32::MIN);
        Quota::with_period(self.every.max(Duration::from_millis(1)))
            .unwrap_or_else(|| Quota::per_second(NonZeroU32::MIN))
            .allow_burst(burst)
    }
}

/// How many keys the limiters hold before idle ones are forgotten at once.
pub const MAX_KEYS: usize = 65_536;

/// The key of an official's limiter: his id, or the one key every name that is no official's
/// shares.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct OfficialKey(Option<String>);

impl OfficialKey {
    /// The key for the official `id` when `exists`, else the shared key of unknown names.
    pub fn of(id: &str, exists: bool) -> OfficialKey {
        OfficialKey(exists.then(|| id.to_owned()))
    }
}

/// The limiters of one server.
pub struct LoginThrottle {
    by_official: DefaultKeyedRateLimiter<OfficialKey>,
    by_address: DefaultKeyedRateLimiter<IpAddr>,
    clock: DefaultClock,
    /// Attempts seen, to forget idle keys now and then.
    attempts: AtomicU64,
    /// Attempts refused, to log a flood without a line per guess.
    refused: AtomicU64,
    /// The longest a refused attempt waits for its answer ([`TARPIT`] unless set).
    tarpit: Duration,
}

impl LoginThrottle {
    /// Ten attempts for an official, then one every ten seconds; thirty from an address, then
    /// one every two seconds. (The service measured 45 wrong passwords a second for one
    /// official without a throttle.)
    pub const OFFICIAL: Allowance = Allowance {
        burst: 10,
        every: Duration::from_secs(10),
    };
    pub const ADDRESS: Allowance = Allowance {
        burst: 30,
        every: Duration::from_secs(2),
    };

    pub fn new(official: Allowance, address: Allowance) -> LoginThrottle {
        LoginThrottle {
            by_official: RateLimiter::keyed(official.quota()),
            by_address: RateLimiter::keyed(address.quota()),
            clock: DefaultClock::default(),
            attempts: AtomicU64::new(0),
            refused: AtomicU64::new(0),
            tarpit: TARPIT,
        }
    }

    /// The same limiters, refusals answered after at most `tarpit` (tests shorten it).
    pub fn with_tarpit(mut self, tarpit: Duration) -> LoginThrottle {
        self.tarpit = tarpit;
        self
    }

    /// How long a refusal that must wait `wait` is held before it is answered.
    pub fn tarpit(&self, wait: Duration) -> Duration {
        wait.min(self.tarpit)
    }

    /// Counts an attempt by `official` (an official's own password change) from `address`:
    /// the address first, then, if it let the attempt through, the official. `Err` with how long
    /// to wait when either has none left.
    pub fn attempt(&self, official: &str, address: Option<IpAddr>) -> Result<(), Duration> {
        self.from_address(address)?;
        self.as_official(&OfficialKey::of(official, true))
    }

    /// Counts an attempt from `address` (none when the peer is unknown): `Err` with how long to
    /// wait when it has none left.
    pub fn from_address(&self, address: Option<IpAddr>) -> Result<(), Duration> {
        self.forget_idle();
        let Some(address) = address else {
            return Ok(());
        };
        let now = self.clock.now();
        self.by_address.check_key(&network(address)).map_err(|n| {
            super::metrics::login_refused("address");
            n.wait_time_from(now)
        })
    }

    /// Counts an attempt to log in as the official of `key`, once its address and its form's
    /// security token let it through.
    pub fn as_official(&self, key: &OfficialKey) -> Result<(), Duration> {
        let now = self.clock.now();
        self.by_official.check_key(key).map_err(|n| {
            super::metrics::login_refused("official");
            n.wait_time_from(now)
        })
    }

    /// How many keys the limiters hold.
    pub fn keys(&self) -> usize {
        self.by_official.len() + self.by_address.len()
    }

    /// Forgets idle keys every 1,024 attempts, and at once past [`MAX_KEYS`].
    fn forget_idle(&self) {
        let n = self.attempts.fetch_add(1, Ordering::Relaxed) + 1;
        if n.is_multiple_of(1024) || self.keys() > MAX_KEYS {
            self.by_official.retain_recent();
            self.by_address.retain_recent();
            self.by_official.shrink_to_fit();
            self.by_address.shrink_to_fit();
        }
    }

    /// Counts a refused attempt: whether to log it. The first refusal is logged, then one in a
    /// thousand with the count, so that a flood of guesses does not become a flood of log lines
    /// (writing one per guess cost the tables more than the guesses did).
    pub fn log_refusal(&self) -> Option<u64> {
        let n = self.refused.fetch_add(1, Ordering::Relaxed) + 1;
        (n == 1 || n.is_multiple_of(1000)).then_some(n)
    }
}

/// The network an address counts as: an IPv6 address by its /64, an IPv4 one (mapped into IPv6
/// or not) as itself.
fn network(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V4(v4) => IpAddr::V4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(Ipv6Addr::from(u128::from(v6) & !((1u128 << 64) - 1))),
        },
    }
}

/// The server's budget of password checks (argon2 hashing or verifying): a few threads of its
/// own, a short queue, refused beyond it.
///
/// Its own threads, not the server's pool of blocking threads: argon2 asks for a large block
/// of memory at each check (19 MiB with the default parameters), and the allocator keeps it in
/// the arena of the thread that asked — a check on each of a hundred pool threads left the
/// server a hundred times that size. Two threads hold it twice, whatever the load.
pub struct PasswordChecks {
    queue: std::sync::mpsc::SyncSender<Box<dyn FnOnce() + Send>>,
}

impl PasswordChecks {
    /// `at_once` threads checking passwords, and `max_queued` checks waiting for them.
    pub fn new(at_once: usize, max_queued: usize) -> PasswordChecks {
        let (queue, jobs) = std::sync::mpsc::sync_channel::<Box<dyn FnOnce() + Send>>(max_queued);
        let jobs = std::sync::Arc::new(std::sync::Mutex::new(jobs));
        for n in 0..at_once.max(1) {
            let jobs = jobs.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("password-check-{n}"))
                .spawn(move || loop {
                    // One job at a time; the lock is held only while taking it.
                    let job = match jobs.lock() {
                        Ok(rx) => rx.recv(),
                        Err(_) => return,
                    };
                    match job {
                        Ok(job) => job(),
                        Err(_) => return,
                    }
                });
            if let Err(e) = spawned {
                tracing::error!(error = %e, "cannot start a password-check thread");
            }
        }
        PasswordChecks { queue }
    }

    /// Runs the password check `f` on the checking threads, waiting its turn in the queue;
    /// `None` when the queue is full (the caller answers 429) or no thread is left to run it.
    pub async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Option<T> {
        let (done, result) = tokio::sync::oneshot::channel();
        let job: Box<dyn FnOnce() + Send> = Box::new(move || {
            let _ = done.send(f());
        });
        self.queue.try_send(job).ok()?;
        result.await.ok()
    }
}

impl Default for PasswordChecks {
    /// One thread per two cores (so at least one core is always the tables'), and sixteen
    /// checks waiting.
    fn default() -> PasswordChecks {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        PasswordChecks::new((cores / 2).max(1), 16)
    }
}

impl Default for LoginThrottle {
    fn default() -> LoginThrottle {
        LoginThrottle::new(LoginThrottle::OFFICIAL, LoginThrottle::ADDRESS)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_official_gets_a_burst_then_waits_and_others_are_untouched() {
        let t = LoginThrottle::new(
            Allowance {
                burst: 3,
                every: Duration::from_secs(60),
            },
            LoginThrottle::ADDRESS,
        );
        for _ in 0..3 {
            assert_eq!(t.attempt("admin", None), Ok(()));
        }
        let wait = t.attempt("admin", None).unwrap_err();
        assert!(
            wait > Duration::from_secs(50) && wait <= Duration::from_secs(60),
            "{wait:?}"
        );
        assert_eq!(t.attempt("other", None), Ok(()));
    }

    #[test]
    fn an_address_spreading_its_guesses_over_officials_is_slowed_too() {
        let t = LoginThrottle::new(
            LoginThrottle::OFFICIAL,
            Allowance {
                burst: 2,
                every: Duration::from_secs(30),
            },
        );
        let from: IpAddr = "192.0.2.7".parse().unwrap();
        assert!(t.attempt("a", Some(from)).is_ok());
        assert!(t.attempt("b", Some(from)).is_ok());
        assert!(t.attempt("c", Some(from)).is_err());
        assert!(t.attempt("c", Some("192.0.2.8".parse().unwrap())).is_ok());
    }

    #[test]
    fn an_address_refused_spends_nothing_of_the_officials_allowance() {
        let t = LoginThrottle::new(
            Allowance {
                burst: 2,
                every: Duration::from_secs(60),
            },
            Allowance {
                burst: 1,
                every: Duration::from_secs(60),
            },
        );
        let jammer: IpAddr = "192.0.2.66".parse().unwrap();
        assert!(t.attempt("admin", Some(jammer)).is_ok());
        for _ in 0..50 {
            assert!(t.attempt("admin", Some(jammer)).is_err());
        }
        // The official had two; the jammer spent one, the refused fifty nothing.
        assert!(t
            .attempt("admin", Some("192.0.2.1".parse().unwrap()))
            .is_ok());
    }

    #[test]
    fn ipv6_counts_by_its_64_and_mapped_ipv4_as_itself() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::9".parse().unwrap();
        let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(network(a), network(b));
        assert_ne!(network(a), network(c));
        let mapped: IpAddr = "::ffff:192.0.2.7".parse().unwrap();
        assert_eq!(network(mapped), "192.0.2.7".parse::<IpAddr>().unwrap());
    }

    #[test]
    fn unknown_names_share_one_key_whatever_their_length() {
        let t = LoginThrottle::default();
        for i in 0..5_000 {
            let name = format!("{}{i}", "x".repeat(10_000));
            let _ = t.as_official(&OfficialKey::of(&name, false));
        }
        assert_eq!(t.by_official.len(), 1);
    }

    #[test]
    fn the_attempts_come_back_with_time() {
        let t = LoginThrottle::new(
            Allowance {
                burst: 1,
                every: Duration::from_millis(50),
            },
            LoginThrottle::ADDRESS,
        );
        assert!(t.attempt("admin", None).is_ok());
        assert!(t.attempt("admin", None).is_err());
        std::thread::sleep(Duration::from_millis(60));
        assert!(t.attempt("admin", None).is_ok());
    }
}
