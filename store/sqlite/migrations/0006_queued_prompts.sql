-- Prompts waiting for their session's next turn, in id order. They go
-- with their session.

CREATE TABLE queued_prompts (
	id                 INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
	session_id         TEXT    NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
	prompt             TEXT    NOT NULL,
	task_system_prompt TEXT    NOT NULL DEFAULT '',
	created_at         INTEGER NOT NULL
) STRICT;

CREATE INDEX queued_prompts_session ON queued_prompts (session_id, id);
