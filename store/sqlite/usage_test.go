package sqlite

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/hotplex/hotplex/store"
)

// Usage adds up across calls and survives re-opening the file; deleting a
// session folds its spend into its owner's, so the key's budget still
// counts it.
func TestModelUsageAddsPersistsAndFoldsOnDelete(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "hotplex.db")
	db, err := Open(ctx, path, WithLogger(testLogger(t)))
	if err != nil {
		t.Fatal(err)
	}
	putSession(t, db, "s1", "alice")
	putSession(t, db, "s2", "alice")
	add := func(d ...store.ModelUsage) {
		t.Helper()
		if err := db.AddModelUsage(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	add(store.ModelUsage{SessionID: "s1", Owner: "alice", Model: "m", Requests: 1, InputTokens: 10, OutputTokens: 5, CostUSD: 0.25},
		store.ModelUsage{SessionID: "s2", Owner: "alice", Model: "m", Requests: 1, InputTokens: 1, CacheReadTokens: 7, CostUSD: 0.5})
	add(store.ModelUsage{SessionID: "s1", Owner: "alice", Model: "m", Requests: 2, OutputTokens: 3, CacheWriteTokens: 4, CostUSD: 0.125, Unmetered: 1},
		store.ModelUsage{SessionID: "s1", Owner: "alice", Rejected: 1})
	if err := db.AddModelUsage(ctx, []store.ModelUsage{{SessionID: "s1", Owner: "alice", Model: "m", CostUSD: -1}}); !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("negative cost: %v", err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	db = openAt(t, path)
	got, err := db.ModelUsage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []store.ModelUsage{
		{SessionID: "s1", Owner: "alice", Rejected: 1},
		{SessionID: "s1", Owner: "alice", Model: "m", Requests: 3, InputTokens: 10, OutputTokens: 8, CacheWriteTokens: 4, CostUSD: 0.375, Unmetered: 1},
		{SessionID: "s2", Owner: "alice", Model: "m", Requests: 1, InputTokens: 1, CacheReadTokens: 7, CostUSD: 0.5},
	}
	if !equalUsage(got, want) {
		t.Fatalf("after reopen:\n got %+v\nwant %+v", got, want)
	}

	if err := db.DeleteSession(ctx, "s1"); err != nil {
		t.Fatal(err)
	}
	if err := db.DeleteSession(ctx, "s2"); err != nil {
		t.Fatal(err)
	}
	got, err = db.ModelUsage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want = []store.ModelUsage{
		{Owner: "alice", Rejected: 1},
		{Owner: "alice", Model: "m", Requests: 4, InputTokens: 11, OutputTokens: 8, CacheReadTokens: 7, CacheWriteTokens: 4, CostUSD: 0.875, Unmetered: 1},
	}
	if !equalUsage(got, want) {
		t.Fatalf("after deleting the sessions:\n got %+v\nwant %+v", got, want)
	}
}

func equalUsage(a, b []store.ModelUsage) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
