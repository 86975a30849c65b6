// Package e2e drives the real agent CLIs, installed by the Makefile from
// the npm registry, against HotPlex's scripted model server.
package e2e

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/internal/proc"
	"github.com/hotplex/hotplex/provider/claude"
	"github.com/hotplex/hotplex/testkit"
	"github.com/hotplex/hotplex/testkit/fakemodel"
)

// recorder collects a turn's events.
type recorder struct {
	mu     sync.Mutex
	events []*event.EventWithMeta
}

func (r *recorder) cb(eventType string, data any) error {
	ev := data.(*event.EventWithMeta)
	if ev.EventType != eventType {
		panic("event type mismatch")
	}
	r.mu.Lock()
	r.events = append(r.events, ev)
	r.mu.Unlock()
	return nil
}

func (r *recorder) types() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, ev := range r.events {
		out = append(out, ev.EventType)
	}
	return out
}

func (r *recorder) first(eventType string) *event.EventWithMeta {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, ev := range r.events {
		if ev.EventType == eventType {
			return ev
		}
	}
	return nil
}

// indexOf returns the position of the first event of each type, in order,
// failing when one is missing or out of order.
func assertOrder(t *testing.T, got []string, want ...string) {
	t.Helper()
	at := 0
	for _, w := range want {
		i := slices.Index(got[at:], w)
		if i < 0 {
			t.Fatalf("event %q missing or out of order in %v (want order %v)", w, got, want)
		}
		at += i + 1
	}
}

type harness struct {
	model *fakemodel.Server
	eng   *engine.Engine
	env   []string
	dir   string
}

func newHarness(t *testing.T, script fakemodel.Script, opts engine.EngineOptions) *harness {
	t.Helper()
	m, err := fakemodel.Start("127.0.0.1:0", script)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	h := &harness{model: m, env: testkit.OfflineEnv(t, m.URL()), dir: t.TempDir()}
	opts.Provider = claude.New(claude.Options{Path: testkit.ClaudePath(t)})
	opts.Env = h.env
	if opts.IdleTimeout == 0 {
		opts.IdleTimeout = -1
	}
	eng, err := engine.NewEngine(opts)
	if err != nil {
		t.Fatal(err)
	}
	h.eng = eng
	t.Cleanup(func() { _ = eng.Close() })
	return h
}

func (h *harness) exec(t *testing.T, ctx context.Context, id, prompt string) (*recorder, error) {
	t.Helper()
	r := &recorder{}
	err := h.eng.Execute(ctx, &engine.Config{SessionID: id, WorkDir: h.dir}, prompt, r.cb)
	return r, err
}

