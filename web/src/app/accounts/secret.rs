//! Secrets: random tokens, the hash the database keeps of them, and comparing them.
//!
//! A session, an API token or a CSRF value is 32 random bytes; the database keeps only a token's
//! SHA-256, so a copy of the database logs nobody in. Comparisons of secrets do not stop at the
//! first difference, so their timing tells a guesser nothing.

use sha2::{Digest, Sha256};

/// A fresh random token: 32 bytes as hex.
pub fn random_token() -> String {
    hex(&rand::random::<[u8; 32]>())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The SHA-256 of a token, as the database keeps it.
pub fn sha256(token: &str) -> Vec<u8> {
    Sha256::digest(token.as_bytes()).to_vec()
}

/// Compares without stopping at the first difference.
pub fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_32_random_bytes_in_hex() {
        let (a, b) = (random_token(), random_token());
        assert_eq!(a.len(), 64);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
        assert_eq!(sha256(&a), sha256(&a));
        assert_ne!(sha256(&a), sha256(&b));
    }

    #[test]
    fn secrets_compare_equal_only_when_equal() {
        assert!(constant_time_eq(b"abc", b"abc"));
        assert!(!constant_time_eq(b"abc", b"abd"));
        assert!(!constant_time_eq(b"abc", b"abcd"));
        assert!(constant_time_eq(b"", b""));
    }
}
