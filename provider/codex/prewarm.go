package codex

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/hotplex/hotplex/provider"
)

var _ provider.Prewarmer = (*Provider)(nil)

// Prewarm starts a parked spare: `codex app-server` started in the
// neutral directory opts.WorkDir and initialized, with no thread yet. A
// thread names its work directory and instructions when it starts, so
// thread/start at the claim binds the spare to any new conversation.
func (p *Provider) Prewarm(ctx context.Context, o provider.StartOptions) (provider.Spare, error) {
	log := o.Logger
	if log == nil {
		log = slog.Default()
	}
	o.MCPServers = nil
	c, err := p.launch(o, log.With("spare", true))
	if err != nil {
		return nil, err
	}
	startCtx, cancel := context.WithTimeout(ctx, p.opts.Start())
	defer cancel()
	if err := c.initialize(startCtx); err != nil {
		closeCtx, cancelClose := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancelClose()
		if cerr := c.Close(closeCtx); cerr != nil {
			c.log.Debug("closing a failed spare", "err", cerr)
		}
		return nil, err
	}
	return &spare{p: p, c: c}, nil
}

// spare is an initialized app server without a thread.
type spare struct {
	p *Provider
	c *process
}

func (s *spare) PID() int                        { return s.c.cp.PID() }
func (s *spare) Alive() bool                     { return s.c.Alive() }
func (s *spare) Close(ctx context.Context) error { return s.c.Close(ctx) }

// Claim starts the conversation's thread (thread/start with its work
// directory and instructions). Not claimable: a conversation with a saved
// thread or one believed to exist, which thread/resume reopens in a
// start, and one with MCP servers of its own, which the app server takes
// only as `-c` overrides when it starts.
func (s *spare) Claim(ctx context.Context, o provider.StartOptions) (provider.Process, error) {
	if o.Resume {
		return nil, fmt.Errorf("%w: the conversation is to be resumed", provider.ErrNotClaimable)
	}
	if o.ProviderSessionID != "" {
		if _, ok := s.p.opts.Store.Get(o.ProviderSessionID); ok {
			return nil, fmt.Errorf("%w: conversation %s has a saved thread", provider.ErrNotClaimable, o.ProviderSessionID)
		}
	}
	if len(o.MCPServers) > 0 {
		return nil, fmt.Errorf("%w: Codex takes MCP servers only when it starts", provider.ErrNotClaimable)
	}
	claimCtx, cancel := context.WithTimeout(ctx, s.p.opts.Start())
	defer cancel()
	if err := s.c.openThread(claimCtx, o, "", false); err != nil {
		return nil, err
	}
	if o.ProviderSessionID != "" {
		s.p.opts.Store.Put(o.ProviderSessionID, s.c.threadID)
	}
	s.c.log.Debug("spare claimed", "session", o.SessionID, "thread", s.c.threadID)
	return s.c, nil
}
