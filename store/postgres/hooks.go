package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

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
		return fmt.Errorf("postgres store: put hook: %w", err)
	}
	if h.CreatedAt.IsZero() {
		h.CreatedAt = time.Now()
	}
	events := h.Events
	if events == nil {
		events = []string{}
	}
	js, err := json.Marshal(events)
	if err != nil {
		return fmt.Errorf("postgres store: put hook %q: %w", h.ID, err)
	}
	tag, err := db.pool.Exec(ctx, `INSERT INTO hooks AS h (`+hookColumns+`)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
		ON CONFLICT (id) DO UPDATE SET
			url = excluded.url,
			secret = excluded.secret,
			events = excluded.events,
			description = excluded.description,
			config = excluded.config
		WHERE h.owner = excluded.owner`,
		h.ID, h.Owner, h.URL, h.Secret, string(js), h.Description, h.Config, h.CreatedAt)
	if err != nil {
		return db.fail(fmt.Sprintf("put hook %q", h.ID), err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("postgres store: put hook %q: %w: the ID is another owner's hook", h.ID, store.ErrInvalid)
	}
	return nil
}

// Hooks returns owner's hooks, oldest first.
func (db *DB) Hooks(ctx context.Context, owner string) ([]store.Hook, error) {
	if err := db.check("list hooks"); err != nil {
		return nil, err
	}
	rows, _ := db.pool.Query(ctx, `SELECT `+hookColumns+` FROM hooks WHERE owner = $1 ORDER BY created_at, id`, owner)
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.Hook, error) {
		var (
			h      store.Hook
			events []byte
		)
		if err := row.Scan(&h.ID, &h.Owner, &h.URL, &h.Secret, &events, &h.Description, &h.Config, &h.CreatedAt); err != nil {
			return h, err
		}
		if err := json.Unmarshal(events, &h.Events); err != nil {
			return h, fmt.Errorf("hook %q: events: %w", h.ID, err)
		}
		h.CreatedAt = h.CreatedAt.UTC()
		return h, nil
	})
	if err != nil {
		return nil, db.fail("list hooks", err)
	}
	if out == nil {
		out = []store.Hook{}
	}
	return out, nil
}

// DeleteHook removes owner's hook id.
func (db *DB) DeleteHook(ctx context.Context, owner, id string) error {
	if err := db.check("delete hook"); err != nil {
		return err
	}
	tag, err := db.pool.Exec(ctx, `DELETE FROM hooks WHERE id = $1 AND owner = $2`, id, owner)
	if err != nil {
		return db.fail(fmt.Sprintf("delete hook %q", id), err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("postgres store: delete hook %q: %w", id, store.ErrNotFound)
	}
	return nil
}
