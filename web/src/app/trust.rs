//! Whose records a live ledger takes: the ledgers its administrator trusts, by their keys.
//!
//! An export ends with its ledger's signature (`ledger::signing`), so an import can tell whose
//! record it is. Into a live ledger, a stream the import adds to must be signed by a ledger the
//! administrator named in a trusted-keys file (`import --trust KEYFILE`), or by this ledger
//! itself; an unsigned or otherwise signed stream is refused, unless the administrator says
//! `--unsigned`, which is logged. The trusted-keys file is text: one public key (64
//! hexadecimal digits, as `/audit` and `export` show it) per line, optionally followed by a
//! name for it; blank lines and lines starting with `#` are ignored.

use std::collections::BTreeSet;
use std::path::Path;

use ledger::{ExportedEvent, SignedBy};

/// The keys an import trusts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TrustedKeys {
    keys: Vec<(String, String)>,
}

impl TrustedKeys {
    /// Reads a trusted-keys file, naming each line that is not a key.
    pub fn read(path: &Path) -> Result<TrustedKeys, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("reading the trusted keys {}: {e}", path.display()))?;
        TrustedKeys::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Parses the text of a trusted-keys file.
    pub fn parse(text: &str) -> Result<TrustedKeys, String> {
        let mut keys = Vec::new();
        let mut problems = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (key, name) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
            if key.len() != 64 || !key.bytes().all(|b| b.is_ascii_hexdigit()) {
                problems.push(format!(
                    "line {}: `{}` is not a ledger's public key (64 hexadecimal digits)",
                    n + 1,
                    key.chars().take(80).collect::<String>()
                ));
                continue;
            }
            keys.push((key.to_ascii_lowercase(), name.trim().to_owned()));
        }
        if problems.is_empty() {
            Ok(TrustedKeys { keys })
        } else {
            Err(problems.join("; "))
        }
    }

    /// These keys and `key` (this ledger's own).
    pub fn with_own(mut self, key: String) -> TrustedKeys {
        self.keys.push((key, "this ledger".to_owned()));
        self
    }

    fn trusts(&self, key: &str) -> bool {
        self.keys.iter().any(|(k, _)| k == key)
    }
}

/// Every stream `fresh` adds to that is not signed by a trusted ledger, each as "line N: why".
pub fn unsigned(
    fresh: &[&ExportedEvent],
    signed: &[SignedBy],
    trusted: &TrustedKeys,
) -> Vec<String> {
    let mut seen = BTreeSet::new();
    let mut problems = Vec::new();
    for e in fresh {
        if !seen.insert(&e.stream) {
            continue;
        }
        match signed.iter().find(|(s, _)| s == &e.stream) {
            None => problems.push(format!(
                "line {}: {} is not signed: a live ledger takes only streams signed by a ledger it trusts (name its key in the file given with --trust, or import unsigned with --unsigned)",
                e.line, e.stream
            )),
            Some((_, key)) if !trusted.trusts(key) => problems.push(format!(
                "line {}: {} is signed by ledger {key}, which is not among the trusted keys",
                e.line, e.stream
            )),
            Some(_) => {}
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_keys_file_names_each_line_that_is_not_a_key() {
        let good = "a".repeat(64);
        let t = TrustedKeys::parse(&format!("# the club\n\n{good} North Club\n")).unwrap();
        assert!(t.trusts(&good));
        assert!(!t.trusts(&"b".repeat(64)));
        let e = TrustedKeys::parse(&format!("{good}\nnot-a-key\n{}", "c".repeat(63))).unwrap_err();
        assert!(e.contains("line 2: `not-a-key`"), "{e}");
        assert!(e.contains("line 3:"), "{e}");
    }
}
