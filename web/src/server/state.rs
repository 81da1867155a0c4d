//! The server's shared state: one writer, a pool of readers, and the officials' tables.
//!
//! SQLite allows one writer at a time; the ledger's appends already run in `BEGIN IMMEDIATE`
//! transactions with optimistic concurrency, so one writer connection behind a mutex loses
//! nothing and turns a stale write into a 409. Pages read from a pool of read-only connections
//! (WAL lets them read while the writer appends), so a busy standings page never waits for a
//! hand being recorded. All of it is blocking work: handlers run it on actix's blocking pool
//! ([`AppState::read`], [`AppState::write`]), never on the async workers.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use actix_web::web;
use ledger::Ledger;
use rusqlite::Connection;

use super::error::{AppError, ErrorKind};

/// How long the officials' connection waits for another writer's lock (as the ledger's).
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// How many idle readers the pool keeps.
const MAX_IDLE_READERS: usize = 16;

/// Everything a handler needs; cheap to clone (one `Arc`), so blocking closures take a copy.
#[derive(Clone)]
pub struct AppState {
    inner: Arc<Inner>,
    pub secure_cookies: bool,
    /// The reverse proxies whose forwarding header names the client (`--trusted-proxy`).
    pub proxies: super::client::Proxies,
    /// Addresses that may read `/metrics` without logging in (`--metrics-from`).
    pub metrics_from: Vec<ipnet::IpNet>,
    /// The scheduled backups' last copy, when the server makes them (`--backup-dir`).
    pub backups: Option<Arc<super::backups::Status>>,
    /// The hands followed live, and their followers.
    pub live: Arc<super::live::Live>,
}

struct Inner {
    path: PathBuf,
    writer: Mutex<Ledger>,
    /// The tables being recorded play by play, kept folded between requests; locked only
    /// while the writer is held.
    tables: Mutex<crate::app::table_cache::TableCache>,
    readers: Mutex<Vec<Ledger>>,
    auth: Mutex<Connection>,
    /// Login attempts per official and per address.
    throttle: super::throttle::LoginThrottle,
    /// The budget of password checks for the whole server.
    password_checks: super::throttle::PasswordChecks,
    /// When a write last gave up on the database's lock, held by another program.
    busy_at: Mutex<Option<std::time::Instant>>,
    /// The key of the login form's CSRF values: random for each run of the server (a login
    /// form older than the process answers "stale: try again").
    login_key: [u8; 32],
    /// Bumped after every write this process makes: the key of the page cache.
    generation: AtomicU64,
    /// The generation, watched: the pages that follow the whole ledger (the director's
    /// dashboard) hear of each write, the latest only.
    written: tokio::sync::watch::Sender<u64>,
    /// Set when the server is stopping (SIGTERM): new writes are refused with 503, open
    /// streams end, and the requests in flight finish.
    draining: tokio::sync::watch::Sender<bool>,
    cache: super::cache::PageCache,
    /// The last audit, for the chain head it verified.
    audit: super::cache::AuditCache,
    /// The ledger's own signing key (`<db>.key`, created on first run): checkpoints, exports.
    key: Arc<ledger::signing::LedgerKey>,
}

/// How long the health check waits for another program's write lock.
const PROBE_WAIT: Duration = Duration::from_millis(500);

/// What the health check found of the writer.
pub enum Probed {
    /// Its write lock was taken (and let go) at this head.
    Writable(ledger::ChainHead),
    /// It was writing; the head a reader sees.
    Writing(ledger::ChainHead),
}

/// The answer to a write while the server stops.
fn stopping() -> AppError {
    AppError::new(
        ErrorKind::Unavailable,
        "the server is stopping: nothing was written; retrying in a few seconds is safe (against the server that replaces it)",
    )
}

fn lock<T>(m: &Mutex<T>) -> Result<MutexGuard<'_, T>, AppError> {
    m.lock()
        .map_err(|_| AppError::internal("a lock was poisoned by an earlier panic"))
}

