package sqlite

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/hotplex/hotplex/store"
)

const keyColumns = `id, name, hash, admin, created_at, revoked_at, expires_at`

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
		return fmt.Errorf("sqlite store: put api key: %w: empty ID", store.ErrInvalid)
	case len(k.Hash) != sha256.Size:
		return fmt.Errorf("sqlite store: put api key %q: %w: hash is %d bytes, want %d (SHA-256)",
			k.ID, store.ErrInvalid, len(k.Hash), sha256.Size)
	}
	if k.CreatedAt.IsZero() {
		k.CreatedAt = time.Now()
	}
	var revoked, expires any
	if k.RevokedAt != nil {
		revoked = nanos(*k.RevokedAt)
	}
	if k.ExpiresAt != nil {
		expires = nanos(*k.ExpiresAt)
	}
	_, err := db.writer.ExecContext(ctx, `INSERT INTO api_keys (`+keyColumns+`)
		VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET
			name = excluded.name,
			hash = excluded.hash,
			admin = excluded.admin,
			revoked_at = coalesce(api_keys.revoked_at, excluded.revoked_at),
			expires_at = excluded.expires_at`,
		k.ID, k.Name, k.Hash, k.Admin, nanos(k.CreatedAt), revoked, expires)
	if isConstraint(err, codeUnique) {
		return fmt.Errorf("sqlite store: put api key %q: %w: another key has the same hash", k.ID, store.ErrInvalid)
	}
	if err != nil {
		return fmt.Errorf("sqlite store: put api key %q: %w", k.ID, err)
	}
	return nil
}

// sqlKeyByHash is APIKeyByHash's statement, prepared once in Open.
const sqlKeyByHash = `SELECT ` + keyColumns + ` FROM api_keys WHERE hash = ? AND revoked_at IS NULL
	AND (expires_at IS NULL OR expires_at > ?)`

// APIKeyByHash returns the unrevoked, unexpired key whose secret hashes to
// hash, or an error wrapping store.ErrNotFound.
func (db *DB) APIKeyByHash(ctx context.Context, hash []byte) (store.APIKey, error) {
	if err := db.check("find api key"); err != nil {
		return store.APIKey{}, err
	}
	row := db.stmtKeyByHash.QueryRowContext(ctx, hash, time.Now().UnixNano())
	k, err := scanKey(row)
	if errors.Is(err, sql.ErrNoRows) {
		return store.APIKey{}, fmt.Errorf("sqlite store: find api key by hash: %w", store.ErrNotFound)
	}
	if err != nil {
		return store.APIKey{}, fmt.Errorf("sqlite store: find api key by hash: %w", err)
	}
	return k, nil
}

// ListAPIKeys returns every key, revoked ones included, oldest first.
func (db *DB) ListAPIKeys(ctx context.Context) ([]store.APIKey, error) {
	if err := db.check("list api keys"); err != nil {
		return nil, err
	}
	rows, err := db.reader.QueryContext(ctx, `SELECT `+keyColumns+` FROM api_keys ORDER BY created_at, id`)
	if err != nil {
		return nil, fmt.Errorf("sqlite store: list api keys: %w", err)
	}
	defer rows.Close()
	list := []store.APIKey{}
	for rows.Next() {
		k, err := scanKey(rows)
		if err != nil {
			return nil, fmt.Errorf("sqlite store: list api keys: %w", err)
		}
		list = append(list, k)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite store: list api keys: %w", err)
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
	res, err := db.writer.ExecContext(ctx,
		`UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?`, time.Now().UnixNano(), id)
	if err != nil {
		return fmt.Errorf("sqlite store: revoke api key %q: %w", id, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("sqlite store: revoke api key %q: %w", id, err)
	}
	if n == 0 {
		return fmt.Errorf("sqlite store: revoke api key %q: %w", id, store.ErrNotFound)
	}
	return nil
}

func scanKey(r scanner) (store.APIKey, error) {
	var (
		k       store.APIKey
		created int64
		revoked sql.NullInt64
		expires sql.NullInt64
	)
	if err := r.Scan(&k.ID, &k.Name, &k.Hash, &k.Admin, &created, &revoked, &expires); err != nil {
		return store.APIKey{}, err
	}
	k.CreatedAt = fromNanos(created)
	if revoked.Valid {
		t := fromNanos(revoked.Int64)
		k.RevokedAt = &t
	}
	if expires.Valid {
		t := fromNanos(expires.Int64)
		k.ExpiresAt = &t
	}
	return k, nil
}
