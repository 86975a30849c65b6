package agents

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func writeExecutable(t *testing.T, path, script string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+script+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
}

func TestKnownAgents(t *testing.T) {
	tools := t.TempDir()
	writeExecutable(t, filepath.Join(tools, "node_modules", ".bin", "claude"), "echo '2.9.9 (Claude Code)'")
	cfg := Config{ToolsDir: tools, Env: []string{"PATH=/nonexistent", "OPENAI_BASE_URL=http://127.0.0.1:1/v1"}}
	names := Names(cfg)
	for _, want := range []string{"claude", "api-anthropic", "api-openai"} {
		if !slices.Contains(names, want) {
			t.Errorf("Names = %v lacks %s", names, want)
		}
	}
	if names[0] != "claude" {
		t.Errorf("claude is not first: %v", names)
	}
	seen := map[string]bool{}
	for _, a := range Known(cfg) {
		if seen[a.Name] {
			t.Errorf("two agents named %s", a.Name)
		}
		seen[a.Name] = true
		if a.Provider == nil && a.Missing == "" {
			t.Errorf("%s: unavailable without saying why", a.Name)
		}
		if a.Provider != nil && a.Provider.Name() != a.Name {
			t.Errorf("agent %s has provider %s", a.Name, a.Provider.Name())
		}
	}

	c, err := Find(cfg, "claude")
	if err != nil {
		t.Fatal(err)
	}
	if v, err := c.Version(context.Background()); err != nil || v != "2.9.9 (Claude Code)" {
		t.Errorf("claude version %q, %v", v, err)
	}
	if o, err := Find(cfg, "api-openai"); err != nil || o.Version == nil {
		t.Errorf("api-openai: %v", err)
	} else if v, _ := o.Version(context.Background()); !strings.Contains(v, "openai-go") {
		t.Errorf("api-openai version %q", v)
	}
	if a, err := Find(cfg, "api-anthropic"); !errors.Is(err, ErrUnavailable) || !strings.Contains(a.Missing, "ANTHROPIC_API_KEY") {
		t.Errorf("api-anthropic without a key: %v (%q)", err, a.Missing)
	}
	if _, err := Find(cfg, "nope"); !errors.Is(err, ErrUnknownAgent) || !strings.Contains(err.Error(), "claude") {
		t.Errorf("Find(nope) = %v", err)
	}
	got := map[string]bool{}
	for _, p := range Providers(cfg) {
		got[p.Name()] = true
	}
	if !got["claude"] || !got["api-openai"] || got["api-anthropic"] {
		t.Errorf("Providers = %v", got)
	}
	for _, p := range Providers(cfg, "claude") {
		if p.Name() == "claude" {
			t.Error("Providers(cfg, claude) includes claude")
		}
	}
}

func TestExecutableLookup(t *testing.T) {
	dir := t.TempDir()
	override := filepath.Join(dir, "mine")
	fromEnv := filepath.Join(dir, "from-env")
	local := filepath.Join(dir, "tools", "node_modules", ".bin", "gem")
	inPath := filepath.Join(dir, "bin", "gem")
	for _, p := range []string{override, fromEnv, local, inPath} {
		writeExecutable(t, p, "true")
	}
	t.Setenv("PATH", filepath.Dir(inPath))
	cfg := Config{ToolsDir: filepath.Join(dir, "tools"), Paths: map[string]string{"gem-x": override},
		Env: []string{"HOTPLEX_GEM_X_PATH=" + fromEnv}}
	if got := cfg.Executable("gem-x", "gem"); got != override {
		t.Errorf("override: %s", got)
	}
	cfg.Paths = nil
	if got := cfg.Executable("gem-x", "gem"); got != fromEnv {
		t.Errorf("env: %s", got)
	}
	cfg.Env = []string{}
	if got := cfg.Executable("gem-x", "gem"); got != local {
		t.Errorf("tools dir: %s", got)
	}
	cfg.ToolsDir = filepath.Join(dir, "elsewhere")
	if got := cfg.Executable("gem-x", "gem"); got != inPath {
		t.Errorf("PATH: %s", got)
	}
	if got := cfg.Executable("gem-x", "no-such-binary"); got != "" {
		t.Errorf("missing: %s", got)
	}
}
