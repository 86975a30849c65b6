-- Webhooks of API keys: store/sqlite's migration 5 in PostgreSQL's types.
-- The secret is kept as given: every delivery is signed with it. events
-- is a JSON array of event types ([]: all).

CREATE TABLE hooks (
	id          text COLLATE "C" NOT NULL PRIMARY KEY,
	owner       text COLLATE "C" NOT NULL,
	url         text NOT NULL,
	secret      text NOT NULL,
	events      json NOT NULL DEFAULT '[]',
	description text NOT NULL DEFAULT '',
	config      boolean NOT NULL DEFAULT false,
	created_at  timestamptz NOT NULL
);

CREATE INDEX hooks_owner ON hooks (owner, created_at);
