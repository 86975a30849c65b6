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

// engineSession is a Session over one engine conversation.
//
// Every state change happens while holding ops, a one-slot semaphore that
// serializes Send, SendStream's turn, Restart, Refresh and Close; Stop only
// interrupts and waits, so it can reach a turn that holds ops.
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
	// notifyMu keeps transitions and their notifications in one order.
	notifyMu sync.Mutex

	mu        sync.Mutex
	state     string
	alias     string
	conv      string // the engine conversation ID (a new one after /clear)
	lastErr   error
	closing   bool
	cancel    context.CancelCauseFunc // ends the running turn (nil between turns)
	turnDone  chan struct{}           // closed when the running turn ends
	conversed bool                    // a turn ran: the conversation exists and restarts resume it
	lastSeq   uint64
	pid       int
	psid      string
	model     string
	illegal   []string // transitions refused, for diagnostics and tests
}

var _ Session = (*engineSession)(nil)

func (s *engineSession) ID() string { return s.id }

func (s *engineSession) State() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state
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

// Metadata reports the session. Extra holds provider_session_id, model,
// version, provider, state and, after a failure, error.
func (s *engineSession) Metadata() SessionMetadata {
	s.mu.Lock()
	conv := s.conv
	md := SessionMetadata{Pid: s.pid, Cwd: s.cwd, Alias: s.alias, Backend: s.b.Name(), CreatedAt: s.created}
	extra := map[string]string{
		"provider": s.b.opts.Provider, "state": s.state, "conversation_id": conv,
		"provider_session_id": s.psid, "model": s.model, "version": s.b.opts.Version,
	}
	if s.lastErr != nil && s.state == StateError {
		extra["error"] = s.lastErr.Error()
	}
	s.mu.Unlock()
	if snap, ok := s.b.eng.GetSession(conv); ok {
		md.Pid = snap.PID
		if snap.ProviderSessionID != "" {
			extra["provider_session_id"] = snap.ProviderSessionID
		}
		if snap.Config.WorkDir != "" {
			md.Cwd = snap.Config.WorkDir
		}
	}
	if md.Pid == 0 {
		delete(extra, "pid")
	} else {
		extra["pid"] = strconv.Itoa(md.Pid)
	}
	maps.DeleteFunc(extra, func(_, v string) bool { return v == "" })
	md.Extra = extra
	return md
}

// transition moves the session to state to, refusing moves the state
// machine forbids, and reports the change.
func (s *engineSession) transition(to string, cause error) error {
	s.notifyMu.Lock()
	defer s.notifyMu.Unlock()
	s.mu.Lock()
	from := s.state
	if !Legal(from, to) {
		s.illegal = append(s.illegal, from+"→"+to)
		s.mu.Unlock()
		return illegal(from, to)
	}
	s.state = to
	if to == StateError {
		s.lastErr = cause
	}
	s.mu.Unlock()
	s.b.notify(s, Transition{SessionID: s.id, From: from, To: to, At: time.Now(), Err: cause})
	return nil
}

