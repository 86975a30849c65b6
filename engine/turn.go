package engine

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/provider"
)

// Callback receives a turn's events in order: the event type and an
// *event.EventWithMeta. A non-nil error interrupts the turn, and Execute
// returns it.
type Callback func(eventType string, data any) error

// Execute runs prompt as one turn of the conversation cfg.SessionID,
// starting (or resuming) its CLI when it has no live process, and reports
// every event to cb. Turns of one session run one at a time: a second
// Execute waits for the first (or fails with ErrSessionBusy when
// FailFastWhenBusy is set). Cancelling ctx interrupts the turn.
//
// Execute is Start run on the caller's goroutine: cb is called as each
// event is emitted, so a slow cb holds the agent back rather than lose an
// event, and no event crosses goroutines (which would double the engine's
// cost of a warm turn).
func (e *Engine) Execute(ctx context.Context, cfg *Config, prompt string, cb Callback) error {
	t, err := e.admit(ctx, cfg, prompt, cb)
	if err != nil {
		return err
	}
	t.events.leave() // cb is the reader
	t.runToEnd()
	return t.err
}

// Turn is a turn admitted to its session: from Start until it ends it
// holds the session's turn slot, so its events are numbered on from
// FirstSeq with no other turn's among them, and the next turn's come
// after its last.
type Turn struct {
	engine *Engine
	s      *session
	cfg    *Config
	prompt string
	start  time.Time
	ctx    context.Context // the turn's own: timeout, interrupt, engine close
	// release ends the turn's context.
	release func()

	// cb, with Execute, receives each event as it is emitted; failed
	// stops it after it returned an error.
	cb     Callback
	failed bool

	// emitMu orders the turn's events with those other goroutines add
	// to it (Engine.Steer, Engine.Announce) and with its end.
	emitMu sync.Mutex
	first  uint64
	last   atomic.Uint64
	ended  atomic.Bool // last is final
	events eventQueue

	// begun is closed at the turn's first event, or at its end if it
	// emits none.
	begun     chan struct{}
	beginOnce sync.Once

	done chan struct{}
	err  error // set before done is closed
}

// Start admits a turn and returns it running: it checks cfg and prompt,
// finds the session (or creates it, unless cfg.MustExist), and waits for
// the session's turn slot (or fails with ErrSessionBusy when
// FailFastWhenBusy is set). Errors up to there (a bad config or work
// directory, an unknown or deleted session, a closed engine, ctx ending
// while the turn waits) come back from Start and no event is emitted.
// What follows — the firewall's look at the prompt, starting or resuming
// the CLI (which may fail with ErrOverloaded or ErrStartFailed), the turn
// itself — happens in a goroutine of the engine's, and Wait returns its
// error.
//
// Cancelling ctx interrupts the turn, as Engine.Interrupt does. Every
// Turn ends on its own; nobody needs to read its events or wait for it.
// Close waits for the turns it started.
func (e *Engine) Start(ctx context.Context, cfg *Config, prompt string) (*Turn, error) {
	t, err := e.admit(ctx, cfg, prompt, nil)
	if err != nil {
		return nil, err
	}
	e.turnsMu.Lock()
	if e.closed {
		e.turnsMu.Unlock()
		t.err = ErrEngineClosed
		t.end()
		return nil, ErrEngineClosed
	}
	e.turns.Add(1)
	e.turnsMu.Unlock()
	go func() {
		defer e.turns.Done()
		t.runToEnd()
	}()
	return t, nil
}

