package e2e

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/internal/scriptedmodel"
)

// A prompt steered into a running Claude Code turn reaches the model
// within that turn: the model's next call shows it, the turn ends with
// one result that answers it, and the next turn starts clean.
func TestClaudeSteerIntoRunningTurn(t *testing.T) {
	script := scriptedmodel.Script{Rules: []scriptedmodel.Rule{
		scriptedmodel.Then("STEERED", scriptedmodel.Text("steered answer")),
		scriptedmodel.Then("slow", scriptedmodel.Bash("sleep 3"), scriptedmodel.Text("unsteered answer")),
		scriptedmodel.Then("next", scriptedmodel.Text("next answer")),
	}}
	h := newHarness(t, script, engine.EngineOptions{Namespace: "e2e"})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cfg := &engine.Config{SessionID: "steer", WorkDir: h.dir}

	if _, err := h.eng.Steer(ctx, "steer", "nothing runs"); !errors.Is(err, engine.ErrSessionNotFound) {
		t.Fatalf("steer of an unknown session: %v", err)
	}
	turn, err := h.eng.Start(ctx, cfg, "slow please")
	if err != nil {
		t.Fatal(err)
	}
	var got []*event.EventWithMeta
	steered := uint64(0)
	for ev := range turn.Events() {
		got = append(got, ev)
		if ev.EventType == event.TypeToolUse && steered == 0 {
			s, err := h.eng.Steer(ctx, "steer", "STEERED: also say hi")
			if err != nil {
				t.Fatalf("steer: %v", err)
			}
			if s.Turn != turn {
				t.Fatal("the prompt joined another turn")
			}
			steered = s.Seq
		}
	}
	if err := turn.Wait(); err != nil {
		t.Fatalf("the steered turn: %v", err)
	}
	var types []string
	results, answer := 0, ""
	sawSteer := false
	for _, ev := range got {
		types = append(types, ev.EventType)
		switch ev.EventType {
		case event.TypePromptSteered:
			sawSteer = ev.Seq == steered && ev.EventData == "STEERED: also say hi" && ev.Queue != nil && ev.Queue.Mode == engine.ModeSteer
		case event.TypeResult:
			results++
			answer = ev.EventData
		}
	}
	if !sawSteer || results != 1 || answer != "steered answer" {
		t.Fatalf("steered turn: steer event %v, %d results, answer %q: %v", sawSteer, results, answer, types)
	}
	// The model was shown the steered text in the turn's second call,
	// after the tool's result.
	shown := false
	for _, r := range h.model.Requests() {
		if r.HasTools && strings.Contains(r.Prompt, "STEERED") && r.Saw("slow please") {
			shown = true
		}
	}
	if !shown {
		t.Fatalf("no model call of the turn carried the steered prompt: %+v", h.model.Requests())
	}

	// Nothing of the steered turn leaks into the next.
	r, err := h.exec(t, ctx, "steer", "next one")
	if err != nil {
		t.Fatal(err)
	}
	if res := r.First(event.TypeResult); res == nil || res.EventData != "next answer" {
		t.Fatalf("the turn after the steered one: %v", r.Types())
	}
	if _, err := h.eng.Steer(ctx, "steer", "too late"); !errors.Is(err, engine.ErrNoTurn) {
		t.Fatalf("steer between turns: %v, want ErrNoTurn", err)
	}
}
