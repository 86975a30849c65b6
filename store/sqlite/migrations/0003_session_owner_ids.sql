-- Session IDs belong to their owner: public_id is the ID the owner gave the
-- session (unique among the owner's live sessions), id becomes the
-- daemon-wide key the engine and the events use, and nonce is drawn at each
-- creation so that a re-created ID never meets its predecessor's
-- conversation. Rows made before keep their ID as both.

ALTER TABLE sessions ADD COLUMN public_id TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN nonce TEXT NOT NULL DEFAULT '';
UPDATE sessions SET public_id = id;

CREATE UNIQUE INDEX sessions_owner_public_id ON sessions (owner, public_id) WHERE status <> 'deleted';