// admit checks a turn, waits for its session's turn slot and returns it
// holding the slot, ready to run; cb, when set, is its reader.
func (e *Engine) admit(ctx context.Context, cfg *Config, prompt string, cb Callback) (*Turn, error) {
	if cfg == nil || cfg.SessionID == "" {
		return nil, fmt.Errorf("%w: a session ID is required", ErrInvalidConfig)
	}
	if strings.TrimSpace(prompt) == "" {
		return nil, ErrEmptyPrompt
	}
	if err := e.checkSessionPolicy(SessionConfig{Policy: cfg.Policy}); err != nil {
		return nil, err
	}
	wd, err := e.pool.workDirFor(cfg.SessionID, cfg.Owner, cfg.WorkDir)
	if err != nil {
		if _, ok := e.pool.GetSession(cfg.SessionID); !ok && cfg.MustExist {
			// Deleted meanwhile, its work directory with it.
			return nil, fmt.Errorf("%w: %s", ErrSessionNotFound, cfg.SessionID)
		}
		return nil, err
	}
	s, err := e.pool.acquire(ctx, cfg.SessionID, SessionConfig{WorkDir: wd, TaskInstructions: cfg.TaskInstructions, Provider: cfg.Provider, Owner: cfg.Owner, Policy: cfg.Policy, requested: cfg.WorkDir}, cfg.MustExist)
	if err != nil {
		return nil, err
	}
	if cfg.Claim != nil {
		if err := cfg.Claim(); err != nil {
			e.pool.release(s)
			return nil, err
		}
	}
	// Counted from here, not from the agent's turn: a spare claimed for
	// this turn must not have its refill compete with the turn.
	e.pool.busy.Add(1)

	cancelTimeout := context.CancelFunc(func() {})
	if e.opts.Timeout > 0 {
		ctx, cancelTimeout = context.WithTimeoutCause(ctx, e.opts.Timeout, fmt.Errorf("%w after %s", ErrTurnTimeout, e.opts.Timeout))
	}
	ctx, interrupt := context.WithCancelCause(ctx)
	stopOnClose := context.AfterFunc(e.life, func() { interrupt(context.Cause(e.life)) })
	// Only the holder of the turn slot numbers events, so the next
	// number is this turn's first.
	t := &Turn{engine: e, s: s, cfg: cfg, prompt: prompt, start: time.Now(), ctx: ctx, first: s.seq.Load() + 1, begun: make(chan struct{}), done: make(chan struct{}), cb: cb}
	t.events.init()
	// Published once whole: Steer and Announce emit into it from other
	// goroutines.
	s.mu.Lock()
	s.interrupt, s.current = interrupt, t
	s.mu.Unlock()
	t.release = func() {
		s.mu.Lock()
		s.interrupt, s.current = nil, nil
		s.mu.Unlock()
		stopOnClose()
		interrupt(nil)
		cancelTimeout()
	}
	return t, nil
}

// runToEnd runs the turn, then gives its session back.
func (t *Turn) runToEnd() {
	t.err = t.run(t.ctx, t.cfg, t.prompt)
	t.end()
}

// end fixes the turn's last event and gives the session back.
func (t *Turn) end() {
	t.release()
	// Final before the slot is given back: an event numbered after it
	// belongs to a later turn.
	t.emitMu.Lock()
	t.last.Store(t.s.seq.Load())
	t.ended.Store(true)
	t.emitMu.Unlock()
	t.beginOnce.Do(func() { close(t.begun) })
	t.events.close()
	t.engine.pool.busy.Add(-1)
	t.engine.pool.release(t.s)
	close(t.done)
}

// SessionID is the session the turn runs on.
func (t *Turn) SessionID() string { return t.s.id }

// FirstSeq is the sequence number the turn's first event has (or would
// have: a turn that fails before its first event emits none).
func (t *Turn) FirstSeq() uint64 { return t.first }

// LastSeq is the sequence number of the turn's last event, FirstSeq()-1
// if it emitted none. ended is false while the turn may still emit;
// once it is true, and before Done is closed, any newer event of the
// session belongs to a later turn.
func (t *Turn) LastSeq() (seq uint64, ended bool) {
	if !t.ended.Load() {
		return 0, false
	}
	return t.last.Load(), true
}

// Done is closed when the turn has ended and given its session back.
func (t *Turn) Done() <-chan struct{} { return t.done }

// Begun is closed once the turn emitted its first event (its CLI runs
// and took the prompt), or ended without one (it never started: the
// firewall stopped the prompt, the engine had no room, the CLI failed to
// start). Which one, LastSeq and Wait tell.
func (t *Turn) Begun() <-chan struct{} { return t.begun }

// Wait waits for the turn to end and returns its error: nil, or one that
// wraps ErrInterrupted, ErrTurnTimeout, ErrSessionDead, ErrTurnFailed,
// ErrDangerBlocked, ErrOverloaded, ErrStartFailed, ErrSessionDeleted or
// the cause ctx was cancelled with.
func (t *Turn) Wait() error {
	<-t.done
	return t.err
}

// Events yields the turn's events in order, until its last. It may be
// ranged over once.
//
// The turn holds up to 256 events for its reader. A reader that falls
// that far behind holds the agent back (its output waits in its pipe)
// until the reader catches up, stops ranging, or the turn's context ends
// (then the turn stops waiting and keeps the rest for it). Events that
// find nobody ranging yet wait for a reader, but when 256 of them have
// waited the turn decides nobody is coming and drops them: a turn nobody
// reads costs nothing and never waits. Its events reach the
// engine's EventSink either way.
func (t *Turn) Events() iter.Seq[*event.EventWithMeta] { return t.events.all() }

