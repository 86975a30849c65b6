// Package engine keeps one hot agent CLI process per conversation and runs
// turns on it: the session pool, turn orchestration, permission policy,
// idle reaping and deterministic session IDs. It knows agent CLIs only
// through provider.Provider.
package engine

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/guard"
	"github.com/hotplex/hotplex/internal/proc"
	"github.com/hotplex/hotplex/provider"
	"github.com/hotplex/hotplex/provider/claude"
)

// Callback receives a turn's events in order: the event type and an
// *event.EventWithMeta. A non-nil error interrupts the turn, and Execute
// returns it.
type Callback func(eventType string, data any) error

// Engine runs turns on hot sessions. Create it with NewEngine and end it
// with Close.
type Engine struct {
	opts     EngineOptions
	log      *slog.Logger
	provider provider.Provider
	pool     *SessionPool
	cgroup   string
	firewall Firewall
	// detector is the built-in firewall, which judges permission rules;
	// nil with a custom or no firewall.
	detector *guard.Detector
	bypass   bypasses
	home     string
	// trees serializes HotPlex's git commands per repository.
	trees repoLocks

	closeOnce sync.Once
}

// NewEngine returns an engine with its session pool and idle reaper
// running.
func NewEngine(opts EngineOptions) (*Engine, error) {
	log := opts.Logger
	if log == nil {
		log = slog.Default()
	}
	var providers []provider.Provider
	if opts.Provider != nil {
		providers = append(providers, opts.Provider)
	}
	seen := map[string]bool{}
	for _, p := range opts.Providers {
		if p == nil {
			continue
		}
		providers = append(providers, p)
	}
	if len(providers) == 0 {
		providers = append(providers, claude.New(claude.Options{}))
	}
	for _, p := range providers {
		if seen[p.Name()] {
			return nil, fmt.Errorf("%w: two providers are named %q", ErrInvalidConfig, p.Name())
		}
		seen[p.Name()] = true
	}
	p := providers[0]
	if opts.WorkDirRoot != "" {
		if _, err := resolveWorkDir(opts.WorkDirRoot, ""); err != nil {
			return nil, err
		}
	}
	e := &Engine{opts: opts, log: log, provider: p, home: homeDir(opts.Env), bypass: bypasses{until: map[string]time.Time{}}}
	switch {
	case opts.DisableFirewall:
	case opts.Firewall != nil:
		e.firewall = opts.Firewall
	default:
		e.firewall = guard.NewDetector(guard.Options{})
	}
	if err := e.initPolicies(); err != nil {
		return nil, err
	}
	subreaper := false
	if !opts.DisableProcessIsolation {
		// Descendants that leave the process group (setsid, nohup,
		// daemons) re-parent to us instead of PID 1, so they can be found
		// and reaped when their session ends.
		if err := proc.EnableSubreaper(); err != nil {
			log.Warn("cannot become a child subreaper; escaped descendants are found by /proc scan only", "err", err)
		} else {
			subreaper = true
		}
		e.cgroup = proc.DefaultCgroupRoot()
	}
	e.pool = newSessionPool(&e.opts, providers, log, e.cgroup, subreaper)
	return e, nil
}

// Pool returns the engine's session pool.
func (e *Engine) Pool() *SessionPool { return e.pool }

// Provider returns the provider new sessions get unless they name another.
func (e *Engine) Provider() provider.Provider { return e.provider }

// ProviderNamed returns the engine's provider called name.
func (e *Engine) ProviderNamed(name string) (provider.Provider, error) {
	return e.pool.provider(name)
}

// Providers returns the names of the providers sessions may choose, the
// default first.
func (e *Engine) Providers() []string {
	names := []string{e.provider.Name()}
	for n := range e.pool.providers {
		if n != e.provider.Name() {
			names = append(names, n)
		}
	}
	slices.Sort(names[1:])
	return names
}

// GetSession returns a snapshot of a session.
func (e *Engine) GetSession(id string) (*Session, bool) { return e.pool.GetSession(id) }

// DeleteSession ends a session for good and destroys what its provider
// keeps of the conversation (see SessionPool.DeleteSession) and its
// worktree, if it has one (its branch stays; see DeleteSessionWith).
func (e *Engine) DeleteSession(ctx context.Context, id string) error {
	return e.DeleteSessionWith(ctx, id, DeleteOptions{})
}

