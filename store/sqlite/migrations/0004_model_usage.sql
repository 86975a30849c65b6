-- What the model gateway metered, by session, owner (API key ID) and
-- model, so that budgets count what was spent before a restart. A row
-- with an empty session_id holds the spend of an owner's sessions since
-- deleted: deleting a session folds its rows into it, because the money
-- was spent all the same.

CREATE TABLE model_usage (
	session_id         TEXT    NOT NULL,
	owner              TEXT    NOT NULL,
	model              TEXT    NOT NULL,
	requests           INTEGER NOT NULL DEFAULT 0,
	input_tokens       INTEGER NOT NULL DEFAULT 0,
	output_tokens      INTEGER NOT NULL DEFAULT 0,
	cache_read_tokens  INTEGER NOT NULL DEFAULT 0,
	cache_write_tokens INTEGER NOT NULL DEFAULT 0,
	cost_usd           REAL    NOT NULL DEFAULT 0,
	unmetered          INTEGER NOT NULL DEFAULT 0,
	rejected           INTEGER NOT NULL DEFAULT 0,
	updated_at         INTEGER NOT NULL,
	PRIMARY KEY (session_id, owner, model)
) STRICT, WITHOUT ROWID;

CREATE TRIGGER sessions_fold_model_usage BEFORE DELETE ON sessions
WHEN OLD.id <> ''
BEGIN
	INSERT INTO model_usage (session_id, owner, model, requests, input_tokens, output_tokens,
		cache_read_tokens, cache_write_tokens, cost_usd, unmetered, rejected, updated_at)
	SELECT '', owner, model, requests, input_tokens, output_tokens,
		cache_read_tokens, cache_write_tokens, cost_usd, unmetered, rejected, updated_at
	FROM model_usage WHERE session_id = OLD.id
	ON CONFLICT (session_id, owner, model) DO UPDATE SET
		requests = requests + excluded.requests,
		input_tokens = input_tokens + excluded.input_tokens,
		output_tokens = output_tokens + excluded.output_tokens,
		cache_read_tokens = cache_read_tokens + excluded.cache_read_tokens,
		cache_write_tokens = cache_write_tokens + excluded.cache_write_tokens,
		cost_usd = cost_usd + excluded.cost_usd,
		unmetered = unmetered + excluded.unmetered,
		rejected = rejected + excluded.rejected,
		updated_at = max(updated_at, excluded.updated_at);
	DELETE FROM model_usage WHERE session_id = OLD.id;
END;
