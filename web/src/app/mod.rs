//! The application layer: the commands and queries that the pages, the JSON API and the
//! command line all call — never each other. Free of actix.
//!
//! Why a layer of its own: a rule decided in a handler is a rule the API and the command line
//! decide again, or differently. Here a command loads what it needs from the ledger, asks the
//! referee's aggregates to decide, and appends what they decide; a query reads the read models.
//! Each door (`server::routes`, `server::api`, `cmd`) only reads its input, calls in, and
//! presents the answer. Nothing here knows about requests, cookies or status codes: errors are
//! [`error::AppError`], a kind and a message the server maps to a status.

pub mod accounts;
pub mod audit;
pub mod backup;
pub mod bulk;
pub mod commands;
pub mod error;
#[cfg(test)]
pub(crate) mod fixture;
pub mod import_check;
pub mod queries;
pub mod redecide;
pub mod table;
pub mod table_cache;
pub mod tournament;
pub mod trust;
