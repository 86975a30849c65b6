package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/provider"
)

// Prompt modes: what a prompt sent while a turn runs does.
const (
	// ModeQueue runs the prompt as the session's next turn, after the
	// running one (and those queued before it).
	ModeQueue = "queue"
	// ModeSteer delivers the prompt into the running turn, where the
	// agent can take it (see provider.Steerer).
	ModeSteer = "steer"
)

var (
	// ErrNoTurn is returned by Steer and Announce when no turn runs on
	// the session (or the running one has not reached its agent yet).
	ErrNoTurn = provider.ErrNoTurn
	// ErrSteerUnsupported is returned by Steer when the session's agent
	// cannot take a message mid-turn; the prompt is for a later turn.
	ErrSteerUnsupported = errors.New("the agent cannot be steered mid-turn")
)

// Steered is a prompt Steer delivered into a running turn.
type Steered struct {
	// Turn is the running turn the prompt joined.
	Turn *Turn
	// Seq is the number of its prompt_steered event.
	Seq uint64
}

// Steer delivers prompt into the turn running on the session, for the
// agent to heed before that turn ends, and reports it as a
// prompt_steered event of the turn. The firewall looks at the prompt
// first, as it does at every turn's. It fails with ErrNoTurn when no
// turn runs (the prompt is then an ordinary turn's) and with
// ErrSteerUnsupported when the agent cannot be steered (the prompt is
// then best queued); nothing reached the agent then.
func (e *Engine) Steer(ctx context.Context, sessionID, prompt string) (Steered, error) {
	t, p, err := e.running(sessionID)
	if err != nil {
		return Steered{}, err
	}
	st, ok := p.(provider.Steerer)
	if !ok {
		return Steered{}, fmt.Errorf("%w: %s", ErrSteerUnsupported, t.s.prov.Name())
	}
	t.emitMu.Lock()
	defer t.emitMu.Unlock()
	if t.ended.Load() {
		return Steered{}, ErrNoTurn
	}
	if err := t.checkPrompt(prompt, t.emitLocked); err != nil {
		return Steered{}, err
	}
	if err := st.Steer(ctx, prompt); err != nil {
		return Steered{}, err
	}
	ev := event.NewEventWithMeta(event.TypePromptSteered, prompt, &event.EventMeta{Status: "success"})
	ev.Queue = &event.QueueNote{Mode: ModeSteer}
	_ = t.emitLocked(ev)
	return Steered{Turn: t, Seq: ev.Seq}, nil
}

// CanSteer reports whether a turn runs on the session and its agent can
// take a message mid-turn.
func (e *Engine) CanSteer(sessionID string) bool {
	_, p, err := e.running(sessionID)
	if err != nil {
		return false
	}
	_, ok := p.(provider.Steerer)
	return ok
}

// Announce adds ev to the events of the turn running on the session, so
// that whoever follows the session sees it in order (a prompt queued
// behind the turn, say). It returns the event's number, or ErrNoTurn.
func (e *Engine) Announce(sessionID string, ev *event.EventWithMeta) (uint64, error) {
	e.pool.mu.Lock()
	s, ok := e.pool.sessions[sessionID]
	e.pool.mu.Unlock()
	if !ok {
		return 0, fmt.Errorf("%w: %s", ErrSessionNotFound, sessionID)
	}
	s.mu.Lock()
	t := s.current
	s.mu.Unlock()
	if t == nil {
		return 0, ErrNoTurn
	}
	t.emitMu.Lock()
	defer t.emitMu.Unlock()
	if t.ended.Load() {
		return 0, ErrNoTurn
	}
	_ = t.emitLocked(ev)
	return ev.Seq, nil
}

// Running reports whether a turn holds the session's turn slot.
func (e *Engine) Running(sessionID string) bool {
	e.pool.mu.Lock()
	s, ok := e.pool.sessions[sessionID]
	e.pool.mu.Unlock()
	if !ok {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.current != nil
}

// running returns the session's running turn and the process it runs
// on.
func (e *Engine) running(sessionID string) (*Turn, provider.Process, error) {
	e.pool.mu.Lock()
	s, ok := e.pool.sessions[sessionID]
	e.pool.mu.Unlock()
	if !ok {
		return nil, nil, fmt.Errorf("%w: %s", ErrSessionNotFound, sessionID)
	}
	s.mu.Lock()
	t, p := s.current, s.proc
	s.mu.Unlock()
	if t == nil || p == nil {
		return nil, nil, ErrNoTurn
	}
	return t, p, nil
}
