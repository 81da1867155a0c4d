-- The event log. One row per event; rows are only ever inserted (see the triggers below).
--
-- position     global order of recording, 1, 2, 3, ... without gaps.
-- stream       'tournament:<id>', 'table:<id>' or 'hand:<id>'.
-- version      1, 2, 3, ... within the stream, without gaps.
-- event_id     16-byte UUID chosen by the writer; a retry with the same id is idempotent.
-- recorded_at  UTC, RFC 3339 with exactly six fractional digits and a 'Z' (canonical form).
-- payload      the event's canonical JSON bytes (serde_json, struct field order, no spaces).
-- prev_hash    hash of the previous event of the same stream (32 zero bytes for version 1).
-- hash         SHA-256 of the canonical encoding of this event (see ledger/README.md).
-- chain_hash   SHA-256(previous row's chain_hash || hash): the global chain over positions.
CREATE TABLE events (
    position       INTEGER PRIMARY KEY,
    stream         TEXT    NOT NULL,
    version        INTEGER NOT NULL,
    event_id       BLOB    NOT NULL UNIQUE,
    recorded_at    TEXT    NOT NULL,
    recorded_by    TEXT    NOT NULL,
    event_type     TEXT    NOT NULL,
    schema_version INTEGER NOT NULL,
    payload        BLOB    NOT NULL,
    prev_hash      BLOB    NOT NULL,
    hash           BLOB    NOT NULL,
    chain_hash     BLOB    NOT NULL,
    UNIQUE (stream, version)
);

-- Append-only, enforced by the database itself and not only by the program.
CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN
    SELECT RAISE(ABORT, 'ledger events are append-only: UPDATE refused');
END;

CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN
    SELECT RAISE(ABORT, 'ledger events are append-only: DELETE refused');
END;
