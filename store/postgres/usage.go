package postgres

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/hotplex/hotplex/store"
)

// sqlAddUsage adds one row per (session, owner, model) to the totals. The
// rows are distinct and sorted (AddModelUsage sees to it): one statement
// may not update a row twice, and two callers that lock rows in one order
// cannot deadlock.
const sqlAddUsage = `INSERT INTO model_usage AS u (session_id, owner, model, requests, input_tokens, output_tokens,
	cache_read_tokens, cache_write_tokens, cost_usd, unmetered, rejected, updated_at)
SELECT *, $12::timestamptz FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[],
	$7::bigint[], $8::bigint[], $9::float8[], $10::bigint[], $11::bigint[])
ON CONFLICT (session_id, owner, model) DO UPDATE SET
	requests = u.requests + excluded.requests,
	input_tokens = u.input_tokens + excluded.input_tokens,
	output_tokens = u.output_tokens + excluded.output_tokens,
	cache_read_tokens = u.cache_read_tokens + excluded.cache_read_tokens,
	cache_write_tokens = u.cache_write_tokens + excluded.cache_write_tokens,
	cost_usd = u.cost_usd + excluded.cost_usd,
	unmetered = u.unmetered + excluded.unmetered,
	rejected = u.rejected + excluded.rejected,
	updated_at = excluded.updated_at`

// AddModelUsage adds deltas to the stored totals in one statement, so
// that all of them count or none does.
func (db *DB) AddModelUsage(ctx context.Context, deltas []store.ModelUsage) error {
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
			return fmt.Errorf("postgres store: add model usage: %w: negative or non-finite count for session %q model %q",
				store.ErrInvalid, d.SessionID, d.Model)
		}
	}
	sum := sumUsage(deltas)
	cols := struct {
		session, owner, model                       []string
		req, in, out, cacheR, cacheW, unmet, reject []int64
		cost                                        []float64
	}{}
	for _, d := range sum {
		cols.session = append(cols.session, d.SessionID)
		cols.owner = append(cols.owner, d.Owner)
		cols.model = append(cols.model, d.Model)
		cols.req = append(cols.req, d.Requests)
		cols.in = append(cols.in, d.InputTokens)
		cols.out = append(cols.out, d.OutputTokens)
		cols.cacheR = append(cols.cacheR, d.CacheReadTokens)
		cols.cacheW = append(cols.cacheW, d.CacheWriteTokens)
		cols.cost = append(cols.cost, d.CostUSD)
		cols.unmet = append(cols.unmet, d.Unmetered)
		cols.reject = append(cols.reject, d.Rejected)
	}
	_, err := db.pool.Exec(ctx, sqlAddUsage, cols.session, cols.owner, cols.model, cols.req, cols.in, cols.out,
		cols.cacheR, cols.cacheW, cols.cost, cols.unmet, cols.reject, time.Now())
	if err != nil {
		return db.fail("add model usage", err)
	}
	return nil
}

// sumUsage adds up the deltas of each (session, owner, model), sorted by it.
func sumUsage(deltas []store.ModelUsage) []store.ModelUsage {
	sum := slices.Clone(deltas)
	key := func(a, b store.ModelUsage) int {
		return cmp.Or(cmp.Compare(a.SessionID, b.SessionID), cmp.Compare(a.Owner, b.Owner), cmp.Compare(a.Model, b.Model))
	}
	slices.SortStableFunc(sum, key)
	out := sum[:0]
	for _, d := range sum {
		if n := len(out); n > 0 && key(out[n-1], d) == 0 {
			o := &out[n-1]
			o.Requests += d.Requests
			o.InputTokens += d.InputTokens
			o.OutputTokens += d.OutputTokens
			o.CacheReadTokens += d.CacheReadTokens
			o.CacheWriteTokens += d.CacheWriteTokens
			o.CostUSD += d.CostUSD
			o.Unmetered += d.Unmetered
			o.Rejected += d.Rejected
			continue
		}
		out = append(out, d)
	}
	return out
}

// ModelUsage returns every stored total.
func (db *DB) ModelUsage(ctx context.Context) ([]store.ModelUsage, error) {
	if err := db.check("read model usage"); err != nil {
		return nil, err
	}
	rows, _ := db.pool.Query(ctx, `SELECT session_id, owner, model, requests, input_tokens, output_tokens,
		cache_read_tokens, cache_write_tokens, cost_usd, unmetered, rejected FROM model_usage ORDER BY owner, session_id, model`)
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.ModelUsage, error) {
		var u store.ModelUsage
		err := row.Scan(&u.SessionID, &u.Owner, &u.Model, &u.Requests, &u.InputTokens, &u.OutputTokens,
			&u.CacheReadTokens, &u.CacheWriteTokens, &u.CostUSD, &u.Unmetered, &u.Rejected)
		return u, err
	})
	if err != nil {
		return nil, db.fail("read model usage", err)
	}
	return out, nil
}
