package agents

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/internal/scriptedmodel"
	"github.com/hotplex/hotplex/testkit"
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

// Through the daemon, an ACP agent (Claude Code's ACP adapter) cannot be
// steered: a prompt sent to steer its running turn is queued instead,
// says why, and runs as the next turn once the running one ends.
func TestACPSteerFallsBackToQueue(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	m, err := scriptedmodel.Start("127.0.0.1:0", scriptedmodel.Script{Rules: []scriptedmodel.Rule{
		scriptedmodel.Then("slow", scriptedmodel.Shell("sleep 3"), scriptedmodel.Text("slow answer")),
		scriptedmodel.Then("afterwards", scriptedmodel.Text("queued answer")),
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	home := filepath.Join(t.TempDir(), "home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	p, env := claudeACPCase().start(t, m.URL(), home)
	d := testkit.StartDaemon(t, testkit.DaemonOptions{Provider: p, Env: env, Root: t.TempDir(), DBPath: filepath.Join(t.TempDir(), "hotplex.db")})
	d.Create(t, d.Alice, map[string]any{"id": "acp"})
	first := d.Do(t, "POST", "/v1/sessions/acp/messages", d.Alice, map[string]string{"prompt": "slow please"})
	testkit.ReadSSE(first.Body, func(e testkit.SSEEvent) bool { return e.Type == event.TypeToolUse })
	steer := d.Do(t, "POST", "/v1/sessions/acp/messages", d.Alice, map[string]string{"prompt": "afterwards, say hi", "mode": "steer"})
	if steer.StatusCode != http.StatusOK {
		t.Fatalf("steer: %d", steer.StatusCode)
	}
	evs := testkit.ReadSSE(steer.Body, nil)
	if len(evs) == 0 || evs[0].Type != "queued" || !strings.Contains(string(evs[0].Data), "steer_fallback") {
		t.Fatalf("the steered prompt's stream did not open with a fallback to the queue: %v", evs)
	}
	var answers []string
	for _, e := range evs {
		if e.Type == event.TypeAnswer {
			var ev event.EventWithMeta
			_ = json.Unmarshal(e.Data, &ev)
			answers = append(answers, ev.EventData)
		}
	}
	if strings.Join(answers, "") != "queued answer" || evs[len(evs)-1].Type != event.TypeResult {
		t.Fatalf("the queued turn: %q (%d events)", answers, len(evs))
	}
	rest := testkit.ReadSSE(first.Body, nil)
	if last := rest[len(rest)-1]; last.Type != event.TypeResult || last.ID >= evs[1].ID {
		t.Fatalf("the running turn ended with %s %d, after the queued one began (%d)", last.Type, last.ID, evs[1].ID)
	}
}
