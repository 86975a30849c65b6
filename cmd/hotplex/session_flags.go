package main

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/hotplex/hotplex/agents"
	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/internal/scriptedmodel"
	"github.com/hotplex/hotplex/provider"
	"github.com/hotplex/hotplex/provider/claude"
)

// sessionFlags are the flags exec and chat share: which agent, where, and
// which conversation.
type sessionFlags struct {
	provider        string
	cliPath         string
	workDir         string
	session         string
	namespace       string
	model           string
	permissionMode  string
	systemPrompt    string
	allowedTools    []string
	disallowedTools []string
	timeout         time.Duration
	offline         string
	verbose         bool
	stream          bool
}

func (f *sessionFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.provider, "provider", "claude", "`agent` to run: claude, api-anthropic, api-openai, ... (hotplex doctor lists them all)")
	fl.StringVar(&f.cliPath, "cli-path", "", "path of the agent CLI (default: $HOTPLEX_CLAUDE_PATH, ./.tools/npm/node_modules/.bin/claude, then PATH)")
	fl.StringVar(&f.workDir, "workdir", "", "work directory of the session (default: the current directory)")
	fl.StringVar(&f.session, "session", "", "conversation ID; the same ID resumes the same conversation (default: a new one)")
	fl.StringVar(&f.namespace, "namespace", "hotplex", "namespace of the deterministic session IDs")
	fl.StringVar(&f.model, "model", "", "model to ask the CLI for")
	fl.StringVar(&f.permissionMode, "permission-mode", "", "CLI permission mode (default, acceptEdits, plan, bypassPermissions)")
	fl.StringVar(&f.systemPrompt, "system-prompt", "", "instructions appended to the CLI's system prompt")
	fl.StringSliceVar(&f.allowedTools, "allowed-tools", nil, "tools the agent may use (default: all)")
	fl.StringSliceVar(&f.disallowedTools, "disallowed-tools", nil, "tools the agent may not use")
	fl.DurationVar(&f.timeout, "timeout", 0, "limit for one turn (0: none)")
	fl.StringVar(&f.offline, "offline", "auto", "use the built-in offline model: auto (when no Anthropic credentials are set), always, never")
	fl.BoolVarP(&f.verbose, "verbose", "v", false, "log diagnostics to stderr")
	fl.BoolVar(&f.stream, "stream", f.stream, "stream answer text as the model writes it (answer events become deltas)")
}

// resolveCLI finds the agent executable.
func (f *sessionFlags) resolveCLI() (string, error) {
	if f.provider != "claude" {
		return "", fmt.Errorf("unknown provider %q (available: claude)", f.provider)
	}
	candidates := []string{f.cliPath, os.Getenv("HOTPLEX_CLAUDE_PATH"), filepath.Join(".tools", "npm", "node_modules", ".bin", "claude")}
	for _, c := range candidates {
		if c == "" {
			continue
		}
		if _, err := os.Stat(c); err == nil {
			return filepath.Abs(c)
		}
		if c == f.cliPath {
			return "", fmt.Errorf("agent CLI %s: not found", c)
		}
	}
	p, err := exec.LookPath("claude")
	if err != nil {
		return "", fmt.Errorf("the claude CLI was not found; install it with `npm install -g @anthropic-ai/claude-code` or `make tools`, or pass --cli-path")
	}
	return p, nil
}

// hasCredentials reports whether the environment can reach a real model.
func hasCredentials() bool {
	for _, k := range []string{"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN", "ANTHROPIC_BASE_URL", "CLAUDE_CODE_USE_BEDROCK", "CLAUDE_CODE_USE_VERTEX"} {
		if os.Getenv(k) != "" {
			return true
		}
	}
	home, _ := os.UserHomeDir()
	_, err := os.Stat(filepath.Join(home, ".claude", ".credentials.json"))
	return err == nil
}

// runtimeEnv is an engine plus what it needs released at the end.
type runtimeEnv struct {
	eng     *engine.Engine
	model   *scriptedmodel.Server
	offline bool
	workDir string
}

func (r *runtimeEnv) Close() {
	_ = r.eng.Close()
	if r.model != nil {
		_ = r.model.Close()
	}
}

// newRuntime builds the engine the flags describe. In offline mode it
// starts the built-in model on loopback and points the CLI at it.
func (f *sessionFlags) newRuntime(stderr io.Writer) (*runtimeEnv, error) {
	if _, err := agents.Find(agents.Config{}, f.provider); errors.Is(err, agents.ErrUnknownAgent) {
		return nil, fmt.Errorf("unknown provider %q (available: %s)", f.provider, strings.Join(agents.Names(agents.Config{}), ", "))
	}
	wd := f.workDir
	if wd == "" {
		wd, _ = os.Getwd()
	}
	if err := os.MkdirAll(wd, 0o750); err != nil {
		return nil, fmt.Errorf("work directory: %w", err)
	}
	level := slog.LevelWarn
	if f.verbose {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	rt := &runtimeEnv{workDir: wd}
	var env []string
	switch f.offline {
	case "always":
		rt.offline = true
	case "auto":
		rt.offline = !hasCredentials()
	case "never":
	default:
		return nil, fmt.Errorf("--offline must be auto, always or never, not %q", f.offline)
	}
	if rt.offline {
		m, err := scriptedmodel.Start("127.0.0.1:0", scriptedmodel.Demo())
		if err != nil {
			return nil, err
		}
		rt.model = m
		env = offlineEnv(m.URL())
	}
	prov, err := f.agentProvider(env)
	if err != nil {
		if rt.model != nil {
			_ = rt.model.Close()
		}
		return nil, err
	}
	eng, err := engine.NewEngine(engine.EngineOptions{
		Timeout: f.timeout, IdleTimeout: -1, Logger: log, Namespace: f.namespace,
		PermissionMode: f.permissionMode, BaseSystemPrompt: f.systemPrompt,
		AllowedTools: f.allowedTools, DisallowedTools: f.disallowedTools, Model: f.model,
		Provider: prov, Env: env,
	})
	if err != nil {
		if rt.model != nil {
			_ = rt.model.Close()
		}
		return nil, err
	}
	rt.eng = eng
	return rt, nil
}

// agentProvider builds the provider --provider names: Claude Code from
// --cli-path and the usual places, any other agent from package agents.
func (f *sessionFlags) agentProvider(env []string) (provider.Provider, error) {
	if f.provider == "claude" {
		cli, err := f.resolveCLI()
		if err != nil {
			return nil, err
		}
		return claude.New(claude.Options{Path: cli, PartialMessages: f.stream}), nil
	}
	cfg := agents.Config{Env: env, Stream: f.stream, Model: f.model}
	if f.cliPath != "" {
		cfg.Paths = map[string]string{f.provider: f.cliPath}
	}
	a, err := agents.Find(cfg, f.provider)
	if err != nil {
		return nil, err
	}
	return a.Provider, nil
}

// offlineEnv is HotPlex's environment pointed at the built-in model, with
// the CLI's outside traffic turned off.
func offlineEnv(baseURL string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "ANTHROPIC_") && !strings.HasPrefix(kv, "OPENAI_") {
			env = append(env, kv)
		}
	}
	env = append(env, agents.ModelEnv(baseURL)...)
	return append(env,
		"DISABLE_TELEMETRY=1", "DISABLE_AUTOUPDATER=1", "DISABLE_ERROR_REPORTING=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1")
}

func (f *sessionFlags) sessionID() string {
	if f.session != "" {
		return f.session
	}
	return fmt.Sprintf("cli-%d-%d", os.Getpid(), time.Now().UnixNano())
}
