package engine_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/guard"
	"github.com/hotplex/hotplex/internal/fakeprovider"
	"github.com/hotplex/hotplex/provider"
	"github.com/hotplex/hotplex/testkit"
)

// probe is a permission handler that records what reaches it and denies
// everything, so that no command a test judges ever runs: a request the
// firewall let through shows as a recorded request, one it blocked as a
// danger_block event, one it sent for approval as a request that needs it.
type probe struct {
	mu   sync.Mutex
	reqs []engine.PermissionRequest
}

func (p *probe) handle(_ context.Context, req engine.PermissionRequest) provider.ToolDecision {
	p.mu.Lock()
	p.reqs = append(p.reqs, req)
	p.mu.Unlock()
	return provider.ToolDecision{Behavior: provider.Deny, Message: "probe: nothing runs"}
}

func (p *probe) take() []engine.PermissionRequest {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := p.reqs
	p.reqs = nil
	return out
}

// outcome is how the engine judged one tool use.
type outcome struct {
	verdict string // "block", "ask" or "allow"
	policy  *event.PolicyDecision
}

func mustPolicy(t *testing.T, allow, ask, deny []string) *guard.Policy {
	t.Helper()
	p, err := guard.NewPolicy(allow, ask, deny)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// judge runs one Bash tool use on session id of owner, created with the
// session-level rules sess, and reports the engine's verdict.
func judge(t *testing.T, f *fixture, pr *probe, owner, id string, sess *guard.Policy, cmd string) outcome {
	t.Helper()
	pr.take()
	r := &testkit.Recorder{}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := f.eng.Execute(ctx, &engine.Config{SessionID: id, WorkDir: f.dir, Owner: owner, Policy: sess}, bash(cmd), r.Callback); err != nil {
		t.Fatalf("Execute(%q): %v", cmd, err)
	}
	reqs := pr.take()
	if blk := r.First(event.TypeDangerBlock); blk != nil {
		if len(reqs) > 0 {
			t.Fatalf("%q: blocked and still handed on: %+v", cmd, reqs)
		}
		return outcome{"block", blk.Policy}
	}
	for _, req := range reqs {
		if req.NeedsApproval {
			ev := r.First(event.TypePermissionRequest)
			if ev == nil || !equalPolicy(ev.Policy, req.Policy) {
				t.Fatalf("%q: the permission_request event does not name the rule the request does: %+v vs %+v", cmd, ev, req.Policy)
			}
			return outcome{"ask", req.Policy}
		}
	}
	if len(reqs) == 0 {
		t.Fatalf("%q: neither blocked nor handed on: %v", cmd, r.Types())
	}
	return outcome{"allow", nil}
}

func equalPolicy(a, b *event.PolicyDecision) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func wantOutcome(t *testing.T, cmd string, got outcome, verdict, decision, level, rule string) {
	t.Helper()
	if got.verdict != verdict {
		t.Fatalf("%q: %s, want %s (rule %+v)", cmd, got.verdict, verdict, got.policy)
	}
	if decision == "" {
		if got.policy != nil {
			t.Fatalf("%q: a rule decided where the analysis should: %+v", cmd, got.policy)
		}
		return
	}
	if got.policy == nil || got.policy.Decision != decision || got.policy.Level != level || got.policy.Rule != rule {
		t.Fatalf("%q: decided by %+v, want %s by the %s rule %s", cmd, got.policy, decision, level, rule)
	}
}

func TestPolicyPrecedence(t *testing.T) {
	pr := &probe{}
	keyRules := map[string]*guard.Policy{
		"alice": mustPolicy(t, nil, []string{"Bash(git status:*)"}, nil),
	}
	f := newFixture(t, engine.EngineOptions{
		PermissionHandler: pr.handle,
		Policy:            mustPolicy(t, []string{"Bash(docker volume prune:*)"}, nil, []string{"Bash(git push:*)"}),
		KeyPolicy:         func(owner string) *guard.Policy { return keyRules[owner] },
	})

	t.Run("a server deny beats a session allow", func(t *testing.T) {
		const cmd = "git push origin main"
		got := judge(t, f, pr, "bob", "push", mustPolicy(t, []string{"Bash(git push:*)"}, nil, nil), cmd)
		wantOutcome(t, cmd, got, "block", "deny", "server", "Bash(git push:*)")
	})
	t.Run("a session allow cannot lift a critical built-in block", func(t *testing.T) {
		const cmd = "rm -rf /"
		got := judge(t, f, pr, "bob", "critical", mustPolicy(t, []string{"Bash(rm:*)"}, nil, nil), cmd)
		wantOutcome(t, cmd, got, "block", "", "", "")
	})
	t.Run("a server allow lifts a high built-in block", func(t *testing.T) {
		const cmd = "docker volume prune -f"
		got := judge(t, f, pr, "bob", "prune", nil, cmd)
		wantOutcome(t, cmd, got, "allow", "", "", "")
	})
	t.Run("a session allow lifts a moderate built-in block", func(t *testing.T) {
		const cmd = "docker volume rm pgdata"
		got := judge(t, f, pr, "bob", "volume", mustPolicy(t, []string{"Bash(docker volume rm:*)"}, nil, nil), cmd)
		wantOutcome(t, cmd, got, "allow", "", "", "")
	})
	t.Run("an ask at key level turns an allowed command into a question", func(t *testing.T) {
		const cmd = "git status"
		got := judge(t, f, pr, "alice", "status", nil, cmd)
		wantOutcome(t, cmd, got, "ask", "ask", "key", "Bash(git status:*)")
	})
}

// The built-in analysis blocks both commands without rules; an allow of
// the key or session level lifts the moderate one only, while the server's
// allow (TestPolicyPrecedence) lifts the high one too.
func TestPolicyNarrowAllowKeepsHighBlock(t *testing.T) {
	const high, moderate = "docker volume prune -f", "docker volume rm pgdata"
	allow := mustPolicy(t, []string{"Bash(docker volume:*)"}, nil, nil)
	t.Run("no rules", func(t *testing.T) {
		pr := &probe{}
		f := newFixture(t, engine.EngineOptions{PermissionHandler: pr.handle})
		for _, cmd := range []string{high, moderate} {
			wantOutcome(t, cmd, judge(t, f, pr, "bob", "plain", nil, cmd), "block", "", "", "")
		}
	})
	t.Run("key and session allow", func(t *testing.T) {
		pr := &probe{}
		f := newFixture(t, engine.EngineOptions{PermissionHandler: pr.handle, KeyPolicy: func(owner string) *guard.Policy {
			if owner == "keyed" {
				return allow
			}
			return nil
		}})
		for _, c := range []struct {
			owner, id string
			sess      *guard.Policy
		}{{"keyed", "k", nil}, {"bob", "s", allow}} {
			wantOutcome(t, high, judge(t, f, pr, c.owner, c.id, c.sess, high), "block", "", "", "")
			wantOutcome(t, moderate, judge(t, f, pr, c.owner, c.id, c.sess, moderate), "allow", "", "", "")
		}
	})
}

func TestPolicyPerKey(t *testing.T) {
	pr := &probe{}
	keyRules := map[string]*guard.Policy{
		"alice": mustPolicy(t, nil, nil, []string{"Bash(git status:*)"}),
		"bob":   mustPolicy(t, []string{"Bash(git status:*)"}, nil, nil),
	}
	f := newFixture(t, engine.EngineOptions{
		PermissionHandler: pr.handle,
		KeyPolicy:         func(owner string) *guard.Policy { return keyRules[owner] },
	})
	const cmd = "git status --short"
	wantOutcome(t, cmd, judge(t, f, pr, "alice", "a1", nil, cmd), "block", "deny", "key", "Bash(git status:*)")
	wantOutcome(t, cmd, judge(t, f, pr, "bob", "b1", nil, cmd), "allow", "", "", "")
	// An owner the resolver does not know has no key rules.
	wantOutcome(t, cmd, judge(t, f, pr, "carol", "c1", nil, cmd), "allow", "", "", "")
}

func TestPolicyPerSession(t *testing.T) {
	pr := &probe{}
	f := newFixture(t, engine.EngineOptions{PermissionHandler: pr.handle})
	deny := mustPolicy(t, nil, nil, []string{"Bash(git push:*)"})
	const cmd = "make && git push"
	wantOutcome(t, cmd, judge(t, f, pr, "", "ruled", deny, cmd), "block", "deny", "session", "Bash(git push:*)")
	wantOutcome(t, cmd, judge(t, f, pr, "", "free", nil, cmd), "allow", "", "", "")
	// A session keeps the rules it was created with: a later turn that
	// brings none does not lift them.
	wantOutcome(t, cmd, judge(t, f, pr, "", "ruled", nil, cmd), "block", "deny", "session", "Bash(git push:*)")
	// CreateSession takes them as well.
	if err := f.eng.CreateSession("made", engine.SessionConfig{WorkDir: f.dir, Policy: deny}); err != nil {
		t.Fatal(err)
	}
	wantOutcome(t, cmd, judge(t, f, pr, "", "made", nil, cmd), "block", "deny", "session", "Bash(git push:*)")
}

// A policy deny reaches the agent as a firewall block, with the rule in the
// danger_block event and its reason in the tool result.
func TestPolicyDenyEvent(t *testing.T) {
	f := newFixture(t, engine.EngineOptions{Policy: mustPolicy(t, nil, nil, []string{"Bash(touch:*)"})})
	r := f.mustRun(t, "touch", bash("touch denied.txt"))
	blk := r.First(event.TypeDangerBlock)
	if blk == nil || blk.Danger == nil || blk.Policy == nil || blk.Danger.Category != guard.CategoryPolicy ||
		blk.Policy.Matched != "touch denied.txt" {
		t.Fatalf("danger_block: %+v", blk)
	}
	if res := r.First(event.TypeToolResult); res == nil || res.Meta.Status != "error" {
		t.Fatalf("tool_result: %+v", res)
	}
	testkit.AssertOrder(t, r.Types(), event.TypeToolUse, event.TypeDangerBlock, event.TypeToolResult)
}

// Rules a custom or disabled firewall would ignore are refused, not
// silently dropped.
func TestPolicyNeedsBuiltinFirewall(t *testing.T) {
	p := mustPolicy(t, nil, nil, []string{"Bash(git push:*)"})
	prov := fakeprovider.New("fake")
	if _, err := engine.NewEngine(engine.EngineOptions{Provider: prov, Firewall: newFirewall(), Policy: p}); !errors.Is(err, engine.ErrInvalidConfig) {
		t.Fatalf("server rules with a custom firewall: %v", err)
	}
	if _, err := engine.NewEngine(engine.EngineOptions{Provider: prov, DisableFirewall: true, KeyPolicy: func(string) *guard.Policy { return p }}); !errors.Is(err, engine.ErrInvalidConfig) {
		t.Fatalf("key rules without a firewall: %v", err)
	}
	f := newFixture(t, engine.EngineOptions{Firewall: newFirewall()})
	if err := f.eng.CreateSession("s", engine.SessionConfig{WorkDir: f.dir, Policy: p}); !errors.Is(err, engine.ErrInvalidConfig) {
		t.Fatalf("session rules with a custom firewall: %v", err)
	}
}

// An admin bypass lifts a rule's deny too, audited with the rule.
func TestPolicyDenyBypassed(t *testing.T) {
	f := newFixture(t, engine.EngineOptions{AdminToken: "s3cret", Policy: mustPolicy(t, nil, nil, []string{"Bash(touch:*)"})})
	if err := f.eng.Bypass("by", "s3cret", time.Minute); err != nil {
		t.Fatal(err)
	}
	r := f.mustRun(t, "by", bash("touch bypassed.txt"))
	if _, err := os.Stat(filepath.Join(f.dir, "bypassed.txt")); err != nil {
		t.Fatalf("the bypassed command did not run: %v", err)
	}
	ev := r.First(event.TypeDangerBypass)
	if ev == nil || ev.Policy == nil || ev.Policy.Decision != "deny" || ev.Policy.Level != "server" || ev.Policy.Rule != "Bash(touch:*)" {
		t.Fatalf("danger_bypass: %+v", ev)
	}
}
