-- A key may carry an end of validity; NULL keeps it valid until revoked.
ALTER TABLE api_keys ADD COLUMN expires_at INTEGER;
