package server_test

import (
	"context"
	"net/http"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/hotplex/hotplex/server"
	"github.com/hotplex/hotplex/store"
	"github.com/hotplex/hotplex/testkit"
)

// findCounter counts the store's lookups of sessions by their owner's ID.
type findCounter struct {
	store.Database
	finds atomic.Int64
}

func (f *findCounter) FindSession(ctx context.Context, owner, id string) (store.Session, error) {
	f.finds.Add(1)
	return f.Database.FindSession(ctx, owner, id)
}

// A warm turn does not read its session from the store: the server
// remembers it while the engine holds it. Deleting it, or creating it
// again under the same ID, is seen at the next prompt.
func TestPromptsRememberTheirSession(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	var fc *findCounter
	d := startDaemonOn(t, t.TempDir(), testkit.DaemonOptions{
		Root: t.TempDir(), DBPath: filepath.Join(t.TempDir(), "hotplex.db"),
		Server: func(o *server.Options) {
			fc = &findCounter{Database: o.Store.(store.Database)}
			o.Store = fc
		},
	})
	d.Create(t, d.alice, map[string]any{"id": "warm"})
	d.turn(t, d.alice, "warm", "one")
	before := fc.finds.Load()
	for _, p := range []string{"two", "three"} {
		if evs := d.turn(t, d.alice, "warm", p); evs[len(evs)-1].Type != "result" {
			t.Fatalf("turn %q: %v", p, types(evs))
		}
	}
	if got := fc.finds.Load() - before; got != 0 {
		t.Fatalf("two warm turns read their session from the store %d times", got)
	}

	// Another owner's ID is not served from what alice's prompts taught.
	if resp := d.Do(t, "POST", "/v1/sessions/warm/messages", d.bob, map[string]string{"prompt": "x"}); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("bob's prompt to alice's session: %d", resp.StatusCode)
	}

	first := testkit.Decode[map[string]any](t, d.Do(t, "GET", "/v1/sessions/warm", d.alice, nil))
	if resp := d.Do(t, "DELETE", "/v1/sessions/warm", d.alice, nil); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("delete: %d", resp.StatusCode)
	}
	if resp := d.Do(t, "POST", "/v1/sessions/warm/messages", d.alice, map[string]string{"prompt": "gone"}); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("a prompt to a deleted session: %d", resp.StatusCode)
	}
	d.Create(t, d.alice, map[string]any{"id": "warm"})
	evs := d.turn(t, d.alice, "warm", "again")
	if evs[0].ID != 1 {
		t.Fatalf("the re-created session's first turn starts at event %d", evs[0].ID)
	}
	second := testkit.Decode[map[string]any](t, d.Do(t, "GET", "/v1/sessions/warm", d.alice, nil))
	if first["key"] == nil || first["key"] == second["key"] {
		t.Fatalf("the re-created session has the key %v of the deleted one, %v", second["key"], first["key"])
	}
}
