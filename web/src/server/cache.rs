//! A cache of rendered public pages, keyed by URL and the write generation.
//!
//! Every write this process makes moves the state's write generation on (`AppState::generation`,
//! passed in here as a number), so a cached page is served only while nothing has been recorded
//! since it was rendered; the first request after a write renders afresh from the projections.
//! Only pages for visitors who are not logged in are cached (an official's pages carry their
//! CSRF token).

use std::collections::HashMap;
use std::sync::RwLock;

use actix_web::web::Bytes;

/// At most this many pages are kept; past it the cache is cleared (simple and bounded).
const MAX_PAGES: usize = 4096;

#[derive(Default)]
pub struct PageCache {
    pages: RwLock<HashMap<String, (u64, Bytes)>>,
}

impl PageCache {
    /// The page rendered for `key` at `generation`, if cached.
    pub fn get(&self, key: &str, generation: u64) -> Option<Bytes> {
        let pages = self.pages.read().ok()?;
        match pages.get(key) {
            Some((g, body)) if *g == generation => Some(body.clone()),
            _ => None,
        }
    }

    pub fn put(&self, key: String, generation: u64, body: Bytes) {
        if let Ok(mut pages) = self.pages.write() {
            if pages.len() >= MAX_PAGES {
                pages.clear();
            }
            pages.insert(key, (generation, body));
        }
    }
}

/// Where one request's public page lives in a [`PageCache`]: for a visitor who is not logged
/// in, keyed by the request's address at the current write generation; no place for an
/// official (whose pages are not cached).
pub struct Slot<'a> {
    cache: &'a PageCache,
    key: Option<String>,
    generation: u64,
}

impl<'a> Slot<'a> {
    pub fn new(cache: &'a PageCache, public: bool, uri: &str, generation: u64) -> Slot<'a> {
        Slot {
            cache,
            key: public.then(|| uri.to_owned()),
            generation,
        }
    }

    /// The page made for this address since the last write, if any.
    pub fn get(&self) -> Option<Bytes> {
        self.key
            .as_ref()
            .and_then(|k| self.cache.get(k, self.generation))
    }

    /// Keeps `body` for the next public request, until the next write.
    pub fn put(self, body: &Bytes) {
        if let Some(k) = self.key {
            self.cache.put(k, self.generation, body.clone());
        }
    }
}

/// The last audit of the ledger, for the chain head it verified.
///
/// The audit re-verifies every event, settlement and projection: far too dear to run for every
/// anonymous request to `/audit` or `/api/audit`. Its result changes only when the chain head
/// does (every append moves it), so the last report is served while the head's position and
/// hash are the ones it was made for. A head that moved on (the ledger grew) is verified anew
/// at most every [`AuditCache::REVERIFY_AFTER`]: an evening of writes would otherwise have every
/// anonymous request after each write verify the whole ledger; meanwhile the last report is
/// served, saying which head it verified and when. A head at the same or an earlier position
/// with another hash (a history rewritten, or cut short) is verified at once, and so is the
/// report an official asks for fresh. One verification runs at a time: requests arriving
/// meanwhile wait for it and are served its result rather than starting their own.
pub struct AuditCache {
    last: std::sync::Mutex<Option<(VerifiedAudit, std::time::Instant)>>,
    verifications: std::sync::atomic::AtomicU64,
    reverify_after: std::time::Duration,
}

impl Default for AuditCache {
    fn default() -> AuditCache {
        AuditCache::new(AuditCache::REVERIFY_AFTER)
    }
}

/// An audit as pages and the API show it, with when it was made.
#[derive(Clone, Debug, serde::Serialize)]
pub struct VerifiedAudit {
    pub clean: bool,
    pub head_position: u64,
    pub head_hash: String,
    /// The report: officials get the whole of it; the public the summary (see
    /// [`VerifiedAudit::for_audience`]).
    pub report: String,
    /// The report as the public reads it: the counts and the result, without the server's
    /// file path, the streams' names and versions (how many hands each table of an open
    /// session played) or the refused events' streams.
    #[serde(skip)]
    pub public_report: String,
    /// When this report was verified (RFC 3339, UTC).
    pub verified_at: String,
    /// How many verifications this process had run, this one included: a report served again
    /// keeps its number.
    pub verification: u64,
}

impl VerifiedAudit {
    /// The audit as `audience` may read it: the public gets the public report.
    pub fn for_audience(mut self, audience: crate::app::queries::Audience) -> VerifiedAudit {
        if audience == crate::app::queries::Audience::Public {
            self.report = std::mem::take(&mut self.public_report);
        }
        self
    }
}

impl AuditCache {
    /// How old a report may be before a grown ledger is verified again.
    pub const REVERIFY_AFTER: std::time::Duration = std::time::Duration::from_secs(30);