func TestClaudeToolTurnResumeAndMemory(t *testing.T) {
	script := fakemodel.Script{Rules: []fakemodel.Rule{
		fakemodel.Then("create the file", fakemodel.Bash("echo hotplex-was-here > proof.txt && echo created"),
			fakemodel.Text("Created proof.txt: {{last_tool_result}}")),
		fakemodel.Then("remember", fakemodel.Text("I remember.")),
		fakemodel.Then("after the crash", fakemodel.Text("Back again.")),
	}}
	h := newHarness(t, script, engine.EngineOptions{Namespace: "e2e"})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	r1, err := h.exec(t, ctx, "conv-1", "please create the file")
	if err != nil {
		t.Fatalf("turn 1: %v", err)
	}
	assertOrder(t, r1.types(), event.TypeSessionStart, event.TypeToolUse, event.TypeToolResult, event.TypeAnswer, event.TypeSessionStats, event.TypeResult)
	if got := r1.types(); got[len(got)-1] != event.TypeResult || got[len(got)-2] != event.TypeSessionStats {
		t.Fatalf("turn must end with session_stats, result: %v", got)
	}
	b, err := os.ReadFile(filepath.Join(h.dir, "proof.txt"))
	if err != nil || strings.TrimSpace(string(b)) != "hotplex-was-here" {
		t.Fatalf("the Bash tool did not create the file: %q, %v", b, err)
	}
	start1 := r1.first(event.TypeSessionStart)
	if !start1.ColdStart || start1.Resumed || start1.PID == 0 {
		t.Fatalf("first start: %+v", start1.SessionStart)
	}
	if want := engine.ProviderSessionID("e2e", "conv-1"); start1.ProviderSessionID != want {
		t.Fatalf("provider session ID %s, want UUIDv5 %s", start1.ProviderSessionID, want)
	}
	tu := r1.first(event.TypeToolUse)
	if tu.Meta.ToolName != "Bash" || !strings.Contains(tu.Meta.InputSummary, "proof.txt") {
		t.Fatalf("tool_use: %+v", tu.Meta)
	}
	tr := r1.first(event.TypeToolResult)
	if tr.Meta.ToolID != tu.Meta.ToolID || tr.Meta.ToolName != "Bash" || tr.Meta.Status != "success" || !strings.Contains(tr.EventData, "created") {
		t.Fatalf("tool_result: %q %+v", tr.EventData, tr.Meta)
	}
	res := r1.first(event.TypeResult)
	if res.Turn == nil || res.Turn.CostUSD <= 0 || res.Turn.InputTokens <= 0 || res.Turn.Model == "" {
		t.Fatalf("result lacks usage: %+v", res.Turn)
	}
	stats := r1.first(event.TypeSessionStats).Stats
	if stats.ToolCallCount != 1 || !slices.Contains(stats.ToolsUsed, "Bash") || stats.TotalCostUSD <= 0 || stats.ModelUsed == "" {
		t.Fatalf("stats: %+v", stats)
	}

	// Turn 2: the same hot process, and the model sees turn 1.
	r2, err := h.exec(t, ctx, "conv-1", "do you remember")
	if err != nil {
		t.Fatalf("turn 2: %v", err)
	}
	start2 := r2.first(event.TypeSessionStart)
	if start2.PID != start1.PID || start2.ColdStart {
		t.Fatalf("turn 2 not hot: %+v vs %+v", start2.SessionStart, start1.SessionStart)
	}
	last := h.model.TurnRequests()
	if !last[len(last)-1].Saw("please create the file") || !last[len(last)-1].Saw("hotplex-was-here") && !last[len(last)-1].Saw("created") {
		t.Fatalf("model did not see turn 1 in turn 2's request: %q", last[len(last)-1].Texts)
	}
	stats2 := r2.first(event.TypeSessionStats).Stats
	if stats2.TotalCostUSD <= stats.TotalCostUSD || stats2.Turns != 2 {
		t.Fatalf("stats do not accumulate: %+v then %+v", stats, stats2)
	}

	// Kill the process behind HotPlex's back: the next turn resumes.
	if err := syscall.Kill(start1.PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	for proc.Alive(start1.PID) {
		time.Sleep(10 * time.Millisecond)
	}
	r3, err := h.exec(t, ctx, "conv-1", "hello after the crash")
	if err != nil {
		t.Fatalf("turn 3: %v", err)
	}
	start3 := r3.first(event.TypeSessionStart)
	if start3.PID == start1.PID || !start3.Resumed || !start3.ColdStart {
		t.Fatalf("turn 3 did not resume in a new process: %+v", start3.SessionStart)
	}
	last = h.model.TurnRequests()
	if !last[len(last)-1].Saw("please create the file") || !last[len(last)-1].Saw("do you remember") {
		t.Fatalf("resumed model request lacks earlier turns: %q", last[len(last)-1].Texts)
	}
}

func TestClaudeCancelMidTool(t *testing.T) {
	script := fakemodel.Script{Rules: []fakemodel.Rule{
		fakemodel.Then("slow tool", fakemodel.Bash("echo begin; sleep 30; echo end"), fakemodel.Text("slept")),
		fakemodel.Then("quick", fakemodel.Text("quick answer")),
	}}
	h := newHarness(t, script, engine.EngineOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if _, err := h.exec(t, ctx, "c", "quick warm-up"); err != nil {
		t.Fatal(err)
	}
	turnCtx, stop := context.WithCancel(ctx)
	r := &recorder{}
	errc := make(chan error, 1)
	go func() {
		errc <- h.eng.Execute(turnCtx, &engine.Config{SessionID: "c", WorkDir: h.dir}, "run the slow tool", func(et string, d any) error {
			if et == event.TypeToolUse {
				go func() { time.Sleep(500 * time.Millisecond); stop() }()
			}
			return r.cb(et, d)
		})
	}()
	var cancelledAt time.Time
	select {
	case <-turnCtx.Done():
		cancelledAt = time.Now()
	case <-time.After(time.Minute):
		t.Fatal("the tool never started")
	}
	err := <-errc
	if took := time.Since(cancelledAt); took > 2*time.Second {
		t.Fatalf("cancel took %s", took)
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("want context.Canceled, got %v", err)
	}
	pid := r.first(event.TypeSessionStart).PID
	if !proc.Alive(pid) {
		t.Fatal("the CLI died on interrupt")
	}
	r2, err := h.exec(t, ctx, "c", "quick question")
	if err != nil {
		t.Fatal(err)
	}
	if r2.first(event.TypeSessionStart).PID != pid {
		t.Fatal("the CLI was restarted after the interrupt")
	}
	ans := r2.first(event.TypeAnswer)
	if ans == nil || ans.EventData != "quick answer" {
		t.Fatalf("next turn saw stale output: %v %+v", r2.types(), ans)
	}
	for _, ev := range r2.events {
		if strings.Contains(ev.EventData, "slept") || strings.Contains(ev.EventData, "begin") {
			t.Fatalf("stale output in the next turn: %+v", ev)
		}
	}
}
