-- Sessions, withdrawals and substitutes (issue 14). Like every projection these are folded from
-- the tournament's events in the append's own transaction, rebuilt exactly by a replay and
-- compared with a fresh replay by the audit. Ledgers from before have no such events, so the
-- new columns' defaults are already what a replay gives.

-- The session a table belongs to (TableFormed.session); NULL for a table outside sessions.
ALTER TABLE proj_tables ADD COLUMN session INTEGER;

-- A substitute (PlayerRegistered.substitute) is kept out of the places; a player who withdrew
-- (PlayerWithdrew) keeps his results and is not seated again.
ALTER TABLE proj_players ADD COLUMN substitute INTEGER NOT NULL DEFAULT 0;
ALTER TABLE proj_players ADD COLUMN withdrawn TEXT;

-- Each seat's share of a hand, by the session of its table (0: outside sessions).
ALTER TABLE proj_player_hands ADD COLUMN session INTEGER NOT NULL DEFAULT 0;
CREATE INDEX proj_player_hands_session ON proj_player_hands (tournament, player, session, score);

-- Each session: its clock (minutes; when it opened and closed are the recorded_at of the events
-- at these positions), how it was seated (JSON SessionSeating), open while closed_position is
-- NULL.
DROP TABLE IF EXISTS proj_sessions;
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
DROP TABLE IF EXISTS proj_session_standings;
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
