//! Whether a ledger can be written, asked without writing: the server's health check.

use crate::error::{Result, SqlContext};
use crate::head::ChainHead;
use crate::store::Ledger;

impl Ledger {
    /// Whether this connection can take the database's write lock, asked without writing:
    /// `BEGIN IMMEDIATE` then `ROLLBACK` (the health check), waiting at most `wait` for another
    /// program's lock rather than the connection's own busy timeout. Returns the chain head
    /// read under the lock.
    pub fn probe_writable(&self, wait: std::time::Duration) -> Result<ChainHead> {
        let usual: i64 = self
            .conn
            .query_row("PRAGMA busy_timeout", [], |r| r.get(0))
            .ctx("reading the busy timeout")?;
        self.conn
            .busy_timeout(wait)
            .ctx("setting the busy timeout")?;
        let probed = self
            .conn
            .execute_batch("BEGIN IMMEDIATE")
            .ctx("taking the write lock")
            .and_then(|()| {
                let head = crate::store::chain_head(&self.conn);
                self.conn
                    .execute_batch("ROLLBACK")
                    .ctx("releasing the write lock")?;
                head
            });
        self.conn
            .busy_timeout(std::time::Duration::from_millis(usual.max(0) as u64))
            .ctx("setting the busy timeout")?;
        probed
    }
}

#[cfg(test)]
mod tests {
    use crate::Ledger;

    #[test]
    fn a_writable_ledger_answers_with_its_head_and_keeps_nothing_locked() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("club.db");
        let ledger = Ledger::open(&db).unwrap();
        let wait = std::time::Duration::from_millis(100);
        assert_eq!(ledger.probe_writable(wait).unwrap().position, 0);
        // The lock was let go: another connection writes.
        let other = Ledger::open(&db).unwrap();
        other.probe_writable(wait).unwrap();
        // Held by another, the probe answers within its wait, busy.
        other.connection().execute_batch("BEGIN IMMEDIATE").unwrap();
        let started = std::time::Instant::now();
        assert!(matches!(
            ledger.probe_writable(wait),
            Err(crate::Error::Busy { .. })
        ));
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
        other.connection().execute_batch("ROLLBACK").unwrap();
        ledger.probe_writable(wait).unwrap();
    }
}
