package acp

import "os"

// Presets for ACP agents. Each returns Options for the agent executable at
// path ("" uses the agent's usual command name from PATH). The agents read
// their model settings from their own configuration and environment.

// ClaudeACP is Claude Code behind the ACP adapter of
// @zed-industries/claude-code-acp. It keeps Claude Code's transcripts, so
// session/load reopens a conversation in a new process. Set
// CLAUDE_CODE_EXECUTABLE in the environment to run a given claude CLI.
//
// Run as root, Claude Code refuses to start beside the adapter's offer of a
// permission-bypass mode unless IS_SANDBOX is set; the preset sets it then.
// The session still starts in the default mode, which asks before tools run.
func ClaudeACP(path string) Options {
	o := Options{Name: "claude-acp", Path: or(path, "claude-code-acp")}
	if os.Geteuid() == 0 {
		o.Env = []string{"IS_SANDBOX=1"}
	}
	return o
}

// OpenCode is `opencode acp` (npm opencode-ai).
func OpenCode(path string) Options {
	return Options{Name: "opencode", Path: or(path, "opencode"), Args: []string{"acp"}}
}

// Gemini is Gemini CLI in ACP mode (npm @google/gemini-cli).
func Gemini(path string) Options {
	return Options{Name: "gemini", Path: or(path, "gemini"), Args: []string{"--acp"}}
}

// Qwen is Qwen Code in ACP mode (npm @qwen-code/qwen-code).
func Qwen(path string) Options {
	return Options{Name: "qwen", Path: or(path, "qwen"), Args: []string{"--acp"}}
}

// CodexACP is Codex behind the ACP adapter of @zed-industries/codex-acp.
// path should be the platform binary (codex-acp-<os>-<arch>/bin/codex-acp),
// not the npm launcher, which does not pass signals on.
func CodexACP(path string) Options {
	return Options{Name: "codex-acp", Path: or(path, "codex-acp")}
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
