package engine_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/testkit"
)

// DeleteSession fails the turns waiting for the session, starts no
// process for it again, and removes the CLI's transcript; a turn that must
// find the session finds nothing afterwards.
func TestDeleteSessionFailsWaitersAndForgets(t *testing.T) {
	root := t.TempDir()
	f := newFixture(t, engine.EngineOptions{WorkDirRoot: root})
	const id = "gone~n1"
	if err := f.eng.RestoreSession(id, engine.SessionConfig{WorkDir: "w", Owner: "alice", Nonce: "n1"}, 0, nil); err != nil {
		t.Fatal(err)
	}
	live, _ := f.eng.GetSession(id)
	if want := engine.OwnedProviderSessionID("", "alice", id, "n1"); live.ProviderSessionID != want || want == engine.ProviderSessionID("", id) {
		t.Fatalf("provider session ID %s, want %s", live.ProviderSessionID, want)
	}
	realRoot, _ := filepath.EvalSymlinks(root)
	if want := filepath.Join(realRoot, engine.OwnerDir("alice"), "w"); live.Config.WorkDir != want {
		t.Fatalf("work dir %s, want %s", live.Config.WorkDir, want)
	}
	execWith := func(prompt string, cb engine.Callback) error {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		return f.eng.Execute(ctx, &engine.Config{SessionID: id, Owner: "alice", MustExist: true}, prompt, cb)
	}
	exec := func(prompt string) error { return execWith(prompt, nil) }
	if err := exec("first"); err != nil {
		t.Fatal(err)
	}
	transcript := filepath.Join(f.home, ".claude", "projects", strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '-'
	}, live.Config.WorkDir), live.ProviderSessionID+".jsonl")
	if _, err := os.Stat(transcript); err != nil {
		t.Fatalf("no transcript: %v", err)
	}

	// The slow turn is running once the agent's init frame came.
	slow := make(chan error, 1)
	inTurn := make(chan struct{})
	var once sync.Once
	go func() {
		slow <- execWith("sleep:20000 slow", func(et string, _ any) error {
			if et == event.TypeSystem {
				once.Do(func() { close(inTurn) })
			}
			return nil
		})
	}()
	<-inTurn
	var wg sync.WaitGroup
	errs := make([]error, 5)
	for i := range errs {
		wg.Go(func() { errs[i] = exec("queued") })
	}
	if err := f.eng.DeleteSession(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	for i, err := range append(errs, <-slow) {
		if !errors.Is(err, engine.ErrSessionDeleted) && !errors.Is(err, engine.ErrSessionNotFound) {
			t.Errorf("turn %d: %v, want ErrSessionDeleted", i, err)
		}
	}
	if _, ok := f.eng.GetSession(id); ok {
		t.Fatal("the deleted session is back")
	}
	if _, err := os.Stat(transcript); !os.IsNotExist(err) {
		t.Fatalf("the transcript survived: %v", err)
	}
	testkit.AssertNoDescendants(t)
	if err := exec("after"); !errors.Is(err, engine.ErrSessionNotFound) {
		t.Fatalf("a turn after the delete: %v", err)
	}
	if err := f.eng.DeleteSession(context.Background(), id); !errors.Is(err, engine.ErrSessionNotFound) {
		t.Fatalf("deleting twice: %v", err)
	}
}

// Holding tells a snapshot of the session the engine holds from one of a
// session deleted, or created again under the same ID, since.
func TestHoldingTellsTheSameSession(t *testing.T) {
	f := newFixture(t, engine.EngineOptions{WorkDirRoot: t.TempDir()})
	const id = "held~n1"
	cfg := engine.SessionConfig{WorkDir: "w", Owner: "alice", Nonce: "n1"}
	if err := f.eng.RestoreSession(id, cfg, 0, nil); err != nil {
		t.Fatal(err)
	}
	first, _ := f.eng.GetSession(id)
	again, _ := f.eng.GetSession(id)
	if !f.eng.Holding(first) || !f.eng.Holding(again) {
		t.Fatal("two snapshots of the session held are not held")
	}
	if err := f.eng.DeleteSession(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	if f.eng.Holding(first) {
		t.Fatal("a deleted session is held")
	}
	if err := f.eng.RestoreSession(id, cfg, 0, nil); err != nil {
		t.Fatal(err)
	}
	if f.eng.Holding(first) {
		t.Fatal("a snapshot of the deleted session is held by the one created again under its ID")
	}
	if now, _ := f.eng.GetSession(id); !f.eng.Holding(now) || f.eng.Holding(nil) {
		t.Fatal("Holding is wrong about the session created again, or about nil")
	}
}
