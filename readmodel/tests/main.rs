//! All integration tests of the read model, in one test binary (one link, one run).

// The small tournament the ledger's own tests write, shared rather than copied: it keeps to the
// ledger's API, and these tests open it with the read model registered. Not every helper is
// needed here.
#[path = "../../ledger/tests/util.rs"]
#[allow(dead_code)]
mod util;

mod one_fold;
mod projections;
mod schema;
mod sessions;
mod standings;
mod status;
mod tamper;
