-- Prompts waiting for their session's next turn, in id order: store/sqlite's
-- migration 6 in PostgreSQL's types. They go with their session.

CREATE TABLE queued_prompts (
	id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	session_id         text COLLATE "C" NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
	prompt             text NOT NULL,
	task_system_prompt text NOT NULL DEFAULT '',
	created_at         timestamptz NOT NULL
);

CREATE INDEX queued_prompts_session ON queued_prompts (session_id, id);
