package server_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/provider"
	"github.com/hotplex/hotplex/provider/claude"
	"github.com/hotplex/hotplex/testkit"
)

// A conversation whose first turn claimed a prewarmed spare runs under the
// ID its CLI chose; after a restart the daemon resumes it under that ID.
func TestRestartResumesASpareStartedConversation(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	root, home, db := t.TempDir(), t.TempDir(), filepath.Join(t.TempDir(), "hotplex.db")
	start := func() *daemon {
		td := testkit.StartDaemon(t, testkit.DaemonOptions{
			Provider: claude.New(claude.Options{Path: fakeAgent, Name: "fakeagent", Timeouts: provider.Timeouts{TerminateGrace: 500 * time.Millisecond}}),
			Env:      append(os.Environ(), "HOME="+home), Root: root, DBPath: db, Spares: 1,
		})
		return &daemon{Daemon: td, url: td.URL, root: root, home: home, dbPath: db, alice: td.Alice, bob: td.Bob, admin: td.Admin}
	}
	d := start()
	deadline := time.Now().Add(20 * time.Second)
	for d.Engine.PoolStats().Spares < 1 {
		if time.Now().After(deadline) {
			t.Fatal("no spare")
		}
		time.Sleep(10 * time.Millisecond)
	}
	d.Create(t, d.alice, map[string]any{"id": "sp"})
	t1 := d.turn(t, d.alice, "sp", "remember the herons")
	var first event.EventWithMeta
	_ = json.Unmarshal(t1[0].Data, &first)
	if first.SessionStart == nil || !first.Spare {
		t.Fatalf("first turn did not claim the spare: %s", t1[0].Data)
	}
	d.stop()

	d2 := start()
	t2 := d2.turn(t, d2.alice, "sp", "history")
	var again event.EventWithMeta
	_ = json.Unmarshal(t2[0].Data, &again)
	if !again.Resumed || again.ProviderSessionID != first.ProviderSessionID {
		t.Fatalf("after restart: %s (first %s)", t2[0].Data, first.ProviderSessionID)
	}
	for _, e := range t2 {
		if e.Type == event.TypeAnswer && !strings.Contains(string(e.Data), "remember the herons") {
			t.Fatalf("context lost: %s", e.Data)
		}
	}
}

// A session created but never used before a restart has no conversation to
// resume: its first turn afterwards starts one without a resume notice,
// and a used session next to it still resumes.
func TestRestartedUnusedSessionStartsFresh(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	root, home, db := t.TempDir(), t.TempDir(), filepath.Join(t.TempDir(), "hotplex.db")
	d := startDaemon(t, root, home, db)
	d.Create(t, d.alice, map[string]any{"id": "unused"})
	d.Create(t, d.alice, map[string]any{"id": "used"})
	d.turn(t, d.alice, "used", "remember the herons")
	d.stop()

	d2 := startDaemon(t, root, home, db)
	var st event.EventWithMeta
	_ = json.Unmarshal(d2.turn(t, d2.alice, "unused", "hello")[0].Data, &st)
	if st.SessionStart == nil || st.Resumed || st.Fallback != "" {
		t.Fatalf("an unused session's first turn after a restart: %+v", st)
	}
	var again event.EventWithMeta
	_ = json.Unmarshal(d2.turn(t, d2.alice, "used", "history")[0].Data, &again)
	if !again.Resumed || again.Fallback != "" {
		t.Fatalf("the used session did not resume: %+v", again)
	}
}