// acquire takes the operation slot.
func (s *engineSession) acquire(ctx context.Context) error {
	select {
	case s.ops <- struct{}{}:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

func (s *engineSession) release() { <-s.ops }

func (s *engineSession) instructions() string { return taskInstructions(s.role, s.tasks) }

func (s *engineSession) sessionConfig() engine.SessionConfig {
	return engine.SessionConfig{WorkDir: s.cwd, TaskInstructions: s.instructions(), Provider: s.b.opts.Provider}
}

// start brings a session in the starting state to idle (or error). The
// caller holds ops.
func (s *engineSession) start(ctx context.Context) error {
	snap, _, err := s.b.eng.Pool().GetOrCreateSession(ctx, s.conversation(), s.sessionConfig(), "")
	if err != nil {
		err = fmt.Errorf("backend %s: start: %w", s.b.Name(), err)
		_ = s.transition(StateError, err)
		return err
	}
	s.mu.Lock()
	s.pid, s.psid = snap.PID, snap.ProviderSessionID
	s.mu.Unlock()
	return s.transition(StateIdle, nil)
}

func (s *engineSession) conversation() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conv
}

// stopProcess ends the agent process but keeps the conversation, so the
// next start resumes it. The caller holds ops.
func (s *engineSession) stopProcess() error {
	conv := s.conversation()
	eng := s.b.eng
	snap, ok := eng.GetSession(conv)
	if !ok {
		return nil
	}
	stats := snap.Stats()
	if err := eng.TerminateSession(conv); err != nil && !errors.Is(err, engine.ErrSessionNotFound) {
		return fmt.Errorf("backend %s: stop process: %w", s.b.Name(), err)
	}
	s.mu.Lock()
	s.pid = 0
	resume, lastSeq := s.conversed || stats.Turns > 0, s.lastSeq
	s.mu.Unlock()
	if !resume {
		return nil
	}
	cfg := s.sessionConfig()
	cfg.ProviderSessionID = snap.ProviderSessionID
	if err := eng.RestoreSession(conv, cfg, lastSeq, &stats); err != nil {
		return fmt.Errorf("backend %s: keep conversation: %w", s.b.Name(), err)
	}
	return nil
}

// begin takes ops and brings the session to running for a turn, starting
// a stopped agent first. On error ops is released.
func (s *engineSession) begin(ctx context.Context) error {
	if err := s.acquire(ctx); err != nil {
		return err
	}
	s.mu.Lock()
	st, lastErr, closing := s.state, s.lastErr, s.closing
	s.mu.Unlock()
	fail := func(err error) error {
		s.release()
		return err
	}
	switch {
	case st == StateExited || closing:
		return fail(ErrSessionClosed)
	case st == StateError:
		return fail(fmt.Errorf("%w: the agent failed (%v); Refresh or Restart first", ErrNotReady, lastErr))
	case st == StateStopped:
		if err := s.transition(StateStarting, nil); err != nil {
			return fail(err)
		}
		if err := s.start(ctx); err != nil {
			return fail(err)
		}
	}
	if err := s.transition(StateRunning, nil); err != nil {
		return fail(err)
	}
	return nil
}

// turn runs one prompt on the running session and brings it back to idle
// (or error). Answer text goes to w as it arrives when w is set. The
// caller holds ops.
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
	cb := func(typ string, data any) error {
		ev, _ := data.(*event.EventWithMeta)
		if ev == nil {
			return nil
		}
		s.mu.Lock()
		s.lastSeq = ev.Seq
		if ev.SessionStart != nil && typ == event.TypeSessionStart {
			s.pid, s.psid = ev.SessionStart.PID, ev.SessionStart.ProviderSessionID
		}
		s.mu.Unlock()
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
				answer.WriteString("\n")
				if w != nil {
					if _, err := io.WriteString(w, "\n"); err != nil {
						return err
					}
				}
			}
			answer.WriteString(ev.EventData)
			if w != nil {
				if _, err := io.WriteString(w, ev.EventData); err != nil {
					return err
				}
			}
		case event.TypeResult:
			result = ev.Turn
		}
		return nil
	}
	err := s.b.eng.Execute(ctx, &engine.Config{
		SessionID: conv, WorkDir: s.cwd, TaskInstructions: s.instructions(), Provider: s.b.opts.Provider,
	}, prompt, cb)

	text := answer.String()
	if result != nil && result.Result != "" && !deltas {
		text = result.Result
	}
	s.mu.Lock()
	if result != nil && result.Model != "" {
		s.model = result.Model
	}
	if err == nil || !errors.Is(err, engine.ErrStartFailed) {
		s.conversed = true
	}
	s.mu.Unlock()

	next := StateIdle
	if err != nil && (errors.Is(err, engine.ErrStartFailed) || errors.Is(err, engine.ErrEngineClosed)) {
		next = StateError
	}
	if terr := s.transition(next, err); terr != nil && err == nil {
		err = terr
	}
	if err != nil {
		return text, fmt.Errorf("backend %s: %w", s.b.Name(), err)
	}
	return text, nil
}

