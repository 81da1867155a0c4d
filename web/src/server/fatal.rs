//! A database changed under the running server: stop with a clear word, not a crash.
//!
//! SQLite keeps the write-ahead log's index in `<db>-shm`, a file it maps into memory. If that
//! file is truncated, replaced or made unwritable while the server runs, the next access to the
//! mapping is answered by the kernel with SIGBUS, which kills the process without a word ("Bus
//! error"). Nothing can be served from a database in that state, so the server stops — but it
//! says why on standard error and exits with a status of its own ([`EXIT_STATUS`]). Nothing
//! half-written stays: a transaction that was not committed is not in the log, and SQLite
//! rebuilds the index from the log when the server starts again.

/// The exit status when the database was changed under the server (EX_IOERR).
pub const EXIT_STATUS: i32 = 74;

#[cfg(unix)]
extern "C" fn on_sigbus(_: libc::c_int) {
    const MESSAGE: &[u8] = b"mahjong-referee: the database's shared-memory file (<db>-shm) was truncated, replaced or made unwritable under the running server: stopping. No uncommitted write is kept; start the server again to recover from the write-ahead log.\n";
    // Only async-signal-safe calls here: write(2) and _exit(2).
    // SAFETY: MESSAGE is a valid buffer of its length; both calls are async-signal-safe.
    unsafe {
        libc::write(2, MESSAGE.as_ptr().cast(), MESSAGE.len());
        libc::_exit(EXIT_STATUS);
    }
}

/// Installs the handler that turns SIGBUS into the message and exit above.
pub fn stop_cleanly_on_sigbus() {
    #[cfg(unix)]
    // SAFETY: the action is zeroed and then filled as sigaction(2) expects; the handler does
    // only async-signal-safe work.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_sigbus as extern "C" fn(libc::c_int) as usize;
        libc::sigemptyset(&mut action.sa_mask);
        if libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut()) != 0 {
            tracing::warn!("cannot install the SIGBUS handler: a database changed under the server would end it without a word");
        }
    }
}
