-- One read-model family (issue 9). Migrations 0002 and 0003 kept two families of projections
-- that derived the same facts twice (proj_hands / proj_settlements beside proj_hand_records,
-- proj_tables beside proj_table_numbers) and already disagreed. This migration replaces every
-- projection table with one family: each hand's events are folded once into its record
-- (proj_hand_records), each seat's share of that record is kept per player
-- (proj_player_hands), and the standings are the sum of those shares.
--
-- Projections are derived, so the old tables are dropped and, when the migration is applied
-- to a ledger that has events, the new ones are rebuilt from the events in the same
-- transaction (schema.rs). `IF EXISTS` lets the audit build a fresh replay database from this
-- file alone.
DROP TABLE IF EXISTS proj_hands;
DROP TABLE IF EXISTS proj_settlements;
DROP TABLE IF EXISTS proj_table_numbers;
DROP TABLE IF EXISTS proj_tables;
DROP TABLE IF EXISTS proj_seats;
DROP TABLE IF EXISTS proj_standings;
DROP TABLE IF EXISTS proj_tournaments;
DROP TABLE IF EXISTS proj_players;
DROP TABLE IF EXISTS proj_hand_records;
DROP TABLE IF EXISTS proj_player_hands;

-- Each tournament: TournamentCreated, then TournamentConfigured and TieBreakChosen.
CREATE TABLE proj_tournaments (
    tournament     TEXT PRIMARY KEY,   -- the stream, 'tournament:<id>'
    name           TEXT    NOT NULL,
    ruleset        TEXT    NOT NULL,
    config         TEXT,               -- JSON TournamentConfigured, once recorded
    tie_break      TEXT,               -- JSON list of tie-break keys; NULL for the default chain
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

-- Each table (TableFormed): its tournament, its number, the seed of its last random draw.
CREATE TABLE proj_tables (
    table_id   TEXT PRIMARY KEY,
    tournament TEXT    NOT NULL,
    number     INTEGER NOT NULL,
    draw_seed  INTEGER
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
-- (HandRecord::contribution). The standings are the sums of these rows.
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
    PRIMARY KEY (stream, seat)
);
CREATE INDEX proj_player_hands_player ON proj_player_hands (tournament, player, position);
CREATE INDEX proj_player_hands_largest ON proj_player_hands (tournament, player, score);

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

-- What is out of play (added with closing and voiding): voided tournaments, tables and players,
-- closed tables, and how each random seat draw was made. Like the other projections they are
-- folded from the events in the same transaction, rebuilt exactly by a replay, and compared
-- with a fresh replay by the audit.

-- TournamentVoided, TableVoided and PlayerVoided: the thing stays in the ledger; pages show it
-- to officials, marked voided, and leave it out for the public.
DROP TABLE IF EXISTS proj_voided;
CREATE TABLE proj_voided (
    tournament TEXT    NOT NULL,   -- the stream, 'tournament:<id>'
    kind       TEXT    NOT NULL,   -- 'tournament', 'table' or 'player'
    id         TEXT    NOT NULL,   -- the tournament's, table's or player's id
    reason     TEXT    NOT NULL,
    position   INTEGER NOT NULL,
    PRIMARY KEY (tournament, kind, id)
);

-- TableClosed: the table's play is over; its players may sit at another table.
DROP TABLE IF EXISTS proj_closed_tables;
CREATE TABLE proj_closed_tables (
    table_id   TEXT PRIMARY KEY,
    tournament TEXT    NOT NULL,
    position   INTEGER NOT NULL
);

-- SeatDrawSeeded's method, so the table page can re-derive the draw from its seed.
DROP TABLE IF EXISTS proj_draw_methods;
CREATE TABLE proj_draw_methods (
    table_id TEXT PRIMARY KEY,
    method   TEXT NOT NULL
);
