package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/internal/proc"
	"github.com/hotplex/hotplex/internal/scriptedmodel"
	"github.com/hotplex/hotplex/testkit"
)

// With one resident slot, a second conversation hibernates the first; the
// first's next turn resumes it in a new process and the model is shown the
// whole conversation.
func TestClaudeHibernateThenResume(t *testing.T) {
	h := newHarness(t, scriptedmodel.Script{}, engine.EngineOptions{MaxResident: 1})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	r1, err := h.exec(t, ctx, "alpha", "the secret word is marmalade")
	if err != nil {
		t.Fatal(err)
	}
	first := r1.First(event.TypeSessionStart)
	if _, err := h.exec(t, ctx, "beta", "hello from beta"); err != nil {
		t.Fatal(err)
	}
	if s, _ := h.eng.GetSession("alpha"); s.Status != engine.StatusHibernated {
		t.Fatalf("alpha is %s, want hibernated", s.Status)
	}
	deadline := time.Now().Add(30 * time.Second)
	for proc.Alive(first.PID) {
		if time.Now().After(deadline) {
			t.Fatal("alpha's process outlived its hibernation")
		}
		time.Sleep(20 * time.Millisecond)
	}
	r3, err := h.exec(t, ctx, "alpha", "what was the secret word")
	if err != nil {
		t.Fatal(err)
	}
	st := r3.First(event.TypeSessionStart)
	if !st.ColdStart || !st.Resumed || st.PID == first.PID {
		t.Fatalf("alpha did not resume: %+v", st.SessionStart)
	}
	reqs := h.model.TurnRequests()
	last := reqs[len(reqs)-1]
	if !last.Saw("what was the secret word") || !last.Saw("the secret word is marmalade") || last.Saw("hello from beta") {
		t.Fatalf("the model was not shown alpha's conversation after hibernation: %q", last.Texts)
	}
}

// A parked spare of the real CLI is claimed by a new conversation in its
// work directory with its system prompt; the conversation later resumes
// under the ID the CLI chose.
func TestClaudeSpareClaimAndResume(t *testing.T) {
	h := newHarness(t, scriptedmodel.Script{}, engine.EngineOptions{Spares: 1, MaxResident: 2})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	deadline := time.Now().Add(time.Minute)
	for h.eng.PoolStats().Spares < 1 {
		if time.Now().After(deadline) {
			t.Fatal("no spare was started")
		}
		time.Sleep(20 * time.Millisecond)
	}
	r := &testkit.Recorder{}
	err := h.eng.Execute(ctx, &engine.Config{SessionID: "s1", WorkDir: h.dir, TaskInstructions: "Always mention the color teal."}, "first message", r.Callback)
	if err != nil {
		t.Fatal(err)
	}
	st := r.First(event.TypeSessionStart)
	if !st.Spare || st.ProviderSessionID == "" || st.ProviderSessionID == engine.ProviderSessionID("", "s1") || st.WorkDir != h.dir {
		t.Fatalf("the first turn did not claim the spare: %+v", st.SessionStart)
	}
	reqs := h.model.TurnRequests()
	if !strings.Contains(reqs[len(reqs)-1].System, "Always mention the color teal.") {
		t.Fatal("the claimed spare's requests lack the session's system prompt")
	}
	// Two more conversations (the second takes the refilled spare, if it
	// is parked by then) need s1's slot: s1 is hibernated, then resumed.
	for _, id := range []string{"s2", "s3"} {
		if _, err := h.exec(t, ctx, id, "hello"); err != nil {
			t.Fatal(err)
		}
	}
	deadline = time.Now().Add(time.Minute)
	for {
		s, _ := h.eng.GetSession("s1")
		if s.Status == engine.StatusHibernated {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("s1 is %s, want hibernated", s.Status)
		}
		time.Sleep(20 * time.Millisecond)
	}
	r2, err := h.exec(t, ctx, "s1", "second message")
	if err != nil {
		t.Fatal(err)
	}
	st2 := r2.First(event.TypeSessionStart)
	if !st2.Resumed || st2.ProviderSessionID != st.ProviderSessionID {
		t.Fatalf("s1 did not resume under the spare's ID: %+v", st2.SessionStart)
	}
	reqs = h.model.TurnRequests()
	if last := reqs[len(reqs)-1]; !last.Saw("first message") || !last.Saw("second message") {
		t.Fatalf("resumed request lacks the first turn: %q", last.Texts)
	}
}