// TerminateSession ends a session's process tree and removes it.
func (e *Engine) TerminateSession(id string) error { return e.pool.TerminateSession(id) }

// ListActiveSessions returns snapshots of all sessions.
func (e *Engine) ListActiveSessions() []*Session { return e.pool.ListActiveSessions() }

// GetSessionStats returns a session's cumulative statistics.
func (e *Engine) GetSessionStats(id string) (event.SessionStatsData, error) {
	s, ok := e.pool.GetSession(id)
	if !ok {
		return event.SessionStatsData{}, fmt.Errorf("%w: %s", ErrSessionNotFound, id)
	}
	return s.Stats(), nil
}

// Close ends every session and the reaper. It is safe to call twice.
func (e *Engine) Close() error {
	e.closeOnce.Do(func() {
		e.pool.Shutdown()
		if e.cgroup != "" {
			if err := proc.RemoveCgroupRoot(e.cgroup); err != nil {
				e.log.Debug("removing cgroup root", "dir", e.cgroup, "err", err)
			}
		}
	})
	return nil
}

// Execute runs prompt as one turn of the conversation cfg.SessionID,
// starting (or resuming) its CLI when it has no live process, and reports
// every event to cb. Turns of one session run one at a time: a second
// Execute waits for the first (or fails with ErrSessionBusy when
// FailFastWhenBusy is set). Cancelling ctx interrupts the turn.
func (e *Engine) Execute(ctx context.Context, cfg *Config, prompt string, cb Callback) error {
	if cfg == nil || cfg.SessionID == "" {
		return fmt.Errorf("%w: a session ID is required", ErrInvalidConfig)
	}
	if strings.TrimSpace(prompt) == "" {
		return ErrEmptyPrompt
	}
	if cb == nil {
		cb = func(string, any) error { return nil }
	}
	if err := e.checkSessionPolicy(SessionConfig{Policy: cfg.Policy}); err != nil {
		return err
	}
	wd, err := e.pool.workDirFor(cfg.SessionID, cfg.Owner, cfg.WorkDir)
	if err != nil {
		if _, ok := e.pool.GetSession(cfg.SessionID); !ok && cfg.MustExist {
			// Deleted meanwhile, its work directory with it.
			return fmt.Errorf("%w: %s", ErrSessionNotFound, cfg.SessionID)
		}
		return err
	}
	s, err := e.pool.acquire(ctx, cfg.SessionID, SessionConfig{WorkDir: wd, TaskInstructions: cfg.TaskInstructions, Provider: cfg.Provider, Owner: cfg.Owner, Policy: cfg.Policy, requested: cfg.WorkDir}, cfg.MustExist)
	if err != nil {
		return err
	}
	defer e.pool.release(s)
	// Counted from here, not from the agent's turn: a spare claimed for
	// this turn must not have its refill compete with the turn.
	e.pool.busy.Add(1)
	defer e.pool.busy.Add(-1)
	if err := e.checkPrompt(s, prompt, cb); err != nil {
		return err
	}
	if e.opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, e.opts.Timeout, fmt.Errorf("%w after %s", ErrTurnTimeout, e.opts.Timeout))
		defer cancel()
	}
	ctx, interrupt := context.WithCancelCause(ctx)
	defer interrupt(nil)
	s.mu.Lock()
	s.interrupt = interrupt
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.interrupt = nil
		s.mu.Unlock()
	}()
	t := &turn{engine: e, s: s, cb: cb, start: time.Now()}
	err = t.run(ctx, cfg, prompt)
	if err != nil && !errors.Is(err, ErrSessionDeleted) {
		select {
		case <-s.deleted:
			// Its process was ended by the deletion: that is the news.
			err = fmt.Errorf("%w: %w", ErrSessionDeleted, err)
		default:
		}
	}
	return err
}

// Interrupt ends the turn running on a session, as cancelling its
// Execute's context would: the agent is interrupted, stays hot, and the
// turn closes with an interrupted result. Execute returns an error wrapping
// ErrInterrupted. It reports whether a turn was running.
func (e *Engine) Interrupt(sessionID string) (bool, error) {
	e.pool.mu.Lock()
	s, ok := e.pool.sessions[sessionID]
	e.pool.mu.Unlock()
	if !ok {
		return false, fmt.Errorf("%w: %s", ErrSessionNotFound, sessionID)
	}
	s.mu.Lock()
	interrupt := s.interrupt
	s.mu.Unlock()
	if interrupt == nil {
		return false, nil
	}
	interrupt(ErrInterrupted)
	return true, nil
}

