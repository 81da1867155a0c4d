//! `ledger`: the event store. Every fact the service knows is an immutable event.
