package acp

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"time"

	sdk "github.com/coder/acp-go-sdk"
	"github.com/google/uuid"

	"github.com/hotplex/hotplex/internal/proc"
	"github.com/hotplex/hotplex/provider"
)

var _ provider.Prewarmer = (*Provider)(nil)

// Prewarm starts a parked spare: the agent started in the neutral
// directory opts.WorkDir and initialized, with no session yet. An ACP
// session names its work directory and MCP servers when it is opened,
// so session/new at the claim binds the spare to any new conversation.
func (p *Provider) Prewarm(ctx context.Context, o provider.StartOptions) (provider.Spare, error) {
	log := o.Logger
	if log == nil {
		log = slog.Default()
	}
	env := o.Env
	if len(p.opts.Env) > 0 {
		env = append(baseEnv(env), p.opts.Env...)
	}
	cp, err := proc.Start(proc.Spec{
		Path: p.opts.Path, Args: slices.Clone(p.opts.Args), Dir: o.WorkDir, Env: env,
		Marker: uuid.NewString(), CgroupRoot: o.CgroupRoot,
	})
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", provider.ErrStartFailed, p.opts.Path, err)
	}
	c := newProcess(cp, &p.opts, log.With("pid", cp.PID(), "provider", p.opts.Name, "spare", true))
	startCtx, cancel := context.WithTimeout(ctx, p.opts.Start())
	defer cancel()
	caps, err := c.initialize(startCtx)
	if err != nil {
		closeCtx, cancelClose := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancelClose()
		if cerr := c.Close(closeCtx); cerr != nil {
			c.log.Debug("closing a failed spare", "err", cerr)
		}
		return nil, err
	}
	return &spare{p: p, c: c, caps: caps, env: env, cgroup: o.CgroupRoot}, nil
}

// spare is an initialized agent without a session.
type spare struct {
	p      *Provider
	c      *process
	caps   sdk.InitializeResponse
	env    []string
	cgroup string
}

func (s *spare) PID() int                        { return s.c.cp.PID() }
func (s *spare) Alive() bool                     { return s.c.Alive() }
func (s *spare) Close(ctx context.Context) error { return s.c.Close(ctx) }

// Claim opens a new session for the conversation: session/new in its
// work directory with its MCP servers. A conversation the agent would
// reopen (a saved session, or one the engine believes exists) is not
// claimable, unless the agent cannot resume at all (ResumeNone), when a
// new process would start afresh too and the spare says so the same way.
// So is one the agent must be started for with its resume flag.
func (s *spare) Claim(ctx context.Context, o provider.StartOptions) (provider.Process, error) {
	saved, hasSaved := "", false
	if o.ProviderSessionID != "" {
		saved, hasSaved = s.p.opts.Store.Get(o.ProviderSessionID)
	}
	if (hasSaved || o.Resume) && s.p.opts.Resume != ResumeNone {
		return nil, fmt.Errorf("%w: the conversation is to be resumed", provider.ErrNotClaimable)
	}
	c := s.c
	if s.p.opts.Terminal {
		// The conversation's commands run in its own work directory.
		c.terms = newTerminals(o.WorkDir, s.env, s.cgroup, c.log)
	}
	claimCtx, cancel := context.WithTimeout(ctx, s.p.opts.Start())
	defer cancel()
	if err := c.openSession(claimCtx, o, s.caps, saved, hasSaved, false); err != nil {
		return nil, err
	}
	if o.ProviderSessionID != "" {
		s.p.opts.Store.Put(o.ProviderSessionID, string(c.sessionID))
	}
	c.log.Debug("spare claimed", "session", o.SessionID, "agent_session", c.sessionID)
	return c, nil
}
