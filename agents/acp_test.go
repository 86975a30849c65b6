package agents

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// The ACP and Codex agents are found where `make tools` installs them,
// each in a folder of its own, and say how to install them when missing.
func TestACPAndCodexAgents(t *testing.T) {
	tools := t.TempDir()
	files := map[string]string{
		"claude-acp": "claude-acp/node_modules/.bin/claude-code-acp",
		"opencode":   "opencode/node_modules/opencode-" + npmPlatform() + "/bin/opencode",
		"codex":      "codex/node_modules/@openai/codex-" + npmPlatform() + "/vendor/" + codexTarget() + "/bin/codex",
		"codex-acp":  "codex-acp/node_modules/@zed-industries/codex-acp-" + npmPlatform() + "/bin/codex-acp",
		"gemini":     "gemini/node_modules/.bin/gemini",
		"qwen":       "qwen/node_modules/.bin/qwen",
	}
	for name, rel := range files {
		writeExecutable(t, filepath.Join(tools, filepath.FromSlash(rel)), "echo "+name+" 1.2.3")
	}
	cfg := Config{ToolsDir: tools, Env: []string{"PATH=/nonexistent", "OPENAI_BASE_URL=http://127.0.0.1:1/v1"}}
	for name, rel := range files {
		a, err := Find(cfg, name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if a.Provider.Name() != name || a.Path != filepath.Join(tools, filepath.FromSlash(rel)) {
			t.Errorf("%s: provider %s at %s", name, a.Provider.Name(), a.Path)
		}
	}
	if a := mustFind(t, cfg, "opencode-serve"); a.Provider.Name() != "opencode-serve" || a.Path != mustFind(t, cfg, "opencode").Path {
		t.Errorf("opencode-serve: %s at %s", a.Provider.Name(), a.Path)
	}
	if v, err := mustFind(t, cfg, "codex").Version(context.Background()); err != nil || v != "codex 1.2.3" {
		t.Errorf("codex version %q, %v", v, err)
	}
	if got := strings.Join(codexModelConfig(cfg), " "); !strings.Contains(got, `base_url="http://127.0.0.1:1/v1"`) || !strings.Contains(got, `env_key="OPENAI_API_KEY"`) {
		t.Errorf("codex model config %s", got)
	}
	if codexModelConfig(Config{Env: []string{}}) != nil {
		t.Error("codex is pointed at a model server although none is configured")
	}
	if a, err := Find(cfg, "kiro"); !errors.Is(err, ErrUnavailable) || !strings.Contains(a.Missing, "kiro-cli") {
		t.Errorf("kiro without kiro-cli: %v (%q)", err, a.Missing)
	}
	if a, err := Find(Config{ToolsDir: t.TempDir(), Env: []string{"PATH=/nonexistent"}}, "codex"); !errors.Is(err, ErrUnavailable) || !strings.Contains(a.Missing, "@openai/codex") {
		t.Errorf("codex missing: %v (%q)", err, a.Missing)
	}
}

func mustFind(t *testing.T, cfg Config, name string) Agent {
	t.Helper()
	a, err := Find(cfg, name)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
