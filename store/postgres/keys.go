package postgres

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/hotplex/hotplex/store"
)

const keyColumns = `id, name, hash, admin, created_at, revoked_at, expires_at`

// uniqueKeyHash is the constraint that keeps two keys from sharing a hash.
const uniqueKeyHash = "api_keys_hash_key"

// PutAPIKey inserts or updates the key k.ID. A zero CreatedAt becomes now
// and an existing key keeps its CreatedAt. Revocation is sticky: putting a
// revoked key with a nil RevokedAt does not bring it back. Two keys cannot
// share a hash.
func (db *DB) PutAPIKey(ctx context.Context, k store.APIKey) error {
	if err := db.check("put api key"); err != nil {
		return err
	}
	switch {
	case k.ID == "":
		return fmt.Errorf("postgres store: put api key: %w: empty ID", store.ErrInvalid)
	case len(k.Hash) != sha256.Size:
		return fmt.Errorf("postgres store: put api key %q: %w: hash is %d bytes, want %d (SHA-256)",
			k.ID, store.ErrInvalid, len(k.Hash), sha256.Size)
	}
	if k.CreatedAt.IsZero() {
		k.CreatedAt = time.Now()
	}
	_, err := db.pool.Exec(ctx, `INSERT INTO api_keys (`+keyColumns+`)
		VALUES ($1, $2, $3, $4, $5, $6, $7)
		ON CONFLICT (id) DO UPDATE SET
			name = excluded.name,
			hash = excluded.hash,
			admin = excluded.admin,
			revoked_at = coalesce(api_keys.revoked_at, excluded.revoked_at),
			expires_at = excluded.expires_at`,
		k.ID, k.Name, k.Hash, k.Admin, k.CreatedAt, k.RevokedAt, k.ExpiresAt)
	if uniqueViolation(err, uniqueKeyHash) {
		return fmt.Errorf("postgres store: put api key %q: %w: another key has the same hash", k.ID, store.ErrInvalid)
	}
	if err != nil {
		return db.fail(fmt.Sprintf("put api key %q", k.ID), err)
	}
	return nil
}

// APIKeyByHash returns the unrevoked, unexpired key whose secret hashes to
// hash, or an error wrapping store.ErrNotFound. Expiry is judged by this
// process's clock, as APIKey.Valid is.
func (db *DB) APIKeyByHash(ctx context.Context, hash []byte) (store.APIKey, error) {
	if err := db.check("find api key"); err != nil {
		return store.APIKey{}, err
	}
	rows, _ := db.pool.Query(ctx, `SELECT `+keyColumns+` FROM api_keys WHERE hash = $1 AND revoked_at IS NULL
			AND (expires_at IS NULL OR expires_at > $2)`, hash, time.Now())
	k, err := pgx.CollectExactlyOneRow(rows, scanKey)
	if errors.Is(err, pgx.ErrNoRows) {
		return store.APIKey{}, fmt.Errorf("postgres store: find api key by hash: %w", store.ErrNotFound)
	}
	if err != nil {
		return store.APIKey{}, db.fail("find api key by hash", err)
	}
	return k, nil
}

// ListAPIKeys returns every key, revoked ones included, oldest first.
func (db *DB) ListAPIKeys(ctx context.Context) ([]store.APIKey, error) {
	if err := db.check("list api keys"); err != nil {
		return nil, err
	}
	rows, _ := db.pool.Query(ctx, `SELECT `+keyColumns+` FROM api_keys ORDER BY created_at, id`)
	list, err := pgx.CollectRows(rows, scanKey)
	if err != nil {
		return nil, db.fail("list api keys", err)
	}
	if list == nil {
		list = []store.APIKey{}
	}
	return list, nil
}

// RevokeAPIKey revokes the key id, keeping the first revocation time if it
// already is revoked. It returns an error wrapping store.ErrNotFound if
// there is no such key.
func (db *DB) RevokeAPIKey(ctx context.Context, id string) error {
	if err := db.check("revoke api key"); err != nil {
		return err
	}
	tag, err := db.pool.Exec(ctx, `UPDATE api_keys SET revoked_at = coalesce(revoked_at, $1) WHERE id = $2`, time.Now(), id)
	if err != nil {
		return db.fail(fmt.Sprintf("revoke api key %q", id), err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("postgres store: revoke api key %q: %w", id, store.ErrNotFound)
	}
	return nil
}

func scanKey(row pgx.CollectableRow) (store.APIKey, error) {
	var k store.APIKey
	if err := row.Scan(&k.ID, &k.Name, &k.Hash, &k.Admin, &k.CreatedAt, &k.RevokedAt, &k.ExpiresAt); err != nil {
		return store.APIKey{}, err
	}
	k.CreatedAt = k.CreatedAt.UTC()
	for _, t := range []*time.Time{k.RevokedAt, k.ExpiresAt} {
		if t != nil {
			*t = t.UTC()
		}
	}
	return k, nil
}
