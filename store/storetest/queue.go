package storetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/hotplex/hotplex/store"
)

// queue returns st as a store.QueueStore, which the daemon needs of it.
func queue(t *testing.T, st store.Store) store.QueueStore {
	t.Helper()
	qs, ok := st.(store.QueueStore)
	if !ok {
		t.Fatalf("%T is not a store.QueueStore", st)
	}
	return qs
}

// Prompts come back in the order they were queued, per session, with
// their positions; they survive re-opening, leave one by one, and go
// with their session when it is deleted.
func testQueuedPrompts(t *testing.T, b Backend) {
	ctx := context.Background()
	where := b.NewDatabase(t)
	db := openAt(t, b, where)
	qs := queue(t, db)
	for _, id := range []string{"s1", "s2"} {
		if err := db.PutSession(ctx, store.Session{ID: id, Provider: "claude"}); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := qs.QueuedPrompts(ctx, "s1"); err != nil || got == nil || len(got) != 0 {
		t.Fatalf("queue of a new session: %#v, %v", got, err)
	}
	t0 := time.Unix(1_800_000_000, 123_456_000).UTC()
	var queued []store.QueuedPrompt
	for i, p := range []store.QueuedPrompt{
		{SessionID: "s1", Prompt: "first", TaskSystemPrompt: "be brief", CreatedAt: t0},
		{SessionID: "s2", Prompt: "other", CreatedAt: t0},
		{SessionID: "s1", Prompt: "second", CreatedAt: t0.Add(time.Second)},
		{SessionID: "s1", Prompt: "third", CreatedAt: t0.Add(2 * time.Second)},
	} {
		got, pos, err := qs.EnqueuePrompt(ctx, p)
		if err != nil {
			t.Fatalf("enqueue %d: %v", i, err)
		}
		want := map[string]int{"first": 1, "other": 1, "second": 2, "third": 3}[p.Prompt]
		if pos != want || got.ID == 0 || !got.CreatedAt.Equal(p.CreatedAt) {
			t.Fatalf("enqueue %q: position %d (want %d), %#v", p.Prompt, pos, want, got)
		}
		queued = append(queued, got)
	}
	if _, _, err := qs.EnqueuePrompt(ctx, store.QueuedPrompt{SessionID: "nope", Prompt: "x"}); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("enqueue for an unknown session: %v, want ErrNotFound", err)
	}
	if _, _, err := qs.EnqueuePrompt(ctx, store.QueuedPrompt{SessionID: "s1", Prompt: "  "}); !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("enqueue an empty prompt: %v, want ErrInvalid", err)
	}

	// A second handle (another process, a restarted daemon) sees them.
	qs2 := queue(t, openAt(t, b, where))
	got, err := qs2.QueuedPrompts(ctx, "s1")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0] != queued[0] || got[1] != queued[2] || got[2] != queued[3] {
		t.Fatalf("queue of s1:\n got %#v\nwant %#v", got, []store.QueuedPrompt{queued[0], queued[2], queued[3]})
	}
	all, err := qs2.QueuedPrompts(ctx, "")
	if err != nil || len(all) != 4 {
		t.Fatalf("every queue: %d prompts, %v; want 4", len(all), err)
	}

	if err := qs.DequeuePrompt(ctx, queued[0].ID); err != nil {
		t.Fatal(err)
	}
	if err := qs.DequeuePrompt(ctx, queued[0].ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("dequeue twice: %v, want ErrNotFound", err)
	}
	if _, pos, err := qs.EnqueuePrompt(ctx, store.QueuedPrompt{SessionID: "s1", Prompt: "fourth"}); err != nil || pos != 3 {
		t.Fatalf("enqueue after a dequeue: position %d, %v; want 3", pos, err)
	}
	if n, err := qs.DropQueuedPrompts(ctx, "s1"); err != nil || n != 3 {
		t.Fatalf("drop s1's queue: %d, %v; want 3", n, err)
	}
	if got, err := qs.QueuedPrompts(ctx, "s1"); err != nil || len(got) != 0 {
		t.Fatalf("s1's queue after the drop: %#v, %v", got, err)
	}
	if err := db.DeleteSession(ctx, "s2"); err != nil {
		t.Fatal(err)
	}
	if all, err := qs.QueuedPrompts(ctx, ""); err != nil || len(all) != 0 {
		t.Fatalf("queues after s2 was deleted: %#v, %v", all, err)
	}
}
