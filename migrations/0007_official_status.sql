-- An official may be disabled by the administrator (Unix seconds when; NULL: active). A
-- disabled official cannot log in, and every session and API token of theirs is refused at
-- once (each authenticated request joins on this column); re-enabling gives back the API
-- tokens, not the sessions, which disabling ended. Existing officials stay active.
ALTER TABLE officials ADD COLUMN disabled_at INTEGER;
