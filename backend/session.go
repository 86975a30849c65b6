package backend

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/internal/proc"
)

// engineSession is a Session over one engine session. It keeps no process
// and no state of its own: its state, process, conversation ID and figures
// are the engine session's, and its turns are engine turns.
//
// ops, a one-slot semaphore, serializes Send, SendStream's turn, Restart,
// Refresh, /clear and Close, which are several engine calls each; Stop
// only interrupts and waits, so it can reach a turn that holds ops.
type engineSession struct {
	b       *EngineBackend
	id      string
	cwd     string
	role    string
	tasks   []string
	created time.Time

	ops chan struct{}
	// streams counts SendStream goroutines, which Close waits for.
	streams sync.WaitGroup

	mu       sync.Mutex
	alias    string
	conv     string // the engine session's ID (a new one after /clear)
	lastErr  error  // the last failure, reported while the state is error
	closing  bool   // Close began: operations waiting for ops give up
	closed   bool
	cancel   context.CancelCauseFunc // ends the running turn (nil between turns)
	turnDone chan struct{}           // closed when the running turn ends
}

var _ Session = (*engineSession)(nil)

func (s *engineSession) ID() string { return s.id }

// State is the engine session's state in the backend's words (see
// StateOf).
func (s *engineSession) State() string {
	s.mu.Lock()
	closed, conv := s.closed, s.conv
	s.mu.Unlock()
	if closed {
		return StateExited
	}
	snap, ok := s.b.eng.GetSession(conv)
	if !ok {
		return StateExited
	}
	return StateOf(snap.Status)
}

func (s *engineSession) Role() string         { return s.role }
func (s *engineSession) Tasks() []string      { return slices.Clone(s.tasks) }
func (s *engineSession) CreatedAt() time.Time { return s.created }

func (s *engineSession) SetAlias(alias string) {
	s.mu.Lock()
	s.alias = alias
	s.mu.Unlock()
}

func (s *engineSession) Commands() CommandHandler {
	return &commandHandler{s: s, cmds: s.b.opts.Commands}
}

// Metadata reports the session from its engine session. Extra holds
// conversation_id (the engine session's ID), provider_session_id, model,
// version, provider, state, pid and, in the error state, error.
func (s *engineSession) Metadata() SessionMetadata {
	state := s.State()
	s.mu.Lock()
	conv, lastErr := s.conv, s.lastErr
	md := SessionMetadata{Cwd: s.cwd, Alias: s.alias, Backend: s.b.Name(), CreatedAt: s.created}
	s.mu.Unlock()
	extra := map[string]string{
		"provider": s.b.opts.Provider, "state": state, "conversation_id": conv, "version": s.b.opts.Version,
	}
	if lastErr != nil && state == StateError {
		extra["error"] = lastErr.Error()
	}
	if snap, ok := s.b.eng.GetSession(conv); ok && state != StateExited {
		md.Pid = snap.PID
		extra["provider_session_id"] = snap.ProviderSessionID
		extra["model"] = snap.Stats().ModelUsed
		if snap.Config.WorkDir != "" {
			md.Cwd = snap.Config.WorkDir
		}
	}
	if md.Pid != 0 {
		extra["pid"] = strconv.Itoa(md.Pid)
	}
	maps.DeleteFunc(extra, func(_, v string) bool { return v == "" })
	md.Extra = extra
	return md
}

// acquire takes the operation slot and fails once the session is closing.
// On error the slot is not held.
func (s *engineSession) acquire(ctx context.Context) error {
	select {
	case s.ops <- struct{}{}:
	case <-ctx.Done():
		return context.Cause(ctx)
	}
	s.mu.Lock()
	closing := s.closing
	s.mu.Unlock()
	if closing {
		s.release()
		return ErrSessionClosed
	}
	return nil
}

func (s *engineSession) release() { <-s.ops }

func (s *engineSession) conversation() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conv
}

func (s *engineSession) fail(err error) error {
	s.mu.Lock()
	s.lastErr = err
	s.mu.Unlock()
	return err
}

func (s *engineSession) sessionConfig() engine.SessionConfig {
	return engine.SessionConfig{WorkDir: s.cwd, TaskInstructions: taskInstructions(s.role, s.tasks), Provider: s.b.opts.Provider}
}

