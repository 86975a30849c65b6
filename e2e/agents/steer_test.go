package agents

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/internal/scriptedmodel"
)

// Codex's app-server takes a prompt mid-turn (turn/steer): the model's
// next call in the running turn carries it, and the turn's one result
// answers it.
func TestCodexSteer(t *testing.T) {
	script := scriptedmodel.Script{Rules: []scriptedmodel.Rule{
		scriptedmodel.Then("STEERED", scriptedmodel.Text("steered answer")),
		scriptedmodel.Then("slow", scriptedmodel.Shell("sleep 3"), scriptedmodel.Text("unsteered answer")),
	}}
	h := newAgentHarness(t, codexCase(), script, engine.EngineOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	turn, err := h.eng.Start(ctx, &engine.Config{SessionID: "steer", WorkDir: h.dir}, "slow please")
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	results, answer, steered := 0, "", false
	for ev := range turn.Events() {
		types = append(types, ev.EventType)
		switch ev.EventType {
		case event.TypeToolUse:
			if !steered {
				if _, err := h.eng.Steer(ctx, "steer", "STEERED: also say hi"); err != nil {
					t.Fatalf("steer: %v", err)
				}
				steered = true
			}
		case event.TypeResult:
			results++
			answer = ev.EventData
		}
	}
	if err := turn.Wait(); err != nil {
		t.Fatalf("the steered turn: %v (%v)", err, types)
	}
	if !steered || results != 1 || !strings.Contains(answer, "steered answer") || strings.Contains(answer, "unsteered") {
		t.Fatalf("steered %v, %d results, answer %q: %v", steered, results, answer, types)
	}
	shown := false
	for _, r := range h.model.TurnRequests() {
		if strings.Contains(r.Prompt, "STEERED") {
			shown = true
		}
	}
	if !shown {
		t.Fatal("no model call carried the steered prompt")
	}
}
