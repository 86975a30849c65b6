package claude

import (
	"slices"
	"strings"
	"testing"

	"github.com/hotplex/hotplex/internal/claudecli"
	"github.com/hotplex/hotplex/provider"
)

// The headless command line: stream-json both ways, the conversation flag
// the caller chose, the shared option flags, and the permission mode in
// the CLI's spelling.
func TestArgs(t *testing.T) {
	o := provider.StartOptions{ProviderSessionID: "c0ffee", Model: "m", SystemPrompt: "-x", PermissionMode: "accept_edits"}
	a := args(o, false, true)
	for _, want := range append([]string{"-p", "--output-format=stream-json", "--input-format=stream-json",
		"--permission-prompt-tool=stdio", "--session-id=c0ffee", "--include-partial-messages", "--permission-mode=acceptEdits"},
		claudecli.OptionArgs(o)...) {
		if !slices.Contains(a, want) {
			t.Errorf("%q lacks %q", a, want)
		}
	}
	if a := args(o, true, false); !slices.Contains(a, "--resume=c0ffee") || slices.Contains(a, "--include-partial-messages") {
		t.Errorf("resume: %q", a)
	}
	o.ProviderSessionID = ""
	for _, arg := range args(o, true, false) {
		if strings.HasPrefix(arg, "--resume") || strings.HasPrefix(arg, "--session-id") {
			t.Errorf("a spare names a conversation: %q", arg)
		}
	}
}

func TestChildEnvDropsNestingMarkers(t *testing.T) {
	env := childEnv(provider.StartOptions{Env: []string{"CLAUDECODE=1", "CLAUDE_CODE_ENTRYPOINT=cli", "HOME=/h"}})
	if !slices.Equal(env, []string{"HOME=/h"}) {
		t.Errorf("childEnv = %q", env)
	}
}