// emit stamps an event, folds it into the session's statistics and hands
// it to the turn's reader (Execute's callback or Events) and the event
// sink. Only a callback's refusal fails it.
func (t *Turn) emit(ev *event.EventWithMeta) error {
	t.emitMu.Lock()
	defer t.emitMu.Unlock()
	return t.emitLocked(ev)
}

// emitLocked is emit with t.emitMu held.
func (t *Turn) emitLocked(ev *event.EventWithMeta) error {
	if ev.Meta == nil {
		ev.Meta = &event.EventMeta{}
	}
	ev.SessionID = t.s.id
	ev.Seq = t.s.seq.Add(1)
	defer t.beginOnce.Do(func() { close(t.begun) })
	ev.Time = time.Now()
	ev.Meta.TotalDurationMs = ev.Time.Sub(t.start).Milliseconds()
	st := t.s.stats
	switch ev.EventType {
	case event.TypeThinking:
		st.AddDuration(event.PhaseThinking, time.Duration(ev.Meta.DurationMs)*time.Millisecond)
	case event.TypeAnswer:
		st.AddDuration(event.PhaseGeneration, time.Duration(ev.Meta.DurationMs)*time.Millisecond)
	case event.TypeToolUse:
		st.RecordToolUse(ev.Meta.ToolName, ev.Input)
	case event.TypeToolResult:
		st.AddDuration(event.PhaseTool, time.Duration(ev.Meta.DurationMs)*time.Millisecond)
	}
	if sink := t.engine.opts.Events; sink != nil {
		defer sink.Publish(ev)
	}
	if t.cb == nil {
		t.events.push(ev, t.ctx.Done())
		return nil
	}
	if t.failed {
		return nil
	}
	if err := t.cb(ev.EventType, ev); err != nil {
		t.failed = true
		return fmt.Errorf("callback refused %s event: %w", ev.EventType, err)
	}
	return nil
}

// run is the turn after its admission: the firewall's look at the prompt,
// the CLI's start, the prompt and the agent's answer.
func (t *Turn) run(ctx context.Context, cfg *Config, prompt string) error {
	err := t.converse(ctx, cfg, prompt)
	if err != nil && !errors.Is(err, ErrSessionDeleted) {
		select {
		case <-t.s.deleted:
			// Its process was ended by the deletion: that is the news.
			err = fmt.Errorf("%w: %w", ErrSessionDeleted, err)
		default:
		}
	}
	return err
}

func (t *Turn) converse(ctx context.Context, cfg *Config, prompt string) error {
	e, s := t.engine, t.s
	if err := t.checkPrompt(prompt, t.emit); err != nil {
		return err
	}
	how, err := e.pool.ensureProcess(ctx, s)
	if err != nil {
		return err
	}
	s.mu.Lock()
	p := s.proc
	s.mu.Unlock()
	if p == nil {
		// Terminated or deleted between the start and here: its process
		// is gone and the turn has nothing to run on.
		select {
		case <-s.deleted:
			return fmt.Errorf("%w: %s", ErrSessionDeleted, s.id)
		default:
			return fmt.Errorf("%w: %s was terminated", ErrSessionNotFound, s.id)
		}
	}
	start := t.startEvent(p, how)
	start.Prompt = prompt
	if err := t.emit(start); err != nil {
		return err
	}
	if cfg.TaskSystemPrompt != "" {
		prompt = cfg.TaskSystemPrompt + "\n\n" + prompt
	}

	e.pool.move(s, StatusRunning)
	before := snapshotWorkDir(ctx, s.cfg.WorkDir)
	tr, turnErr := p.Turn(ctx, prompt, t.ask, t.emit)
	wall := time.Since(t.start)
	// Files the turn changed through any tool, the shell's included.
	s.stats.RecordFiles(before.changed(context.WithoutCancel(ctx)))
	// Another node may resume the conversation next; a node that dies
	// after this turn loses nothing of it.
	e.pool.saveConversation(context.WithoutCancel(ctx), s, s.currentHold())

	if errors.Is(turnErr, provider.ErrSessionDead) {
		// Clean up whatever the dead process left; the next turn resumes.
		if err := e.pool.stopProcess(s, StatusError); err != nil {
			e.log.Warn("cleaning up a dead session", "session", s.id, "err", err)
		}
	} else {
		e.pool.move(s, StatusIdle)
	}
	if turnErr == nil && tr != nil && tr.IsError && !tr.Interrupted {
		turnErr = fmt.Errorf("%w: %s: %s", ErrTurnFailed, tr.Subtype, tr.Result)
	}
	// The closing events go out even after the caller cancelled (or its
	// callback refused an event), so every turn that started ends with
	// session_stats and result.
	errMsg := ""
	if turnErr != nil {
		errMsg = turnErr.Error()
		_ = t.emit(event.NewEventWithMeta(event.TypeError, errMsg, &event.EventMeta{Status: "error", ErrorMsg: errMsg}))
	}
	s.stats.RecordTurn(tr, wall, errMsg)
	stats := s.stats.Snapshot()
	statsEv := event.NewEventWithMeta(event.TypeSessionStats, "", &event.EventMeta{DurationMs: wall.Milliseconds()})
	statsEv.Stats = &stats
	_ = t.emit(statsEv)
	_ = t.emit(resultEvent(tr, &stats, wall, errMsg))
	return turnErr
}

