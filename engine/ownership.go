package engine

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// ErrNotOwner is returned by a turn that needs a process for a session
// another engine (a node of a cluster) holds: this one may not start it.
var ErrNotOwner = errors.New("session is owned by another node")

// Ownership decides whether this engine may run a session's process. A
// single engine needs none; the engines of a cluster share one session
// store, and each session's process must live on one of them at a time
// (cluster.Leases is such an Ownership).
type Ownership interface {
	// Claim is called before a session's process starts and returns the
	// right to run it, held for as long as the process lives. An error
	// wrapping ErrNotOwner says another engine holds it.
	Claim(ctx context.Context, sessionID string) (Claim, error)
}

// Claim is the right to run one session's process.
type Claim interface {
	// Lost is closed when the right ended without Release (it expired,
	// or another engine took it): the process must end at once.
	Lost() <-chan struct{}
	// Release gives the right up once the process has ended.
	Release(ctx context.Context) error
}

// hold is a session's Claim while its process lives.
type hold struct {
	c        Claim
	released chan struct{}
	once     sync.Once
}

// claimOwnership takes the right to run s's process, nil without Ownership.
func (sp *SessionPool) claimOwnership(ctx context.Context, s *session) (*hold, error) {
	o := sp.opts.Ownership
	if o == nil {
		return nil, nil
	}
	c, err := o.Claim(ctx, s.id)
	if err != nil {
		if errors.Is(err, ErrNotOwner) {
			return nil, err
		}
		return nil, fmt.Errorf("%w: claiming session %s: %w", ErrStartFailed, s.id, err)
	}
	return &hold{c: c, released: make(chan struct{})}, nil
}

// watch ends s's process p as soon as the claim is lost: another engine
// may start the session any moment after, and two processes must never
// drive one conversation. The turn running, if any, fails as the process
// dies, and the session's next start claims again.
func (sp *SessionPool) watch(s *session, h *hold) {
	if h == nil {
		return
	}
	sp.bg.Go(func() {
		select {
		case <-h.released:
			return
		case <-h.c.Lost():
		}
		s.mu.Lock()
		p := s.proc
		current := s.hold == h
		s.mu.Unlock()
		if !current || p == nil {
			return
		}
		sp.log.Warn("session lease lost; ending its process", "session", s.id, "pid", p.Info().PID)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := p.Close(ctx); err != nil {
			sp.log.Warn("ending a session whose lease was lost", "session", s.id, "err", err)
		}
	})
}

// release gives the claim up, once its process has ended.
func (h *hold) release(log *slog.Logger, sessionID string) {
	if h == nil {
		return
	}
	h.once.Do(func() {
		close(h.released)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := h.c.Release(ctx); err != nil {
			log.Warn("releasing session lease", "session", sessionID, "err", err)
		}
	})
}

// takeHold detaches the session's claim, for releasing once its process
// has ended.
func (s *session) takeHold() *hold {
	s.mu.Lock()
	defer s.mu.Unlock()
	h := s.hold
	s.hold = nil
	return h
}
