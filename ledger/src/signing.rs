//! The ledger's own key, signed checkpoints of its chain head, and signed exports.
//!
//! The hash chain makes an edit, an insertion or a deletion anywhere visible — to anyone who
//! holds an earlier head. Whoever holds the database file can still rewrite the whole history
//! and every hash after it; only a head kept *outside* the file catches that. So a ledger has an
//! Ed25519 key of its own ([`LedgerKey`], created on first run in a file beside the database,
//! `<db>.key`, never inside it, so a copy of the database handed to an auditor cannot sign as
//! the ledger), and signs **checkpoints** of its chain head: position, chain hash, when, and
//! the public key, so that anyone can check a printed or e-mailed head came from this ledger
//! and that the chain still passes through it (`audit --expect-head FILE`). Each checkpoint is
//! also recorded as an event (`checkpoint_signed`, stream `ledger:checkpoints`), so the audit
//! lists them and checks each one's signature and that the chain passes through it.
//!
//! An **export** of a stream ends with a signature over the stream's last hash, which links to
//! every event before it; `import` checks it and says whose ledger the stream came from.

use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

use ed25519_dalek::{Signature, Signer, SigningKey, Verifier, VerifyingKey};
use rusqlite::Connection;
use serde::{Deserialize, Serialize};

use crate::discrepancy::Discrepancy;
use crate::error::{Error, Result, SqlContext};
use crate::event::Event;
pub use crate::event::{Checkpoint, CheckpointSigned};
use crate::hash::Hash;
use crate::head::{ChainHead, ExpectedVersion};
use crate::ids::{OfficialId, StreamId, StreamKind};
use crate::read::stream_events;
use crate::store::{Ledger, NewEvent};

/// The stream the checkpoints are recorded in.
pub fn checkpoints_stream() -> StreamId {
    StreamId::new(StreamKind::Ledger, "checkpoints").unwrap_or_else(|_| unreachable!())
}

/// Where a database's key lives: beside it, `<db>.key`.
pub fn key_path(db: &Path) -> PathBuf {
    crate::beside(db, ".key")
}

/// A ledger's signing key.
pub struct LedgerKey {
    key: SigningKey,
}