// CreateSession adds a new session to the pool without starting its CLI
// (state new): its first turn starts a new conversation. Use
// RestoreSession only for a conversation that exists.
func (e *Engine) CreateSession(id string, cfg SessionConfig) error {
	return e.addSession(id, cfg, false, 0, nil)
}

// RestoreSession puts a session saved earlier (by a daemon before its
// restart) back into the pool without starting its CLI (state
// hibernated). Its first turn resumes the conversation; its events
// continue after lastSeq and its statistics from stats.
func (e *Engine) RestoreSession(id string, cfg SessionConfig, lastSeq uint64, stats *event.SessionStatsData) error {
	return e.addSession(id, cfg, true, lastSeq, stats)
}

func (e *Engine) addSession(id string, cfg SessionConfig, restored bool, lastSeq uint64, stats *event.SessionStatsData) error {
	if id == "" {
		return fmt.Errorf("%w: a session ID is required", ErrInvalidConfig)
	}
	if err := e.checkSessionPolicy(cfg); err != nil {
		return err
	}
	ctx := context.Background()
	var repo string
	if cfg.Worktree && (cfg.Baseline == nil || cfg.Baseline.Worktree == nil) {
		if _, ok := e.pool.GetSession(id); ok {
			return fmt.Errorf("%w: %s", ErrSessionExists, id)
		}
		var err error
		if repo, err = e.planWorktree(ctx, id, &cfg); err != nil {
			return err
		}
	}
	wd, err := resolveOwnedWorkDir(e.opts.WorkDirRoot, cfg.Owner, cfg.WorkDir)
	if err != nil {
		return err
	}
	cfg.requested, cfg.WorkDir = cfg.WorkDir, wd
	if err := e.prepareBaseline(ctx, &cfg, repo); err != nil {
		return err
	}
	if err := e.insertSession(id, cfg, restored, lastSeq, stats); err != nil {
		if repo != "" {
			// The worktree was made for this creation only.
			_ = e.removeWorktree(ctx, cfg.Baseline.Worktree, true)
		}
		return err
	}
	return nil
}

func (e *Engine) insertSession(id string, cfg SessionConfig, restored bool, lastSeq uint64, stats *event.SessionStatsData) error {
	sp := e.pool
	p, err := sp.provider(cfg.Provider)
	if err != nil {
		return err
	}
	cfg.Provider = p.Name()
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if sp.closed {
		return ErrEngineClosed
	}
	if _, ok := sp.sessions[id]; ok {
		return fmt.Errorf("%w: %s", ErrSessionExists, id)
	}
	psid := cfg.ProviderSessionID
	if psid == "" {
		psid = OwnedProviderSessionID(e.opts.Namespace, cfg.Owner, id, cfg.Nonce)
	}
	s := newSession(id, psid, p, cfg, sp.clock, restored)
	s.seq.Store(lastSeq)
	if stats != nil {
		s.stats = event.RestoreSessionStats(*stats)
	}
	sp.sessions[id] = s
	return nil
}

// turn is one Execute in progress.
type turn struct {
	engine *Engine
	s      *session
	cb     Callback
	start  time.Time
	// failed stops delivery after the callback returned an error.
	failed bool
}

// emit stamps an event, folds it into the session's statistics and hands
// it to the callback.
func (t *turn) emit(ev *event.EventWithMeta) error {
	if ev.Meta == nil {
		ev.Meta = &event.EventMeta{}
	}
	ev.SessionID = t.s.id
	ev.Seq = t.s.seq.Add(1)
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
	if t.failed {
		return nil
	}
	if err := t.cb(ev.EventType, ev); err != nil {
		t.failed = true
		return fmt.Errorf("callback refused %s event: %w", ev.EventType, err)
	}
	return nil
}

