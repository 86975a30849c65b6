-- Webhooks of API keys. The secret is kept as given: every delivery is
-- signed with it. events is a JSON array of event types ([]: all).

CREATE TABLE hooks (
	id          TEXT    NOT NULL PRIMARY KEY,
	owner       TEXT    NOT NULL,
	url         TEXT    NOT NULL,
	secret      TEXT    NOT NULL,
	events      TEXT    NOT NULL DEFAULT '[]',
	description TEXT    NOT NULL DEFAULT '',
	config      INTEGER NOT NULL DEFAULT 0,
	created_at  INTEGER NOT NULL
) STRICT;

CREATE INDEX hooks_owner ON hooks (owner, created_at);
