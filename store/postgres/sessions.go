package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/hotplex/hotplex/store"
)

const sessionColumns = `id, public_id, nonce, owner, provider, provider_session_id, work_dir, options, status, title, created_at, updated_at, last_seq, stats`

// indexOwnerPublicID is the unique index that keeps one live session per
// owner and public ID (migrations/0001_init.sql).
const indexOwnerPublicID = "sessions_owner_public_id"

// PutSession inserts or updates the session s.ID. Zero CreatedAt and
// UpdatedAt become now; an existing session keeps its CreatedAt, and its
// LastSeq only grows (AppendEvents owns it). Two owners' live sessions may
// share a public ID; one owner's may not, which the unique index decides,
// so that two daemons creating the same session at once cannot both win.
func (db *DB) PutSession(ctx context.Context, s store.Session) error {
	if err := db.check("put session"); err != nil {
		return err
	}
	if err := s.Validate(); err != nil {
		return fmt.Errorf("postgres store: put session %q: %w", s.ID, err)
	}
	s = s.WithDefaults(time.Now())
	_, err := db.pool.Exec(ctx, `INSERT INTO sessions (`+sessionColumns+`)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
		ON CONFLICT (id) DO UPDATE SET
			public_id = excluded.public_id,
			nonce = excluded.nonce,
			owner = excluded.owner,
			provider = excluded.provider,
			provider_session_id = excluded.provider_session_id,
			work_dir = excluded.work_dir,
			options = excluded.options,
			status = excluded.status,
			title = excluded.title,
			updated_at = excluded.updated_at,
			last_seq = greatest(sessions.last_seq, excluded.last_seq),
			stats = excluded.stats`,
		s.ID, s.PublicID, s.Nonce, s.Owner, s.Provider, s.ProviderSessionID, s.WorkDir, jsonArg(s.Options),
		s.Status, s.Title, s.CreatedAt, s.UpdatedAt, int64(s.LastSeq), jsonArg(s.Stats))
	if uniqueViolation(err, indexOwnerPublicID) {
		return fmt.Errorf("postgres store: put session %q: owner %q has a session %q: %w", s.ID, s.Owner, s.PublicID, store.ErrExists)
	}
	if err != nil {
		return db.fail(fmt.Sprintf("put session %q", s.ID), err)
	}
	return nil
}

