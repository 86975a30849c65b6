package claudecli

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/hotplex/hotplex/provider"
)

func TestConversationArgs(t *testing.T) {
	for _, tc := range []struct {
		psid   string
		resume bool
		want   []string
	}{
		{"", true, nil},
		{"", false, nil},
		{"abc", false, []string{"--session-id=abc"}},
		{"abc", true, []string{"--resume=abc"}},
	} {
		if got := ConversationArgs(tc.psid, tc.resume); !slices.Equal(got, tc.want) {
			t.Errorf("ConversationArgs(%q, %v) = %q, want %q", tc.psid, tc.resume, got, tc.want)
		}
	}
}

func TestOptionArgs(t *testing.T) {
	if got := OptionArgs(provider.StartOptions{}); got != nil {
		t.Errorf("no options: %q", got)
	}
	got := OptionArgs(provider.StartOptions{
		Model: "m", SystemPrompt: "-looks like a flag", AllowedTools: []string{"Read", "Bash(ls:*)"}, DisallowedTools: []string{"WebFetch"},
	})
	want := []string{"--model=m", "--append-system-prompt=-looks like a flag", "--allowedTools=Read,Bash(ls:*)", "--disallowedTools=WebFetch"}
	if !slices.Equal(got, want) {
		t.Errorf("OptionArgs = %q, want %q", got, want)
	}
}

func TestPermissionModeAndBypass(t *testing.T) {
	for in, want := range map[string]string{
		"": "", "default": "default", "strict": "default", "accept-edits": "acceptEdits", "ACCEPT_EDITS": "acceptEdits",
		"bypass": "bypassPermissions", "bypassPermissions": "bypassPermissions", "plan": "plan", "dont-ask": "dontAsk",
		"someNewMode": "someNewMode",
	} {
		if got := PermissionMode(in); got != want {
			t.Errorf("PermissionMode(%q) = %q, want %q", in, got, want)
		}
	}
	for o, want := range map[*provider.StartOptions]bool{
		{}:                                 false,
		{PermissionMode: "plan"}:           false,
		{PermissionMode: "bypass"}:         true,
		{DangerouslySkipPermissions: true}: true,
	} {
		if Bypass(*o) != want {
			t.Errorf("Bypass(%+v) = %v", *o, !want)
		}
	}
}

func TestNestingMarkers(t *testing.T) {
	for kv, want := range map[string]bool{"CLAUDECODE=1": true, "CLAUDE_CODE_ENTRYPOINT=cli": true, "CLAUDE_CODE_SSE_PORT=1": true,
		"CLAUDE_CONFIG_DIR=/x": false, "HOME=/h": false} {
		if IsNestingMarker(kv) != want {
			t.Errorf("IsNestingMarker(%q) = %v", kv, !want)
		}
	}
}

func TestTranscriptPath(t *testing.T) {
	if got := TranscriptPath([]string{"HOME=/h"}, "/w/a.b_c d", "id"); got != "/h/.claude/projects/-w-a-b-c-d/id.jsonl" {
		t.Errorf("under HOME: %s", got)
	}
	if got := TranscriptPath([]string{"HOME=/h", "CLAUDE_CONFIG_DIR=/cfg"}, "/wé", "id"); got != "/cfg/projects/-w--/id.jsonl" {
		t.Errorf("under CLAUDE_CONFIG_DIR (é is two bytes): %s", got)
	}
	if got := TranscriptPath([]string{"PATH=/bin"}, "/w", "id"); got != "" {
		t.Errorf("without HOME: %s", got)
	}
}

// RemoveConversation removes the conversation's files and nobody else's,
// and an ID that could name another path removes nothing.
func TestRemoveConversation(t *testing.T) {
	home := t.TempDir()
	env := []string{"HOME=" + home}
	work := "/work/dir"
	cfg := filepath.Join(home, ".claude")
	files := func(psid string) []string {
		tp := TranscriptPath(env, work, psid)
		return []string{tp, filepath.Join(tp[:len(tp)-len(".jsonl")], "subagents", "a.jsonl"),
			filepath.Join(cfg, "file-history", psid, "f"), filepath.Join(cfg, "session-env", psid, "e"),
			filepath.Join(cfg, "todos", psid+"-agent-"+psid+".json")}
	}
	for _, psid := range []string{"gone", "kept"} {
		for _, f := range files(psid) {
			if err := os.MkdirAll(filepath.Dir(f), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(f, []byte("x"), 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	if HasTranscript(env, work, "gone") != true || HasTranscript(env, work, "never") || HasTranscript(env, work, "") {
		t.Fatal("HasTranscript disagrees with the files")
	}
	for _, bad := range []string{"", ".", "..", "...", "../kept", `a\b`} {
		if err := RemoveConversation(env, work, bad); err != nil {
			t.Errorf("RemoveConversation(%q) = %v", bad, err)
		}
	}
	if err := RemoveConversation(env, work, "gone"); err != nil {
		t.Fatal(err)
	}
	for _, f := range files("gone") {
		if _, err := os.Stat(f); !os.IsNotExist(err) {
			t.Errorf("%s survived: %v", f, err)
		}
	}
	for _, f := range files("kept") {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("another conversation's %s: %v", f, err)
		}
	}
	if HasTranscript(env, work, "gone") {
		t.Error("HasTranscript after the removal")
	}
}
