package agents

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/hotplex/hotplex/provider/acp"
	"github.com/hotplex/hotplex/provider/opencode"
)

// npmPlatform is how npm packages name this platform ("linux-x64").
func npmPlatform() string {
	arch := runtime.GOARCH
	switch arch {
	case "amd64":
		arch = "x64"
	case "386":
		arch = "ia32"
	}
	return runtime.GOOS + "-" + arch
}

// toolsExecutable finds an agent installed by `make tools` in a folder of
// its own under the tools directory (rel is the path inside it), after the
// explicit overrides and before PATH.
func toolsExecutable(cfg Config, name, binary, rel string) string {
	envKey := "HOTPLEX_" + strings.ToUpper(strings.NewReplacer("-", "_", ".", "_").Replace(name)) + "_PATH"
	if cfg.Paths[name] != "" || cfg.Getenv(envKey) != "" {
		return cfg.Executable(name, binary)
	}
	tools := cfg.ToolsDir
	if tools == "" {
		tools = filepath.Join(".tools", "npm")
	}
	p := filepath.Join(tools, filepath.FromSlash(rel))
	if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
		if abs, err := filepath.Abs(p); err == nil {
			return abs
		}
		return p
	}
	return cfg.Executable(name, binary)
}

// acpAgent builds an ACP agent from a preset, or says how to install it.
func acpAgent(cfg Config, label, path, install string, preset func(string) acp.Options, versionArgs ...string) Agent {
	o := preset(path)
	a := Agent{Name: o.Name, Label: label, Path: path}
	if path == "" {
		a.Missing = "not found; " + install
		return a
	}
	p, err := acp.New(o)
	if err != nil {
		a.Missing = err.Error()
		return a
	}
	a.Provider = p
	a.Version = VersionOf(path, versionArgs...)
	return a
}

// claudeACPAgent is Claude Code behind the ACP adapter.
func claudeACPAgent(cfg Config) Agent {
	path := toolsExecutable(cfg, "claude-acp", "claude-code-acp", "claude-acp/node_modules/.bin/claude-code-acp")
	a := acpAgent(cfg, "Claude Code over ACP", path, "install @zed-industries/claude-code-acp (`make tools`)", acp.ClaudeACP)
	// The adapter has no --version; its package tells.
	a.Version = packageVersion(path, "@zed-industries/claude-code-acp")
	return a
}

// openCodeAgent is `opencode acp`. With ANTHROPIC_BASE_URL set it talks
// to that Anthropic-compatible server.
func openCodeAgent(cfg Config) Agent {
	path := toolsExecutable(cfg, "opencode", "opencode", "opencode/node_modules/opencode-"+npmPlatform()+"/bin/opencode")
	preset := acp.OpenCode
	if base := cfg.Getenv("ANTHROPIC_BASE_URL"); base != "" {
		preset = func(p string) acp.Options {
			o := acp.OpenCode(p)
			o.Env = acp.OpenCodeAnthropicEnv(base, openCodeKey, cfg.Model)
			return o
		}
	}
	return acpAgent(cfg, "OpenCode over ACP", path, "install opencode-ai (`make tools`)", preset)
}

// openCodeKey has opencode read its key from its own environment when it
// starts (its config substitutes {env:NAME}), so the key is never written
// into the configuration: each process has its own (a gateway token).
const openCodeKey = "{env:ANTHROPIC_API_KEY}"

// geminiAgent is Gemini CLI in ACP mode (GEMINI_API_KEY and
// GOOGLE_GEMINI_BASE_URL choose the model server).
func geminiAgent(cfg Config) Agent {
	path := toolsExecutable(cfg, "gemini", "gemini", "gemini/node_modules/.bin/gemini")
	return acpAgent(cfg, "Gemini CLI over ACP", path, "install @google/gemini-cli (`make tools`)", acp.Gemini)
}

// qwenAgent is Qwen Code in ACP mode. With OPENAI_API_KEY or
// OPENAI_BASE_URL set it uses that OpenAI-compatible server.
func qwenAgent(cfg Config) Agent {
	path := toolsExecutable(cfg, "qwen", "qwen", "qwen/node_modules/.bin/qwen")
	preset := acp.Qwen
	if cfg.Getenv("OPENAI_API_KEY") != "" || cfg.Getenv("OPENAI_BASE_URL") != "" {
		preset = func(p string) acp.Options {
			o := acp.Qwen(p)
			o.Args = append(o.Args, "--auth-type", "openai")
			return o
		}
	}
	return acpAgent(cfg, "Qwen Code over ACP", path, "install @qwen-code/qwen-code (`make tools`)", preset)
}

// codexACPAgent is Codex behind the ACP adapter, started as its platform
// binary. With OPENAI_BASE_URL set it uses that Responses API.
func codexACPAgent(cfg Config) Agent {
	path := toolsExecutable(cfg, "codex-acp", "codex-acp", "codex-acp/node_modules/@zed-industries/codex-acp-"+npmPlatform()+"/bin/codex-acp")
	config := codexModelConfig(cfg)
	a := acpAgent(cfg, "Codex over ACP", path, "install @zed-industries/codex-acp (`make tools`)",
		func(p string) acp.Options { return acp.CodexACP(p, config...) })
	a.Version = packageVersion(path, "@zed-industries/codex-acp")
	return a
}

// kiroAgent is `kiro-cli acp`. Kiro's CLI is not on the npm registry; it
// is found on PATH or through HOTPLEX_KIRO_PATH.
func kiroAgent(cfg Config) Agent {
	return acpAgent(cfg, "Kiro CLI over ACP", cfg.Executable("kiro", "kiro-cli"),
		"install Kiro's CLI (kiro-cli, not on the npm registry) and put it on PATH or in HOTPLEX_KIRO_PATH", acp.Kiro)
}

// openCodeServeAgent is `opencode serve` driven over HTTP and its event
// stream, configured like openCodeAgent.
func openCodeServeAgent(cfg Config) Agent {
	oc := openCodeAgent(cfg)
	a := Agent{Name: "opencode-serve", Label: "OpenCode server (HTTP/SSE)", Path: oc.Path, Missing: oc.Missing, Version: oc.Version}
	if oc.Provider == nil {
		return a
	}
	var env []string
	if base := cfg.Getenv("ANTHROPIC_BASE_URL"); base != "" {
		env = acp.OpenCodeAnthropicEnv(base, openCodeKey, cfg.Model)
	}
	a.Provider = opencode.New(opencode.Options{Path: oc.Path, Env: env})
	return a
}
