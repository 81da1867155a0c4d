//! Backups a club can restore: a copy of the live ledger with its key, audited; and a copy put
//! back only over a ledger it continues.
//!
//! The command line (`backup`, `restore`) and the server's schedule (`serve --backup-dir`)
//! both come here, so a copy taken by hand and one taken at night are made, checked and named
//! alike. A copy is SQLite's online backup of one moment of the ledger
//! ([`ledger::Ledger::backup_to`]) while the server goes on writing; it is then audited as
//! `audit` would (the hash chain, settlements, projections, and every event decided again),
//! because a copy nobody has checked is a hope, not a backup. The signing key is copied beside
//! it: the events restore without it, but the ledger could then no longer sign checkpoints as
//! itself.

use std::fs::File;
use std::path::{Path, PathBuf};

use ledger::backup::Copied;
use ledger::signing::{key_path, LedgerKey};
use ledger::{AuditReport, ChainHead, Ledger};

/// What the audit of a copy found.
pub struct Audited {
    pub report: AuditReport,
    /// Events the service would have refused (`redecide`).
    pub refused: Vec<String>,
}

impl Audited {
    /// Audits the ledger at `path` as `audit` does, reading only.
    pub fn of(path: &Path) -> ledger::Result<Audited> {
        let ledger = readmodel::open_reader(path)?;
        Audited::ledger(&ledger)
    }

    fn ledger(ledger: &Ledger) -> ledger::Result<Audited> {
        Ok(Audited {
            report: ledger.audit()?,
            refused: super::redecide::audit(ledger)?,
        })
    }

    pub fn is_clean(&self) -> bool {
        self.report.is_clean() && self.refused.is_empty()
    }

    /// The audit's report, as `audit` prints it.
    pub fn describe(&self) -> String {
        format!(
            "{}\n{}",
            self.report,
            super::redecide::report(&self.refused)
        )
    }
}

/// What became of the signing key.
#[derive(Debug, PartialEq, Eq)]
pub enum KeyCopy {
    /// Copied to this file, readable by its owner only.
    Copied(PathBuf),
    /// The ledger has no key file beside it.
    Missing(PathBuf),
    /// Not asked for (`--without-key`).
    Left,
}

impl KeyCopy {
    /// What it means, in a sentence for the one who took the copy.
    pub fn describe(&self) -> String {
        match self {
            KeyCopy::Copied(path) => format!(
                "the signing key is copied to {} (readable by its owner only: keep it as safe as the ledger's own)",
                path.display()
            ),
            KeyCopy::Missing(path) => format!(
                "no signing key was copied: there is none at {}. The events restore without it, but a ledger restored from this copy cannot sign checkpoints as itself: it needs its key file back, or a new key (--new-key), which the audit then shows as a change of key",
                path.display()
            ),
            KeyCopy::Left => "the signing key was not copied (--without-key): keep it safe elsewhere; a ledger restored from this copy without it cannot sign checkpoints as itself".to_owned(),
        }
    }
}

/// A backup taken.
pub struct Taken {
    pub path: PathBuf,
    pub copied: Copied,
    pub key: KeyCopy,
    pub audit: Audited,
}

/// Copies the ledger at `db` to the new file `out` while it may be written, copies its key
/// beside the copy (`<out>.key`) unless `with_key` is false, and audits the copy.
pub fn take(db: &Path, out: &Path, with_key: bool) -> ledger::Result<Taken> {
    let source = Ledger::open_reader(db)?;
    let copied = source.backup_to(out)?;
    drop(source);
    let key = if with_key {
        copy_key(db, out)?
    } else {
        KeyCopy::Left
    };
    let audit = Audited::of(out)?;
    Ok(Taken {
        path: out.to_owned(),
        copied,
        key,
        audit,
    })
}

fn copy_key(db: &Path, out: &Path) -> ledger::Result<KeyCopy> {
    let from = key_path(db);
    if !from.exists() {
        return Ok(KeyCopy::Missing(from));
    }
    let to = key_path(out);
    LedgerKey::load(&from)?.write_new(&to)?;
    Ok(KeyCopy::Copied(to))
}

/// The lock a server holds on its database for as long as it serves it (`<db>.lock`), so that
/// a restore never writes under it and two servers never serve one ledger.
pub struct Serving {
    _file: File,
}

