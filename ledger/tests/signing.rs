//! The ledger's key, signed checkpoints of its chain head, and signed exports: a checkpoint
//! verifies and is listed; a forged or altered one is named; an export carries its ledger's
//! signature and an import checks it.

use ledger::signing::{key_path, Checkpoint, LedgerKey};
use ledger::{ChainHead, Hash, Ledger, NewEvent, StreamId};

use crate::util::*;

fn ledger_with_history(dir: &TempDir) -> Ledger {
    let mut ledger = Ledger::open(dir.db()).unwrap();
    set_up_tournament(&mut ledger);
    ledger
}

#[test]
fn a_ledgers_key_is_made_once_beside_it_and_read_back() {
    let dir = TempDir::new("key");
    let a = LedgerKey::load_or_create(&dir.db()).unwrap();
    let b = LedgerKey::load_or_create(&dir.db()).unwrap();
    assert_eq!(a.public_hex(), b.public_hex());
    assert_eq!(a.public_hex().len(), 64);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(key_path(&dir.db()))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "readable by its owner only");
    }
    // The secret is never shown.
    let secret = std::fs::read_to_string(key_path(&dir.db())).unwrap();
    assert!(!format!("{a:?}").contains(secret.trim()));
    std::fs::write(key_path(&dir.db()), "not a key").unwrap();
    let err = LedgerKey::load_or_create(&dir.db())
        .unwrap_err()
        .to_string();
    assert!(err.contains("is not a ledger key"), "{err}");
}

#[test]
fn a_signed_checkpoint_verifies_is_recorded_and_audits_clean() {
    let dir = TempDir::new("checkpoint");
    let mut ledger = ledger_with_history(&dir);
    let key = LedgerKey::load_or_create(&dir.db()).unwrap();
    let head = ledger.head().unwrap();
    let c = ledger.sign_checkpoint(&key, &referee()).unwrap();
    assert_eq!(c.position, head.position);
    assert_eq!(c.ledger, key.public_hex());
    assert_eq!(c.verify().unwrap(), head);
    assert_eq!(ledger.checkpoints().unwrap(), vec![c.clone()]);
    assert!(ledger.audit().unwrap().is_clean());
    // A checkpoint file reads back; one altered is refused.
    let text = serde_json::to_string(&c).unwrap();
    assert_eq!(Checkpoint::read(&text).unwrap().1, head);
    let altered = text.replace(
        &format!("\"position\":{}", c.position),
        &format!("\"position\":{}", c.position + 1),
    );
    let err = Checkpoint::read(&altered).unwrap_err();
    assert!(err.contains("does not match"), "{err}");
    // Another ledger's history does not pass through it.
    let other_dir = TempDir::new("checkpoint-other");
    let mut other = Ledger::open(other_dir.db()).unwrap();
    set_up_tournament(&mut other);
    assert_eq!(other.head().unwrap().position, head.position);
    let report = other.audit_with(&[head]).unwrap();
    assert!(
        !report.is_clean(),
        "a rewritten history of the same length is caught"
    );
}

#[test]
fn a_recorded_checkpoint_the_chain_does_not_pass_through_is_named() {
    let dir = TempDir::new("checkpoint-forged");
    let mut ledger = ledger_with_history(&dir);
    let key = LedgerKey::load_or_create(&dir.db()).unwrap();
    let forged = Checkpoint::sign(
        &key,
        ChainHead {
            position: 1,
            chain_hash: Hash([7; 32]),
        },
    );
    ledger
        .append(
            &ledger::signing::checkpoints_stream(),
            ledger::ExpectedVersion::Any,
            vec![NewEvent::new(forged)],
            &referee(),
        )
        .unwrap();
    let found: Vec<String> = ledger
        .audit()
        .unwrap()
        .discrepancies
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].contains("no longer passes through the checkpoint"),
        "{found:?}"
    );
}

#[test]
fn a_signed_export_names_its_ledger_on_import_and_a_bad_signature_is_refused() {
    let dir = TempDir::new("export-signed");
    let ledger = ledger_with_history(&dir);
    let key = LedgerKey::load_or_create(&dir.db()).unwrap();
    let stream: StreamId = tournament();
    let mut out = Vec::new();
    ledger
        .export_stream_signed(&stream, Some(&key), &mut out)
        .unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.lines().last().unwrap().starts_with("{\"signed\""));

    let target_dir = TempDir::new("export-signed-target");
    let mut target = Ledger::open(target_dir.db()).unwrap();
    let report = target.import(text.as_bytes()).unwrap();
    assert_eq!(report.signed_by, vec![(stream.clone(), key.public_hex())]);

    // The signature altered: refused, nothing imported.
    let lines: Vec<&str> = text.lines().collect();
    let last = lines.len();
    let sig_line = lines[last - 1];
    let pos = sig_line.find("\"signature\":\"").unwrap() + 13;
    let flipped = if &sig_line[pos..pos + 1] == "0" {
        "1"
    } else {
        "0"
    };
    let bad = format!(
        "{}\n{}{}{}\n",
        lines[..last - 1].join("\n"),
        &sig_line[..pos],
        flipped,
        &sig_line[pos + 1..]
    );
    let fresh_dir = TempDir::new("export-signed-bad");
    let mut fresh = Ledger::open(fresh_dir.db()).unwrap();
    let err = fresh.import(bad.as_bytes()).unwrap_err().to_string();
    assert!(err.contains(&format!("line {last}")), "{err}");
    assert!(err.contains("does not match"), "{err}");
    assert_eq!(fresh.head().unwrap().position, 0);

    // A signature that does not cover the stream's last line: refused.
    let partial = format!("{}\n{}\n", lines[0], sig_line);
    let err = fresh.import(partial.as_bytes()).unwrap_err().to_string();
    assert!(err.contains("not the stream's last line"), "{err}");
    // Unsigned, as before: imported, and said to be unsigned.
    let plain = lines[..last - 1].join("\n");
    let report = fresh.import(plain.as_bytes()).unwrap();
    assert!(report.signed_by.is_empty());
}
