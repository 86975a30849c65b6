package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"testing"

	"github.com/hotplex/hotplex/store"
)

// Sessions stored before IDs were per owner keep working: their ID is
// their public ID too.
func TestSessionsFromBeforeOwnerIDs(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	raw, err := sql.Open(driverName, path)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := migrations()
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{sqlCreateMigrations, ms[0].SQL,
		`INSERT INTO schema_migrations VALUES (1, '` + ms[0].Name + `', 0)`,
		`INSERT INTO sessions (id, owner, created_at, updated_at) VALUES ('legacy', 'key-a', 1, 1)`} {
		if _, err := raw.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if err := raw.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	got, err := db.FindSession(ctx, "key-a", "legacy")
	if err != nil || got.ID != "legacy" || got.PublicID != "legacy" || got.Nonce != "" {
		t.Fatalf("legacy session = %+v, %v", got, err)
	}
	if err := db.PutSession(ctx, store.Session{ID: "legacy~n", PublicID: "legacy", Nonce: "n", Owner: "key-a"}); !errors.Is(err, store.ErrExists) {
		t.Fatalf("a second legacy of key-a: %v", err)
	}
}
