package agents

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hotplex/hotplex/provider"
	"github.com/hotplex/hotplex/provider/acp"
	"github.com/hotplex/hotplex/testkit"
	"github.com/hotplex/hotplex/testkit/fakemodel"
)

func mustACP(t *testing.T, o acp.Options) provider.Provider {
	t.Helper()
	p, err := acp.New(o)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// shellCall is a reply that calls a shell tool named name with {"command": cmd}.
func shellCall(name string) func(string) fakemodel.Reply {
	return func(cmd string) fakemodel.Reply {
		return fakemodel.Reply{ToolUses: []fakemodel.ToolUse{{Name: name, Input: map[string]any{"command": cmd, "description": "run a command"}}}}
	}
}

func claudeACPCase() agentCase {
	return agentCase{
		name:  "claude-acp",
		shell: fakemodel.Bash,
		start: func(t *testing.T, url, home string) (provider.Provider, []string) {
			env := testkit.OfflineEnvWithHome(home, url)
			return mustACP(t, acp.ClaudeACP(testkit.ToolPath(t, "claude-acp/node_modules/.bin/claude-code-acp"))), env
		},
		guarded: true,
		resumes: true,
	}
}

func openCodeCase() agentCase {
	return agentCase{
		name:  "opencode",
		shell: shellCall("bash"),
		start: func(t *testing.T, url, home string) (provider.Provider, []string) {
			cfg := filepath.Join(home, "opencode.json")
			// An Anthropic-compatible provider at the model server, and
			// permission to be asked before every shell command.
			conf := `{
  "$schema": "https://opencode.ai/config.json",
  "model": "hotplex/claude-sonnet-4-5",
  "autoupdate": false,
  "share": "disabled",
  "permission": {"bash": "ask", "edit": "allow"},
  "provider": {
    "hotplex": {
      "npm": "@ai-sdk/anthropic",
      "name": "HotPlex model server",
      "options": {"baseURL": "` + url + `/v1", "apiKey": "sk-hotplex-test"},
      "models": {"claude-sonnet-4-5": {"name": "claude-sonnet-4-5"}}
    }
  }
}`
			if err := os.WriteFile(cfg, []byte(conf), 0o600); err != nil {
				t.Fatal(err)
			}
			env := append(testkit.OfflineEnvWithHome(home, url),
				"OPENCODE_CONFIG="+cfg,
				"OPENCODE_DISABLE_AUTOUPDATE=1",
				"OPENCODE_DISABLE_LSP_DOWNLOAD=1",
				"OPENCODE_DISABLE_MODELS_FETCH=1",
				"XDG_DATA_HOME="+filepath.Join(home, ".local", "share"),
				"XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
				"XDG_CACHE_HOME="+filepath.Join(home, ".cache"),
				"XDG_STATE_HOME="+filepath.Join(home, ".local", "state"),
			)
			p := testkit.ToolPath(t, "opencode/node_modules/opencode-linux-x64/bin/opencode")
			return mustACP(t, acp.OpenCode(p)), env
		},
		guarded: true,
		resumes: true,
	}
}
