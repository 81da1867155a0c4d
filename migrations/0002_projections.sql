-- Projections: derived from the events, maintained in the same transaction as the events they
-- derive from, and rebuilt exactly by dropping their rows and replaying (Ledger::rebuild_projections).
-- Nothing here is a source of truth; `mahjong-referee audit` compares every row with a fresh replay.

-- Table id -> the tournament stream that formed it (TableFormed).
CREATE TABLE proj_tables (
    table_id   TEXT PRIMARY KEY,
    tournament TEXT NOT NULL
);

-- Who sits where at a table, as last drawn (SeatsDrawn).
CREATE TABLE proj_seats (
    table_id TEXT    NOT NULL,
    seat     TEXT    NOT NULL,
    player   TEXT    NOT NULL,
    PRIMARY KEY (table_id, seat)
);

-- Each hand stream, the table it was played at and the players in each seat when it started.
CREATE TABLE proj_hands (
    stream     TEXT PRIMARY KEY,
    tournament TEXT,
    table_id   TEXT    NOT NULL,
    game       INTEGER NOT NULL,
    hand       INTEGER NOT NULL,
    east       TEXT    NOT NULL,
    prevailing TEXT    NOT NULL,
    players    TEXT    NOT NULL,  -- JSON BySeat<Option<player>>
    washed_out INTEGER NOT NULL DEFAULT 0
);

-- Every SettlementRecorded, with the nets re-derived from its payments and whether a
-- CorrectionRecorded has superseded it. This is also the per-hand summary: the row of a hand
-- that is not superseded is the hand's current result.
CREATE TABLE proj_settlements (
    event_id   BLOB    PRIMARY KEY,
    stream     TEXT    NOT NULL,
    version    INTEGER NOT NULL,
    tournament TEXT,
    winner     TEXT,
    scores     TEXT    NOT NULL,  -- JSON BySeat<i64>
    nets       TEXT    NOT NULL,  -- JSON BySeat<i64>, re-derived from the payments
    players    TEXT,              -- JSON BySeat<Option<player>> counted in the standings, if any
    superseded_by BLOB            -- the CorrectionRecorded that superseded it
);
CREATE INDEX proj_settlements_stream ON proj_settlements (stream, version);

-- Standings per tournament per player, over the settlements that count (not superseded).
CREATE TABLE proj_standings (
    tournament    TEXT    NOT NULL,
    player        TEXT    NOT NULL,
    net           INTEGER NOT NULL,
    hands_played  INTEGER NOT NULL,
    hands_won     INTEGER NOT NULL,
    largest_hand  INTEGER NOT NULL,
    PRIMARY KEY (tournament, player)
);
