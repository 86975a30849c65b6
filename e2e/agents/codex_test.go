package agents

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/internal/scriptedmodel"
	"github.com/hotplex/hotplex/provider"
)

// Codex's file edits (apply_patch) are file changes: shown as Edit tool
// calls, and put to the permission hook and the firewall when Codex asks.
func TestCodexFileChange(t *testing.T) {
	const etcTarget = "/etc/hotplex-codex-test"
	_ = os.Remove(etcTarget)
	patch := func(file, line string) scriptedmodel.Reply {
		p := "*** Begin Patch\n*** Add File: " + file + "\n+" + line + "\n*** End Patch\n"
		return scriptedmodel.Reply{ToolUses: []scriptedmodel.ToolUse{{Name: "apply_patch", Input: map[string]any{"input": p}}}}
	}
	script := scriptedmodel.Script{Rules: []scriptedmodel.Rule{
		scriptedmodel.Then("write a note", patch("note.txt", "hello from a patch"), scriptedmodel.Text("noted: {{last_tool_result}}")),
		scriptedmodel.Then("system file", patch(etcTarget, "pwned"), scriptedmodel.Text("done: {{last_tool_result}}")),
	}}
	var mu sync.Mutex
	var asked []string
	h := newAgentHarness(t, codexCase(), script, engine.EngineOptions{
		PermissionHandler: func(_ context.Context, req engine.PermissionRequest) provider.ToolDecision {
			mu.Lock()
			defer mu.Unlock()
			p, _ := req.Input["file_path"].(string)
			asked = append(asked, req.ToolName+": "+p)
			return provider.ToolDecision{}
		}})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	r, err := h.exec(ctx, "patch", "please write a note")
	if err != nil {
		t.Fatalf("%v\n%s", err, describe(r))
	}
	b, err := os.ReadFile(filepath.Join(h.dir, "note.txt"))
	if err != nil || strings.TrimSpace(string(b)) != "hello from a patch" {
		t.Fatalf("the patch was not applied: %q %v\n%s", b, err, describe(r))
	}
	tu := r.First(event.TypeToolUse)
	if tu == nil || tu.Meta.ToolName != "Edit" || !strings.HasSuffix(tu.Meta.FilePath, "note.txt") {
		t.Fatalf("no Edit tool_use:\n%s", describe(r))
	}
	if tr := r.First(event.TypeToolResult); tr == nil || tr.Meta.Status != "success" {
		t.Fatalf("tool_result:\n%s", describe(r))
	}
	mu.Lock()
	if !slices.ContainsFunc(asked, func(a string) bool { return strings.HasPrefix(a, "Edit: ") && strings.HasSuffix(a, "note.txt") }) {
		t.Errorf("the file change was not put to the permission hook: %q", asked)
	}
	mu.Unlock()

	// A patch outside the work directory, into a system directory, is
	// blocked before Codex applies it.
	r2, err := h.exec(ctx, "patch", "now change a system file")
	if err != nil {
		t.Fatalf("%v\n%s", err, describe(r2))
	}
	if _, err := os.Stat(etcTarget); err == nil {
		_ = os.Remove(etcTarget)
		t.Fatal("the firewall let a patch write into /etc")
	}
	if b := r2.All(event.TypeDangerBlock); len(b) != 1 || b[0].Meta.ToolName != "Edit" {
		t.Fatalf("want one danger_block for Edit:\n%s", describe(r2))
	}
}
