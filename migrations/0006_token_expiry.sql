-- API tokens may be given an expiry (Unix seconds; NULL: until revoked). A token past it is
-- refused like an unknown one. Revoking deletes the row.
ALTER TABLE api_tokens ADD COLUMN expires_at INTEGER;
