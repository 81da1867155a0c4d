-- Projections the web service's pages read (added with the web service). Like those of 0002 they
-- are derived from the events in the same transaction, rebuilt exactly by a replay, and
-- compared with a fresh replay by the audit.

-- Each tournament: TournamentCreated, then TournamentConfigured.
CREATE TABLE proj_tournaments (
    tournament     TEXT PRIMARY KEY,   -- the stream, 'tournament:<id>'
    name           TEXT    NOT NULL,
    ruleset        TEXT    NOT NULL,
    config         TEXT,               -- JSON TournamentConfigured, once recorded
    position       INTEGER NOT NULL    -- where it was created, for listing newest first
);

-- Registered players (PlayerRegistered), in order of registration.
CREATE TABLE proj_players (
    tournament TEXT    NOT NULL,
    player     TEXT    NOT NULL,
    name       TEXT    NOT NULL,
    position   INTEGER NOT NULL,
    PRIMARY KEY (tournament, player)
);

-- Tables by number (TableFormed) and the seed of the last random draw (SeatDrawSeeded).
CREATE TABLE proj_table_numbers (
    table_id   TEXT PRIMARY KEY,
    tournament TEXT    NOT NULL,
    number     INTEGER NOT NULL,
    draw_seed  INTEGER
);

-- One row per hand stream: its current record as JSON (HandRecord: the hands laid down, the
-- result, the score sheets and the settlement that count), folded from HandStarted,
-- HandExposed, MahJonggDeclared, WashOut, HandScored, SettlementRecorded and CorrectionRecorded.
CREATE TABLE proj_hand_records (
    stream     TEXT PRIMARY KEY,
    tournament TEXT,
    table_id   TEXT    NOT NULL,
    game       INTEGER NOT NULL,
    hand       INTEGER NOT NULL,
    position   INTEGER NOT NULL,   -- where the hand started
    record     TEXT    NOT NULL
);
CREATE INDEX proj_hand_records_table ON proj_hand_records (table_id, position);

-- Which player sat in which seat of each hand, for a player's history.
CREATE TABLE proj_player_hands (
    tournament TEXT    NOT NULL,
    player     TEXT    NOT NULL,
    stream     TEXT    NOT NULL,
    seat       TEXT    NOT NULL,
    position   INTEGER NOT NULL,
    PRIMARY KEY (tournament, player, stream)
);
