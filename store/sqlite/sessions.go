package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/hotplex/hotplex/store"
)

const sessionColumns = `id, public_id, nonce, owner, provider, provider_session_id, work_dir, options, status, title, created_at, updated_at, last_seq, stats`

// PutSession inserts or updates the session s.ID. Zero CreatedAt and
// UpdatedAt become now; an existing session keeps its CreatedAt, and its
// LastSeq only grows (AppendEvents owns it).
func (db *DB) PutSession(ctx context.Context, s store.Session) error {
	if err := db.check("put session"); err != nil {
		return err
	}
	if err := s.Validate(); err != nil {
		return fmt.Errorf("sqlite store: put session %q: %w", s.ID, err)
	}
	s = s.WithDefaults(time.Now())
	_, err := db.writer.ExecContext(ctx, `INSERT INTO sessions (`+sessionColumns+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
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
			last_seq = max(sessions.last_seq, excluded.last_seq),
			stats = excluded.stats`,
		s.ID, s.PublicID, s.Nonce, s.Owner, s.Provider, s.ProviderSessionID, s.WorkDir, nullJSON(s.Options),
		s.Status, s.Title, nanos(s.CreatedAt), nanos(s.UpdatedAt), int64(s.LastSeq), nullJSON(s.Stats))
	if isConstraint(err, codeUnique) {
		return fmt.Errorf("sqlite store: put session %q: owner %q has a session %q: %w", s.ID, s.Owner, s.PublicID, store.ErrExists)
	}
	if err != nil {
		return fmt.Errorf("sqlite store: put session %q: %w", s.ID, err)
	}
	return nil
}

// Statements of GetSession and FindSession, prepared once in Open.
const (
	sqlGetSession = `SELECT ` + sessionColumns + ` FROM sessions WHERE id = ?`
	// The status is written into the query, not bound: only then can
	// SQLite see that the live sessions' partial index
	// sessions_owner_public_id answers it.
	sqlFindSession = `SELECT ` + sessionColumns + ` FROM sessions WHERE owner = ? AND public_id = ? AND status <> '` + store.StatusDeleted + `'`
)

// GetSession returns the session id, or an error wrapping store.ErrNotFound.
func (db *DB) GetSession(ctx context.Context, id string) (store.Session, error) {
	if err := db.check("get session"); err != nil {
		return store.Session{}, err
	}
	row := db.stmtGetSession.QueryRowContext(ctx, id)
	s, err := scanSession(row)
	if errors.Is(err, sql.ErrNoRows) {
		return store.Session{}, fmt.Errorf("sqlite store: get session %q: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return store.Session{}, fmt.Errorf("sqlite store: get session %q: %w", id, err)
	}
	return s, nil
}

// FindSession returns owner's live session called publicID, or an error
// wrapping store.ErrNotFound.
func (db *DB) FindSession(ctx context.Context, owner, publicID string) (store.Session, error) {
	if err := db.check("find session"); err != nil {
		return store.Session{}, err
	}
	row := db.stmtFindSession.QueryRowContext(ctx, owner, publicID)
	s, err := scanSession(row)
	if errors.Is(err, sql.ErrNoRows) {
		return store.Session{}, fmt.Errorf("sqlite store: find session %q of %q: %w", publicID, owner, store.ErrNotFound)
	}
	if err != nil {
		return store.Session{}, fmt.Errorf("sqlite store: find session %q of %q: %w", publicID, owner, err)
	}
	return s, nil
}

// ListSessions returns owner's sessions (all when owner is ""), newest
// UpdatedAt first, leaving out deleted ones.
func (db *DB) ListSessions(ctx context.Context, owner string) ([]store.Session, error) {
	if err := db.check("list sessions"); err != nil {
		return nil, err
	}
	q := `SELECT ` + sessionColumns + ` FROM sessions WHERE status <> ?`
	args := []any{store.StatusDeleted}
	if owner != "" {
		q += ` AND owner = ?`
		args = append(args, owner)
	}
	q += ` ORDER BY updated_at DESC, created_at DESC, id`
	rows, err := db.reader.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("sqlite store: list sessions of %q: %w", owner, err)
	}
	defer rows.Close()
	list := []store.Session{}
	for rows.Next() {
		s, err := scanSession(rows)
		if err != nil {
			return nil, fmt.Errorf("sqlite store: list sessions of %q: %w", owner, err)
		}
		list = append(list, s)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite store: list sessions of %q: %w", owner, err)
	}
	return list, nil
}

// DeleteSession removes the session and, through the foreign key, its
// events. It returns an error wrapping store.ErrNotFound if there is none.
func (db *DB) DeleteSession(ctx context.Context, id string) error {
	if err := db.check("delete session"); err != nil {
		return err
	}
	res, err := db.writer.ExecContext(ctx, `DELETE FROM sessions WHERE id = ?`, id)
	if err != nil {
		return fmt.Errorf("sqlite store: delete session %q: %w", id, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("sqlite store: delete session %q: %w", id, err)
	}
	if n == 0 {
		return fmt.Errorf("sqlite store: delete session %q: %w", id, store.ErrNotFound)
	}
	return nil
}

// scanner is a *sql.Row or *sql.Rows.
type scanner interface{ Scan(dest ...any) error }

func scanSession(r scanner) (store.Session, error) {
	var (
		s                store.Session
		options, stats   []byte
		created, updated int64
		lastSeq          int64
	)
	err := r.Scan(&s.ID, &s.PublicID, &s.Nonce, &s.Owner, &s.Provider, &s.ProviderSessionID, &s.WorkDir, &options,
		&s.Status, &s.Title, &created, &updated, &lastSeq, &stats)
	if err != nil {
		return store.Session{}, err
	}
	s.Options, s.Stats = options, stats
	s.CreatedAt, s.UpdatedAt = fromNanos(created), fromNanos(updated)
	s.LastSeq = uint64(lastSeq)
	return s, nil
}
