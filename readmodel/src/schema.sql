-- The read model's tables, from nothing: what pages, the JSON API and the commands read, folded
-- from the events in the append's own transaction (src/fold.rs), rebuilt exactly by a replay and
-- compared row by row with a fresh replay by the audit. Nothing here is a source of truth.
--
-- Run when the read model is built (a database that does not keep it at its version) and in the
-- audit's fresh database. The tables are those migrations 0005 and 0008 left, column for column
-- and in the same order, so a database built by those migrations compares equal
-- (tests/schema.rs checks it).
DROP TABLE IF EXISTS proj_tournaments;
DROP TABLE IF EXISTS proj_players;
DROP TABLE IF EXISTS proj_tables;
DROP TABLE IF EXISTS proj_seats;
DROP TABLE IF EXISTS proj_hand_records;
DROP TABLE IF EXISTS proj_player_hands;
DROP TABLE IF EXISTS proj_standings;
DROP TABLE IF EXISTS proj_voided;
DROP TABLE IF EXISTS proj_closed_tables;
DROP TABLE IF EXISTS proj_draw_methods;
DROP TABLE IF EXISTS proj_sessions;
DROP TABLE IF EXISTS proj_session_standings;

-- Each tournament: TournamentCreated, then TournamentConfigured and TieBreakChosen.
CREATE TABLE proj_tournaments (
    tournament     TEXT PRIMARY KEY,   -- the stream, 'tournament:<id>'
    name           TEXT    NOT NULL,
    ruleset        TEXT    NOT NULL,
    config         TEXT,               -- JSON TournamentConfigured, once recorded
    tie_break      TEXT,               -- JSON list of tie-break keys; NULL for the default chain
    position       INTEGER NOT NULL    -- where it was created, for listing newest first
);

-- Registered players (PlayerRegistered), in order of registration. A substitute
-- (PlayerRegistered.substitute) is kept out of the places; a player who withdrew
-- (PlayerWithdrew) keeps his results and is not seated again.
CREATE TABLE proj_players (
    tournament TEXT    NOT NULL,
    player     TEXT    NOT NULL,
    name       TEXT    NOT NULL,
    position   INTEGER NOT NULL,
    substitute INTEGER NOT NULL DEFAULT 0,
    withdrawn  TEXT,
    PRIMARY KEY (tournament, player)
);

-- Each table (TableFormed): its tournament, its number, the seed of its last random draw, and
-- the session it was formed in (NULL for a table outside sessions).
CREATE TABLE proj_tables (
    table_id   TEXT PRIMARY KEY,
    tournament TEXT    NOT NULL,
    number     INTEGER NOT NULL,
    draw_seed  INTEGER,
    session    INTEGER
);
CREATE INDEX proj_tables_tournament ON proj_tables (tournament, number);

-- Who sits where at a table, as last drawn (SeatsDrawn).
CREATE TABLE proj_seats (
    table_id TEXT    NOT NULL,
    seat     TEXT    NOT NULL,
    player   TEXT    NOT NULL,
    PRIMARY KEY (table_id, seat)
);

-- One row per hand stream: its record as JSON (HandRecord: where it was played and by whom,
-- the hands laid down, the result, the score sheets, the settlement in force and the
-- settlements superseded), folded from the hand's events.
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
CREATE INDEX proj_hand_records_game ON proj_hand_records (table_id, game, position);

-- Each seat of each hand of a tournament: who sat there and what the hand's record gives them
-- (HandRecord::contribution), by the session of its table (0: outside sessions). The standings
-- are the sums of these rows.
CREATE TABLE proj_player_hands (
    stream     TEXT    NOT NULL,
    seat       TEXT    NOT NULL,
    tournament TEXT    NOT NULL,
    player     TEXT    NOT NULL,
    position   INTEGER NOT NULL,   -- where the hand started
    counted    INTEGER NOT NULL,   -- 1 when the hand has a settlement in force
    net        INTEGER NOT NULL,
    won        INTEGER NOT NULL,
    score      INTEGER NOT NULL,   -- the winning score when won, else 0
    session    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (stream, seat)
);
CREATE INDEX proj_player_hands_player ON proj_player_hands (tournament, player, position);
CREATE INDEX proj_player_hands_largest ON proj_player_hands (tournament, player, score);
CREATE INDEX proj_player_hands_session ON proj_player_hands (tournament, player, session, score);

-- Standings per tournament per player: the sums of proj_player_hands, kept in step with it.
CREATE TABLE proj_standings (
    tournament    TEXT    NOT NULL,
    player        TEXT    NOT NULL,
    net           INTEGER NOT NULL,
    hands_played  INTEGER NOT NULL,
    hands_won     INTEGER NOT NULL,
    largest_hand  INTEGER NOT NULL,
    PRIMARY KEY (tournament, player)
);

-- TournamentVoided, TableVoided and PlayerVoided: the thing stays in the ledger; pages show it
-- to officials, marked voided, and leave it out for the public.
CREATE TABLE proj_voided (
    tournament TEXT    NOT NULL,   -- the stream, 'tournament:<id>'
    kind       TEXT    NOT NULL,   -- 'tournament', 'table' or 'player'
    id         TEXT    NOT NULL,   -- the tournament's, table's or player's id
    reason     TEXT    NOT NULL,
    position   INTEGER NOT NULL,
    PRIMARY KEY (tournament, kind, id)
);

-- TableClosed: the table's play is over; its players may sit at another table.
CREATE TABLE proj_closed_tables (
    table_id   TEXT PRIMARY KEY,
    tournament TEXT    NOT NULL,
    position   INTEGER NOT NULL
);

-- SeatDrawSeeded's method, so the table page can re-derive the draw from its seed.
CREATE TABLE proj_draw_methods (
    table_id TEXT PRIMARY KEY,
    method   TEXT NOT NULL
);

-- Each session: its clock (minutes; when it opened and closed are the recorded_at of the events
-- at these positions), how it was seated (JSON SessionSeating), open while closed_position is
-- NULL.
CREATE TABLE proj_sessions (
    tournament       TEXT    NOT NULL,
    session          INTEGER NOT NULL,
    minutes          INTEGER,
    seating          TEXT,
    opened_position  INTEGER NOT NULL,
    closed_position  INTEGER,
    PRIMARY KEY (tournament, session)
);

-- The standings of each session alone (the sums of proj_player_hands by session), kept in step
-- with proj_standings: the end-of-session balances, and the public standings, which leave out
-- the sessions still open.
CREATE TABLE proj_session_standings (
    tournament    TEXT    NOT NULL,
    session       INTEGER NOT NULL,
    player        TEXT    NOT NULL,
    net           INTEGER NOT NULL,
    hands_played  INTEGER NOT NULL,
    hands_won     INTEGER NOT NULL,
    largest_hand  INTEGER NOT NULL,
    -- by player first: the public's standings sum each player's sessions in this order
    PRIMARY KEY (tournament, player, session)
);
CREATE INDEX proj_session_standings_session ON proj_session_standings (tournament, session);
