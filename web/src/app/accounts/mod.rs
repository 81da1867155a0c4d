//! Officials' accounts: who they are, what they may do, and how they prove it.
//!
//! Reading is public; every write needs an official. An official logs in with a password
//! (stored only as an argon2id hash, [`passwords`]) and gets a login session ([`sessions`]) whose
//! random token the database keeps only as its SHA-256; programs use API tokens ([`tokens`]),
//! random, shown once and stored the same way. [`officials`] lists and creates the accounts
//! and makes the first administrator; [`roles`] is the policy of who may do what. Every change
//! to an account is recorded in the ledger's account stream (`Ledger::change_accounts`), in the
//! same transaction as the change. Passwords and tokens are never logged.
//!
//! All of it is plain logic over the officials' SQLite tables, so the service, its tests and
//! the command line call the same functions; how a request shows who sent it (cookies, a bearer
//! header, CSRF tokens) is the server's business (`server::auth`).

pub mod officials;
pub mod passwords;
pub mod roles;
pub mod secret;
pub mod sessions;
pub mod store;
pub mod tokens;
pub mod viewer;
