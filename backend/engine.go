package backend

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/hotplex/hotplex/engine"
)

// Options configure an EngineBackend. The zero value runs sessions on the
// engine's default provider.
type Options struct {
	// Name is the backend's name (default: the provider's name).
	Name string
	// Provider names the engine provider sessions run on (empty: the
	// engine's default).
	Provider string
	// Commands are the backend's own commands (default: CommandsFor the
	// provider's name).
	Commands []Command
	// Version is the agent's version, reported in Metadata().Extra["version"].
	Version string
	// StopTimeout bounds how long Stop waits for an interrupted turn to end
	// (default 2s).
	StopTimeout time.Duration
}

// EngineBackend runs sessions on an engine.Engine with one of its
// providers, so the engine's firewall, permission policy, process
// isolation and statistics apply to every agent. Each Session is one engine
// conversation.
type EngineBackend struct {
	eng  *engine.Engine
	opts Options
}

// New returns a backend over eng. opts.Provider must be one of
// eng.Providers().
func New(eng *engine.Engine, opts Options) (*EngineBackend, error) {
	if eng == nil {
		return nil, errors.New("backend: nil engine")
	}
	if opts.Provider == "" {
		opts.Provider = eng.Provider().Name()
	}
	if !slices.Contains(eng.Providers(), opts.Provider) {
		return nil, fmt.Errorf("backend: %w: %q (engine has %v)", engine.ErrProviderNotFound, opts.Provider, eng.Providers())
	}
	if opts.Name == "" {
		opts.Name = opts.Provider
	}
	if opts.Commands == nil {
		opts.Commands = CommandsFor(opts.Provider)
	}
	if opts.StopTimeout <= 0 {
		opts.StopTimeout = 2 * time.Second
	}
	return &EngineBackend{eng: eng, opts: opts}, nil
}

// Name returns the backend's name.
func (b *EngineBackend) Name() string { return b.opts.Name }

// CreateSession creates an engine session for a new conversation and
// starts its agent. A configuration the engine refuses (a work directory
// that does not exist, say) is an error without a session. A start that
// fails leaves the session in the error state, from which Send, Refresh or
// Restart retries; the error is returned with the session.
func (b *EngineBackend) CreateSession(ctx context.Context, opts SessionOptions) (Session, error) {
	s := &engineSession{
		b: b, id: uuid.NewString(), cwd: opts.CWD, role: opts.Role,
		tasks: slices.Clone(opts.Tasks), created: time.Now(),
		ops: make(chan struct{}, 1),
	}
	s.conv = s.id
	if err := b.eng.CreateSession(s.conv, s.sessionConfig()); err != nil {
		return nil, fmt.Errorf("backend %s: create session: %w", b.Name(), err)
	}
	s.ops <- struct{}{}
	defer s.release()
	if err := s.start(ctx); err != nil {
		return s, err
	}
	return s, nil
}

// taskInstructions renders a session's role and tasks as the instructions
// the agent starts with.
func taskInstructions(role string, tasks []string) string {
	var sb strings.Builder
	if role != "" {
		sb.WriteString("Your role in this session: " + role + "\n")
	}
	if len(tasks) > 0 {
		if sb.Len() > 0 {
			sb.WriteString("\n")
		}
		sb.WriteString("Your tasks:\n")
		for _, t := range tasks {
			sb.WriteString("- " + t + "\n")
		}
	}
	return strings.TrimSpace(sb.String())
}

// RegisterEngine registers one backend for each provider of eng, named
// after it. opts applies to each (its Name and Provider are set per
// provider; Commands, when nil, follow each provider). versions, when it
// has one, gives a backend's Version by name.
func RegisterEngine(r *Registry, eng *engine.Engine, opts Options, versions map[string]string) error {
	for _, name := range eng.Providers() {
		o := opts
		o.Name, o.Provider = name, name
		if v, ok := versions[name]; ok {
			o.Version = v
		}
		b, err := New(eng, o)
		if err != nil {
			return err
		}
		if err := r.Register(b); err != nil {
			return err
		}
	}
	return nil
}