// startEvent reports the process serving the turn.
func (t *Turn) startEvent(p provider.Process, how startInfo) *event.EventWithMeta {
	cold := how.cold
	info := p.Info()
	ev := event.NewEventWithMeta(event.TypeSessionStart, t.s.id, &event.EventMeta{Status: "success"})
	ev.SessionStart = &event.SessionStart{
		PID: info.PID, ProviderSessionID: info.ProviderSessionID, Provider: t.s.prov.Name(),
		WorkDir: t.s.cfg.WorkDir, ColdStart: cold, StartupMs: time.Since(t.start).Milliseconds(), Node: t.engine.opts.Node,
	}
	if cold {
		ev.Resumed, ev.Fallback = info.Resumed, info.Fallback
		ev.Spare, ev.QueuedMs = how.spare, how.queued.Milliseconds()
	}
	return ev
}

func resultEvent(tr *event.TurnResult, stats *event.SessionStatsData, wall time.Duration, errMsg string) *event.EventWithMeta {
	meta := &event.EventMeta{DurationMs: wall.Milliseconds(), Status: "success"}
	text := ""
	if tr != nil {
		text = tr.Result
		meta.InputTokens, meta.OutputTokens = tr.InputTokens, tr.OutputTokens
		meta.CacheReadTokens, meta.CacheWriteTokens = tr.CacheRead, tr.CacheWrite
		if tr.IsError {
			meta.Status = "error"
		}
	} else {
		tr = &event.TurnResult{Subtype: "error", IsError: true}
	}
	if errMsg != "" {
		meta.Status, meta.ErrorMsg = "error", errMsg
		tr.IsError = true
	}
	ev := event.NewEventWithMeta(event.TypeResult, text, meta)
	ev.Turn = tr
	ev.Stats = stats
	return ev
}

// ask answers the CLI's tool requests: the firewall first, then the
// permission handler, then the policy of AllowedTools and DisallowedTools.
// Requests the CLI needs an answer to are reported as permission_request
// events.
func (t *Turn) ask(ctx context.Context, req provider.ToolRequest) provider.ToolDecision {
	d, decided, ask := t.firewall(req)
	if decided {
		return d
	}
	perm := &event.Permission{RequestID: req.RequestID, ToolName: req.ToolName, ToolUseID: req.ToolUseID}
	if req.Kind == provider.CanUseTool {
		announce := t.engine.opts.PermissionAnnounce
		if announce != nil {
			announce(t.engine.permissionRequest(t.s, req, ask))
		}
		ev := event.NewEventWithMeta(event.TypePermissionRequest, req.ToolName, &event.EventMeta{
			ToolName: req.ToolName, ToolID: req.ToolUseID, Status: "running",
		})
		ev.Input, ev.Permission, ev.Policy = req.Input, perm, ask.policy
		if err := t.emit(ev); err != nil {
			if announce != nil {
				// The handler is told, with a context already ended, so
				// that it forgets what was announced.
				ended, cancel := context.WithCancel(ctx)
				cancel()
				_ = t.engine.decide(ended, t.s, req, ask)
			}
			return provider.ToolDecision{Behavior: provider.Deny, Message: "The session's client stopped listening."}
		}
	}
	d = t.engine.decide(ctx, t.s, req, ask)
	if req.Kind == provider.CanUseTool || d.Behavior == provider.Deny {
		decided := *perm
		decided.Decision, decided.Reason, decided.Answerer = d.Behavior, d.Message, d.Answerer
		ev := event.NewEventWithMeta(event.TypePermissionDecision, d.Behavior, &event.EventMeta{
			ToolName: req.ToolName, ToolID: req.ToolUseID, Status: "success",
		})
		ev.Permission = &decided
		_ = t.emit(ev)
	}
	return d
}
