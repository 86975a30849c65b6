package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
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

// Finding an owner's session reads the live sessions' index on (owner,
// public ID), not every session the owner ever had.
func TestFindSessionUsesTheLiveSessionsIndex(t *testing.T) {
	db := openTest(t)
	rows, err := db.reader.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+sqlFindSession, "alice", "s1")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if len(plan) != 1 || !strings.Contains(plan[0], "USING INDEX sessions_owner_public_id (owner=? AND public_id=?)") {
		t.Fatalf("plan %q", plan)
	}
}
