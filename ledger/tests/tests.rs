//! All integration tests of the ledger, in one test binary (one link, one run).

mod util;

mod accounts;
mod append;
mod durability;
mod faults;
mod fuzz;
mod jsonl;
mod projector;
mod properties;
mod schema;
mod signing;
mod tamper;
