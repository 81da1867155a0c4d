//! Login throttling: guessing passwords is slowed per official and per client address.
//!
//! Every login attempt, right or wrong, takes a cell from two keyed limiters (governor's
//! GCRA): one for the official named, one for the address the connection comes from. When
//! either is empty the attempt is refused before any password is checked, with `429 Too Many
//! Requests` and `Retry-After`, after a pause of up to [`TARPIT`], and logged (the first
//! refusal, then one in a thousand with the count). An official's limiter refills one attempt every
//! few seconds, so the rightful owner gets in shortly after a flood stops; a guesser spreading
//! over many officials meets the address's limiter. The address is the connection's peer
//! (behind a reverse proxy, the proxy's own): a forwarded-for header is not trusted, since a
//! guesser could write any.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

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

/// The limiters of one server.
pub struct LoginThrottle {
    by_official: DefaultKeyedRateLimiter<String>,
    by_address: DefaultKeyedRateLimiter<IpAddr>,
    clock: DefaultClock,
    /// Attempts seen, to forget idle keys now and then.
    attempts: AtomicU64,
    /// Attempts refused, to log a flood without a line per guess.
    refused: AtomicU64,
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
        }
    }

    /// Counts an attempt to log in as `official` from `address`: `Err` with how long to wait
    /// when either has none left.
    pub fn attempt(&self, official: &str, address: Option<IpAddr>) -> Result<(), Duration> {
        if (self.attempts.fetch_add(1, Ordering::Relaxed) + 1).is_multiple_of(1024) {
            self.by_official.retain_recent();
            self.by_address.retain_recent();
        }
        let now = self.clock.now();
        let wait = |n: governor::NotUntil<_>| n.wait_time_from(now);
        let by_address = address.map_or(Ok(()), |a| self.by_address.check_key(&a));
        let by_official = self.by_official.check_key(&official.to_owned());
        let refused = match (by_address, by_official) {
            (Ok(()), Ok(())) => return Ok(()),
            (Err(a), Ok(())) => wait(a),
            (Ok(()), Err(o)) => wait(o),
            (Err(a), Err(o)) => wait(a).max(wait(o)),
        };
        Err(refused)
    }

    /// Counts a refused attempt: whether to log it. The first refusal is logged, then one in a
    /// thousand with the count, so that a flood of guesses does not become a flood of log lines
    /// (writing one per guess cost the tables more than the guesses did).
    pub fn log_refusal(&self) -> Option<u64> {
        let n = self.refused.fetch_add(1, Ordering::Relaxed) + 1;
        (n == 1 || n.is_multiple_of(1000)).then_some(n)
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
