//! A cache of rendered public pages, keyed by URL and the write generation.
//!
//! Every write this process makes moves [`AppState::generation`](super::state::AppState) on, so
//! a cached page is served only while nothing has been recorded since it was rendered; the
//! first request after a write renders afresh from the projections. Only pages for visitors who
//! are not logged in are cached (an official's pages carry their CSRF token).

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
