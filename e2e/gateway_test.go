package e2e

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/gateway"
	"github.com/hotplex/hotplex/guard"
	"github.com/hotplex/hotplex/internal/scriptedmodel"
	"github.com/hotplex/hotplex/provider/claude"
	"github.com/hotplex/hotplex/testkit"
)

// gatewayHarness is the real claude CLI behind an engine whose agents reach
// the fake model only through the gateway. The operator's environment
// holds a key (a unique random string) that must reach the model and
// nothing else.
type gatewayHarness struct {
	model *scriptedmodel.Server
	gw    *gateway.Gateway
	eng   *engine.Engine
	key   string
	dir   string
}

func newGatewayHarness(t *testing.T, script scriptedmodel.Script, gopts gateway.Options) *gatewayHarness {
	t.Helper()
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	h := &gatewayHarness{key: "sk-ant-operator-" + hex.EncodeToString(b), dir: t.TempDir()}
	m, err := scriptedmodel.Start("127.0.0.1:0", script)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	h.model = m
	var eng atomic.Pointer[engine.Engine]
	gopts.Upstreams = map[gateway.API]gateway.Upstream{
		gateway.Anthropic: {BaseURL: m.URL(), APIKey: h.key},
		gateway.OpenAI:    {BaseURL: m.URL() + "/v1", APIKey: h.key},
		gateway.Gemini:    {BaseURL: m.URL(), APIKey: h.key},
	}
	gopts.OnBudgetExceeded = func(e *gateway.BudgetError) {
		if en := eng.Load(); en != nil {
			en.EndTurn(e.SessionID, e)
		}
	}
	gopts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	h.gw = gateway.New(gopts)
	if err := h.gw.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = h.gw.Close(ctx)
	})
	// The daemon's own environment: the model key, HotPlex's admin token
	// and the real model's URL, as an operator would export them.
	env := append(testkit.OfflineEnv(t, m.URL()), "ANTHROPIC_API_KEY="+h.key, "OPENAI_API_KEY="+h.key, "HOTPLEX_ADMIN_TOKEN="+h.key)
	// The operator lets agents list their environment (the firewall stops
	// `env` by default: every variable, secrets included, in the output);
	// what it shows is the point of these tests.
	policy, err := guard.ParsePolicy([]byte(`{"allow":["Bash(env)"]}`))
	if err != nil {
		t.Fatal(err)
	}
	e, err := engine.NewEngine(engine.EngineOptions{
		Provider: claude.New(claude.Options{Path: testkit.ClaudePath(t)}), Env: env, Credentials: h.gw,
		IdleTimeout: -1, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Policy: policy,
	})
	if err != nil {
		t.Fatal(err)
	}
	eng.Store(e)
	h.eng = e
	t.Cleanup(func() { _ = e.Close() })
	return h
}

