// Package agents knows every agent HotPlex can drive and builds its
// provider from configuration: where the executables are, which
// environment they get, and how to ask them their version. The CLI and the
// daemon take their providers from here.
package agents

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/hotplex/hotplex/provider"
)

// ErrUnknownAgent means no agent of that name is known.
var ErrUnknownAgent = errors.New("unknown agent")

// ErrUnavailable means the agent is known but cannot run here (its
// executable or its credentials are missing).
var ErrUnavailable = errors.New("agent unavailable")

// Config says where agents live and what they run with. The zero value
// looks in ./.tools/npm and PATH with HotPlex's own environment.
type Config struct {
	// ToolsDir is the project-local npm prefix (default ".tools/npm"):
	// executables in its node_modules/.bin are preferred to PATH.
	ToolsDir string
	// Paths overrides executables by agent name ("claude" → "/opt/claude").
	Paths map[string]string
	// Env is the agents' environment (nil: HotPlex's own). It is also
	// where HOTPLEX_<NAME>_PATH overrides and API keys are read.
	Env []string
	// Stream asks agents that can for answer text as deltas.
	Stream bool
	// Model is the model API agents use when the environment names none.
	Model string
}

func (c Config) env() []string {
	if c.Env != nil {
		return c.Env
	}
	return os.Environ()
}

// Getenv reads key from the configured environment (the last one wins).
func (c Config) Getenv(key string) string {
	return provider.EnvValue(c.env(), key)
}

// Executable finds an agent's executable: Paths[name], then
// $HOTPLEX_<NAME>_PATH, then ToolsDir/node_modules/.bin/<binary>, then PATH.
// It returns "" when none exists.
func (c Config) Executable(name, binary string) string {
	envKey := "HOTPLEX_" + strings.ToUpper(strings.NewReplacer("-", "_", ".", "_").Replace(name)) + "_PATH"
	tools := c.ToolsDir
	if tools == "" {
		tools = filepath.Join(".tools", "npm")
	}
	for _, p := range []string{c.Paths[name], c.Getenv(envKey), filepath.Join(tools, "node_modules", ".bin", binary)} {
		if p == "" {
			continue
		}
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			abs, err := filepath.Abs(p)
			if err != nil {
				return p
			}
			return abs
		}
	}
	if p, err := exec.LookPath(binary); err == nil {
		return p
	}
	return ""
}

// Agent is one agent HotPlex can drive, as configured.
type Agent struct {
	// Name is the provider's name, used by --provider and Config.Provider.
	Name string
	// Label says what it is ("Claude Code").
	Label string
	// Path is the executable, when the agent runs one ("" for model APIs
	// or when missing).
	Path string
	// Provider runs the agent; nil when it cannot run here.
	Provider provider.Provider
	// Missing says what is missing and how to get it, when Provider is nil.
	Missing string
	// Version reports the agent's version; nil when it has none to report.
	Version func(ctx context.Context) (string, error)
}

// all lists every known agent, one builder a line. Builders live beside
// the provider's family in this package (claude.go, api.go, ...); an agent
// is added with one line here.
func all() []func(Config) Agent {
	return []func(Config) Agent{
		claudeAgent,
		apiAnthropicAgent,
		apiOpenAIAgent,
		// Further agents, one line each:
		claudeTUIAgent,
		claudeTmuxAgent,
		claudeACPAgent,
		openCodeAgent,
		openCodeServeAgent,
		codexAgent,
		codexACPAgent,
		geminiAgent,
		qwenAgent,
		kiroAgent,
	}
}

// Known returns every agent HotPlex knows, configured by cfg, in a stable
// order (claude first).
func Known(cfg Config) []Agent {
	var out []Agent
	for _, build := range all() {
		out = append(out, build(cfg))
	}
	return out
}

// Names returns the names of all known agents.
func Names(cfg Config) []string {
	var out []string
	for _, a := range Known(cfg) {
		out = append(out, a.Name)
	}
	return out
}

// Find returns the agent called name. An unknown name wraps
// ErrUnknownAgent; a known one that cannot run here wraps ErrUnavailable.
func Find(cfg Config, name string) (Agent, error) {
	known := Known(cfg)
	i := slices.IndexFunc(known, func(a Agent) bool { return a.Name == name })
	if i < 0 {
		return Agent{}, fmt.Errorf("%w: %q (known: %s)", ErrUnknownAgent, name, strings.Join(Names(cfg), ", "))
	}
	a := known[i]
	if a.Provider == nil {
		return a, fmt.Errorf("%w: %s: %s", ErrUnavailable, name, a.Missing)
	}
	return a, nil
}

// Providers returns the providers of every agent that can run here,
// in Known's order, leaving out the agents named in except (say, one the
// caller built itself).
func Providers(cfg Config, except ...string) []provider.Provider {
	var out []provider.Provider
	for _, a := range Known(cfg) {
		if a.Provider != nil && !slices.Contains(except, a.Name) {
			out = append(out, a.Provider)
		}
	}
	return out
}

// VersionOf runs `path args...` (default --version) and returns the first
// line it prints.
func VersionOf(path string, args ...string) func(context.Context) (string, error) {
	if len(args) == 0 {
		args = []string{"--version"}
	}
	return func(ctx context.Context) (string, error) {
		ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, path, args...)
		cmd.WaitDelay = time.Second
		b, err := cmd.Output()
		if err != nil {
			return "", fmt.Errorf("%s %s: %w", path, strings.Join(args, " "), err)
		}
		return strings.TrimSpace(strings.SplitN(string(b), "\n", 2)[0]), nil
	}
}
