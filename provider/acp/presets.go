package acp

import (
	"encoding/json"
	"os"

	"github.com/hotplex/hotplex/provider/claude"
)

// Presets for ACP agents. Each returns Options for the agent executable at
// path ("" uses the agent's usual command name from PATH). The agents read
// their model settings from their own configuration and environment.
//
// The presets of the agents proven against their real CLIs offer client
// terminals: Claude Code's adapter then runs every command in one, and the
// others, which never call terminal/create, behave as without the offer.
// Kiro, which is not tested, is not offered them.

// ClaudeACP is Claude Code behind the ACP adapter of
// @zed-industries/claude-code-acp. It keeps Claude Code's transcripts, so
// session/load reopens a conversation in a new process. Set
// CLAUDE_CODE_EXECUTABLE in the environment to run a given claude CLI.
//
// Run as root, Claude Code refuses to start beside the adapter's offer of a
// permission-bypass mode unless IS_SANDBOX is set; the preset sets it then.
// The session still starts in the default mode, which asks before tools run.
func ClaudeACP(path string) Options {
	o := Options{Name: "claude-acp", Path: or(path, "claude-code-acp"), Terminal: true,
		// Claude Code runs commands its own rules know to be read-only
		// (ls, cat, ...) without asking; a settings rule that asks about
		// every Bash call makes each one reach session/request_permission
		// and so the firewall. The adapter passes these options to the
		// Agent SDK, whose extraArgs become CLI flags.
		SessionMeta: map[string]any{"claudeCode": map[string]any{"options": map[string]any{
			"extraArgs": map[string]any{"settings": claudeSettings()},
		}}},
	}
	if os.Geteuid() == 0 {
		o.Env = []string{"IS_SANDBOX=1"}
	}
	return o
}

// claudeSettings is the Claude Code settings document the claude-acp preset
// passes to the CLI.
func claudeSettings() string {
	b, _ := json.Marshal(map[string]any{"permissions": claude.AskEveryCommand()})
	return string(b)
}

// OpenCode is `opencode acp` (npm opencode-ai).
func OpenCode(path string) Options {
	return Options{Name: "opencode", Path: or(path, "opencode"), Args: []string{"acp"}, Terminal: true}
}

// OpenCodeAnthropicEnv returns the environment that points opencode at an
// Anthropic Messages API at baseURL (the API's root, without /v1) through
// an inline configuration, asks before every shell command (so that the
// firewall sees each one), and turns off update and sharing traffic.
func OpenCodeAnthropicEnv(baseURL, apiKey, model string) []string {
	if model == "" {
		model = "claude-sonnet-4-5"
	}
	conf := map[string]any{
		"$schema":    "https://opencode.ai/config.json",
		"model":      "hotplex/" + model,
		"autoupdate": false,
		"share":      "disabled",
		"permission": map[string]any{"bash": "ask", "edit": "allow"},
		"provider": map[string]any{"hotplex": map[string]any{
			"npm":     "@ai-sdk/anthropic",
			"name":    "HotPlex model",
			"options": map[string]any{"baseURL": baseURL + "/v1", "apiKey": apiKey},
			"models":  map[string]any{model: map[string]any{"name": model}},
		}},
	}
	b, _ := json.Marshal(conf)
	return []string{
		"OPENCODE_CONFIG_CONTENT=" + string(b),
		"OPENCODE_DISABLE_AUTOUPDATE=1",
		"OPENCODE_DISABLE_LSP_DOWNLOAD=1",
		"OPENCODE_DISABLE_MODELS_FETCH=1",
	}
}

// Gemini is Gemini CLI in ACP mode (npm @google/gemini-cli).
//
// Gemini CLI 0.61's session/load fails ("No previous sessions found for
// this project") for a chat `gemini --list-sessions` lists, after starting
// a new, empty recording under the same session ID; and its ACP sessions
// ignore --resume. So the preset does not load: a new process starts a new
// conversation (the old one stays on disk for `gemini --resume`) and says
// so in Info.Fallback.
func Gemini(path string) Options {
	return Options{Name: "gemini", Path: or(path, "gemini"), Args: []string{"--acp"}, Resume: ResumeNone, Terminal: true,
		NoResume: "Gemini CLI's session/load does not find its saved chats and its ACP sessions ignore --resume"}
}

// Qwen is Qwen Code in ACP mode (npm @qwen-code/qwen-code).
func Qwen(path string) Options {
	return Options{Name: "qwen", Path: or(path, "qwen"), Args: []string{"--acp"}, Terminal: true}
}

// CodexACP is Codex behind the ACP adapter of @zed-industries/codex-acp.
// path should be the platform binary (codex-acp-<os>-<arch>/bin/codex-acp),
// not the npm launcher, which does not pass signals on. config are `-c
// key=value` overrides of Codex's config.toml (see codex.ModelProvider).
//
// The preset asks Codex to request approval for every command not known
// to be read-only, so that the firewall sees it, and to run commands
// without its own sandbox (bubblewrap, which cannot create namespaces in
// most containers): the approvals and the firewall guard them instead.
func CodexACP(path string, config ...string) Options {
	args := []string{"-c", `approval_policy="untrusted"`, "-c", `sandbox_mode="danger-full-access"`}
	for _, kv := range config {
		args = append(args, "-c", kv)
	}
	return Options{Name: "codex-acp", Path: or(path, "codex-acp"), Args: args, Terminal: true}
}

// Kiro is `kiro-cli acp`.
func Kiro(path string) Options {
	return Options{Name: "kiro", Path: or(path, "kiro-cli"), Args: []string{"acp"}}
}

func or(s, d string) string {
	if s != "" {
		return s
	}
	return d
}
