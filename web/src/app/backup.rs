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

use std::path::{Path, PathBuf};

use ledger::backup::Copied;
use ledger::signing::{key_path, LedgerKey};
use ledger::{ChainHead, Ledger};

pub use super::audit::{Audited, Checked, Depth};

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

/// Where a backup goes.
#[derive(Clone, Copy, Debug)]
pub enum Target<'a> {
    /// This new file (never one that exists).
    File(&'a Path),
    /// This folder, under a name made of the copy's time and chain head
    /// ([`scheduled_name`]); a copy that does not audit clean is named `damaged-…`, so that it
    /// is never taken for a good one nor counted among the copies kept.
    Folder(&'a Path),
}

/// A backup taken.
pub struct Taken {
    pub path: PathBuf,
    pub copied: Copied,
    pub key: KeyCopy,
    pub audit: Checked,
}

/// Copies the ledger at `db` while it may be written, checks the copy to `depth` before it
/// takes its name, and puts its key beside it (`<copy>.key`) unless `with_key` is false; then the copy
/// takes its name. A copy that does not audit clean is still kept (it is the ledger as it is,
/// damage and all) under its name (`Target::File`) or as `damaged-…` (`Target::Folder`).
pub fn take(db: &Path, target: Target<'_>, with_key: bool, depth: Depth) -> ledger::Result<Taken> {
    let partial_at = match target {
        Target::File(out) => {
            if out.exists() {
                return Err(ledger::Error::Copy {
                    path: out.to_owned(),
                    why: "already exists: a backup is never written over another file".into(),
                });
            }
            ledger::backup::partial_path(out)
        }
        Target::Folder(dir) => dir.join(format!(
            "copying-{}-{}.db.partial",
            std::process::id(),
            rand::random::<u32>()
        )),
    };
    let source = Ledger::open_reader(db)?;
    let partial = source.copy_to(&partial_at)?;
    drop(source);
    let copied = partial.copied();
    let audit = Checked::of(partial.path(), depth)?;
    let out = match target {
        Target::File(out) => out.to_owned(),
        Target::Folder(dir) => {
            let name = scheduled_name(chrono::Utc::now(), copied.head);
            dir.join(if audit.is_clean() {
                name
            } else {
                format!("damaged-{name}")
            })
        }
    };
    // The key first: a copy under its name always has its key beside it.
    let key = if with_key {
        copy_key(db, &out)?
    } else {
        KeyCopy::Left
    };
    partial.place(&out)?;
    Ok(Taken {
        path: out,
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

/// A restore done.
pub struct Restored {
    /// The ledger's head before (position 0 when there was none, or it could not be read).
    pub before: ChainHead,
    pub after: Copied,
    /// Where the ledger that was replaced without the backup continuing it was kept
    /// (`--force`), with its log and shared-memory files beside it as they were.
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
    /// The backup has no key, and the database's own (if any) is the one of the ledger that
    /// the backup continues: it stays.
    NoneInBackup { kept: bool },
    /// The backup has no key, and the key beside the database belonged to the ledger that
    /// was replaced (`--force`): it was moved aside with it.
    NoneInBackupOldMovedAside { kept: PathBuf },
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
                "the backup holds no signing key; the one at {} stays (it is the key of the ledger the backup continues)",
                key.display()
            ),
            KeyRestore::NoneInBackup { kept: false } => no_key(&key, ""),
            KeyRestore::NoneInBackupOldMovedAside { kept } => no_key(
                &key,
                &format!(" (the replaced ledger's key is kept at {})", kept.display()),
            ),
            KeyRestore::Replaced { kept } => format!(
                "the signing key at {} is the backup's; the one it replaced is kept at {}",
                key.display(),
                kept.display()
            ),
        }
    }
}

/// Says that neither the backup nor the database has a key for the restored ledger.
fn no_key(key: &Path, aside: &str) -> String {
    format!(
        "the backup holds no signing key and there is none at {}{aside}: put the restored ledger's own key file there before signing checkpoints, or start a new key with --new-key (the audit shows the change)",
        key.display()
    )
}

/// Puts the backup at `backup` (with its key, `<backup>.key`, when there is one) in place of
/// the ledger at `db`.
///
/// The backup is first copied to a working file beside `db`, opened as this program opens a
/// ledger (a backup from an earlier release is migrated) and audited: refused unless clean.
/// Then, holding `db`'s lock alone (refused while a server or a command has it open for
/// writing, and keeping them off until it is done), the ledger at `db` must be an earlier
/// state of the backup's (its head on the backup's chain) unless `force`; forced, or when it
/// cannot even be read, it is moved aside (`<db>.before-restore-<time>`, with its log and
/// shared-memory files) — refused unless `force` in that case too. Only then is the copy put
/// in place, and then its key. The result is audited again.
pub fn restore(backup: &Path, db: &Path, force: bool) -> ledger::Result<Restored> {
    let refuse = |why: String| ledger::Error::Copy {
        path: db.to_owned(),
        why,
    };
    if db.exists() && same_file(backup, db) {
        return Err(refuse(
            "is the backup itself: nothing to restore; nothing was changed".into(),
        ));
    }
    let working = Working::new(db);
    ledger::backup::restore(backup, working.path())?;
    // Opened as this program opens a ledger (an earlier release's is migrated), then audited.
    let backup_head = readmodel::open_existing(working.path())?.head()?;
    let checked = Audited::of(working.path())?;
    if !checked.is_clean() {
        return Err(ledger::Error::Copy {
            path: backup.to_owned(),
            why: format!(
                "does not audit clean, so it is not restored; nothing was changed:\n{}",
                checked.describe()
            ),
        });
    }
    let stamp = chrono::Utc::now().format("%Y%m%dT%H%M%SZ").to_string();
    let alone = ledger::lock::exclusive(db)?;
    let mut kept = None;
    let before = if db.exists() {
        let continues = match ledger::backup::head_of(db) {
            Ok(before) => {
                let opened = Ledger::open_reader(working.path())?;
                Ok((before, opened.passes_through(before)?))
            }
            Err(e) => Err(e),
        };
        match continues {
            Ok((before, true)) => before,
            Ok((before, false)) if !force => {
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
            Err(e) if !force => {
                return Err(refuse(format!(
                    "cannot be read as a ledger ({e}); nothing was changed (--force replaces it, keeping it aside as it is)"
                )))
            }
            Ok((before, false)) => {
                kept = Some(move_aside(db, &stamp)?);
                before
            }
            Err(_) => {
                kept = Some(move_aside(db, &stamp)?);
                empty_head()
            }
        }
    } else {
        empty_head()
    };
    // Unforced, nothing has changed yet: a key that would be replaced refuses it still.
    if !force {
        if let Some(why) = key_conflict(backup, db)? {
            return Err(refuse(why));
        }
    }
    let after = ledger::backup::restore(working.path(), db)?;
    let key = restore_key(backup, db, force, kept.is_some(), &stamp)?;
    drop(alone);
    drop(working);
    drop(readmodel::open_existing(db)?);
    let audit = Audited::of(db)?;
    Ok(Restored {
        before,
        after,
        kept,
        key,
        audit,
    })
}

fn empty_head() -> ChainHead {
    ChainHead {
        position: 0,
        chain_hash: ledger::Hash::ZERO,
    }
}

/// Whether two paths name one file.
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// The working copy of a backup beside the database it is restored into, removed (with its
/// log, shared memory and lock) when done.
struct Working(PathBuf);

impl Working {
    fn new(db: &Path) -> Working {
        let working = Working(ledger::beside(
            db,
            &format!(".restoring-{}", std::process::id()),
        ));
        working.remove();
        working
    }

    fn path(&self) -> &Path {
        &self.0
    }

    fn remove(&self) {
        for suffix in ["", "-wal", "-shm", "-journal", ".lock"] {
            let _ = std::fs::remove_file(ledger::beside(&self.0, suffix));
        }
    }
}

impl Drop for Working {
    fn drop(&mut self) {
        self.remove();
    }
}

/// Moves the ledger at `db` aside as it is (its log and shared memory with it): the new name.
fn move_aside(db: &Path, stamp: &str) -> ledger::Result<PathBuf> {
    let aside = ledger::beside(db, &format!(".before-restore-{stamp}"));
    for suffix in ["", "-wal", "-shm"] {
        let from = ledger::beside(db, suffix);
        if from.exists() {
            std::fs::rename(&from, ledger::beside(&aside, suffix)).map_err(|e| {
                ledger::Error::Copy {
                    path: from.clone(),
                    why: format!(
                        "cannot move it aside to {}: {e}; nothing was changed",
                        aside.display()
                    ),
                }
            })?;
        }
    }
    Ok(aside)
}

fn restore_key(
    backup: &Path,
    db: &Path,
    force: bool,
    replaced: bool,
    stamp: &str,
) -> ledger::Result<KeyRestore> {
    let from = key_path(backup);
    let to = key_path(db);
    let aside = || -> ledger::Result<PathBuf> {
        let aside = ledger::beside(&to, &format!(".before-restore-{stamp}"));
        std::fs::rename(&to, &aside).map_err(|e| ledger::Error::Copy {
            path: to.clone(),
            why: format!("cannot move it aside to {}: {e}", aside.display()),
        })?;
        Ok(aside)
    };
    if !from.exists() {
        return Ok(if replaced && to.exists() {
            KeyRestore::NoneInBackupOldMovedAside { kept: aside()? }
        } else {
            KeyRestore::NoneInBackup { kept: to.exists() }
        });
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
        // Refused before anything changed (`key_conflict`); said again here should the key
        // file have changed meanwhile, so that a key is never swapped silently.
        return Err(ledger::Error::Copy {
            path: to,
            why: format!(
                "holds key {}, the backup's is {}: the ledger was restored, but its key was left as it is; put the backup's key there ({}) or go on with this one with --new-key",
                present.public_hex(),
                key.public_hex(),
                from.display()
            ),
        });
    }
    let kept = aside()?;
    key.write_new(&to)?;
    Ok(KeyRestore::Replaced { kept })
}

/// Refuses, before anything changes, a restore that would have to replace the database's key
/// with another unless `force`.
fn key_conflict(backup: &Path, db: &Path) -> ledger::Result<Option<String>> {
    // A key file: refusal names it, not the database.
    let (from, to) = (key_path(backup), key_path(db));
    if !from.exists() || !to.exists() {
        return Ok(None);
    }
    let (key, present) = (LedgerKey::load(&from)?, LedgerKey::load(&to)?);
    Ok((key.public_hex() != present.public_hex()).then(|| {
        format!(
            "{} holds key {}, the backup's is {}: restoring would replace the ledger's key; nothing was changed (--force replaces it, keeping the present one aside)",
            to.display(),
            present.public_hex(),
            key.public_hex()
        )
    }))
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

/// The good copies in `dir` (named as [`scheduled_name`] names them), oldest first (by name,
/// which begins with the time).
pub fn scheduled_copies(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut copies: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| named_head(p).is_some() && taken_at(p).is_some())
        .collect();
    copies.sort();
    Ok(copies)
}

/// The chain head a scheduled copy's name says it holds (`ledger-<time>-p<position>-<hash
/// prefix>.db`): its position and the first eight digits of its chain hash.
pub fn named_head(copy: &Path) -> Option<(u64, String)> {
    let name = copy.file_name()?.to_str()?;
    let rest = name.strip_prefix("ledger-")?.strip_suffix(".db")?;
    let mut parts = rest.split('-');
    let (_time, position, hash) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() || hash.len() != 8 || !hash.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let position = position.strip_prefix('p')?.parse().ok()?;
    Some((position, hash.to_owned()))
}

/// The time a scheduled copy's name says it was taken.
pub fn taken_at(copy: &Path) -> Option<std::time::SystemTime> {
    let name = copy.file_name()?.to_str()?;
    let stamp = name.strip_prefix("ledger-")?.get(..16)?;
    let at = chrono::NaiveDateTime::parse_from_str(stamp, "%Y%m%dT%H%M%SZ").ok()?;
    Some(std::time::SystemTime::from(at.and_utc()))
}
