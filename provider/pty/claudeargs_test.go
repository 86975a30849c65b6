package pty

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hotplex/hotplex/internal/claudecli"
	"github.com/hotplex/hotplex/provider"
)

// The terminal UI's command line: a new conversation gets --session-id,
// one whose transcript exists --resume (whatever the caller asked), the
// permission mode in the CLI's spelling, and the ask-every-command rule
// unless permissions are bypassed.
func TestClaudeTUIArgs(t *testing.T) {
	home := t.TempDir()
	o := provider.StartOptions{
		ProviderSessionID: "c0ffee", WorkDir: "/w", Env: []string{"HOME=" + home},
		Model: "m", SystemPrompt: "be brief", AllowedTools: []string{"Read"},
	}
	settingsOf := func(args []string) map[string]any {
		t.Helper()
		i := slices.IndexFunc(args, func(a string) bool { return strings.HasPrefix(a, "--settings=") })
		if i < 0 {
			t.Fatalf("no --settings in %q", args)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(strings.TrimPrefix(args[i], "--settings=")), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	args, resume := claudeSessionArgs(o, true)
	want := []string{"--session-id=c0ffee", "--permission-mode=default"}
	if resume || !slices.Equal(args[:2], want) || !slices.Equal(args[3:], claudecli.OptionArgs(o)) {
		t.Errorf("new conversation: %q, resume %v", args, resume)
	}
	if s := settingsOf(args); s["tui"] != "default" || s["permissions"] == nil {
		t.Errorf("settings %v", s)
	}

	tp := claudecli.TranscriptPath(o.Env, o.WorkDir, o.ProviderSessionID)
	if err := os.MkdirAll(filepath.Dir(tp), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tp, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	o.PermissionMode = "accept-edits"
	args, resume = claudeSessionArgs(o, false)
	if !resume || !slices.Equal(args[:2], []string{"--resume=c0ffee", "--permission-mode=acceptEdits"}) {
		t.Errorf("existing conversation: %q, resume %v", args, resume)
	}

	for _, bypass := range []provider.StartOptions{{PermissionMode: "bypass"}, {DangerouslySkipPermissions: true}} {
		args, _ := claudeSessionArgs(bypass, false)
		if s := settingsOf(args); s["permissions"] != nil {
			t.Errorf("%+v: bypassed permissions still ask: %q", bypass, args)
		}
	}
	if args, _ := claudeSessionArgs(provider.StartOptions{DangerouslySkipPermissions: true}, false); !slices.Contains(args, "--dangerously-skip-permissions") {
		t.Errorf("skip: %q", args)
	}
}

// Forget removes the conversation the way the headless provider does.
func TestClaudeTUIForget(t *testing.T) {
	home := t.TempDir()
	env := []string{"HOME=" + home}
	o := provider.StartOptions{ProviderSessionID: "c0ffee", WorkDir: "/w"}
	tp := claudecli.TranscriptPath(env, o.WorkDir, o.ProviderSessionID)
	history := filepath.Join(home, ".claude", "file-history", "c0ffee", "f")
	for _, f := range []string{tp, history} {
		if err := os.MkdirAll(filepath.Dir(f), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := ClaudeTUI("claude").Forget(o, env); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{tp, history} {
		if _, err := os.Stat(f); !os.IsNotExist(err) {
			t.Errorf("%s survived Forget: %v", f, err)
		}
	}
}
