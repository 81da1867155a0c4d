-- Which projections this database keeps, and at which version (issue 25). A projection is a
-- read model folded from the events in the append's own transaction; the program that opens
-- the ledger registers the projections it reads (ledger/src/projector.rs). When the version
-- recorded here is missing or differs from the one registered, the projection's tables are
-- created again from its own schema and rebuilt from the events, in one transaction. A database
-- that keeps a projection its opener did not register refuses appends, so that the projection
-- never falls behind the events unnoticed.
--
-- The read model's tables were created by migrations 0002, 0003, 0005 and 0008, which stay as
-- they were written so that a database's user_version keeps its meaning; the read model's own
-- schema replaces those tables the first time it is registered, and this table starts empty.
CREATE TABLE ledger_projections (
    name    TEXT PRIMARY KEY,
    version INTEGER NOT NULL
);