// start has the engine start the session's agent unless it runs: new,
// hibernated and error become starting, then idle (or error). The caller
// holds ops.
func (s *engineSession) start(ctx context.Context) error {
	if _, _, err := s.b.eng.Pool().GetOrCreateSession(ctx, s.conversation(), s.sessionConfig(), ""); err != nil {
		return s.fail(fmt.Errorf("backend %s: start: %w", s.b.Name(), err))
	}
	return nil
}

// turn runs one prompt as an engine turn. Answer text goes to w as it
// arrives when w is set. The caller holds ops.
func (s *engineSession) turn(ctx context.Context, prompt string, w io.Writer) (string, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	done := make(chan struct{})
	s.mu.Lock()
	s.cancel, s.turnDone = cancel, done
	conv := s.conv
	s.mu.Unlock()
	defer func() {
		cancel(nil)
		s.mu.Lock()
		s.cancel, s.turnDone = nil, nil
		s.mu.Unlock()
		close(done)
	}()
	if pw, ok := w.(*io.PipeWriter); ok {
		// A reader that stops reading would block the turn in Write,
		// where no interrupt reaches it: ending the turn closes the pipe.
		// (Deferred after the cancel above, so it is undone first and a
		// turn that ends normally leaves the pipe to its owner.)
		stop := context.AfterFunc(ctx, func() { _ = pw.CloseWithError(context.Cause(ctx)) })
		defer stop()
	}

	var answer strings.Builder
	var result *event.TurnResult
	deltas := false
	write := func(text string) error {
		answer.WriteString(text)
		if w == nil {
			return nil
		}
		_, err := io.WriteString(w, text)
		return err
	}
	cb := func(typ string, data any) error {
		ev, _ := data.(*event.EventWithMeta)
		if ev == nil {
			return nil
		}
		switch typ {
		case event.TypeAnswer:
			if ev.ParentToolUseID != "" {
				return nil
			}
			if ev.Meta != nil && ev.Meta.Status == "delta" {
				deltas = true
			} else if deltas {
				return nil // the complete block repeats the deltas
			} else if answer.Len() > 0 {
				if err := write("\n"); err != nil {
					return err
				}
			}
			return write(ev.EventData)
		case event.TypeResult:
			result = ev.Turn
		}
		return nil
	}
	err := s.b.eng.Execute(ctx, &engine.Config{SessionID: conv, MustExist: true}, prompt, cb)
	text := answer.String()
	if result != nil && result.Result != "" && !deltas {
		text = result.Result
	}
	if err != nil {
		return text, s.fail(fmt.Errorf("backend %s: %w", s.b.Name(), err))
	}
	return text, nil
}

// Send runs prompt as one turn and returns the answer. A stopped session
// resumes its conversation in a new process first; one in the error state
// retries its start.
func (s *engineSession) Send(ctx context.Context, prompt string) (string, error) {
	if err := s.acquire(ctx); err != nil {
		return "", err
	}
	defer s.release()
	return s.turn(ctx, prompt, nil)
}

// SendStream starts prompt as one turn and returns its answer text as it
// arrives. Closing the reader early interrupts the turn; the reader's
// error after the text is the turn's error.
func (s *engineSession) SendStream(ctx context.Context, prompt string) (io.ReadCloser, error) {
	if err := s.acquire(ctx); err != nil {
		return nil, err
	}
	pr, pw := io.Pipe()
	ctx, cancel := context.WithCancelCause(ctx)
	st := &stream{pr: pr, cancel: cancel, done: make(chan struct{})}
	s.streams.Add(1)
	go func() {
		defer s.streams.Done()
		defer close(st.done)
		defer s.release()
		_, err := s.turn(ctx, prompt, pw)
		cancel(nil)
		_ = pw.CloseWithError(err)
	}()
	return st, nil
}

// stream is SendStream's reader.
type stream struct {
	pr     *io.PipeReader
	cancel context.CancelCauseFunc
	done   chan struct{}
	once   sync.Once
}

func (st *stream) Read(p []byte) (int, error) { return st.pr.Read(p) }

// Close stops reading; a turn still running is interrupted, and Close
// returns once it has ended.
func (st *stream) Close() error {
	st.once.Do(func() {
		st.cancel(engine.ErrInterrupted)
		_ = st.pr.Close()
		<-st.done
	})
	return nil
}

