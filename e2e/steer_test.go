package e2e

import (
	"context"
	"errors"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/internal/scriptedmodel"
	"github.com/hotplex/hotplex/provider/claude"
	"github.com/hotplex/hotplex/testkit"
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

// Over HTTP: a prompt sent with mode steer while the real CLI's turn runs
// is steered into it; its stream opens with the steered notice and
// follows the turn from its prompt_steered event to the result that
// answers it.
func TestDaemonSteerOverHTTP(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	m, err := scriptedmodel.Start("127.0.0.1:0", scriptedmodel.Script{Rules: []scriptedmodel.Rule{
		scriptedmodel.Then("STEERED", scriptedmodel.Text("steered answer")),
		scriptedmodel.Then("slow", scriptedmodel.Bash("sleep 3"), scriptedmodel.Text("unsteered answer")),
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	d := testkit.StartDaemon(t, testkit.DaemonOptions{
		Provider: claude.New(claude.Options{Path: testkit.ClaudePath(t)}),
		Env:      testkit.OfflineEnv(t, m.URL()), Root: t.TempDir(), DBPath: filepath.Join(t.TempDir(), "hotplex.db"),
	})
	d.Create(t, d.Alice, map[string]any{"id": "hs"})
	first := d.Do(t, "POST", "/v1/sessions/hs/messages", d.Alice, map[string]string{"prompt": "slow please"})
	testkit.ReadSSE(first.Body, func(e testkit.SSEEvent) bool { return e.Type == event.TypeToolUse })
	steer := d.Do(t, "POST", "/v1/sessions/hs/messages", d.Alice, map[string]string{"prompt": "STEERED: say hi", "mode": "steer"})
	if steer.StatusCode != http.StatusOK {
		t.Fatalf("steer: %d", steer.StatusCode)
	}
	evs := testkit.ReadSSE(steer.Body, nil)
	var types []string
	for _, e := range evs {
		types = append(types, e.Type)
	}
	if len(evs) < 3 || evs[0].Type != "steered" || evs[1].Type != event.TypePromptSteered || evs[len(evs)-1].Type != event.TypeResult ||
		!strings.Contains(string(evs[len(evs)-1].Data), "steered answer") {
		t.Fatalf("the steered prompt's stream: %v", types)
	}
	rest := testkit.ReadSSE(first.Body, nil)
	if last := rest[len(rest)-1]; last.Type != event.TypeResult || last.ID != evs[len(evs)-1].ID {
		t.Fatalf("the running turn's stream ended with %s %d, the steered one with %d", last.Type, last.ID, evs[len(evs)-1].ID)
	}
}
