// Package acp drives any agent that speaks the Agent Client Protocol over
// stdio: one long-lived agent process per conversation, session/new or
// session/load to open the conversation, session/prompt per turn,
// session/update notifications turned into normalized events,
// session/cancel for interrupts and session/request_permission answered
// through HotPlex's permission hook and firewall. Offered client terminals
// (Options.Terminal), an agent may have HotPlex run its commands: each
// reaches the permission hook as a PreToolUse inspection of a Bash call
// (its input names the terminal) before it starts, so that the firewall
// also sees the commands an agent would run without asking.
package acp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/hotplex/hotplex/internal/proc"
	"github.com/hotplex/hotplex/provider"
	"github.com/hotplex/hotplex/provider/internal/idmap"
)

// ResumeMode says how a saved conversation is reopened in a new process.
type ResumeMode int

const (
	// ResumeLoad uses session/load when the agent advertises it, and
	// session/resume when it advertises only that.
	ResumeLoad ResumeMode = iota
	// ResumeFlag starts the agent with ResumeArgs and then opens a session
	// with session/new: for agents whose session/load does not restore
	// the conversation while their own command-line resume does.
	ResumeFlag
	// ResumeNone never resumes: a new process always starts a new
	// conversation and says so in Info.Fallback.
	ResumeNone
)

// Options configure an ACP provider.
type Options struct {
	// Name is the provider's name (default "acp").
	Name string
	// Path is the agent executable.
	Path string
	// Args are the agent's arguments (e.g. "acp" or "--acp").
	Args []string
	// Env is added to the process environment (after StartOptions.Env).
	Env []string
	// Resume says how conversations are resumed (default ResumeLoad).
	Resume ResumeMode
	// ResumeArgs returns the extra arguments that make the agent resume
	// the conversation with the agent's own session ID (ResumeFlag only).
	ResumeArgs func(agentSessionID string) []string
	// Store keeps the agent's session ID for each HotPlex conversation
	// across processes (default: in memory, for the provider's lifetime).
	Store SessionStore
	// Timeouts bound initialize and session set-up, a cancelled turn's
	// end, and a process's end.
	provider.Timeouts
	// NoResume, with ResumeNone, says why the agent cannot resume; it is
	// part of the fallback a new process reports.
	NoResume string
	// Mode, when set, is passed to session/set_mode after the session opens
	// (e.g. "default" so that the agent asks before running commands).
	Mode string
	// SessionMeta, when set, is sent as the _meta of session/new,
	// session/load and session/resume: agent-specific session options.
	SessionMeta map[string]any
	// Terminal offers the agent client terminals (terminal/create and the
	// rest): an agent that uses them has HotPlex run its commands, each
	// judged by the firewall and the permission hook before it starts,
	// in the session's work directory and process confinement.
	Terminal bool
}

// Provider starts ACP agent processes.
type Provider struct {
	opts Options
}

// ErrNoPath is returned by New when Options.Path is empty.
var ErrNoPath = errors.New("acp: no agent executable")

// New returns an ACP provider.
func New(opts Options) (*Provider, error) {
	if opts.Path == "" {
		return nil, ErrNoPath
	}
	if opts.Name == "" {
		opts.Name = "acp"
	}
	if opts.Resume == ResumeFlag && opts.ResumeArgs == nil {
		return nil, fmt.Errorf("acp: provider %s resumes by flag but has no ResumeArgs", opts.Name)
	}
	if opts.Store == nil {
		opts.Store = NewMemoryStore()
	}
	return &Provider{opts: opts}, nil
}

// Name returns the provider's name.
func (p *Provider) Name() string { return p.opts.Name }

// Path returns the agent executable the provider runs.
func (p *Provider) Path() string { return p.opts.Path }

// Start launches the agent, initializes it and opens the conversation:
// the saved one when there is one and the agent can reopen it, a new one
// otherwise (then Info.Fallback says why).
func (p *Provider) Start(ctx context.Context, o provider.StartOptions) (provider.Process, error) {
	if o.ProviderSessionID == "" {
		return nil, fmt.Errorf("%w: no provider session ID", provider.ErrStartFailed)
	}
	log := o.Logger
	if log == nil {
		log = slog.Default()
	}
	saved, hasSaved := p.opts.Store.Get(o.ProviderSessionID)
	if !hasSaved && o.Resume {
		// The engine keeps the ID the agent reported and hands it back.
		saved, hasSaved = o.ProviderSessionID, true
	}
	args := append([]string(nil), p.opts.Args...)
	flagResume := hasSaved && p.opts.Resume == ResumeFlag
	if flagResume {
		args = append(args, p.opts.ResumeArgs(saved)...)
	}
	env := o.Env
	if len(p.opts.Env) > 0 {
		env = append(baseEnv(env), p.opts.Env...)
	}
	cp, err := proc.Start(proc.Spec{
		Path: p.opts.Path, Args: args, Dir: o.WorkDir, Env: env,
		Marker: uuid.NewString(), CgroupRoot: o.CgroupRoot,
	})
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", provider.ErrStartFailed, p.opts.Path, err)
	}
	c := newProcess(cp, &p.opts, log.With("pid", cp.PID(), "provider", p.opts.Name))
	if p.opts.Terminal {
		c.terms = newTerminals(o.WorkDir, env, o.CgroupRoot, c.log)
	}
	startCtx, cancel := context.WithTimeout(ctx, p.opts.Start())
	defer cancel()
	if err := c.open(startCtx, o, saved, hasSaved, flagResume); err != nil {
		closeCtx, cancelClose := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancelClose()
		if cerr := c.Close(closeCtx); cerr != nil {
			c.log.Debug("closing a failed start", "err", cerr)
		}
		return nil, err
	}
	p.opts.Store.Put(o.ProviderSessionID, string(c.sessionID))
	return c, nil
}

// SessionStore remembers the agent's own session ID for each HotPlex
// conversation (ACP agents choose their session IDs themselves).
type SessionStore = idmap.Store

// NewMemoryStore returns a SessionStore in memory.
func NewMemoryStore() SessionStore { return idmap.NewMemory() }

// NewFileStore returns a SessionStore kept in one JSON file, so that a
// restarted daemon still finds its conversations.
func NewFileStore(path string) SessionStore { return idmap.NewFile(path) }

// baseEnv returns a copy of env, or of the process's own environment when
// env is nil.
func baseEnv(env []string) []string {
	if env == nil {
		return os.Environ()
	}
	return slices.Clone(env)
}