// Stop interrupts the running turn and waits (up to the backend's
// StopTimeout) until it has ended. It does nothing when no turn runs.
func (s *engineSession) Stop(ctx context.Context) error {
	s.mu.Lock()
	cancel, done, closed := s.cancel, s.turnDone, s.closed
	s.mu.Unlock()
	if closed {
		return ErrSessionClosed
	}
	if cancel == nil {
		return nil
	}
	cancel(engine.ErrInterrupted)
	timer := time.NewTimer(s.b.opts.StopTimeout)
	defer timer.Stop()
	select {
	case <-done:
		return nil
	case <-timer.C:
		return fmt.Errorf("backend %s: stop: the turn did not end within %s", s.b.Name(), s.b.opts.StopTimeout)
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// interruptTurn ends a running turn without waiting.
func (s *engineSession) interruptTurn() {
	s.mu.Lock()
	cancel := s.cancel
	s.mu.Unlock()
	if cancel != nil {
		cancel(engine.ErrInterrupted)
	}
}

// Restart ends the agent process (interrupting a running turn) and starts
// a new one on the same conversation: Metadata reports the new PID.
func (s *engineSession) Restart(ctx context.Context) error {
	s.interruptTurn()
	if err := s.acquire(ctx); err != nil {
		return err
	}
	defer s.release()
	if s.State() == StateExited {
		return ErrSessionClosed
	}
	if err := s.b.eng.Hibernate(ctx, s.conversation()); err != nil {
		return s.fail(fmt.Errorf("backend %s: restart: %w", s.b.Name(), err))
	}
	return s.start(ctx)
}

// Refresh retries the start of a session in the error state; otherwise it
// re-detects the state: an idle session whose agent process has died
// becomes stopped (its next Send resumes the conversation).
func (s *engineSession) Refresh(ctx context.Context) error {
	if err := s.acquire(ctx); err != nil {
		return err
	}
	defer s.release()
	conv := s.conversation()
	switch s.State() {
	case StateExited:
		return ErrSessionClosed
	case StateError:
		return s.start(ctx)
	case StateIdle:
		snap, ok := s.b.eng.GetSession(conv)
		// PID 0 is an agent without a process of its own (a model API).
		if !ok || snap.PID == 0 || proc.Alive(snap.PID) {
			return nil
		}
		if err := s.b.eng.Hibernate(ctx, conv); err != nil {
			return s.fail(fmt.Errorf("backend %s: refresh: %w", s.b.Name(), err))
		}
	}
	return nil
}

// Close interrupts a running turn, ends the agent process and the engine
// session, and destroys what the provider keeps of the conversation for a
// restart (a parked terminal window). Closing twice is harmless.
func (s *engineSession) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closing = true
	s.mu.Unlock()
	s.interruptTurn()
	s.ops <- struct{}{}
	defer s.release()
	s.streams.Wait()
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.mu.Unlock()
	conv := s.conversation()
	var psid string
	if snap, ok := s.b.eng.GetSession(conv); ok {
		psid = snap.ProviderSessionID
	}
	err := s.b.eng.TerminateSession(conv)
	if errors.Is(err, engine.ErrSessionNotFound) {
		err = nil
	}
	if derr := s.discard(psid); derr != nil && err == nil {
		err = derr
	}
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	return err
}

// discarder is a provider that keeps something of a conversation beyond
// its process — a terminal window parked for a restart — until told to
// destroy it.
type discarder interface {
	Discard(ctx context.Context, providerSessionID string) error
}

// discard destroys what the provider keeps of conversation psid: the
// session has exited and will not be restarted.
func (s *engineSession) discard(psid string) error {
	p, err := s.b.eng.ProviderNamed(s.b.opts.Provider)
	if err != nil {
		return nil
	}
	d, ok := p.(discarder)
	if !ok || psid == "" {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := d.Discard(ctx, psid); err != nil {
		return fmt.Errorf("backend %s: discard %s: %w", s.b.Name(), psid, err)
	}
	return nil
}

// clearConversation moves the session to a new, empty conversation: a
// new engine session replaces the old one, which is ended. The caller
// holds ops.
func (s *engineSession) clearConversation(ctx context.Context) error {
	old := s.conversation()
	conv := uuid.NewString()
	if err := s.b.eng.CreateSession(conv, s.sessionConfig()); err != nil {
		return err
	}
	s.mu.Lock()
	s.conv = conv
	s.mu.Unlock()
	if err := s.b.eng.TerminateSession(old); err != nil && !errors.Is(err, engine.ErrSessionNotFound) {
		return err
	}
	return s.start(ctx)
}
