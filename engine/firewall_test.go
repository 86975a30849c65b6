package engine_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/guard"
	"github.com/hotplex/hotplex/internal/clocktest"
	"github.com/hotplex/hotplex/provider"
	"github.com/hotplex/hotplex/testkit"
)

// scriptedFirewall blocks commands and prompts containing "DANGER", sends
// those containing "UNSURE" for approval, and records what it was asked.
type scriptedFirewall struct {
	mu    chan struct{}
	tools []string
}

func (f *scriptedFirewall) CheckToolUse(tool string, input map[string]any, c guard.Context) guard.Verdict {
	f.mu <- struct{}{}
	f.tools = append(f.tools, tool)
	<-f.mu
	cmd, _ := input["command"].(string)
	switch {
	case strings.Contains(cmd, "DANGER"):
		return guard.Verdict{Blocked: true, Level: guard.LevelCritical, Category: guard.CategoryFileDelete,
			Reason: "scripted danger in " + c.WorkDir, Pattern: "scripted", Suggestions: []string{"do less"}, Operation: cmd}
	case strings.Contains(cmd, "UNSURE"):
		return guard.Verdict{Ask: true, Level: guard.LevelHigh, Category: guard.CategoryUnresolved, Reason: "cannot tell", Operation: cmd}
	}
	return guard.Verdict{}
}

func (f *scriptedFirewall) CheckPrompt(prompt string, _ guard.Context) guard.Verdict {
	if strings.Contains(prompt, "`DANGER`") {
		return guard.Verdict{Blocked: true, Level: guard.LevelCritical, Category: guard.CategorySystem, Reason: "dangerous prompt", Operation: "DANGER"}
	}
	return guard.Verdict{}
}

func newFirewall() *scriptedFirewall { return &scriptedFirewall{mu: make(chan struct{}, 1)} }

func TestFirewallBlocksToolUse(t *testing.T) {
	fw := newFirewall()
	f := newFixture(t, engine.EngineOptions{Firewall: fw, AdminToken: "s3cret"})
	r := f.mustRun(t, "fw", bash("touch blocked.txt # DANGER"))
	if _, err := os.Stat(filepath.Join(f.dir, "blocked.txt")); err == nil {
		t.Fatal("a blocked command ran")
	}
	blk := r.First(event.TypeDangerBlock)
	if blk == nil || blk.Danger == nil {
		t.Fatalf("no danger_block event: %v", r.Types())
	}
	d := blk.Danger
	if d.Level != guard.LevelCritical || d.Category != guard.CategoryFileDelete || d.PatternMatched != "scripted" ||
		!d.BypassAllowed || !strings.Contains(d.Reason, f.dir) || blk.Meta.ToolName != "Bash" {
		t.Fatalf("danger_block = %+v %+v", d, blk.Meta)
	}
	res := r.First(event.TypeToolResult)
	if res == nil || res.Meta.Status != "error" || !strings.Contains(res.EventData, "danger firewall") || !strings.Contains(res.EventData, "do less") {
		t.Fatalf("the agent was not told why: %+v", res)
	}
	testkit.AssertOrder(t, r.Types(), event.TypeToolUse, event.TypeDangerBlock, event.TypeToolResult, event.TypeResult)
}

func TestFirewallPromptBlock(t *testing.T) {
	f := newFixture(t, engine.EngineOptions{Firewall: newFirewall()})
	r, err := f.run(t, "p", "please run `DANGER` now")
	if !errors.Is(err, engine.ErrDangerBlocked) {
		t.Fatalf("want ErrDangerBlocked, got %v", err)
	}
	if got := r.Types(); len(got) != 1 || got[0] != event.TypeDangerBlock {
		t.Fatalf("a blocked prompt must yield only danger_block: %v", got)
	}
	if s, _ := f.eng.GetSession("p"); s != nil && s.PID != 0 {
		t.Fatal("a process was started for a blocked prompt")
	}
}

func TestFirewallAsk(t *testing.T) {
	t.Run("no approver: denied", func(t *testing.T) {
		f := newFixture(t, engine.EngineOptions{Firewall: newFirewall()})
		r := f.mustRun(t, "a", bash("touch asked.txt # UNSURE"))
		if _, err := os.Stat(filepath.Join(f.dir, "asked.txt")); err == nil {
			t.Fatal("an unapproved command ran")
		}
		if res := r.First(event.TypeToolResult); res == nil || !strings.Contains(res.EventData, "approval") {
			t.Fatalf("tool_result: %+v", res)
		}
	})
	t.Run("approver allows", func(t *testing.T) {
		asked := 0
		f := newFixture(t, engine.EngineOptions{Firewall: newFirewall(),
			PermissionHandler: func(_ context.Context, req engine.PermissionRequest) provider.ToolDecision {
				if req.Kind == provider.CanUseTool {
					asked++
					return provider.ToolDecision{Behavior: provider.Allow}
				}
				return provider.ToolDecision{}
			}})
		f.mustRun(t, "a", bash("touch asked.txt # UNSURE"))
		if _, err := os.Stat(filepath.Join(f.dir, "asked.txt")); err != nil || asked != 1 {
			t.Fatalf("approved command: %v, asked %d times", err, asked)
		}
	})
}

