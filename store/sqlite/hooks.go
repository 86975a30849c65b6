package sqlite

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/hotplex/hotplex/store"
)

var _ store.HookStore = (*DB)(nil)

const hookColumns = `id, owner, url, secret, events, description, config, created_at`

// PutHook inserts or updates the hook h.ID, keeping an existing hook's
// CreatedAt. The update is refused when the stored hook is another
// owner's.
func (db *DB) PutHook(ctx context.Context, h store.Hook) error {
	if err := db.check("put hook"); err != nil {
		return err
	}
	if err := h.Validate(); err != nil {
		return fmt.Errorf("sqlite store: put hook: %w", err)
	}
	if h.CreatedAt.IsZero() {
		h.CreatedAt = time.Now()
	}
	events, err := json.Marshal(nonNil(h.Events))
	if err != nil {
		return fmt.Errorf("sqlite store: put hook %q: %w", h.ID, err)
	}
	res, err := db.writer.ExecContext(ctx, `INSERT INTO hooks (`+hookColumns+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET
			url = excluded.url,
			secret = excluded.secret,
			events = excluded.events,
			description = excluded.description,
			config = excluded.config
		WHERE hooks.owner = excluded.owner`,
		h.ID, h.Owner, h.URL, h.Secret, string(events), h.Description, h.Config, nanos(h.CreatedAt))
	if err != nil {
		return fmt.Errorf("sqlite store: put hook %q: %w", h.ID, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("sqlite store: put hook %q: %w", h.ID, err)
	} else if n == 0 {
		return fmt.Errorf("sqlite store: put hook %q: %w: the ID is another owner's hook", h.ID, store.ErrInvalid)
	}
	return nil
}

// sqlHooks is Hooks' statement, prepared once in Open.
const sqlHooks = `SELECT ` + hookColumns + ` FROM hooks WHERE owner = ? ORDER BY created_at, id`

// Hooks returns owner's hooks, oldest first.
func (db *DB) Hooks(ctx context.Context, owner string) ([]store.Hook, error) {
	if err := db.check("list hooks"); err != nil {
		return nil, err
	}
	rows, err := db.stmtHooks.QueryContext(ctx, owner)
	if err != nil {
		return nil, fmt.Errorf("sqlite store: list hooks: %w", err)
	}
	defer rows.Close()
	out := []store.Hook{}
	for rows.Next() {
		var (
			h       store.Hook
			events  string
			created int64
		)
		if err := rows.Scan(&h.ID, &h.Owner, &h.URL, &h.Secret, &events, &h.Description, &h.Config, &created); err != nil {
			return nil, fmt.Errorf("sqlite store: list hooks: %w", err)
		}
		if err := json.Unmarshal([]byte(events), &h.Events); err != nil {
			return nil, fmt.Errorf("sqlite store: list hooks: hook %q: events: %w", h.ID, err)
		}
		h.CreatedAt = fromNanos(created)
		out = append(out, h)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite store: list hooks: %w", err)
	}
	return out, nil
}

// DeleteHook removes owner's hook id.
func (db *DB) DeleteHook(ctx context.Context, owner, id string) error {
	if err := db.check("delete hook"); err != nil {
		return err
	}
	res, err := db.writer.ExecContext(ctx, `DELETE FROM hooks WHERE id = ? AND owner = ?`, id, owner)
	if err != nil {
		return fmt.Errorf("sqlite store: delete hook %q: %w", id, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("sqlite store: delete hook %q: %w", id, err)
	}
	if n == 0 {
		return fmt.Errorf("sqlite store: delete hook %q: %w", id, store.ErrNotFound)
	}
	return nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
