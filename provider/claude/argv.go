package claude

import (
	"os"
	"strings"

	"github.com/hotplex/hotplex/internal/claudecli"
	"github.com/hotplex/hotplex/provider"
)

// args builds the CLI's argument list for its headless stream-json mode.
func args(o provider.StartOptions, resume, partial bool) []string {
	a := []string{
		"-p",
		"--output-format=stream-json",
		"--input-format=stream-json",
		"--verbose",
		// Ask us (control_request can_use_tool) instead of refusing tools
		// that need approval: without it a headless CLI just denies them.
		"--permission-prompt-tool=stdio",
	}
	// A spare has no conversation ID: the CLI picks one, learnt at the claim.
	a = append(a, claudecli.ConversationArgs(o.ProviderSessionID, resume)...)
	if partial {
		a = append(a, "--include-partial-messages")
	}
	a = append(a, claudecli.OptionArgs(o)...)
	if mode := claudecli.PermissionMode(o.PermissionMode); mode != "" {
		a = append(a, "--permission-mode="+mode)
	}
	if o.DangerouslySkipPermissions {
		a = append(a, "--dangerously-skip-permissions")
	}
	if len(o.MCPServers) > 0 {
		// The CLI's own MCP configuration stays; these add to it. The
		// flag takes several values: "=" keeps it to this one.
		if cfg, err := provider.ClaudeMCPConfig(o.MCPServers); err == nil {
			a = append(a, "--mcp-config="+string(cfg))
		}
	}
	return a
}

// childEnv returns the environment for the CLI: the caller's, less the
// nesting markers, plus IS_SANDBOX=1 when permissions are bypassed as root
// (the CLI refuses bypass as root without exactly that value).
func childEnv(o provider.StartOptions) []string {
	base := o.Env
	if base == nil {
		base = os.Environ()
	}
	forceSandbox := claudecli.Bypass(o) && os.Geteuid() == 0
	env := make([]string, 0, len(base)+1)
	for _, kv := range base {
		if claudecli.IsNestingMarker(kv) || forceSandbox && strings.HasPrefix(kv, "IS_SANDBOX=") {
			continue
		}
		env = append(env, kv)
	}
	if forceSandbox {
		env = append(env, "IS_SANDBOX=1")
	}
	return env
}
