package agents

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"

	"github.com/hotplex/hotplex/provider/codex"
)

// codexTarget is the Rust target triple @openai/codex ships its binary for.
func codexTarget() string {
	arch := "x86_64"
	if runtime.GOARCH == "arm64" {
		arch = "aarch64"
	}
	return arch + "-unknown-linux-musl"
}

// codexModelConfig points Codex at OPENAI_BASE_URL when it is set, with a
// model whose tools Codex sends in the Responses API's function form
// (cfg.Model when given).
func codexModelConfig(cfg Config) []string {
	base := cfg.Getenv("OPENAI_BASE_URL")
	if base == "" {
		return nil
	}
	model := cfg.Model
	if model == "" {
		model = "gpt-5.5"
	}
	return append(codex.ModelProvider(base, "OPENAI_API_KEY"), "model="+strconv.Quote(model))
}

// codexAgent is Codex's native app server, started as the platform binary
// of @openai/codex.
func codexAgent(cfg Config) Agent {
	a := Agent{Name: "codex", Label: "Codex app server"}
	a.Path = toolsExecutable(cfg, "codex", "codex", "codex/node_modules/@openai/codex-"+npmPlatform()+"/vendor/"+codexTarget()+"/bin/codex")
	if a.Path == "" {
		a.Missing = "not found; install @openai/codex (`make tools`)"
		return a
	}
	a.Provider = codex.New(codex.Options{Path: a.Path, Config: codexModelConfig(cfg)})
	a.Version = VersionOf(a.Path)
	return a
}

// packageVersion reports the version of the npm package pkg that holds
// the executable at path, read from its package.json.
func packageVersion(path, pkg string) func(context.Context) (string, error) {
	return func(context.Context) (string, error) {
		real, err := filepath.EvalSymlinks(path)
		if err != nil {
			return "", err
		}
		for dir := filepath.Dir(real); dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
			b, err := os.ReadFile(filepath.Join(dir, "node_modules", filepath.FromSlash(pkg), "package.json"))
			if err != nil {
				b, err = os.ReadFile(filepath.Join(dir, "package.json"))
			}
			if err != nil {
				continue
			}
			var p struct{ Name, Version string }
			if json.Unmarshal(b, &p) == nil && p.Name == pkg {
				return pkg + " " + p.Version, nil
			}
		}
		return "", fmt.Errorf("no package.json of %s above %s", pkg, path)
	}
}