impl fmt::Debug for LedgerKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never the secret.
        write!(f, "LedgerKey({})", self.public_hex())
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex<const N: usize>(s: &str) -> Option<[u8; N]> {
    let s = s.trim();
    if s.len() != 2 * N || !s.is_ascii() {
        return None;
    }
    let mut out = [0u8; N];
    for (i, b) in out.iter_mut().enumerate() {
        *b = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(out)
}

fn key_error(path: &Path, what: impl fmt::Display) -> Error {
    Error::Key(format!("{}: {what}", path.display()))
}

impl LedgerKey {
    /// The key of the database at `db`, created (and written to `<db>.key`, readable by its
    /// owner only) when there is none.
    pub fn load_or_create(db: &Path) -> Result<LedgerKey> {
        let path = key_path(db);
        if path.exists() {
            return LedgerKey::load(&path);
        }
        let key = LedgerKey {
            key: SigningKey::from_bytes(&rand::random::<[u8; 32]>()),
        };
        key.write_new(&path)?;
        Ok(key)
    }

    /// Writes this key to the new file `path`, readable by its owner only (a backup's copy of
    /// the key, or a new ledger's); an existing file is never overwritten.
    pub fn write_new(&self, path: &Path) -> Result<()> {
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        let mut file = options
            .open(path)
            .map_err(|e| key_error(path, format!("cannot create the ledger's key: {e}")))?;
        writeln!(file, "{}", hex(&self.key.to_bytes()))
            .and_then(|()| file.sync_all())
            .map_err(|e| key_error(path, format!("cannot write the ledger's key: {e}")))
    }

    /// The key of `ledger` (the database at `db`), checked against the checkpoints it has
    /// signed. A key is made only for a ledger that has signed none; when the key file is
    /// missing, or holds another key than the one the last checkpoint was signed with, the key
    /// was lost or replaced, and that is said rather than papered over with a fresh key: the
    /// caller must restore the file, or be told (`replace`) to go on with the key the file holds
    /// or a new one — the audit then shows which key signed which checkpoint.
    pub fn for_ledger(ledger: &Ledger, db: &Path, replace: bool) -> Result<LedgerKey> {
        let last = ledger.checkpoints()?.pop().map(|c| c.ledger);
        let path = key_path(db);
        let Some(last) = last.filter(|_| !replace) else {
            return LedgerKey::load_or_create(db);
        };
        if !path.exists() {
            return Err(key_error(
                &path,
                format!(
                    "the ledger's key is missing, but its checkpoints are signed with key {last}: restore the key file, or, if it is lost, start a new key with --new-key (checkpoints from then on are signed with it, and the audit shows the change)"
                ),
            ));
        }
        let key = LedgerKey::load(&path)?;
        if key.public_hex() != last {
            return Err(key_error(
                &path,
                format!(
                    "holds key {}, but the ledger's last checkpoint is signed with key {last}: the key was replaced. Restore the ledger's own key file, or go on with this one with --new-key (the audit shows the change)",
                    key.public_hex()
                ),
            ));
        }
        Ok(key)
    }

    /// Reads a key file (64 hexadecimal digits).
    pub fn load(path: &Path) -> Result<LedgerKey> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| key_error(path, format!("cannot read the ledger's key: {e}")))?;
        let seed = unhex::<32>(&text).ok_or_else(|| {
            key_error(
                path,
                "is not a ledger key (64 hexadecimal digits on one line)",
            )
        })?;
        Ok(LedgerKey {
            key: SigningKey::from_bytes(&seed),
        })
    }

    /// The public key, in hexadecimal: the ledger's name for whoever checks its signatures.
    pub fn public_hex(&self) -> String {
        hex(self.key.verifying_key().as_bytes())
    }

    fn sign(&self, message: &str) -> String {
        hex(&self.key.sign(message.as_bytes()).to_bytes())
    }

    /// The key to one seat's own view of a hand (what that player may see of it, Code §27),
    /// for a link the scorer hands the player: the ledger's signature over the hand and the
    /// seat, cut to 128 bits. Ed25519 signs deterministically, so the same hand and seat always
    /// give the same key, nobody without the ledger's key can make one, and nothing is stored.
    pub fn seat_view_key(&self, hand: &str, seat: &str) -> String {
        let mut sig = self.sign(&format!(
            "mahjong-referee seat view v1\nhand {hand}\nseat {seat}\n"
        ));
        sig.truncate(32);
        sig
    }

    /// Whether `key` opens `seat`'s view of `hand` (compared in constant time).
    pub fn opens_seat_view(&self, hand: &str, seat: &str, key: &str) -> bool {
        use subtle::ConstantTimeEq;
        bool::from(
            self.seat_view_key(hand, seat)
                .as_bytes()
                .ct_eq(key.as_bytes()),
        )
    }
}

/// Checks `signature` (hex) over `message` by public key `ledger` (hex).
fn verify(ledger: &str, message: &str, signature: &str) -> std::result::Result<(), String> {
    let key = unhex::<32>(ledger)
        .and_then(|k| VerifyingKey::from_bytes(&k).ok())
        .ok_or_else(|| format!("`{ledger}` is not an Ed25519 public key"))?;
    let sig = unhex::<64>(signature)
        .map(|s| Signature::from_bytes(&s))
        .ok_or_else(|| "the signature is not 128 hexadecimal digits".to_owned())?;
    key.verify(message.as_bytes(), &sig).map_err(|_| {
        "the signature does not match (not signed by that ledger, or altered since)".to_owned()
    })
}

impl Checkpoint {
    /// The exact bytes signed.
    pub fn message(ledger: &str, position: u64, chain_hash: &str, signed_at: &str) -> String {
        format!(
            "mahjong-referee checkpoint v1\nledger {ledger}\nposition {position}\nchain {chain_hash}\nsigned {signed_at}\n"
        )
    }

    /// Signs `head` with `key`.
    pub fn sign(key: &LedgerKey, head: ChainHead) -> Checkpoint {
        let ledger = key.public_hex();
        let chain_hash = head.chain_hash.to_hex();
        let signed_at = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
        let signature = key.sign(&Checkpoint::message(
            &ledger,
            head.position,
            &chain_hash,
            &signed_at,
        ));
        Checkpoint {
            ledger,
            position: head.position,
            chain_hash,
            signed_at,
            signature,
        }
    }

    /// Checks the signature; answers the head it vouches for.
    pub fn verify(&self) -> std::result::Result<ChainHead, String> {
        let chain_hash: Hash = self.chain_hash.parse().map_err(|e| format!("{e}"))?;
        verify(
            &self.ledger,
            &Checkpoint::message(
                &self.ledger,
                self.position,
                &self.chain_hash,
                &self.signed_at,
            ),
            &self.signature,
        )?;
        Ok(ChainHead {
            position: self.position,
            chain_hash,
        })
    }