// GetSession returns the session id, or an error wrapping store.ErrNotFound.
func (db *DB) GetSession(ctx context.Context, id string) (store.Session, error) {
	if err := db.check("get session"); err != nil {
		return store.Session{}, err
	}
	rows, _ := db.pool.Query(ctx, `SELECT `+sessionColumns+` FROM sessions WHERE id = $1`, id)
	s, err := pgx.CollectExactlyOneRow(rows, scanSession)
	if errors.Is(err, pgx.ErrNoRows) {
		return store.Session{}, fmt.Errorf("postgres store: get session %q: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return store.Session{}, db.fail(fmt.Sprintf("get session %q", id), err)
	}
	return s, nil
}

// FindSession returns owner's live session called publicID, or an error
// wrapping store.ErrNotFound.
func (db *DB) FindSession(ctx context.Context, owner, publicID string) (store.Session, error) {
	if err := db.check("find session"); err != nil {
		return store.Session{}, err
	}
	// The status is written into the query, not bound, so that the
	// live sessions' partial index answers it whatever the plan.
	rows, _ := db.pool.Query(ctx, `SELECT `+sessionColumns+` FROM sessions WHERE owner = $1 AND public_id = $2 AND status <> '`+store.StatusDeleted+`'`,
		owner, publicID)
	s, err := pgx.CollectExactlyOneRow(rows, scanSession)
	if errors.Is(err, pgx.ErrNoRows) {
		return store.Session{}, fmt.Errorf("postgres store: find session %q of %q: %w", publicID, owner, store.ErrNotFound)
	}
	if err != nil {
		return store.Session{}, db.fail(fmt.Sprintf("find session %q of %q", publicID, owner), err)
	}
	return s, nil
}

// ListSessions returns owner's sessions (all when owner is ""), newest
// UpdatedAt first, leaving out deleted ones.
func (db *DB) ListSessions(ctx context.Context, owner string) ([]store.Session, error) {
	if err := db.check("list sessions"); err != nil {
		return nil, err
	}
	q := `SELECT ` + sessionColumns + ` FROM sessions WHERE status <> $1`
	args := []any{store.StatusDeleted}
	if owner != "" {
		q += ` AND owner = $2`
		args = append(args, owner)
	}
	q += ` ORDER BY updated_at DESC, created_at DESC, id`
	rows, _ := db.pool.Query(ctx, q, args...)
	list, err := pgx.CollectRows(rows, scanSession)
	if err != nil {
		return nil, db.fail(fmt.Sprintf("list sessions of %q", owner), err)
	}
	if list == nil {
		list = []store.Session{} // served as JSON: [] rather than null
	}
	return list, nil
}

// sqlFoldUsage moves the metered usage of a session being deleted into
// its owner's row for deleted sessions (session_id ”), in one statement:
// the rows it deletes are exactly the rows it adds up, even while the
// gateway adds more.
const sqlFoldUsage = `WITH gone AS (
	DELETE FROM model_usage WHERE session_id = $1
	RETURNING owner, model, requests, input_tokens, output_tokens, cache_read_tokens,
		cache_write_tokens, cost_usd, unmetered, rejected, updated_at
)
INSERT INTO model_usage AS u (session_id, owner, model, requests, input_tokens, output_tokens,
	cache_read_tokens, cache_write_tokens, cost_usd, unmetered, rejected, updated_at)
SELECT '', owner, model, sum(requests), sum(input_tokens), sum(output_tokens), sum(cache_read_tokens),
	sum(cache_write_tokens), sum(cost_usd), sum(unmetered), sum(rejected), max(updated_at)
FROM gone GROUP BY owner, model
ON CONFLICT (session_id, owner, model) DO UPDATE SET
	requests = u.requests + excluded.requests,
	input_tokens = u.input_tokens + excluded.input_tokens,
	output_tokens = u.output_tokens + excluded.output_tokens,
	cache_read_tokens = u.cache_read_tokens + excluded.cache_read_tokens,
	cache_write_tokens = u.cache_write_tokens + excluded.cache_write_tokens,
	cost_usd = u.cost_usd + excluded.cost_usd,
	unmetered = u.unmetered + excluded.unmetered,
	rejected = u.rejected + excluded.rejected,
	updated_at = greatest(u.updated_at, excluded.updated_at)`

// DeleteSession removes the session and, through the foreign key, its
// events, and folds its model usage into its owner's (store.UsageStore),
// all in one transaction. It returns an error wrapping store.ErrNotFound
// if there is no such session.
func (db *DB) DeleteSession(ctx context.Context, id string) error {
	if err := db.check("delete session"); err != nil {
		return err
	}
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `DELETE FROM sessions WHERE id = $1`, id)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return store.ErrNotFound
		}
		if _, err := tx.Exec(ctx, sqlFoldUsage, id); err != nil {
			return fmt.Errorf("fold model usage: %w", err)
		}
		return nil
	})
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("postgres store: delete session %q: %w", id, err)
	}
	if err != nil {
		return db.fail(fmt.Sprintf("delete session %q", id), err)
	}
	return nil
}

func scanSession(row pgx.CollectableRow) (store.Session, error) {
	var (
		s              store.Session
		options, stats []byte
		lastSeq        int64
	)
	err := row.Scan(&s.ID, &s.PublicID, &s.Nonce, &s.Owner, &s.Provider, &s.ProviderSessionID, &s.WorkDir, &options,
		&s.Status, &s.Title, &s.CreatedAt, &s.UpdatedAt, &lastSeq, &stats)
	if err != nil {
		return store.Session{}, err
	}
	s.Options, s.Stats = rawJSON(options), rawJSON(stats)
	s.CreatedAt, s.UpdatedAt = s.CreatedAt.UTC(), s.UpdatedAt.UTC()
	s.LastSeq = uint64(lastSeq)
	return s, nil
}

// jsonArg is the argument for a json column: NULL when empty. It is
// passed as text so that pgx sends the caller's bytes as they are.
func jsonArg(b []byte) any {
	if len(b) == 0 {
		return nil
	}
	return string(b)
}

// rawJSON is the inverse of jsonArg: nil for NULL.
func rawJSON(b []byte) json.RawMessage {
	if b == nil {
		return nil
	}
	return json.RawMessage(b)
}
