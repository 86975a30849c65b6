package e2e

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/guard"
	"github.com/hotplex/hotplex/internal/scriptedmodel"
)

// The real CLI's Bash tool asked to run PowerShell and cmd.exe payloads:
// the firewall reads through the wrappers and stops them before they run.
// Each command first creates a sentinel file, so that had it run, the
// test would see it (neither powershell nor cmd.exe exists here, so the
// payloads themselves could do nothing).
func TestClaudeFirewallStopsWindowsShellPayloads(t *testing.T) {
	script := scriptedmodel.Script{Rules: []scriptedmodel.Rule{
		scriptedmodel.Then("tidy the profile",
			scriptedmodel.Bash(`touch ran-powershell.txt; powershell -NoProfile -Command 'Remove-Item -Recurse -Force $env:USERPROFILE'`),
			scriptedmodel.Bash(`touch ran-cmd.txt; cmd.exe /c "rd /s /q %USERPROFILE%"`),
			scriptedmodel.Bash(`touch ran-benign.txt; pwsh -NoProfile -Command 'Get-ChildItem -Recurse | Measure-Object'`),
			scriptedmodel.Text("Finished.")),
	}}
	h := newHarness(t, script, engine.EngineOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	r, err := h.exec(t, ctx, "win", "please tidy the profile")
	if err != nil {
		t.Fatal(err)
	}
	blocks := r.All(event.TypeDangerBlock)
	if len(blocks) != 2 {
		t.Fatalf("want 2 danger_block events, got %d: %v", len(blocks), r.Types())
	}
	for i, b := range blocks {
		if b.Danger == nil || b.Danger.Level != guard.LevelCritical || b.Danger.Category != guard.CategoryFileDelete {
			t.Errorf("block %d: %+v", i, b.Danger)
		}
	}
	for _, f := range []string{"ran-powershell.txt", "ran-cmd.txt"} {
		if _, err := os.Stat(filepath.Join(h.dir, f)); err == nil {
			t.Errorf("%s exists: the blocked command ran", f)
		}
	}
	// the benign PowerShell line was let through (and failed harmlessly
	// for want of pwsh)
	if _, err := os.Stat(filepath.Join(h.dir, "ran-benign.txt")); err != nil {
		t.Errorf("the benign command did not run: %v", err)
	}
}
