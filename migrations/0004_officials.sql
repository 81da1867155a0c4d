-- The web service's officials, sessions and API tokens. Not ledger events: these rows are
-- updated and deleted (a session ends, a token is revoked). The ledger records each official
-- as an OfficialRegistered event; these tables hold what must stay secret, and only hashes of
-- it: passwords as argon2id PHC strings, session and API tokens as SHA-256.
CREATE TABLE officials (
    official      TEXT PRIMARY KEY,   -- an OfficialId
    name          TEXT    NOT NULL,
    role          TEXT    NOT NULL,   -- referee / scorer / organiser
    is_admin      INTEGER NOT NULL DEFAULT 0,
    password_hash TEXT    NOT NULL,   -- argon2id, PHC string format
    created_at    INTEGER NOT NULL    -- unix seconds
);

CREATE TABLE sessions (
    token_sha256 BLOB PRIMARY KEY,
    official     TEXT    NOT NULL REFERENCES officials (official),
    csrf_token   TEXT    NOT NULL,    -- the synchronizer token forms must echo
    expires_at   INTEGER NOT NULL
);

CREATE TABLE api_tokens (
    token_sha256 BLOB PRIMARY KEY,
    official     TEXT    NOT NULL REFERENCES officials (official),
    label        TEXT    NOT NULL,
    created_at   INTEGER NOT NULL
);