// Send runs prompt as one turn and returns the answer.
func (s *engineSession) Send(ctx context.Context, prompt string) (string, error) {
	if err := s.begin(ctx); err != nil {
		return "", err
	}
	defer s.release()
	return s.turn(ctx, prompt, nil)
}

// SendStream starts prompt as one turn and returns its answer text as it
// arrives. Closing the reader early interrupts the turn; the reader's
// error after the text is the turn's error.
func (s *engineSession) SendStream(ctx context.Context, prompt string) (io.ReadCloser, error) {
	if err := s.begin(ctx); err != nil {
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
// StopTimeout) until the session is idle again. It does nothing when no
// turn runs.
func (s *engineSession) Stop(ctx context.Context) error {
	s.mu.Lock()
	cancel, done, st := s.cancel, s.turnDone, s.state
	s.mu.Unlock()
	if st == StateExited {
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
	switch s.State() {
	case StateExited:
		return ErrSessionClosed
	case StateIdle, StateError:
		if err := s.stopProcess(); err != nil {
			_ = s.transition(StateError, err)
			return err
		}
		if s.State() == StateIdle {
			// An error state restarts directly (error → starting).
			if err := s.transition(StateStopped, nil); err != nil {
				return err
			}
		}
	}
	if err := s.transition(StateStarting, nil); err != nil {
		return err
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
	switch s.State() {
	case StateExited:
		return ErrSessionClosed
	case StateError:
		if err := s.transition(StateStarting, nil); err != nil {
			return err
		}
		return s.start(ctx)
	case StateIdle:
		snap, ok := s.b.eng.GetSession(s.conversation())
		if ok && snap.PID > 0 && proc.Alive(snap.PID) {
			return nil
		}
		if err := s.stopProcess(); err != nil {
			_ = s.transition(StateError, err)
			return err
		}
		return s.transition(StateStopped, nil)
	}
	return nil
}

// Close interrupts a running turn, ends the agent process and the
// session. The conversation's engine entry is removed. Closing twice is
// harmless.
func (s *engineSession) Close() error {
	s.mu.Lock()
	if s.state == StateExited {
		s.mu.Unlock()
		return nil
	}
	s.closing = true
	s.mu.Unlock()
	s.interruptTurn()
	s.ops <- struct{}{}
	defer s.release()
	s.streams.Wait()
	if s.State() == StateExited {
		return nil
	}
	err := s.b.eng.TerminateSession(s.conversation())
	if errors.Is(err, engine.ErrSessionNotFound) {
		err = nil
	}
	if derr := s.discard(); derr != nil && err == nil {
		err = derr
	}
	if st := s.State(); st == StateRunning {
		_ = s.transition(StateIdle, nil)
	}
	s.mu.Lock()
	s.pid = 0
	s.mu.Unlock()
	if terr := s.transition(StateExited, nil); terr != nil && err == nil {
		err = terr
	}
	return err
}

// discarder is a provider that keeps something of a conversation beyond
// its process — a terminal window parked for a restart — until told to
// destroy it.
type discarder interface {
	Discard(ctx context.Context, providerSessionID string) error
}

// discard destroys what the provider keeps of the session's conversation:
// the session has exited and will not be restarted.
func (s *engineSession) discard() error {
	p, err := s.b.eng.ProviderNamed(s.b.opts.Provider)
	if err != nil {
		return nil
	}
	d, ok := p.(discarder)
	s.mu.Lock()
	psid := s.psid
	s.mu.Unlock()
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

// clearConversation moves the session to a new, empty conversation. The
// caller holds ops and the session is idle or stopped.
func (s *engineSession) clearConversation(ctx context.Context) error {
	old := s.conversation()
	if err := s.b.eng.TerminateSession(old); err != nil && !errors.Is(err, engine.ErrSessionNotFound) {
		return err
	}
	s.mu.Lock()
	s.conv, s.conversed, s.pid, s.psid, s.lastSeq = uuid.NewString(), false, 0, "", 0
	s.mu.Unlock()
	if s.State() == StateIdle {
		if err := s.transition(StateStopped, nil); err != nil {
			return err
		}
	}
	if err := s.transition(StateStarting, nil); err != nil {
		return err
	}
	return s.start(ctx)
}
