package agents

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/internal/proc"
	"github.com/hotplex/hotplex/internal/scriptedmodel"
	"github.com/hotplex/hotplex/provider"
	"github.com/hotplex/hotplex/testkit"
)

// A new conversation on each agent that prewarms claims the spare parked
// before it existed, works in its own work directory (the agent's shell
// writes where it runs into a file there), and the engine parks a new
// spare in its place. The spares end with the engine (the harness checks
// that no process outlives it).
func TestSpares(t *testing.T) {
	for _, ac := range []agentCase{claudeACPCase(), codexCase(), openCodeServeCase(), openCodeCase(), codexACPCase(), geminiCase(), qwenCase()} {
		t.Run(ac.name, func(t *testing.T) {
			script := scriptedmodel.Script{Rules: []scriptedmodel.Rule{
				scriptedmodel.Then("where do you work", ac.shell("pwd > where.txt && echo written"),
					scriptedmodel.Text("Noted: {{last_tool_result}}")),
			}}
			h := newAgentHarness(t, ac, script, engine.EngineOptions{Spares: 1,
				PermissionHandler: func(context.Context, engine.PermissionRequest) provider.ToolDecision { return provider.ToolDecision{} }})
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			waitPool(ctx, t, h, "a parked spare", func(ps engine.PoolStats) bool { return ps.SparesByProvider[ac.name] == 1 })
			parked := testkit.LiveDescendants()

			r, err := h.exec(ctx, "spare", "where do you work")
			if err != nil {
				t.Fatalf("%v\n%s", err, describe(r))
			}
			st := r.First(event.TypeSessionStart)
			if !st.Spare || !st.ColdStart || st.Resumed || !slices.Contains(parked, st.PID) {
				t.Fatalf("the conversation did not claim the parked spare (parked processes %v): %+v", parked, st.SessionStart)
			}
			dir, err := filepath.EvalSymlinks(h.dir)
			if err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(filepath.Join(h.dir, "where.txt"))
			if err != nil || strings.TrimSpace(string(b)) != dir {
				t.Fatalf("the agent's shell did not run in the claimed work directory %s: %q, %v\n%s", dir, b, err, describe(r))
			}
			if a := r.All(event.TypeAnswer); len(a) == 0 || !strings.Contains(a[len(a)-1].EventData, "written") {
				t.Fatalf("no answer after the command:\n%s", describe(r))
			}

			waitPool(ctx, t, h, "the refill", func(ps engine.PoolStats) bool {
				return ps.SparesByProvider[ac.name] == 1 && ps.SpareStarts == 2
			})
			if ps := h.eng.PoolStats(); ps.SpareClaims != 1 || ps.ColdStarts != 0 {
				t.Fatalf("pool stats: %+v", ps)
			}
			if !proc.Alive(st.PID) {
				t.Fatal("the claimed process died")
			}
		})
	}
}

// waitPool waits for the engine's pool to satisfy cond.
func waitPool(ctx context.Context, t *testing.T, h *agentHarness, what string, cond func(engine.PoolStats) bool) {
	t.Helper()
	for !cond(h.eng.PoolStats()) {
		select {
		case <-ctx.Done():
			t.Fatalf("waiting for %s: %+v", what, h.eng.PoolStats())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// A spare refuses, and stays parked for, a conversation to be resumed;
// an unclaimed spare's Close ends its process.
func TestSpareClaimContract(t *testing.T) {
	for _, ac := range []agentCase{codexCase(), openCodeServeCase()} {
		t.Run(ac.name, func(t *testing.T) {
			t.Cleanup(func() { testkit.AssertNoDescendants(t) })
			m, err := scriptedmodel.Start("127.0.0.1:0", scriptedmodel.Script{})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = m.Close() })
			p, env := ac.start(t, m.URL(), t.TempDir())
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			sc, err := p.(provider.Prewarmer).Prewarm(ctx, provider.StartOptions{WorkDir: t.TempDir(), Env: env})
			if err != nil {
				t.Fatal(err)
			}
			pid := sc.PID()
			if _, err := sc.Claim(ctx, provider.StartOptions{SessionID: "old", ProviderSessionID: "old", Resume: true, WorkDir: t.TempDir(), Env: env}); !errors.Is(err, provider.ErrNotClaimable) {
				t.Fatalf("claim of a conversation to resume: %v, want ErrNotClaimable", err)
			}
			if !sc.Alive() {
				t.Fatal("a refused claim ended the spare")
			}
			if err := sc.Close(ctx); err != nil {
				t.Fatal(err)
			}
			if proc.Alive(pid) {
				t.Fatalf("the closed spare's process %d lives on", pid)
			}
		})
	}
}

// A work directory with its OpenCode server already has its conversations
// share it: a spare offered one stays parked.
func TestOpenCodeServeSpareLeavesAServedDirectory(t *testing.T) {
	script := scriptedmodel.Script{Rules: []scriptedmodel.Rule{scriptedmodel.Then("hello", scriptedmodel.Text("hi"))}}
	h := newAgentHarness(t, openCodeServeCase(), script, engine.EngineOptions{Spares: 1})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	waitPool(ctx, t, h, "a parked spare", func(ps engine.PoolStats) bool { return ps.Spares == 1 })
	r1, err := h.exec(ctx, "one", "hello")
	if err != nil {
		t.Fatalf("%v\n%s", err, describe(r1))
	}
	waitPool(ctx, t, h, "the refill", func(ps engine.PoolStats) bool { return ps.Spares == 1 && ps.SpareStarts == 2 })
	r2, err := h.exec(ctx, "two", "hello")
	if err != nil {
		t.Fatalf("%v\n%s", err, describe(r2))
	}
	s1, s2 := r1.First(event.TypeSessionStart), r2.First(event.TypeSessionStart)
	if !s1.Spare || s2.Spare || s2.PID != s1.PID || s2.ProviderSessionID == s1.ProviderSessionID {
		t.Fatalf("want the second conversation on the first one's server: %+v / %+v", s1.SessionStart, s2.SessionStart)
	}
	if ps := h.eng.PoolStats(); ps.Spares != 1 || ps.SpareClaims != 1 {
		t.Fatalf("the spare was not left parked: %+v", ps)
	}
}
