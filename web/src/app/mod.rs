//! The application layer: the commands and queries that the pages, the JSON API and the
//! command line all call — never each other. Free of actix: a command loads what it needs from
//! the ledger, asks the referee's aggregates to decide, and appends what they decide; a query
//! reads the read models. The server (`crate::server`) only translates HTTP into these calls and
//! their answers into pages and JSON.

pub mod tournament;
