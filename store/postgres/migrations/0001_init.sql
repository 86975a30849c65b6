-- Sessions, their events, API keys and metered model usage: the schema of
-- store/sqlite's migrations 1-4 in PostgreSQL's types.
--
-- Identifiers (IDs, owners, models) collate as "C", byte by byte, so that
-- ordering and uniqueness do not depend on the database's locale and
-- agree with SQLite's.
--
-- JSON is kept as json, not jsonb: the store hands back the bytes it was
-- given (events are served to clients as stored), which jsonb would
-- reformat and reorder, and nothing is queried inside it.

CREATE TABLE sessions (
	id                  text COLLATE "C" NOT NULL PRIMARY KEY,
	public_id           text COLLATE "C" NOT NULL,
	nonce               text NOT NULL DEFAULT '',
	owner               text COLLATE "C" NOT NULL DEFAULT '',
	provider            text NOT NULL DEFAULT '',
	provider_session_id text NOT NULL DEFAULT '',
	work_dir            text NOT NULL DEFAULT '',
	options             json,
	status              text NOT NULL DEFAULT '',
	title               text NOT NULL DEFAULT '',
	created_at          timestamptz NOT NULL,
	updated_at          timestamptz NOT NULL,
	last_seq            bigint NOT NULL DEFAULT 0 CHECK (last_seq >= 0),
	stats               json
);

-- One live session per owner and public ID; PutSession turns a violation
-- into store.ErrExists by this index's name. It also serves ListSessions,
-- which asks for an owner's live sessions.
CREATE UNIQUE INDEX sessions_owner_public_id ON sessions (owner, public_id) WHERE status <> 'deleted';

-- The primary key serves "session_id = $1 AND seq > $2 ORDER BY seq" as one
-- index range scan, and stops a seq being stored twice whatever the writers.
CREATE TABLE events (
	session_id text COLLATE "C" NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
	seq        bigint NOT NULL CHECK (seq >= 1),
	type       text NOT NULL,
	data       json,
	time       timestamptz NOT NULL,
	PRIMARY KEY (session_id, seq)
);

CREATE TABLE api_keys (
	id         text COLLATE "C" NOT NULL PRIMARY KEY,
	name       text NOT NULL DEFAULT '',
	hash       bytea NOT NULL CONSTRAINT api_keys_hash_key UNIQUE,
	admin      boolean NOT NULL DEFAULT false,
	created_at timestamptz NOT NULL,
	revoked_at timestamptz,
	expires_at timestamptz
);

-- What the model gateway metered, by session, owner (API key ID) and
-- model. A row with an empty session_id holds the spend of an owner's
-- sessions since deleted: DeleteSession folds a session's rows into it,
-- because the money was spent all the same.
CREATE TABLE model_usage (
	session_id         text COLLATE "C" NOT NULL,
	owner              text COLLATE "C" NOT NULL,
	model              text COLLATE "C" NOT NULL,
	requests           bigint NOT NULL DEFAULT 0,
	input_tokens       bigint NOT NULL DEFAULT 0,
	output_tokens      bigint NOT NULL DEFAULT 0,
	cache_read_tokens  bigint NOT NULL DEFAULT 0,
	cache_write_tokens bigint NOT NULL DEFAULT 0,
	cost_usd           double precision NOT NULL DEFAULT 0,
	unmetered          bigint NOT NULL DEFAULT 0,
	rejected           bigint NOT NULL DEFAULT 0,
	updated_at         timestamptz NOT NULL,
	PRIMARY KEY (session_id, owner, model)
);