/// Where a database's lock lives: beside it, `<db>.lock`.
pub fn lock_path(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

impl Serving {
    /// Takes the lock on `db` for this process (`who`: `serve`, `restore`), or says who holds
    /// it. The lock file is left in place afterwards (removing it would race with the next one
    /// to take it); the lock itself goes with the process.
    pub fn take(db: &Path, who: &str) -> ledger::Result<Serving> {
        let path = lock_path(db);
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|e| lock_error(&path, format!("cannot open the lock file: {e}")))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                let holder = std::fs::read_to_string(&path).unwrap_or_default();
                let holder = match holder.trim() {
                    "" => "another process",
                    named => named,
                };
                return Err(lock_error(
                    &path,
                    format!(
                        "{} is in use by {holder}: stop it first; nothing was changed",
                        db.display()
                    ),
                ));
            }
            Err(std::fs::TryLockError::Error(e)) => {
                return Err(lock_error(&path, format!("cannot lock: {e}")))
            }
        }
        // Who holds it, for the next one refused.
        use std::io::Write;
        let holder = format!("mahjong-referee {who} (process {})", std::process::id());
        let _ = file
            .set_len(0)
            .and_then(|()| (&file).write_all(holder.as_bytes()));
        Ok(Serving { _file: file })
    }
}

fn lock_error(path: &Path, why: String) -> ledger::Error {
    ledger::Error::Copy {
        path: path.to_owned(),
        why,
    }
}

/// A restore done.
pub struct Restored {
    /// The ledger's head before (position 0 when there was none).
    pub before: ChainHead,
    pub after: Copied,
    /// Where the ledger that was replaced without continuing the copy was kept (`--force`).
    pub kept: Option<PathBuf>,
    pub key: KeyRestore,
    pub audit: Audited,
}

/// What became of the signing key in a restore.
#[derive(Debug, PartialEq, Eq)]
pub enum KeyRestore {
    /// The backup's key was put beside the database.
    Restored(PathBuf),
    /// The database's key is the backup's already.
    Same,
    /// The backup has no key; the database's own (if any) stays.
    NoneInBackup { kept: bool },
    /// The database had another key, kept aside here, replaced by the backup's (`--force`).
    Replaced { kept: PathBuf },
}

impl KeyRestore {
    pub fn describe(&self, db: &Path) -> String {
        let key = key_path(db);
        match self {
            KeyRestore::Restored(path) => {
                format!("the signing key is restored to {}", path.display())
            }
            KeyRestore::Same => format!("the signing key at {} is the backup's", key.display()),
            KeyRestore::NoneInBackup { kept: true } => format!(
                "the backup holds no signing key; the one at {} stays",
                key.display()
            ),
            KeyRestore::NoneInBackup { kept: false } => format!(
                "the backup holds no signing key and there is none at {}: put the ledger's key file there before signing checkpoints, or start a new key with --new-key (the audit shows the change)",
                key.display()
            ),
            KeyRestore::Replaced { kept } => format!(
                "the signing key at {} is the backup's; the one it replaced is kept at {}",
                key.display(),
                kept.display()
            ),
        }
    }
}

