package engine_test

import (
	"errors"
	"testing"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
)

// An agent that cannot be steered refuses the prompt before anything
// reaches it; Announce adds an event to the running turn, in order; with
// no turn running, both say so.
func TestSteerUnsupportedAndAnnounce(t *testing.T) {
	f := newFake(t, engine.EngineOptions{}, nil)
	f.mustRun(t, "s", "hello")
	if _, err := f.eng.Steer(testCtx(t), "s", "more"); !errors.Is(err, engine.ErrNoTurn) {
		t.Fatalf("steer between turns: %v, want ErrNoTurn", err)
	}
	if _, err := f.eng.Announce("s", event.NewEventWithMeta(event.TypePromptQueued, "x", nil)); !errors.Is(err, engine.ErrNoTurn) {
		t.Fatalf("announce between turns: %v, want ErrNoTurn", err)
	}
	if f.eng.Running("s") || f.eng.CanSteer("s") {
		t.Fatal("an idle session reported running")
	}
	g := f.prov.Gate("g")
	bg := f.goRun(t, "", "s", "wait:g then")
	arrivals(t, g, 1)
	if !f.eng.Running("s") || f.eng.CanSteer("s") {
		t.Fatalf("running %v, can steer %v; want running, not steerable", f.eng.Running("s"), f.eng.CanSteer("s"))
	}
	if _, err := f.eng.Steer(testCtx(t), "s", "more"); !errors.Is(err, engine.ErrSteerUnsupported) {
		t.Fatalf("steer of the fake agent: %v, want ErrSteerUnsupported", err)
	}
	seq, err := f.eng.Announce("s", event.NewEventWithMeta(event.TypePromptQueued, "next one", nil))
	if err != nil {
		t.Fatal(err)
	}
	g.Open()
	if err := bg.wait(t); err != nil {
		t.Fatal(err)
	}
	evs := bg.rec.Events()
	var prev uint64
	found := false
	for _, ev := range evs {
		if ev.Seq <= prev {
			t.Fatalf("events out of order: %d after %d", ev.Seq, prev)
		}
		prev = ev.Seq
		if ev.EventType == event.TypePromptQueued {
			found = ev.Seq == seq && ev.EventData == "next one"
		}
	}
	if !found || evs[len(evs)-1].EventType != event.TypeResult {
		t.Fatalf("the turn's events: %v", bg.rec.Types())
	}
	for _, p := range f.prov.Conversation(f.prov.Process("s").Info().ProviderSessionID) {
		if p == "more" {
			t.Fatal("a refused steer reached the agent")
		}
	}
}

// A Claim that fails gives the slot back: the turn never runs, the next
// one does.
func TestClaimRefusedGivesTheSlotBack(t *testing.T) {
	f := newFake(t, engine.EngineOptions{}, nil)
	gone := errors.New("dropped meanwhile")
	_, err := f.eng.Start(testCtx(t), &engine.Config{SessionID: "c", WorkDir: f.dir, Claim: func() error { return gone }}, "never")
	if !errors.Is(err, gone) {
		t.Fatalf("start with a refused claim: %v", err)
	}
	claimed := 0
	turn, err := f.eng.Start(testCtx(t), &engine.Config{SessionID: "c", WorkDir: f.dir, Claim: func() error { claimed++; return nil }}, "runs")
	if err != nil {
		t.Fatal(err)
	}
	if err := turn.Wait(); err != nil || claimed != 1 {
		t.Fatalf("the next turn: %v, claimed %d times", err, claimed)
	}
}
