package sqlite

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/hotplex/hotplex/store"
)

var _ store.UsageStore = (*DB)(nil)

const sqlAddUsage = `INSERT INTO model_usage (session_id, owner, model, requests, input_tokens, output_tokens,
	cache_read_tokens, cache_write_tokens, cost_usd, unmetered, rejected, updated_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (session_id, owner, model) DO UPDATE SET
	requests = requests + excluded.requests,
	input_tokens = input_tokens + excluded.input_tokens,
	output_tokens = output_tokens + excluded.output_tokens,
	cache_read_tokens = cache_read_tokens + excluded.cache_read_tokens,
	cache_write_tokens = cache_write_tokens + excluded.cache_write_tokens,
	cost_usd = cost_usd + excluded.cost_usd,
	unmetered = unmetered + excluded.unmetered,
	rejected = rejected + excluded.rejected,
	updated_at = excluded.updated_at`

// AddModelUsage adds deltas to the stored totals in one transaction.
func (db *DB) AddModelUsage(ctx context.Context, deltas []store.ModelUsage) (err error) {
	if err := db.check("add model usage"); err != nil {
		return err
	}
	if len(deltas) == 0 {
		return nil
	}
	for _, d := range deltas {
		if d.Requests < 0 || d.InputTokens < 0 || d.OutputTokens < 0 || d.CacheReadTokens < 0 ||
			d.CacheWriteTokens < 0 || d.CostUSD < 0 || d.Unmetered < 0 || d.Rejected < 0 ||
			math.IsNaN(d.CostUSD) || math.IsInf(d.CostUSD, 0) {
			return fmt.Errorf("sqlite store: add model usage: %w: negative or non-finite count for session %q model %q",
				store.ErrInvalid, d.SessionID, d.Model)
		}
	}
	tx, err := db.writer.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite store: add model usage: %w", err)
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback()
		}
	}()
	stmt, err := tx.PrepareContext(ctx, sqlAddUsage)
	if err != nil {
		return fmt.Errorf("sqlite store: add model usage: %w", err)
	}
	defer stmt.Close()
	now := time.Now().UnixNano()
	for _, d := range deltas {
		if _, err := stmt.ExecContext(ctx, d.SessionID, d.Owner, d.Model, d.Requests, d.InputTokens, d.OutputTokens,
			d.CacheReadTokens, d.CacheWriteTokens, d.CostUSD, d.Unmetered, d.Rejected, now); err != nil {
			return fmt.Errorf("sqlite store: add model usage: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlite store: add model usage: %w", err)
	}
	return nil
}

// ModelUsage returns every stored total.
func (db *DB) ModelUsage(ctx context.Context) ([]store.ModelUsage, error) {
	if err := db.check("read model usage"); err != nil {
		return nil, err
	}
	rows, err := db.reader.QueryContext(ctx, `SELECT session_id, owner, model, requests, input_tokens, output_tokens,
		cache_read_tokens, cache_write_tokens, cost_usd, unmetered, rejected FROM model_usage ORDER BY owner, session_id, model`)
	if err != nil {
		return nil, fmt.Errorf("sqlite store: read model usage: %w", err)
	}
	defer rows.Close()
	var out []store.ModelUsage
	for rows.Next() {
		var u store.ModelUsage
		if err := rows.Scan(&u.SessionID, &u.Owner, &u.Model, &u.Requests, &u.InputTokens, &u.OutputTokens,
			&u.CacheReadTokens, &u.CacheWriteTokens, &u.CostUSD, &u.Unmetered, &u.Rejected); err != nil {
			return nil, fmt.Errorf("sqlite store: read model usage: %w", err)
		}
		out = append(out, u)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite store: read model usage: %w", err)
	}
	return out, nil
}