impl AppState {
    /// Opens (creating and migrating) the database at `path`.
    pub fn open(path: &Path) -> Result<AppState, ledger::Error> {
        AppState::open_throttled(path, super::throttle::LoginThrottle::default())
    }

    /// [`AppState::open`], with logins throttled by `throttle`.
    pub fn open_throttled(
        path: &Path,
        throttle: super::throttle::LoginThrottle,
    ) -> Result<AppState, ledger::Error> {
        AppState::open_with(path, throttle, false)
    }

    /// [`AppState::open_throttled`]; with `new_key`, the key file is taken as it is (or a new
    /// key made) although the ledger's checkpoints were signed with another
    /// ([`ledger::signing::LedgerKey::for_ledger`]).
    pub fn open_with(
        path: &Path,
        throttle: super::throttle::LoginThrottle,
        new_key: bool,
    ) -> Result<AppState, ledger::Error> {
        let writer = readmodel::open(path)?;
        let key = Arc::new(ledger::signing::LedgerKey::for_ledger(
            &writer, path, new_key,
        )?);
        let auth = Connection::open(path)
            .map_err(|e| ledger::Error::sqlite("opening the officials' tables", e))?;
        auth.busy_timeout(BUSY_TIMEOUT)
            .map_err(|e| ledger::Error::sqlite("setting the busy timeout", e))?;
        Ok(AppState {
            inner: Arc::new(Inner {
                path: path.to_owned(),
                writer: Mutex::new(writer),
                tables: Mutex::new(Default::default()),
                readers: Mutex::new(Vec::new()),
                auth: Mutex::new(auth),
                throttle,
                password_checks: Default::default(),
                busy_at: Mutex::new(None),
                login_key: rand::random(),
                generation: AtomicU64::new(0),
                written: tokio::sync::watch::Sender::new(0),
                draining: tokio::sync::watch::Sender::new(false),
                cache: Default::default(),
                audit: Default::default(),
                key,
            }),
            secure_cookies: false,
            proxies: Default::default(),
            metrics_from: Vec::new(),
            backups: None,
            live: Default::default(),
        })
    }

    /// How long the writer and the officials' connection wait for another process's write
    /// lock before answering 503 (ten seconds unless set; tests shorten it).
    pub fn set_busy_timeout(&self, timeout: Duration) -> Result<(), AppError> {
        lock(&self.inner.writer)?.set_busy_timeout(timeout)?;
        lock(&self.inner.auth)?
            .busy_timeout(timeout)
            .map_err(|e| ledger::Error::sqlite("setting the busy timeout", e))?;
        Ok(())
    }

    pub fn path(&self) -> &Path {
        &self.inner.path
    }

    /// The ledger's signing key.
    pub fn ledger_key(&self) -> Arc<ledger::signing::LedgerKey> {
        self.inner.key.clone()
    }

    /// The key of the login form's CSRF values.
    pub fn login_key(&self) -> &[u8; 32] {
        &self.inner.login_key
    }

    /// The client's address: the peer's, or the one a trusted proxy names
    /// ([`super::client::Proxies`]).
    pub fn client_address(&self, req: &actix_web::HttpRequest) -> Option<std::net::IpAddr> {
        self.proxies.client(req).map(|c| c.address)
    }

    /// [`AppState::client_address`] when it is known for certain: not the proxy's own
    /// address standing in for a client its header did not name plainly.
    pub fn certain_client_address(&self, req: &actix_web::HttpRequest) -> Option<std::net::IpAddr> {
        self.proxies
            .client(req)
            .filter(|c| c.certain)
            .map(|c| c.address)
    }

    /// The login throttle.
    pub fn login_throttle(&self) -> &super::throttle::LoginThrottle {
        &self.inner.throttle
    }

