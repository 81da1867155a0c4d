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
/// hash are the ones it was made for; a moved head, or an official asking for a fresh one,
/// verifies anew. One verification runs at a time: requests arriving meanwhile wait for it and
/// are served its result rather than starting their own.
#[derive(Default)]
pub struct AuditCache {
    last: std::sync::Mutex<Option<VerifiedAudit>>,
    verifications: std::sync::atomic::AtomicU64,
}

/// An audit as pages and the API show it, with when it was made.
#[derive(Clone, Debug, serde::Serialize)]
pub struct VerifiedAudit {
    pub clean: bool,
    pub head_position: u64,
    pub head_hash: String,
    pub report: String,
    /// When this report was verified (RFC 3339, UTC).
    pub verified_at: String,
    /// How many verifications this process had run, this one included: a report served again
    /// keeps its number.
    pub verification: u64,
}

impl AuditCache {
    /// The report for the head (`position`, `hash`): the last one when it was made for this head
    /// and `fresh` is not asked, else `verify()`'s (clean, report text), kept for the next call.
    pub fn get_or_verify<E>(
        &self,
        position: u64,
        hash: &str,
        fresh: bool,
        verify: impl FnOnce() -> Result<(bool, String), E>,
    ) -> Result<VerifiedAudit, E> {
        // A poisoned lock only means an earlier verification panicked: verify again.
        let mut last = self.last.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(a) = last.as_ref() {
            if !fresh && a.head_position == position && a.head_hash == hash {
                return Ok(a.clone());
            }
        }
        let (clean, report) = verify()?;
        let verification = 1 + self
            .verifications
            .fetch_add(1, std::sync::atomic::Ordering::AcqRel);
        let audit = VerifiedAudit {
            clean,
            head_position: position,
            head_hash: hash.to_owned(),
            report,
            verified_at: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Micros, true),
            verification,
        };
        *last = Some(audit.clone());
        Ok(audit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_audit_is_verified_again_only_for_a_new_head_or_when_asked() {
        let cache = AuditCache::default();
        let runs = std::cell::Cell::new(0);
        let verify = || {
            runs.set(runs.get() + 1);
            Ok::<_, ()>((true, format!("run {}", runs.get())))
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
