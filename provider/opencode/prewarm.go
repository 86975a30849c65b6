package opencode

import (
	"context"
	"fmt"
	"log/slog"
	"sync"

	"github.com/hotplex/hotplex/provider"
)

var _ provider.Prewarmer = (*Provider)(nil)

// Prewarm starts a parked spare: `opencode serve` started in the neutral
// directory opts.WorkDir and listening, serving no directory yet. The
// server takes the directory of each request, so the claim makes it the
// server of the claimed work directory: its event subscription and its
// sessions are that directory's from then on.
func (p *Provider) Prewarm(ctx context.Context, o provider.StartOptions) (provider.Spare, error) {
	log := o.Logger
	if log == nil {
		log = slog.Default()
	}
	startCtx, cancel := context.WithTimeout(ctx, p.opts.Start())
	defer cancel()
	srv, err := p.spawn(startCtx, o, log.With("spare", true))
	if err != nil {
		return nil, err
	}
	return &spare{p: p, srv: srv}, nil
}

// spare is a listening server no work directory has yet.
type spare struct {
	p   *Provider
	srv *server

	mu      sync.Mutex
	adopted bool // the claim made srv a work directory's server
}

func (s *spare) PID() int    { return s.srv.cp.PID() }
func (s *spare) Alive() bool { return s.srv.alive() }

// Close ends an unclaimed spare's server. One a claim adopted and then
// failed on was let go by the claim, like any start's failed session.
func (s *spare) Close(ctx context.Context) error {
	s.mu.Lock()
	adopted := s.adopted
	s.mu.Unlock()
	if adopted {
		return nil
	}
	return s.srv.terminate(ctx)
}

// Claim makes the spare the server of the conversation's work directory
// and opens a new session on it. Not claimable: a conversation to be
// resumed (a start finds its session on the directory's server), and a
// work directory that has its server already, which the conversation
// shares instead.
func (s *spare) Claim(ctx context.Context, o provider.StartOptions) (provider.Process, error) {
	if o.Resume {
		return nil, fmt.Errorf("%w: the conversation is to be resumed", provider.ErrNotClaimable)
	}
	log := o.Logger
	if log == nil {
		log = slog.Default()
	}
	claimCtx, cancel := context.WithTimeout(ctx, s.p.opts.Start())
	defer cancel()
	srv := s.srv
	if err := s.p.adopt(claimCtx, srv, o.WorkDir); err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.adopted = true
	s.mu.Unlock()
	c := &process{srv: srv, cfg: &s.p.opts, log: log.With("pid", srv.cp.PID(), "provider", s.p.opts.Name), seen: map[string]bool{}}
	if err := c.open(claimCtx, o); err != nil {
		if srv.release(c) {
			_ = srv.terminate(context.WithoutCancel(ctx))
		}
		return nil, err
	}
	srv.attach(c)
	c.log.Debug("spare claimed", "session", o.SessionID, "opencode_session", c.sessionID)
	return c, nil
}

// adopt makes srv, a spare server, the server of dir with a reference
// taken, unless dir has one (or one starting): starts for dir wait for
// the adoption as for a launch.
func (p *Provider) adopt(ctx context.Context, srv *server, dir string) error {
	p.mu.Lock()
	if p.servers[dir] != nil {
		p.mu.Unlock()
		return fmt.Errorf("%w: the work directory has its server", provider.ErrNotClaimable)
	}
	e := &serverEntry{ready: make(chan struct{})}
	p.servers[dir] = e
	p.mu.Unlock()

	srv.dir = dir
	e.err = srv.subscribe(ctx)
	if e.err == nil && !srv.acquire() {
		e.err = fmt.Errorf("%w: the server is closing", provider.ErrStartFailed)
	}
	if e.err != nil {
		p.mu.Lock()
		delete(p.servers, dir)
		p.mu.Unlock()
	} else {
		e.srv = srv
	}
	close(e.ready)
	return e.err
}