    /// Runs a password check (argon2 hashing or verifying) within the server's budget
    /// ([`super::throttle::PasswordChecks`]): 429 when too many are waiting.
    pub async fn password_check<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, AppError> {
        match self.inner.password_checks.run(f).await {
            Some(done) => Ok(done),
            None => Err({
                super::metrics::login_refused("password_checks");
                AppError::new(
                ErrorKind::TooManyRequests,
                "the server is checking too many passwords just now: try again in a few seconds",
            )
            }),
        }
    }

    /// The cache of rendered public pages.
    pub fn cache(&self) -> &super::cache::PageCache {
        &self.inner.cache
    }

    /// Where this request's page is cached: for a visitor not logged in, by its address, until
    /// the next write.
    pub fn page_slot(
        &self,
        viewer: &crate::app::accounts::viewer::Viewer,
        req: &actix_web::HttpRequest,
    ) -> super::cache::Slot<'_> {
        super::cache::Slot::new(
            &self.inner.cache,
            viewer.0.is_none(),
            &req.uri().to_string(),
            self.generation(),
        )
    }

    /// The last audit, for the chain head it verified.
    pub fn audit_cache(&self) -> &super::cache::AuditCache {
        &self.inner.audit
    }

    /// The current write generation (see the page cache).
    pub fn generation(&self) -> u64 {
        self.inner.generation.load(Ordering::Acquire)
    }

    /// Runs `f` with a reader, on the blocking pool.
    pub async fn read<T, F>(&self, f: F) -> Result<T, AppError>
    where
        F: FnOnce(&Ledger) -> Result<T, AppError> + Send + 'static,
        T: Send + 'static,
    {
        let state = self.clone();
        web::block(move || state.read_now(f)).await?
    }

    /// Runs `f` with a reader on the current thread.
    pub fn read_now<T>(
        &self,
        f: impl FnOnce(&Ledger) -> Result<T, AppError>,
    ) -> Result<T, AppError> {
        let idle = lock(&self.inner.readers)?.pop();
        let reader = match idle {
            Some(r) => r,
            None => readmodel::open_reader(&self.inner.path)?,
        };
        let out = f(&reader);
        let mut pool = lock(&self.inner.readers)?;
        if pool.len() < MAX_IDLE_READERS {
            pool.push(reader);
        }
        out
    }

    /// Runs `f` with the writer, on the blocking pool, and moves the generation on.
    pub async fn write<T, F>(&self, f: F) -> Result<T, AppError>
    where
        F: FnOnce(&mut Ledger) -> Result<T, AppError> + Send + 'static,
        T: Send + 'static,
    {
        let state = self.clone();
        web::block(move || state.write_now(f)).await?
    }

    /// Runs `f` with the writer and the tables kept folded, on the blocking pool.
    pub async fn write_tables<T, F>(&self, f: F) -> Result<T, AppError>
    where
        F: FnOnce(&mut Ledger, &mut crate::app::table_cache::TableCache) -> Result<T, AppError>
            + Send
            + 'static,
        T: Send + 'static,
    {
        let state = self.clone();
        web::block(move || {
            state.write_now(|ledger| {
                let mut tables = lock(&state.inner.tables)?;
                f(ledger, &mut tables)
            })
        })
        .await?
    }

    /// Runs `f` with the writer and the tables kept folded, to read what the writes keep
    /// folded (the scorer's page, which would otherwise fold its table and tournament again at
    /// every tap): nothing is written, and the pages' cache is left as it is.
    pub async fn read_tables<T, F>(&self, f: F) -> Result<T, AppError>
    where
        F: FnOnce(&Ledger, &mut crate::app::table_cache::TableCache) -> Result<T, AppError>
            + Send
            + 'static,
        T: Send + 'static,
    {
        let state = self.clone();
        web::block(move || {
            let writer = lock(&state.inner.writer)?;
            let mut tables = lock(&state.inner.tables)?;
            f(&writer, &mut tables)
        })
        .await?
    }

    /// Runs `f` with the writer on the current thread.
    pub fn write_now<T>(
        &self,
        f: impl FnOnce(&mut Ledger) -> Result<T, AppError>,
    ) -> Result<T, AppError> {
        if self.is_draining() {
            return Err(stopping());
        }
        let arrived = std::time::Instant::now();
        let mut writer = lock(&self.inner.writer)?;
        // Another program held the database's write lock while this write queued behind one
        // that waited it out and gave up: this one would wait as long again, and every one
        // behind it in turn. It is answered now; a write that arrives after is tried.
        if lock(&self.inner.busy_at)?.is_some_and(|busy| busy > arrived) {
            return Err(AppError::new(
                ErrorKind::Unavailable,
                "the database is locked by another program: nothing was written; retrying is safe",
            ));
        }
        let started = std::time::Instant::now();
        let before = writer.head().map(|h| h.position);
        let out = f(&mut writer);
        let appended = match (before, writer.head()) {
            (Ok(before), Ok(after)) => after.position.saturating_sub(before),
            _ => 0,
        };
        super::metrics::write(started, out.is_ok(), appended);
        if out
            .as_ref()
            .is_err_and(|e| e.kind == ErrorKind::Unavailable)
        {
            *lock(&self.inner.busy_at)? = Some(std::time::Instant::now());
        }
        let generation = self.inner.generation.fetch_add(1, Ordering::AcqRel) + 1;
        self.inner.written.send_replace(generation);
        out
    }

    /// Stops taking writes: each one from now on is refused with 503 and `Retry-After`, and
    /// the live streams end (SIGTERM's first step; the requests in flight finish).
    pub fn begin_draining(&self) {
        self.inner.draining.send_replace(true);
    }

    /// Whether the server is stopping.
    pub fn is_draining(&self) -> bool {
        *self.inner.draining.borrow()
    }

    /// Resolves when the server begins to stop (at once if it has).
    pub fn draining(&self) -> impl std::future::Future<Output = ()> + 'static {
        let mut rx = self.inner.draining.subscribe();
        async move {
            let _ = rx.wait_for(|stopping| *stopping).await;
        }
    }

    /// Whether the writer's connection can take the database's write lock now: the health
    /// check's question, asked without writing anything (and without moving the pages'
    /// generation, so a probe every few seconds empties no cache).
    ///
    /// It does not queue behind a write: when the writer is busy, its database is being
    /// written, and the head is read from a reader instead. Another program's lock is waited
    /// for a moment only, so a probe never holds up the writes behind it for long.
    pub fn probe_writer(&self) -> Result<Probed, AppError> {
        let writer = match self.inner.writer.try_lock() {
            Ok(writer) => writer,
            Err(std::sync::TryLockError::WouldBlock) => {
                return Ok(Probed::Writing(self.read_now(|l| Ok(l.head()?))?));
            }
            Err(std::sync::TryLockError::Poisoned(_)) => {
                return Err(AppError::internal(
                    "a lock was poisoned by an earlier panic",
                ))
            }
        };
        Ok(Probed::Writable(writer.probe_writable(PROBE_WAIT)?))
    }

    /// Hears of every write from now on (the latest generation; a burst is heard once).
    pub fn writes(&self) -> tokio::sync::watch::Receiver<u64> {
        self.inner.written.subscribe()
    }

    /// Runs `f` with the officials' connection, on the blocking pool.
    pub async fn auth<T, F>(&self, f: F) -> Result<T, AppError>
    where
        F: FnOnce(&Connection) -> Result<T, AppError> + Send + 'static,
        T: Send + 'static,
    {
        let state = self.clone();
        web::block(move || state.auth_now(f)).await?
    }

    /// Runs `f` with the officials' connection on the current thread.
    pub fn auth_now<T>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, AppError>,
    ) -> Result<T, AppError> {
        let conn = lock(&self.inner.auth)?;
        f(&conn)
    }
}