// TestClaudeThroughGatewaySeesNoKey: the agent's Bash tool runs `env`; its
// output and the agent's /proc environ hold no trace of the operator's key,
// yet the turn succeeds through the gateway, every call reached the model
// with the real key, and the gateway metered exactly what the model
// reported. The session's token dies with it.
func TestClaudeThroughGatewaySeesNoKey(t *testing.T) {
	script := scriptedmodel.Script{Rules: []scriptedmodel.Rule{
		scriptedmodel.Then("show me the environment", scriptedmodel.Bash("env"), scriptedmodel.Text("That is the environment.")),
	}}
	h := newGatewayHarness(t, script, gateway.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	r := &testkit.Recorder{}
	if err := h.eng.Execute(ctx, &engine.Config{SessionID: "gw-1", WorkDir: h.dir, Owner: "alice"}, "show me the environment", r.Callback); err != nil {
		t.Fatalf("turn: %v", err)
	}
	tr := r.First(event.TypeToolResult)
	if tr == nil || tr.Meta.ToolName != "Bash" {
		t.Fatalf("no Bash tool result: %v", r.Types())
	}
	out := tr.EventData
	if !strings.Contains(out, "ANTHROPIC_BASE_URL="+h.gw.URL()+"/anthropic") || !strings.Contains(out, "ANTHROPIC_API_KEY=hpg-") {
		t.Fatalf("env output does not show the gateway and a token:\n%s", out)
	}
	if strings.Contains(out, h.key) || strings.Contains(out, "HOTPLEX_ADMIN_TOKEN") {
		t.Fatalf("the operator's key is in the tool's output:\n%s", out)
	}
	pid := r.First(event.TypeSessionStart).PID
	environ, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(environ), h.key) {
		t.Fatal("the operator's key is in the agent's /proc environ")
	}
	if ans := r.First(event.TypeAnswer); ans == nil || !strings.Contains(ans.EventData, "That is the environment.") {
		t.Fatalf("answer: %v", ans)
	}

	reqs := h.model.Requests()
	if len(reqs) == 0 {
		t.Fatal("no call reached the model")
	}
	var want gateway.Usage
	for _, q := range reqs {
		if q.Auth != h.key {
			t.Errorf("a call reached the model with %q, not the operator's key", q.Auth)
		}
		want.InputTokens += int64(q.Usage.InputTokens)
		want.OutputTokens += int64(q.Usage.OutputTokens)
		want.CacheReadTokens += int64(q.Usage.CacheReadTokens)
		want.CacheWriteTokens += int64(q.Usage.CacheWriteTokens)
	}
	got := h.gw.SessionTotals("gw-1")
	if got.Usage != want || got.Requests != int64(len(reqs)) || got.Unmetered != 0 {
		t.Errorf("gateway metered %+v over %d calls; the model reported %+v over %d", got, got.Requests, want, len(reqs))
	}
	res := r.First(event.TypeResult)
	// The CLI prices the same calls with its own table: the two agree.
	if d := got.CostUSD - res.Turn.CostUSD; d > 1e-9 || d < -1e-9 || len(h.gw.Report().Unpriced) > 0 {
		t.Errorf("gateway cost $%.6f, the CLI's own $%.6f; unpriced %v", got.CostUSD, res.Turn.CostUSD, h.gw.Report().Unpriced)
	}
	if own := h.gw.Report().Owners["alice"]; own != got {
		t.Errorf("alice's totals %+v, want the session's", own)
	}
	if h.gw.LiveTokens() != 1 {
		t.Errorf("%d live tokens, want the session's one", h.gw.LiveTokens())
	}
	if err := h.eng.TerminateSession("gw-1"); err != nil {
		t.Fatal(err)
	}
	if n := h.gw.LiveTokens(); n != 0 {
		t.Errorf("%d tokens live after the session ended", n)
	}
}

// TestClaudeBudgetEndsTheTurn: a session whose first model call spends
// its budget has its turn ended with budget_exceeded, in Execute's error
// and in an error event, and its next turn is refused before the model is
// called.
func TestClaudeBudgetEndsTheTurn(t *testing.T) {
	// 1,000,000 input tokens of the CLI's model at $4/M: $4 for the first call.
	expensive := scriptedmodel.Bash("echo one more step")
	expensive.InputTokens = 1_000_000
	script := scriptedmodel.Script{Rules: []scriptedmodel.Rule{
		scriptedmodel.Then("spend", expensive, scriptedmodel.Text("Done.")),
	}}
	h := newGatewayHarness(t, script, gateway.Options{SessionBudgetUSD: 1})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for turn := range 2 {
		r := &testkit.Recorder{}
		err := h.eng.Execute(ctx, &engine.Config{SessionID: "gw-b", WorkDir: h.dir}, "spend it all", r.Callback)
		if !errors.Is(err, gateway.ErrBudgetExceeded) {
			t.Fatalf("turn %d: Execute returned %v, want budget_exceeded", turn, err)
		}
		ev := r.First(event.TypeError)
		if ev == nil || !strings.Contains(ev.Meta.ErrorMsg, "budget_exceeded") || !strings.Contains(ev.Meta.ErrorMsg, "session gw-b") {
			t.Errorf("turn %d: error event %+v", turn, ev)
		}
		if res := r.First(event.TypeResult); res == nil || res.Meta.Status != "error" {
			t.Errorf("turn %d: result %+v", turn, res)
		}
	}
	tot := h.gw.SessionTotals("gw-b")
	if tot.CostUSD < 1 || tot.Rejected == 0 {
		t.Errorf("totals %+v: want the spending call and refused ones", tot)
	}
	for _, q := range h.model.TurnRequests() {
		if q.Step > 0 {
			t.Errorf("the model was called again after the budget was spent (step %d)", q.Step)
		}
	}
}
