-- What is out of play (added with closing and voiding): voided tournaments, tables and players,
-- closed tables, and how each random seat draw was made. Like the other projections they are
-- folded from the events in the same transaction, rebuilt exactly by a replay, and compared
-- with a fresh replay by the audit.

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
