package storetest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/hotplex/hotplex/store"
)

// Usage adds up across calls and survives re-opening the store; deleting
// a session folds its spend into its owner's, so the key's budget still
// counts it.
func testModelUsage(t *testing.T, b Backend) {
	ctx := context.Background()
	where := b.NewDatabase(t)
	db := openAt(t, b, where)
	us := usage(t, db)
	if got, err := us.ModelUsage(ctx); err != nil || len(got) != 0 {
		t.Fatalf("usage of an empty store: %+v, %v", got, err)
	}
	PutSession(t, db, "s1", "alice")
	PutSession(t, db, "s2", "alice")
	PutSession(t, db, "s3", "bob")
	add := func(d ...store.ModelUsage) {
		t.Helper()
		if err := us.AddModelUsage(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	add(store.ModelUsage{SessionID: "s1", Owner: "alice", Model: "m", Requests: 1, InputTokens: 10, OutputTokens: 5, CostUSD: 0.25},
		store.ModelUsage{SessionID: "s2", Owner: "alice", Model: "m", Requests: 1, InputTokens: 1, CacheReadTokens: 7, CostUSD: 0.5})
	// One call may name a (session, owner, model) more than once.
	add(store.ModelUsage{SessionID: "s1", Owner: "alice", Model: "m", Requests: 1, OutputTokens: 3, CacheWriteTokens: 4, CostUSD: 0.125, Unmetered: 1},
		store.ModelUsage{SessionID: "s1", Owner: "alice", Rejected: 1},
		store.ModelUsage{SessionID: "s1", Owner: "alice", Model: "m", Requests: 1},
		store.ModelUsage{SessionID: "s3", Owner: "bob", Model: "m", Requests: 1, CostUSD: 1})
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	db = openAt(t, b, where)
	us = usage(t, db)
	got, err := us.ModelUsage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []store.ModelUsage{
		{SessionID: "s1", Owner: "alice", Rejected: 1},
		{SessionID: "s1", Owner: "alice", Model: "m", Requests: 3, InputTokens: 10, OutputTokens: 8, CacheWriteTokens: 4, CostUSD: 0.375, Unmetered: 1},
		{SessionID: "s2", Owner: "alice", Model: "m", Requests: 1, InputTokens: 1, CacheReadTokens: 7, CostUSD: 0.5},
		{SessionID: "s3", Owner: "bob", Model: "m", Requests: 1, CostUSD: 1},
	}
	if !slices.Equal(got, want) {
		t.Fatalf("after reopen:\n got %+v\nwant %+v", got, want)
	}

	if err := db.DeleteSession(ctx, "s1"); err != nil {
		t.Fatal(err)
	}
	if err := db.DeleteSession(ctx, "s2"); err != nil {
		t.Fatal(err)
	}
	got, err = us.ModelUsage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want = []store.ModelUsage{
		{Owner: "alice", Rejected: 1},
		{Owner: "alice", Model: "m", Requests: 4, InputTokens: 11, OutputTokens: 8, CacheReadTokens: 7, CacheWriteTokens: 4, CostUSD: 0.875, Unmetered: 1},
		{SessionID: "s3", Owner: "bob", Model: "m", Requests: 1, CostUSD: 1},
	}
	if !slices.Equal(got, want) {
		t.Fatalf("after deleting alice's sessions:\n got %+v\nwant %+v", got, want)
	}
}

// A delta the store cannot add fails the whole call, and nothing of it
// counts.
func testModelUsageInvalid(t *testing.T, b Backend) {
	ctx := context.Background()
	us := usage(t, open(t, b))
	ok := store.ModelUsage{SessionID: "s", Owner: "alice", Model: "m", Requests: 1, CostUSD: 0.5}
	for name, bad := range map[string]store.ModelUsage{
		"negative cost":     {SessionID: "s", Owner: "alice", Model: "m", CostUSD: -1},
		"negative requests": {SessionID: "s", Owner: "alice", Model: "m", Requests: -1},
		"negative tokens":   {SessionID: "s", Owner: "alice", Model: "m", OutputTokens: -5},
		"NaN cost":          {SessionID: "s", Owner: "alice", Model: "m", CostUSD: math.NaN()},
		"infinite cost":     {SessionID: "s", Owner: "alice", Model: "m", CostUSD: math.Inf(1)},
	} {
		if err := us.AddModelUsage(ctx, []store.ModelUsage{ok, bad}); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("%s: %v, want ErrInvalid", name, err)
		}
	}
	if err := us.AddModelUsage(ctx, nil); err != nil {
		t.Fatalf("no deltas: %v", err)
	}
	if got, err := us.ModelUsage(ctx); err != nil || len(got) != 0 {
		t.Fatalf("refused deltas were stored: %+v, %v", got, err)
	}
}

// The gateway adding usage while a session is deleted: every request
// added is counted once, under the session or folded into its owner's
// row, whichever way the two interleave.
func testModelUsageConservedThroughDelete(t *testing.T, b Backend) {
	ctx := context.Background()
	where := b.NewDatabase(t)
	dbs := []store.Store{openAt(t, b, where), openAt(t, b, where)}
	const sessions, adds = 10, 20
	var added atomic.Int64
	for i := range sessions {
		id := fmt.Sprintf("s%d", i)
		PutSession(t, dbs[0], id, "alice")
		if err := usage(t, dbs[0]).AddModelUsage(ctx, []store.ModelUsage{{SessionID: id, Owner: "alice", Model: "m", Requests: 1}}); err != nil {
			t.Fatal(err)
		}
		added.Add(1)
		var wg sync.WaitGroup
		wg.Go(func() {
			for range adds {
				d := []store.ModelUsage{{SessionID: id, Owner: "alice", Model: "m", Requests: 1}}
				if err := usage(t, dbs[1]).AddModelUsage(ctx, d); err != nil {
					t.Errorf("add: %v", err)
					return
				}
				added.Add(1)
			}
		})
		wg.Go(func() {
			if err := dbs[0].DeleteSession(ctx, id); err != nil {
				t.Errorf("delete %s: %v", id, err)
			}
		})
		wg.Wait()
	}
	got, err := usage(t, dbs[0]).ModelUsage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var requests int64
	for _, u := range got {
		requests += u.Requests
	}
	if requests != added.Load() {
		t.Fatalf("%d requests stored, %d added: %+v", requests, added.Load(), got)
	}
	if got[0].SessionID != "" || got[0].Requests < sessions {
		t.Fatalf("deleted sessions' usage not folded into the owner's row: %+v", got)
	}
}
