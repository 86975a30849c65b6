package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/hotplex/hotplex/store"
)

var _ store.QueueStore = (*DB)(nil)

// EnqueuePrompt appends p to its session's queue. The session's row is
// locked for the transaction, so that prompts queued at once by several
// nodes get distinct positions in id order.
func (db *DB) EnqueuePrompt(ctx context.Context, p store.QueuedPrompt) (store.QueuedPrompt, int, error) {
	if err := db.check("enqueue prompt"); err != nil {
		return p, 0, err
	}
	if strings.TrimSpace(p.Prompt) == "" {
		return p, 0, fmt.Errorf("postgres store: enqueue prompt: %w: empty prompt", store.ErrInvalid)
	}
	if p.CreatedAt.IsZero() {
		p.CreatedAt = time.Now()
	}
	p.CreatedAt = p.CreatedAt.UTC().Truncate(time.Microsecond)
	pos := 0
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		var id string
		if err := tx.QueryRow(ctx, `SELECT id FROM sessions WHERE id = $1 FOR UPDATE`, p.SessionID).Scan(&id); err != nil {
			if errors.Is(err, pgx.ErrNoRows) {
				return store.ErrNotFound
			}
			return err
		}
		if err := tx.QueryRow(ctx, `INSERT INTO queued_prompts (session_id, prompt, task_system_prompt, created_at)
			VALUES ($1, $2, $3, $4) RETURNING id`, p.SessionID, p.Prompt, p.TaskSystemPrompt, p.CreatedAt).Scan(&p.ID); err != nil {
			return err
		}
		return tx.QueryRow(ctx, `SELECT count(*) FROM queued_prompts WHERE session_id = $1 AND id <= $2`, p.SessionID, p.ID).Scan(&pos)
	})
	if errors.Is(err, store.ErrNotFound) {
		return p, 0, fmt.Errorf("postgres store: enqueue prompt for %q: %w", p.SessionID, store.ErrNotFound)
	}
	if err != nil {
		return p, 0, db.fail(fmt.Sprintf("enqueue prompt for %q", p.SessionID), err)
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
		q += ` WHERE session_id = $1`
		args = append(args, sessionID)
	}
	rows, _ := db.pool.Query(ctx, q+` ORDER BY session_id, id`, args...)
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.QueuedPrompt, error) {
		var p store.QueuedPrompt
		err := row.Scan(&p.ID, &p.SessionID, &p.Prompt, &p.TaskSystemPrompt, &p.CreatedAt)
		p.CreatedAt = p.CreatedAt.UTC()
		return p, err
	})
	if err != nil {
		return nil, db.fail("list queued prompts", err)
	}
	if out == nil {
		out = []store.QueuedPrompt{}
	}
	return out, nil
}

// DequeuePrompt removes the queued prompt id.
func (db *DB) DequeuePrompt(ctx context.Context, id int64) error {
	if err := db.check("dequeue prompt"); err != nil {
		return err
	}
	tag, err := db.pool.Exec(ctx, `DELETE FROM queued_prompts WHERE id = $1`, id)
	if err != nil {
		return db.fail(fmt.Sprintf("dequeue prompt %d", id), err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("postgres store: dequeue prompt %d: %w", id, store.ErrNotFound)
	}
	return nil
}

// DropQueuedPrompts empties the queue of sessionID.
func (db *DB) DropQueuedPrompts(ctx context.Context, sessionID string) (int, error) {
	if err := db.check("drop queued prompts"); err != nil {
		return 0, err
	}
	tag, err := db.pool.Exec(ctx, `DELETE FROM queued_prompts WHERE session_id = $1`, sessionID)
	if err != nil {
		return 0, db.fail(fmt.Sprintf("drop queued prompts of %q", sessionID), err)
	}
	return int(tag.RowsAffected()), nil
}
