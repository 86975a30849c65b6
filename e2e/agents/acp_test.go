package agents

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hotplex/hotplex/internal/scriptedmodel"
	"github.com/hotplex/hotplex/provider"
	"github.com/hotplex/hotplex/provider/acp"
	"github.com/hotplex/hotplex/provider/codex"
	"github.com/hotplex/hotplex/provider/opencode"
	"github.com/hotplex/hotplex/testkit"
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
func shellCall(name string) func(string) scriptedmodel.Reply {
	return func(cmd string) scriptedmodel.Reply {
		return scriptedmodel.Reply{ToolUses: []scriptedmodel.ToolUse{{Name: name, Input: map[string]any{"command": cmd, "description": "run a command"}}}}
	}
}

func claudeACPCase() agentCase {
	return agentCase{
		name: "claude-acp",
		// Offered terminals, the adapter replaces Claude Code's Bash tool
		// with its own (mcp__acp__Bash), which runs each command in a
		// client terminal.
		shell:     scriptedmodel.Shell,
		terminals: true,
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
		shell: scriptedmodel.Shell,
		start: func(t *testing.T, url, home string) (provider.Provider, []string) {
			env := append(testkit.OfflineEnvWithHome(home, url), acp.OpenCodeAnthropicEnv(url, "sk-hotplex-test", "")...)
			env = append(env,
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

// codexEnv gives Codex a private CODEX_HOME and the model server's key.
func codexEnv(t *testing.T, url, home string) []string {
	t.Helper()
	dir := filepath.Join(home, ".codex")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.toml"), []byte("model = \"gpt-5.5\"\ncheck_for_update_on_startup = false\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return append(testkit.OfflineEnvWithHome(home, url), "CODEX_HOME="+dir, "HOTPLEX_MODEL_KEY=sk-hotplex-test")
}

func codexCase() agentCase {
	return agentCase{
		name:  "codex",
		shell: scriptedmodel.Shell,
		start: func(t *testing.T, url, home string) (provider.Provider, []string) {
			p := codex.New(codex.Options{Path: codexBinary(t), Config: codex.ModelProvider(url+"/v1", "HOTPLEX_MODEL_KEY")})
			return p, codexEnv(t, url, home)
		},
		guarded: true,
		resumes: true,
	}
}

func codexACPCase() agentCase {
	return agentCase{
		name:  "codex-acp",
		shell: scriptedmodel.Shell,
		start: func(t *testing.T, url, home string) (provider.Provider, []string) {
			p := testkit.ToolPath(t, "codex-acp/node_modules/@zed-industries/codex-acp-linux-x64/bin/codex-acp")
			return mustACP(t, acp.CodexACP(p, codex.ModelProvider(url+"/v1", "HOTPLEX_MODEL_KEY")...)), codexEnv(t, url, home)
		},
		guarded:        true,
		readOnlyUnseen: "the adapter's approval presets skip asking for commands Codex knows to be read-only, and it runs them itself, not in the client terminals HotPlex offers",
		resumes:        true,
	}
}

func geminiCase() agentCase {
	return agentCase{
		name:  "gemini",
		shell: scriptedmodel.Shell,
		start: func(t *testing.T, url, home string) (provider.Provider, []string) {
			env := append(testkit.OfflineEnvWithHome(home, url),
				"GEMINI_API_KEY=hotplex-test-key",
				"GOOGLE_GEMINI_BASE_URL="+url,
				"GEMINI_CLI_NO_RELAUNCH=true",
			)
			return mustACP(t, acp.Gemini(testkit.ToolPath(t, "gemini/node_modules/.bin/gemini"))), env
		},
		guarded:        true,
		readOnlyUnseen: "Gemini CLI's policy engine allows commands it knows to be safe without asking, no setting turns that off, and it runs them itself, not in the client terminals HotPlex offers",
		// Gemini CLI 0.61's session/load does not find the chats it saved
		// (and starts an empty recording under the same ID), and its ACP
		// sessions ignore --resume: the preset does not load, and a new
		// process starts a new conversation, which session_start's
		// Fallback reports.
		resumes: false,
		afterRestart: func(t *testing.T, h *agentHarness) {
			// The first conversation is still on disk.
			files, _ := filepath.Glob(filepath.Join(h.home, ".gemini", "tmp", "*", "chats", "*"))
			for _, f := range files {
				if b, err := os.ReadFile(f); err == nil && strings.Contains(string(b), "please create the file") {
					return
				}
			}
			t.Fatalf("the first conversation's chat is gone: %v", files)
		},
	}
}

func qwenCase() agentCase {
	return agentCase{
		name:  "qwen",
		shell: scriptedmodel.Shell,
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
		guarded:        true,
		readOnlyUnseen: "Qwen Code allows commands it knows to be read-only without asking, and runs them itself, not in the client terminals HotPlex offers",
		resumes:        true,
	}
}

func openCodeServeCase() agentCase {
	c := openCodeCase()
	c.name = "opencode-serve"
	start := c.start
	c.start = func(t *testing.T, url, home string) (provider.Provider, []string) {
		p, env := start(t, url, home)
		return opencode.New(opencode.Options{Path: p.(*acp.Provider).Path()}), env
	}
	return c
}
