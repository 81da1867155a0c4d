//! Whether a ledger can be written, asked without writing: the server's health check.

use crate::error::{Result, SqlContext};
use crate::head::ChainHead;
use crate::store::Ledger;

impl Ledger {
    /// Whether this connection can take the database's write lock, asked without writing:
    /// `BEGIN IMMEDIATE` then `ROLLBACK` (the health check). Returns the chain head read
    /// under the lock.
    pub fn probe_writable(&self) -> Result<ChainHead> {
        self.conn
            .execute_batch("BEGIN IMMEDIATE")
            .ctx("taking the write lock")?;
        let head = crate::store::chain_head(&self.conn);
        self.conn
            .execute_batch("ROLLBACK")
            .ctx("releasing the write lock")?;
        head
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
        assert_eq!(ledger.probe_writable().unwrap().position, 0);
        // The lock was let go: another connection writes.
        let other = Ledger::open(&db).unwrap();
        other.probe_writable().unwrap();
        ledger.probe_writable().unwrap();
    }
}