    /// A cache that verifies a grown ledger again once its report is `reverify_after` old.
    pub fn new(reverify_after: std::time::Duration) -> AuditCache {
        AuditCache {
            last: Default::default(),
            verifications: Default::default(),
            reverify_after,
        }
    }

    /// The report for the head (`position`, `hash`): the last one when it was made for this head
    /// and `fresh` is not asked, else `verify()`'s (clean, report, public report), kept for the
    /// next call.
    pub fn get_or_verify<E>(
        &self,
        position: u64,
        hash: &str,
        fresh: bool,
        verify: impl FnOnce() -> Result<(bool, String, String), E>,
    ) -> Result<VerifiedAudit, E> {
        // A poisoned lock only means an earlier verification panicked: verify again.
        let mut last = self.last.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((a, at)) = last.as_ref() {
            let same = a.head_position == position && a.head_hash == hash;
            let grown_lately = a.head_position < position && at.elapsed() < self.reverify_after;
            if !fresh && (same || grown_lately) {
                return Ok(a.clone());
            }
        }
        let (clean, report, public_report) = verify()?;
        let verification = 1 + self
            .verifications
            .fetch_add(1, std::sync::atomic::Ordering::AcqRel);
        let audit = VerifiedAudit {
            clean,
            head_position: position,
            head_hash: hash.to_owned(),
            report,
            public_report,
            verified_at: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Micros, true),
            verification,
        };
        *last = Some((audit.clone(), std::time::Instant::now()));
        Ok(audit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_grown_ledger_is_verified_again_at_most_every_interval_but_a_rewritten_one_at_once() {
        let cache = AuditCache::new(std::time::Duration::from_secs(3600));
        let runs = std::cell::Cell::new(0);
        let verify = || {
            runs.set(runs.get() + 1);
            Ok::<_, ()>((true, format!("run {}", runs.get()), String::new()))
        };
        cache.get_or_verify(3, "aa", false, verify).unwrap();
        // Writes moved the head on: the last report, for its own head, until the hour is out.
        let served = cache.get_or_verify(9, "bb", false, verify).unwrap();
        assert_eq!((runs.get(), served.head_position), (1, 3));
        // An official asks: verified now.
        cache.get_or_verify(9, "bb", true, verify).unwrap();
        assert_eq!(runs.get(), 2);
        // The same position with another hash, or an earlier one: verified at once.
        cache.get_or_verify(9, "cc", false, verify).unwrap();
        assert_eq!(runs.get(), 3);
        cache.get_or_verify(5, "dd", false, verify).unwrap();
        assert_eq!(runs.get(), 4);
    }

    #[test]
    fn an_audit_is_verified_again_only_for_a_new_head_or_when_asked() {
        let cache = AuditCache::new(std::time::Duration::ZERO);
        let runs = std::cell::Cell::new(0);
        let verify = || {
            runs.set(runs.get() + 1);
            Ok::<_, ()>((true, format!("run {}", runs.get()), String::new()))
        };
        let first = cache.get_or_verify(3, "aa", false, verify).unwrap();
        let again = cache.get_or_verify(3, "aa", false, verify).unwrap();
        assert_eq!((runs.get(), again.verification), (1, first.verification));
        assert_eq!(again.report, "run 1");
        cache.get_or_verify(3, "aa", true, verify).unwrap();
        assert_eq!(runs.get(), 2, "asked for a fresh one");
        let moved = cache.get_or_verify(4, "bb", false, verify).unwrap();
        assert_eq!((runs.get(), moved.verification), (3, 3));
        // Same position, another hash (a rewritten head): verified anew.
        cache.get_or_verify(4, "cc", false, verify).unwrap();
        assert_eq!(runs.get(), 4);
        // A failed verification keeps nothing.
        assert!(cache.get_or_verify(5, "dd", false, || Err(())).is_err());
        assert_eq!(
            cache
                .get_or_verify(4, "cc", false, verify)
                .unwrap()
                .verification,
            4
        );
    }
}
