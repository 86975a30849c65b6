package agents

import (
	"context"
	"testing"
	"time"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/internal/proc"
	"github.com/hotplex/hotplex/internal/scriptedmodel"
)

// The conversations of one work directory share one OpenCode server, each
// in a session of its own; the server lives as long as one of them does.
func TestOpenCodeServeSharesOneServerPerWorkDir(t *testing.T) {
	script := scriptedmodel.Script{Rules: []scriptedmodel.Rule{
		scriptedmodel.Then("who is first", scriptedmodel.Text("the first")),
		scriptedmodel.Then("who is second", scriptedmodel.Text("the second")),
		scriptedmodel.Then("still there", scriptedmodel.Text("yes")),
	}}
	h := newAgentHarness(t, openCodeServeCase(), script, engine.EngineOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	r1, err := h.exec(ctx, "one", "who is first")
	if err != nil {
		t.Fatalf("%v\n%s", err, describe(r1))
	}
	r2, err := h.exec(ctx, "two", "who is second")
	if err != nil {
		t.Fatalf("%v\n%s", err, describe(r2))
	}
	s1, s2 := r1.First(event.TypeSessionStart), r2.First(event.TypeSessionStart)
	if s1.PID != s2.PID || s1.ProviderSessionID == s2.ProviderSessionID {
		t.Fatalf("want one server with two sessions: %+v / %+v", s1.SessionStart, s2.SessionStart)
	}
	if a := r2.First(event.TypeAnswer); a == nil || a.EventData != "the second" {
		t.Fatalf("second conversation:\n%s", describe(r2))
	}
	if err := h.eng.TerminateSession("one"); err != nil {
		t.Fatal(err)
	}
	if !proc.Alive(s1.PID) {
		t.Fatal("ending one conversation ended the server the other uses")
	}
	r3, err := h.exec(ctx, "two", "are you still there")
	if err != nil {
		t.Fatalf("%v\n%s", err, describe(r3))
	}
	if s := r3.First(event.TypeSessionStart); s.PID != s1.PID || s.ColdStart {
		t.Fatalf("the second conversation was restarted: %+v", s.SessionStart)
	}
	if a := r3.First(event.TypeAnswer); a == nil || a.EventData != "yes" {
		t.Fatalf("third turn:\n%s", describe(r3))
	}
	if err := h.eng.TerminateSession("two"); err != nil {
		t.Fatal(err)
	}
	if proc.Alive(s1.PID) {
		t.Fatal("the server outlived its last conversation")
	}
}
