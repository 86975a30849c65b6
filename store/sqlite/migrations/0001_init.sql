-- Sessions, their events and API keys. Times are Unix nanoseconds (0 = unset);
-- JSON columns are TEXT so that SQLite's JSON functions can read them.

CREATE TABLE sessions (
	id                  TEXT    NOT NULL PRIMARY KEY,
	owner               TEXT    NOT NULL DEFAULT '',
	provider            TEXT    NOT NULL DEFAULT '',
	provider_session_id TEXT    NOT NULL DEFAULT '',
	work_dir            TEXT    NOT NULL DEFAULT '',
	options             TEXT,
	status              TEXT    NOT NULL DEFAULT '',
	title               TEXT    NOT NULL DEFAULT '',
	created_at          INTEGER NOT NULL,
	updated_at          INTEGER NOT NULL,
	last_seq            INTEGER NOT NULL DEFAULT 0 CHECK (last_seq >= 0),
	stats               TEXT
) STRICT;

-- ListSessions filters by owner. updated_at is deliberately not indexed: it
-- changes with every AppendEvents, and an index on it would add pages to
-- every commit of the hot path, while sorting the few thousand sessions a
-- daemon keeps is cheap.
CREATE INDEX sessions_owner ON sessions (owner);

-- The primary key is the table's b-tree (WITHOUT ROWID), so the range query
-- "session_id = ? AND seq > ? ORDER BY seq" is a single index range scan.
CREATE TABLE events (
	session_id TEXT    NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
	seq        INTEGER NOT NULL CHECK (seq >= 1),
	type       TEXT    NOT NULL,
	data       TEXT,
	time       INTEGER NOT NULL,
	PRIMARY KEY (session_id, seq)
) STRICT, WITHOUT ROWID;

CREATE TABLE api_keys (
	id         TEXT    NOT NULL PRIMARY KEY,
	name       TEXT    NOT NULL DEFAULT '',
	hash       BLOB    NOT NULL UNIQUE,
	admin      INTEGER NOT NULL DEFAULT 0 CHECK (admin IN (0, 1)),
	created_at INTEGER NOT NULL,
	revoked_at INTEGER
) STRICT;
