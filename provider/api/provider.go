// Package api is a provider that calls a model API directly instead of
// driving an agent CLI: Anthropic Messages (anthropic-sdk-go) or an
// OpenAI-compatible Chat Completions endpoint (openai-go). The
// conversation is kept by the process and saved to a small JSON file after
// every turn, so a restarted process resumes it. Answers stream as deltas.
// With Tools set, the model gets one tool, bash, which runs in the work
// directory, in its own process group, after the engine's permission
// function (and so its firewall) has judged it.
package api

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hotplex/hotplex/provider"
)

// Flavor is the model API dialect.
type Flavor string

// The dialects the provider speaks.
const (
	Anthropic Flavor = "anthropic"
	OpenAI    Flavor = "openai"
)

// Options configure the provider.
type Options struct {
	// Flavor selects the API (required).
	Flavor Flavor
	// Name is the provider's name (default "api-" + Flavor).
	Name string
	// BaseURL is the API's base URL. Empty: the environment's
	// ANTHROPIC_BASE_URL or OPENAI_BASE_URL, then the SDK's default.
	BaseURL string
	// APIKey authenticates. Empty: ANTHROPIC_API_KEY or OPENAI_API_KEY
	// from the process environment.
	APIKey string
	// Model is the default model when the engine asks for none
	// (default: HOTPLEX_API_MODEL from the environment, then a per-flavor
	// default).
	Model string
	// MaxTokens bounds one answer (default 4096).
	MaxTokens int
	// Tools offers the model the bash tool.
	Tools bool
	// ToolTimeout bounds one bash command (default 2 minutes).
	ToolTimeout time.Duration
	// MaxSteps bounds the model calls of one turn (default 25).
	MaxSteps int
	// Deltas streams answer and thinking text as deltas (Meta.Status
	// "delta") instead of one event per complete block.
	Deltas bool
	// StateDir holds the saved conversations (default
	// <work dir>/.hotplex/api).
	StateDir string
	// HTTPClient is used for API calls (default: a fresh client).
	HTTPClient *http.Client
}

// Provider starts API conversations.
type Provider struct {
	opts Options
}

// New returns a provider. An unknown flavor is an error.
func New(opts Options) (*Provider, error) {
	switch opts.Flavor {
	case Anthropic, OpenAI:
	default:
		return nil, fmt.Errorf("api provider: unknown flavor %q (want %q or %q)", opts.Flavor, Anthropic, OpenAI)
	}
	if opts.Name == "" {
		opts.Name = "api-" + string(opts.Flavor)
	}
	if opts.MaxTokens <= 0 {
		opts.MaxTokens = 4096
	}
	if opts.ToolTimeout <= 0 {
		opts.ToolTimeout = 2 * time.Minute
	}
	if opts.MaxSteps <= 0 {
		opts.MaxSteps = 25
	}
	return &Provider{opts: opts}, nil
}

// Name returns the provider's name.
func (p *Provider) Name() string { return p.opts.Name }

// Flavor returns the provider's API dialect.
func (p *Provider) Flavor() Flavor { return p.opts.Flavor }

func defaultModel(f Flavor) string {
	if f == Anthropic {
		return "claude-sonnet-4-5"
	}
	return "gpt-4o-mini"
}

// envValue reads key from env (nil: the process environment).
func envValue(env []string, key string) string {
	if env == nil {
		return os.Getenv(key)
	}
	return provider.EnvValue(env, key)
}

// endpoint resolves the base URL, key and model a process uses.
func (p *Provider) endpoint(opts provider.StartOptions) (base, key, model string) {
	prefix := "ANTHROPIC_"
	if p.opts.Flavor == OpenAI {
		prefix = "OPENAI_"
	}
	base, key, model = p.opts.BaseURL, p.opts.APIKey, opts.Model
	if base == "" {
		base = envValue(opts.Env, prefix+"BASE_URL")
	}
	if key == "" {
		key = envValue(opts.Env, prefix+"API_KEY")
	}
	if model == "" {
		model = p.opts.Model
	}
	if model == "" {
		model = envValue(opts.Env, "HOTPLEX_API_MODEL")
	}
	if model == "" {
		model = defaultModel(p.opts.Flavor)
	}
	return base, key, model
}

// Start opens a conversation: a new one, or, with opts.Resume, the one
// saved under opts.ProviderSessionID (a fresh one, said in Info.Fallback,
// when none was saved).
func (p *Provider) Start(ctx context.Context, opts provider.StartOptions) (provider.Process, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%w: %w", provider.ErrStartFailed, err)
	}
	if opts.WorkDir == "" {
		return nil, fmt.Errorf("%w: api provider: no work directory", provider.ErrStartFailed)
	}
	if fi, err := os.Stat(opts.WorkDir); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("%w: api provider: work directory %s is not a directory", provider.ErrStartFailed, opts.WorkDir)
	}
	base, key, model := p.endpoint(opts)
	if key == "" && base == "" {
		prefix := "ANTHROPIC"
		if p.opts.Flavor == OpenAI {
			prefix = "OPENAI"
		}
		return nil, fmt.Errorf("%w: api provider: set %s_API_KEY (or %s_BASE_URL for a local server)", provider.ErrStartFailed, prefix, prefix)
	}
	psid := opts.ProviderSessionID
	if psid == "" {
		psid = opts.SessionID
	}
	if psid == "" || strings.ContainsAny(psid, `/\`) || psid == "." || psid == ".." {
		return nil, fmt.Errorf("%w: api provider: bad conversation ID %q", provider.ErrStartFailed, psid)
	}
	dir := p.opts.StateDir
	if dir == "" {
		dir = filepath.Join(opts.WorkDir, ".hotplex", "api")
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	pr := &process{
		p: p, log: log, workDir: opts.WorkDir, env: toolEnv(opts.Env), model: model,
		system: opts.SystemPrompt, statePath: filepath.Join(dir, psid+".json"),
		client: newClient(p.opts, base, key), info: provider.Info{ProviderSessionID: psid, Model: model},
		disallowed: opts.DisallowedTools, allowed: opts.AllowedTools,
		askEach: !opts.DangerouslySkipPermissions && opts.PermissionMode != "bypassPermissions",
	}
	if opts.Resume {
		conv, err := loadConversation(pr.statePath)
		switch {
		case err == nil:
			pr.history = conv.Messages
			pr.info.Resumed = true
		case errors.Is(err, os.ErrNotExist):
			pr.info.Fallback = "no saved conversation " + psid + "; started a new one"
		default:
			pr.info.Fallback = fmt.Sprintf("saved conversation unreadable (%v); started a new one", err)
		}
	}
	return pr, nil
}

// toolEnv is the bash tool's environment: the session's, without the API
// credentials.
func toolEnv(env []string) []string {
	if env == nil {
		env = os.Environ()
	}
	out := make([]string, 0, len(env))
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if k == "ANTHROPIC_API_KEY" || k == "OPENAI_API_KEY" || k == "ANTHROPIC_AUTH_TOKEN" {
			continue
		}
		out = append(out, kv)
	}
	return out
}