func TestFirewallBypass(t *testing.T) {
	clock := clocktest.New()
	f := newFixture(t, engine.EngineOptions{Firewall: newFirewall(), AdminToken: "s3cret", Clock: clock})
	if err := f.eng.Bypass("by", "wrong", time.Minute); !errors.Is(err, engine.ErrBypassDenied) {
		t.Fatalf("wrong token: %v", err)
	}
	if err := f.eng.Bypass("by", "s3cret", 300*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	r := f.mustRun(t, "by", bash("touch bypassed.txt # DANGER"))
	if _, err := os.Stat(filepath.Join(f.dir, "bypassed.txt")); err != nil {
		t.Fatalf("bypassed command did not run: %v", err)
	}
	if ev := r.First(event.TypeDangerBypass); ev == nil || ev.Danger == nil || ev.Danger.Level != guard.LevelCritical {
		t.Fatalf("bypass not audited: %v", r.Types())
	}
	// Scoped: another session is still guarded.
	f.mustRun(t, "other", bash("touch other.txt # DANGER"))
	if _, err := os.Stat(filepath.Join(f.dir, "other.txt")); err == nil {
		t.Fatal("the bypass leaked to another session")
	}
	// Expiring.
	clock.Advance(350 * time.Millisecond)
	f.mustRun(t, "by", bash("touch late.txt # DANGER"))
	if _, err := os.Stat(filepath.Join(f.dir, "late.txt")); err == nil {
		t.Fatal("the bypass did not expire")
	}
	// Ended early.
	if err := f.eng.Bypass("by", "s3cret", time.Minute); err != nil {
		t.Fatal(err)
	}
	f.eng.EndBypass("by")
	f.mustRun(t, "by", bash("touch ended.txt # DANGER"))
	if _, err := os.Stat(filepath.Join(f.dir, "ended.txt")); err == nil {
		t.Fatal("EndBypass did not restore the firewall")
	}
}

func TestBypassNeedsAnAdminToken(t *testing.T) {
	f := newFixture(t, engine.EngineOptions{Firewall: newFirewall()})
	if err := f.eng.Bypass("x", "", time.Minute); !errors.Is(err, engine.ErrBypassDenied) {
		t.Fatalf("bypass without an admin token: %v", err)
	}
}

func TestFirewallSeesEveryToolUse(t *testing.T) {
	fw := newFirewall()
	f := newFixture(t, engine.EngineOptions{Firewall: fw})
	f.mustRun(t, "all", bash("echo read-only"))
	fw.mu <- struct{}{}
	defer func() { <-fw.mu }()
	// The PreToolUse hook shows even commands the CLI runs without asking.
	if len(fw.tools) == 0 || fw.tools[0] != "Bash" {
		t.Fatalf("firewall saw %v", fw.tools)
	}
}

// TestFirewallProtectedPaths: with the built-in firewall, a session may not
// delete what HotPlex owns even where it lies next to the session's own
// work directory in a temporary directory, and keeps its own files.
func TestFirewallProtectedPaths(t *testing.T) {
	data := t.TempDir()
	sentinel := filepath.Join(data, "hotplex.db")
	if err := os.WriteFile(sentinel, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, engine.EngineOptions{ProtectedPaths: []string{data}})
	r := f.mustRun(t, "prot", bash("rm -f "+sentinel))
	if _, err := os.Stat(sentinel); err != nil {
		t.Fatalf("the protected database was deleted: %v", err)
	}
	blk := r.First(event.TypeDangerBlock)
	if blk == nil || blk.Danger == nil || blk.Danger.PatternMatched != "rm-protected" {
		t.Fatalf("no danger_block for the protected path: %v %+v", r.Types(), blk)
	}

	own := filepath.Join(f.dir, "scratch.txt")
	if err := os.WriteFile(own, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	r = f.mustRun(t, "prot", bash("rm -f scratch.txt"))
	if blk := r.First(event.TypeDangerBlock); blk != nil {
		t.Fatalf("deleting a file of the own work directory was blocked: %+v", blk.Danger)
	}
	if _, err := os.Stat(own); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the own file was not deleted: %v", err)
	}
}