/// Puts the backup at `backup` (with its key, `<backup>.key`, when there is one) in place of
/// the ledger at `db`. Refused when the backup does not audit clean, when a server holds `db`,
/// and — unless `force` — when `db` holds events the backup does not (its chain is not a
/// prefix of the backup's) or another signing key. Forced, the ledger replaced is first copied
/// aside (`<db>.before-restore-<time>`), and so is its key.
pub fn restore(backup: &Path, db: &Path, force: bool) -> ledger::Result<Restored> {
    let refuse = |why: String| ledger::Error::Copy {
        path: db.to_owned(),
        why,
    };
    let source = readmodel::open_reader(backup)?;
    let checked = Audited::ledger(&source)?;
    if !checked.is_clean() {
        return Err(ledger::Error::Copy {
            path: backup.to_owned(),
            why: format!(
                "does not audit clean, so it is not restored; nothing was changed:\n{}",
                checked.describe()
            ),
        });
    }
    let _serving = Serving::take(db, "restore")?;
    let stamp = chrono::Utc::now().format("%Y%m%dT%H%M%SZ").to_string();
    let mut kept = None;
    let before = if db.exists() {
        let existing = Ledger::open_existing(db)?;
        let before = existing.head()?;
        if !source.passes_through(before)? {
            if !force {
                let backup_head = source.head()?;
                let why = if before.position > backup_head.position {
                    format!(
                        "holds {} event(s) the backup lacks (it is at position {}, the backup at {}): restoring would lose them; nothing was changed (--force replaces it, keeping it aside)",
                        before.position - backup_head.position,
                        before.position,
                        backup_head.position
                    )
                } else {
                    format!(
                        "is not an earlier state of the backup's ledger: at position {} its chain hash is {}, which the backup's chain does not pass through. Restoring would replace another history; nothing was changed (--force replaces it, keeping it aside)",
                        before.position, before.chain_hash
                    )
                };
                return Err(refuse(why));
            }
            let aside = suffixed(db, &format!(".before-restore-{stamp}"));
            existing.backup_to(&aside)?;
            kept = Some(aside);
        }
        before
    } else {
        ChainHead {
            position: 0,
            chain_hash: ledger::Hash::ZERO,
        }
    };
    let key = restore_key(backup, db, force, &stamp)?;
    drop(source);
    let after = ledger::backup::restore(backup, db)?;
    // Opened as the server opens it: write-ahead logging back on, projections as this build
    // keeps them; then audited as the copy was.
    let restored = readmodel::open_existing(db)?;
    let audit = Audited::ledger(&restored)?;
    Ok(Restored {
        before,
        after,
        kept,
        key,
        audit,
    })
}

fn restore_key(backup: &Path, db: &Path, force: bool, stamp: &str) -> ledger::Result<KeyRestore> {
    let from = key_path(backup);
    let to = key_path(db);
    if !from.exists() {
        return Ok(KeyRestore::NoneInBackup { kept: to.exists() });
    }
    let key = LedgerKey::load(&from)?;
    if !to.exists() {
        key.write_new(&to)?;
        return Ok(KeyRestore::Restored(to));
    }
    let present = LedgerKey::load(&to)?;
    if present.public_hex() == key.public_hex() {
        return Ok(KeyRestore::Same);
    }
    if !force {
        return Err(ledger::Error::Copy {
            path: to,
            why: format!(
                "holds key {}, the backup's is {}: restoring would replace the ledger's key; nothing was changed (--force replaces it, keeping the present one aside)",
                present.public_hex(),
                key.public_hex()
            ),
        });
    }
    let aside = suffixed(&to, &format!(".before-restore-{stamp}"));
    std::fs::rename(&to, &aside).map_err(|e| ledger::Error::Copy {
        path: to.clone(),
        why: format!("cannot move it aside to {}: {e}", aside.display()),
    })?;
    key.write_new(&to)?;
    Ok(KeyRestore::Replaced { kept: aside })
}

fn suffixed(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// The name of a scheduled copy: when it was taken and the head it holds, so a folder of
/// copies sorts by time and says which ledger state each one is
/// (`ledger-20261128T190000Z-p12345-0123abcd.db`).
pub fn scheduled_name(at: chrono::DateTime<chrono::Utc>, head: ChainHead) -> String {
    let hash = head.chain_hash.to_hex();
    format!(
        "ledger-{}-p{}-{}.db",
        at.format("%Y%m%dT%H%M%SZ"),
        head.position,
        &hash[..8]
    )
}

/// The scheduled copies in `dir`, oldest first (by name, which begins with the time).
pub fn scheduled_copies(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut copies: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("ledger-") && n.ends_with(".db"))
        })
        .collect();
    copies.sort();
    Ok(copies)
}

/// The chain head a scheduled copy's name says it holds (`…-p<position>-<hash prefix>.db`):
/// its position and the first eight digits of its chain hash.
pub fn named_head(copy: &Path) -> Option<(u64, String)> {
    let stem = copy.file_stem()?.to_str()?;
    let mut parts = stem.rsplitn(3, '-');
    let hash = parts.next()?;
    let position = parts.next()?.strip_prefix('p')?.parse().ok()?;
    Some((position, hash.to_owned()))
}