    /// Reads a checkpoint file (its JSON), checking the signature.
    pub fn read(text: &str) -> std::result::Result<(Checkpoint, ChainHead), String> {
        let c: Checkpoint =
            serde_json::from_str(text.trim()).map_err(|e| format!("not a checkpoint: {e}"))?;
        let head = c.verify()?;
        Ok((c, head))
    }
}

/// The signature an export ends with: over the stream's last event hash.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportSignature {
    pub ledger: String,
    pub stream: String,
    pub version: u64,
    pub hash: String,
    pub signature: String,
}

impl ExportSignature {
    fn message(ledger: &str, stream: &str, version: u64, hash: &str) -> String {
        format!(
            "mahjong-referee export v1\nledger {ledger}\nstream {stream}\nversion {version}\nhash {hash}\n"
        )
    }

    /// Signs the export of `stream` up to `version`, whose last event hash is `hash`.
    pub fn sign(key: &LedgerKey, stream: &str, version: u64, hash: Hash) -> ExportSignature {
        let ledger = key.public_hex();
        let hash = hash.to_hex();
        let signature = key.sign(&ExportSignature::message(&ledger, stream, version, &hash));
        ExportSignature {
            ledger,
            stream: stream.to_owned(),
            version,
            hash,
            signature,
        }
    }

    /// Checks the signature.
    pub fn verify(&self) -> std::result::Result<(), String> {
        verify(
            &self.ledger,
            &ExportSignature::message(&self.ledger, &self.stream, self.version, &self.hash),
            &self.signature,
        )
    }
}

/// The line an export's signature is written as: `{"signed": {...}}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SignatureLine {
    pub signed: ExportSignature,
}

impl Ledger {
    /// Signs a checkpoint of the chain head now with `key` and records it (`checkpoint_signed`
    /// in `ledger:checkpoints`, recorded by `by`); answers the checkpoint. The checkpoint is of
    /// the head before its own event.
    pub fn sign_checkpoint(&mut self, key: &LedgerKey, by: &OfficialId) -> Result<Checkpoint> {
        let checkpoint = Checkpoint::sign(key, self.head()?);
        self.append(
            &checkpoints_stream(),
            ExpectedVersion::Any,
            vec![NewEvent::new(checkpoint.clone())],
            by,
        )?;
        Ok(checkpoint)
    }

    /// The checkpoints recorded, oldest first.
    pub fn checkpoints(&self) -> Result<Vec<Checkpoint>> {
        Ok(recorded(&self.conn)?.into_iter().map(|(_, c)| c).collect())
    }
}

/// The checkpoints recorded in `conn`, with their versions in the stream.
fn recorded(conn: &Connection) -> Result<Vec<(u64, Checkpoint)>> {
    Ok(stream_events(conn, &checkpoints_stream())?
        .into_iter()
        .filter_map(|(v, e)| match e {
            Ok(Event::CheckpointSigned(c)) => Some((v, c)),
            _ => None,
        })
        .collect())
}

/// The audit's checks of the recorded checkpoints: each signature, and that the chain passes
/// through each head (the chain hash stored at its position, which the audit verifies).
pub(crate) fn check(conn: &Connection) -> Result<Vec<Discrepancy>> {
    let mut out = Vec::new();
    for (version, c) in recorded(conn)? {
        let mut problem = |what: String| {
            out.push(Discrepancy {
                position: None,
                stream: Some(checkpoints_stream().as_str().to_owned()),
                version: Some(version),
                what,
            })
        };
        let head = match c.verify() {
            Ok(h) => h,
            Err(e) => {
                problem(format!("checkpoint of position {}: {e}", c.position));
                continue;
            }
        };
        let stored: Option<Vec<u8>> = conn
            .query_row(
                "SELECT chain_hash FROM events WHERE position = ?1",
                [head.position as i64],
                |r| r.get(0),
            )
            .map(Some)
            .or_else(|e| match e {
                rusqlite::Error::QueryReturnedNoRows => Ok(None),
                e => Err(e),
            })
            .ctx("reading a checkpoint's position")?;
        let passes = match stored {
            Some(bytes) => Hash::from_slice(&bytes) == Some(head.chain_hash),
            None => head.position == 0 && head.chain_hash == Hash::ZERO,
        };
        if !passes {
            problem(format!(
                "the chain no longer passes through the checkpoint signed at {} (position {}, chain hash {}): the history before it was rewritten",
                c.signed_at, c.position, c.chain_hash
            ));
        }
    }
    Ok(out)
}
