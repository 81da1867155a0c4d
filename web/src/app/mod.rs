//! The application layer: commands and queries that pages, the JSON API and the CLI all call,
//! never each other; free of actix.
//!
//! Why a layer of its own: a rule decided in a handler is a rule the API and the command line
//! decide again, or differently. Here it is decided once, over the ledger and its SQLite
//! tables, and each door (`server::routes`, `server::api`, `cmd`) only reads its input, calls
//! in, and presents the answer. Nothing here knows about requests, cookies or status codes:
//! errors are [`error::AppError`], a kind and a message the server maps to a status.

pub mod accounts;
pub mod error;
