package storetest

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/hotplex/hotplex/store"
)

// hooks returns st as a store.HookStore, which the daemon needs of it.
func hooks(t *testing.T, st store.Store) store.HookStore {
	t.Helper()
	hs, ok := st.(store.HookStore)
	if !ok {
		t.Fatalf("%T is not a store.HookStore", st)
	}
	return hs
}

// A key's hooks come back as stored, oldest first, survive re-opening,
// are updated in place, and are another key's neither to list, to
// overwrite nor to delete.
func testHooks(t *testing.T, b Backend) {
	ctx := context.Background()
	where := b.NewDatabase(t)
	db := openAt(t, b, where)
	hs := hooks(t, db)
	if got, err := hs.Hooks(ctx, "alice"); err != nil || got == nil || len(got) != 0 {
		t.Fatalf("hooks of an empty store: %#v, %v", got, err)
	}
	t0 := time.Unix(1_800_000_000, 123_456_000).UTC()
	a1 := store.Hook{ID: "hook_a1", Owner: "alice", URL: "https://example.com/a1", Secret: "whsec_c2VjcmV0",
		Events: []string{"turn.finished", "turn.failed"}, Description: "CI", CreatedAt: t0}
	a2 := store.Hook{ID: "hook_a2", Owner: "alice", URL: "http://127.0.0.1:9/a2", Secret: "whsec_b3RoZXI=", Config: true,
		CreatedAt: t0.Add(time.Second)}
	b1 := store.Hook{ID: "hook_b1", Owner: "bob", URL: "https://example.com/b1", Secret: "whsec_Ym9i", CreatedAt: t0}
	for _, h := range []store.Hook{a2, b1, a1} {
		if err := hs.PutHook(ctx, h); err != nil {
			t.Fatalf("PutHook(%s): %v", h.ID, err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = openAt(t, b, where)
	hs = hooks(t, db)
	got, err := hs.Hooks(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	a2.Events = []string{} // none given: every type, stored as an empty list
	if !sameHooks(got, []store.Hook{a1, a2}) {
		t.Fatalf("alice's hooks after reopen:\n got %+v\nwant %+v", got, []store.Hook{a1, a2})
	}

	// An update keeps the creation time.
	a1.URL, a1.Events, a1.CreatedAt = "https://example.com/a1-moved", []string{"danger.blocked"}, time.Time{}
	if err := hs.PutHook(ctx, a1); err != nil {
		t.Fatal(err)
	}
	got, _ = hs.Hooks(ctx, "alice")
	a1.CreatedAt = t0
	if len(got) != 2 || !sameHooks(got[:1], []store.Hook{a1}) {
		t.Fatalf("after the update: %+v", got)
	}

	// Bob can neither overwrite nor delete alice's hook.
	steal := a1
	steal.Owner, steal.URL = "bob", "https://bob.example/"
	if err := hs.PutHook(ctx, steal); !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("bob's put over alice's hook: %v, want ErrInvalid", err)
	}
	if err := hs.DeleteHook(ctx, "bob", a1.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("bob's delete of alice's hook: %v, want ErrNotFound", err)
	}
	if got, _ := hs.Hooks(ctx, "alice"); len(got) != 2 || got[0].URL != a1.URL {
		t.Fatalf("alice's hooks changed: %+v", got)
	}
	if got, _ := hs.Hooks(ctx, "bob"); len(got) != 1 || got[0].ID != b1.ID {
		t.Fatalf("bob's hooks: %+v", got)
	}

	if err := hs.DeleteHook(ctx, "alice", a1.ID); err != nil {
		t.Fatal(err)
	}
	if err := hs.DeleteHook(ctx, "alice", a1.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("second delete: %v, want ErrNotFound", err)
	}
	if got, _ := hs.Hooks(ctx, "alice"); len(got) != 1 || got[0].ID != a2.ID {
		t.Fatalf("after delete: %+v", got)
	}
}

// Hooks without an ID, a URL or a secret are refused and nothing is
// written.
func testPutHookInvalid(t *testing.T, b Backend) {
	ctx := context.Background()
	hs := hooks(t, open(t, b))
	ok := store.Hook{ID: "hook_1", Owner: "alice", URL: "https://example.com/", Secret: "whsec_c2VjcmV0"}
	for _, bad := range []func(h *store.Hook){
		func(h *store.Hook) { h.ID = "" },
		func(h *store.Hook) { h.URL = "" },
		func(h *store.Hook) { h.Secret = "" },
	} {
		h := ok
		bad(&h)
		if err := hs.PutHook(ctx, h); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("PutHook(%+v): %v, want ErrInvalid", h, err)
		}
	}
	if got, err := hs.Hooks(ctx, "alice"); err != nil || len(got) != 0 {
		t.Fatalf("after refused puts: %+v, %v", got, err)
	}
}

func sameHooks(got, want []store.Hook) bool {
	return slices.EqualFunc(got, want, func(g, w store.Hook) bool {
		return g.ID == w.ID && g.Owner == w.Owner && g.URL == w.URL && g.Secret == w.Secret &&
			slices.Equal(g.Events, w.Events) && g.Description == w.Description && g.Config == w.Config &&
			sameTime(g.CreatedAt, w.CreatedAt) && g.CreatedAt.Location() == time.UTC
	})
}