func (t *turn) run(ctx context.Context, cfg *Config, prompt string) error {
	e, s := t.engine, t.s
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
	errMsg := ""
	if turnErr != nil {
		errMsg = turnErr.Error()
		t.emitQuiet(event.NewEventWithMeta(event.TypeError, errMsg, &event.EventMeta{Status: "error", ErrorMsg: errMsg}))
	}
	s.stats.RecordTurn(tr, wall, errMsg)
	stats := s.stats.Snapshot()
	statsEv := event.NewEventWithMeta(event.TypeSessionStats, "", &event.EventMeta{DurationMs: wall.Milliseconds()})
	statsEv.Stats = &stats
	t.emitQuiet(statsEv)
	t.emitQuiet(resultEvent(tr, &stats, wall, errMsg))
	return turnErr
}

// startEvent reports the process serving the turn.
func (t *turn) startEvent(p provider.Process, how startInfo) *event.EventWithMeta {
	cold := how.cold
	info := p.Info()
	ev := event.NewEventWithMeta(event.TypeSessionStart, t.s.id, &event.EventMeta{Status: "success"})
	ev.SessionStart = &event.SessionStart{
		PID: info.PID, ProviderSessionID: info.ProviderSessionID, Provider: t.s.prov.Name(),
		WorkDir: t.s.cfg.WorkDir, ColdStart: cold, StartupMs: time.Since(t.start).Milliseconds(),
	}
	if cold {
		ev.Resumed, ev.Fallback = info.Resumed, info.Fallback
		ev.Spare, ev.QueuedMs = how.spare, how.queued.Milliseconds()
	}
	return ev
}

// emitQuiet delivers the closing events, which go out even after the
// caller cancelled, so every turn ends with session_stats and result.
func (t *turn) emitQuiet(ev *event.EventWithMeta) {
	if err := t.emit(ev); err != nil {
		t.engine.log.Debug("callback refused closing event", "type", ev.EventType, "err", err)
	}
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
func (t *turn) ask(ctx context.Context, req provider.ToolRequest) provider.ToolDecision {
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
		decided.Decision, decided.Reason = d.Behavior, d.Message
		ev := event.NewEventWithMeta(event.TypePermissionDecision, d.Behavior, &event.EventMeta{
			ToolName: req.ToolName, ToolID: req.ToolUseID, Status: "success",
		})
		ev.Permission = &decided
		_ = t.emit(ev)
	}
	return d
}

func (e *Engine) permissionRequest(s *session, req provider.ToolRequest, ask approval) PermissionRequest {
	return PermissionRequest{SessionID: s.id, WorkDir: s.cfg.WorkDir, ToolRequest: req, NeedsApproval: ask.reason != "", Reason: ask.reason, Policy: ask.policy}
}

func (e *Engine) decide(ctx context.Context, s *session, req provider.ToolRequest, ask approval) provider.ToolDecision {
	if h := e.opts.PermissionHandler; h != nil {
		if d := h(ctx, e.permissionRequest(s, req, ask)); d.Behavior != "" {
			return d
		}
	}
	if ask.reason != "" {
		return provider.ToolDecision{Behavior: provider.Deny, Message: "This needs a person's approval (" + ask.reason + ") and none was given."}
	}
	if slices.Contains(e.opts.DisallowedTools, req.ToolName) {
		return provider.ToolDecision{Behavior: provider.Deny, Message: fmt.Sprintf("The tool %s is disallowed in this session.", req.ToolName)}
	}
	if len(e.opts.AllowedTools) > 0 && !toolAllowed(e.opts.AllowedTools, req.ToolName) {
		return provider.ToolDecision{Behavior: provider.Deny, Message: fmt.Sprintf("The tool %s is not among the tools allowed in this session.", req.ToolName)}
	}
	if req.Kind == provider.CanUseTool {
		return provider.ToolDecision{Behavior: provider.Allow}
	}
	return provider.ToolDecision{} // PreToolUse: let the CLI's own rules decide
}

// toolAllowed reports whether an allow list names tool, either bare
// ("Bash") or as a CLI rule for it ("Bash(git:*)", whose details the CLI
// enforces itself). Rules in the disallow list are likewise the CLI's to
// apply; only a bare name there denies the whole tool.
func toolAllowed(list []string, tool string) bool {
	return slices.ContainsFunc(list, func(entry string) bool {
		entry = strings.TrimSpace(entry)
		return entry == tool || strings.HasPrefix(entry, tool+"(")
	})
}
