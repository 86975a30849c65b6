package sqlite

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hotplex/hotplex/store"
)

var _ store.QueueStore = (*DB)(nil)

// EnqueuePrompt appends p to its session's queue. The writer is one
// connection, so the insert and the count that gives the position see
// no other writer between them.
func (db *DB) EnqueuePrompt(ctx context.Context, p store.QueuedPrompt) (store.QueuedPrompt, int, error) {
	if err := db.check("enqueue prompt"); err != nil {
		return p, 0, err
	}
	if strings.TrimSpace(p.Prompt) == "" {
		return p, 0, fmt.Errorf("sqlite store: enqueue prompt: %w: empty prompt", store.ErrInvalid)
	}
	if p.CreatedAt.IsZero() {
		p.CreatedAt = time.Now()
	}
	p.CreatedAt = fromNanos(nanos(p.CreatedAt))
	tx, err := db.writer.BeginTx(ctx, nil)
	if err != nil {
		return p, 0, fmt.Errorf("sqlite store: enqueue prompt: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	res, err := tx.ExecContext(ctx, `INSERT INTO queued_prompts (session_id, prompt, task_system_prompt, created_at)
		SELECT id, ?, ?, ? FROM sessions WHERE id = ?`, p.Prompt, p.TaskSystemPrompt, nanos(p.CreatedAt), p.SessionID)
	if err != nil {
		return p, 0, fmt.Errorf("sqlite store: enqueue prompt for %q: %w", p.SessionID, err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return p, 0, fmt.Errorf("sqlite store: enqueue prompt for %q: %w", p.SessionID, store.ErrNotFound)
	}
	if p.ID, err = res.LastInsertId(); err != nil {
		return p, 0, fmt.Errorf("sqlite store: enqueue prompt for %q: %w", p.SessionID, err)
	}
	var pos int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM queued_prompts WHERE session_id = ? AND id <= ?`, p.SessionID, p.ID).Scan(&pos); err != nil {
		return p, 0, fmt.Errorf("sqlite store: enqueue prompt for %q: %w", p.SessionID, err)
	}
	if err := tx.Commit(); err != nil {
		return p, 0, fmt.Errorf("sqlite store: enqueue prompt for %q: %w", p.SessionID, err)
	}
	return p, pos, nil
}

// QueuedPrompts returns the queue of sessionID ("" = every session's).
func (db *DB) QueuedPrompts(ctx context.Context, sessionID string) ([]store.QueuedPrompt, error) {
	if err := db.check("list queued prompts"); err != nil {
		return nil, err
	}
	q := `SELECT id, session_id, prompt, task_system_prompt, created_at FROM queued_prompts`
	args := []any{}
	if sessionID != "" {
		q += ` WHERE session_id = ?`
		args = append(args, sessionID)
	}
	rows, err := db.reader.QueryContext(ctx, q+` ORDER BY session_id, id`, args...)
	if err != nil {
		return nil, fmt.Errorf("sqlite store: list queued prompts: %w", err)
	}
	defer rows.Close()
	out := []store.QueuedPrompt{}
	for rows.Next() {
		var (
			p       store.QueuedPrompt
			created int64
		)
		if err := rows.Scan(&p.ID, &p.SessionID, &p.Prompt, &p.TaskSystemPrompt, &created); err != nil {
			return nil, fmt.Errorf("sqlite store: list queued prompts: %w", err)
		}
		p.CreatedAt = fromNanos(created)
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite store: list queued prompts: %w", err)
	}
	return out, nil
}

// DequeuePrompt removes the queued prompt id.
func (db *DB) DequeuePrompt(ctx context.Context, id int64) error {
	if err := db.check("dequeue prompt"); err != nil {
		return err
	}
	res, err := db.writer.ExecContext(ctx, `DELETE FROM queued_prompts WHERE id = ?`, id)
	if err != nil {
		return fmt.Errorf("sqlite store: dequeue prompt %d: %w", id, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("sqlite store: dequeue prompt %d: %w", id, err)
	} else if n == 0 {
		return fmt.Errorf("sqlite store: dequeue prompt %d: %w", id, store.ErrNotFound)
	}
	return nil
}

// DropQueuedPrompts empties the queue of sessionID.
func (db *DB) DropQueuedPrompts(ctx context.Context, sessionID string) (int, error) {
	if err := db.check("drop queued prompts"); err != nil {
		return 0, err
	}
	res, err := db.writer.ExecContext(ctx, `DELETE FROM queued_prompts WHERE session_id = ?`, sessionID)
	if err != nil {
		return 0, fmt.Errorf("sqlite store: drop queued prompts of %q: %w", sessionID, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("sqlite store: drop queued prompts of %q: %w", sessionID, err)
	}
	return int(n), nil
}
