package agents

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hotplex/hotplex/provider"
	"github.com/hotplex/hotplex/provider/acp"
	"github.com/hotplex/hotplex/provider/codex"
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

func codexBinary(t *testing.T) string {
	return testkit.ToolPath(t, "codex/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex")
}

// codexHome writes a CODEX_HOME whose config sends every model call to the
// model server's Responses API; extra is more top-level config.
func codexHome(t *testing.T, url, home, extra string) string {
	t.Helper()
	dir := filepath.Join(home, ".codex")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	conf := `model = "gpt-5.5"
model_provider = "hotplex"
check_for_update_on_startup = false
` + extra + `

[model_providers.hotplex]
name = "HotPlex model server"
base_url = "` + url + `/v1"
wire_api = "responses"
env_key = "HOTPLEX_MODEL_KEY"
request_max_retries = 0
stream_max_retries = 0

[analytics]
enabled = false
`
	if err := os.WriteFile(filepath.Join(dir, "config.toml"), []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

func codexCase() agentCase {
	return agentCase{
		name:  "codex",
		shell: fakemodel.Shell,
		start: func(t *testing.T, url, home string) (provider.Provider, []string) {
			env := append(testkit.OfflineEnvWithHome(home, url), "CODEX_HOME="+codexHome(t, url, home, ""), "HOTPLEX_MODEL_KEY=sk-hotplex-test")
			return codex.New(codex.Options{Path: codexBinary(t)}), env
		},
		guarded: true,
		resumes: true,
	}
}

// codexACPConfig makes codex-acp ask before every command that is not
// known to be read-only, and run commands without Codex's own sandbox
// (bubblewrap, which cannot create namespaces in this container); the
// approvals and the firewall guard them instead.
const codexACPConfig = `approval_policy = "untrusted"
sandbox_mode = "danger-full-access"`

func codexACPCase() agentCase {
	return agentCase{
		name:  "codex-acp",
		shell: fakemodel.Shell,
		start: func(t *testing.T, url, home string) (provider.Provider, []string) {
			env := append(testkit.OfflineEnvWithHome(home, url), "CODEX_HOME="+codexHome(t, url, home, codexACPConfig), "HOTPLEX_MODEL_KEY=sk-hotplex-test")
			p := testkit.ToolPath(t, "codex-acp/node_modules/@zed-industries/codex-acp-linux-x64/bin/codex-acp")
			return mustACP(t, acp.CodexACP(p)), env
		},
		guarded: true,
		resumes: true,
	}
}

func geminiCase() agentCase {
	return agentCase{
		name:  "gemini",
		shell: fakemodel.Shell,
		start: func(t *testing.T, url, home string) (provider.Provider, []string) {
			env := append(testkit.OfflineEnvWithHome(home, url),
				"GEMINI_API_KEY=hotplex-test-key",
				"GOOGLE_GEMINI_BASE_URL="+url,
				"GEMINI_CLI_NO_RELAUNCH=true",
			)
			return mustACP(t, acp.Gemini(testkit.ToolPath(t, "gemini/node_modules/.bin/gemini"))), env
		},
		guarded: true,
		// Gemini CLI 0.61 records the chat on disk, but its session/load
		// answers "No previous sessions found for this project", and its
		// session/new ignores --resume: a new process starts a new
		// conversation, which session_start's Fallback reports.
		resumes: false,
	}
}

func qwenCase() agentCase {
	return agentCase{
		name:  "qwen",
		shell: fakemodel.Shell,
		start: func(t *testing.T, url, home string) (provider.Provider, []string) {
			env := append(testkit.OfflineEnvWithHome(home, url),
				"OPENAI_API_KEY=sk-hotplex-test",
				"OPENAI_BASE_URL="+url+"/v1",
				"OPENAI_MODEL=fake-model",
			)
			o := acp.Qwen(testkit.ToolPath(t, "qwen/node_modules/.bin/qwen"))
			o.Args = append(o.Args, "--auth-type", "openai")
			return mustACP(t, o), env
		},
		guarded: true,
		resumes: true,
	}
}
