// Package engine keeps one hot agent CLI process per conversation and runs
// turns on it: the session pool, turn orchestration, permission policy,
// idle reaping and deterministic session IDs. It knows agent CLIs only
// through provider.Provider.
package engine

import (
	"context"
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
)

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

	// turns counts the goroutines of admitted turns (see Start); Close
	// waits for them. endTurns cancels the context every turn's is tied
	// to, for those Close's ending of the processes did not end.
	turnsMu  sync.Mutex
	turns    sync.WaitGroup
	closed   bool
	life     context.Context
	endTurns context.CancelCauseFunc

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
		return nil, fmt.Errorf("%w: no provider (hotplex.NewEngine defaults to Claude Code)", ErrInvalidConfig)
	}
	for _, p := range providers {
		if seen[p.Name()] {
			return nil, fmt.Errorf("%w: two providers are named %q", ErrInvalidConfig, p.Name())
		}
		seen[p.Name()] = true
	}
	if err := checkSpares(&opts, seen); err != nil {
		return nil, err
	}
	p := providers[0]
	if opts.WorkDirRoot != "" {
		if _, err := resolveWorkDir(opts.WorkDirRoot, ""); err != nil {
			return nil, err
		}
	}
	e := &Engine{opts: opts, log: log, provider: p, home: homeDir(opts.Env), bypass: bypasses{until: map[string]time.Time{}}}
	e.life, e.endTurns = context.WithCancelCause(context.Background())
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

// checkSpares refuses negative spare counts and counts for providers the
// engine does not have (a misspelt name would otherwise go unnoticed).
func checkSpares(o *EngineOptions, names map[string]bool) error {
	if o.Spares < 0 {
		return fmt.Errorf("%w: spares %d is negative", ErrInvalidConfig, o.Spares)
	}
	for name, n := range o.ProviderSpares {
		if !names[name] {
			return fmt.Errorf("%w: spares for provider %q, which the engine does not have", ErrInvalidConfig, name)
		}
		if n < 0 {
			return fmt.Errorf("%w: spares %d for provider %q is negative", ErrInvalidConfig, n, name)
		}
	}
	return nil
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

// Holding reports whether the engine still holds the session snap is a
// snapshot of: it was neither deleted nor created again under its ID
// since.
func (e *Engine) Holding(snap *Session) bool { return e.pool.holding(snap) }

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

// Close ends every session and the reaper, and returns once every turn
// has ended. It is safe to call twice.
func (e *Engine) Close() error {
	e.closeOnce.Do(func() {
		e.turnsMu.Lock()
		e.closed = true
		e.turnsMu.Unlock()
		e.pool.Shutdown()
		// Ending the processes ends their turns; a turn that still waits
		// (on a person's decision, on a reader) is cancelled.
		e.endTurns(ErrEngineClosed)
		e.turns.Wait()
		if e.cgroup != "" {
			if err := proc.RemoveCgroupRoot(e.cgroup); err != nil {
				e.log.Debug("removing cgroup root", "dir", e.cgroup, "err", err)
			}
		}
	})
	return nil
}

// Interrupt ends the turn running on a session, as cancelling its
// Execute's (or Start's) context would: the agent is interrupted, stays
// hot, and the turn closes with an interrupted result. Execute (or
// Turn.Wait) returns an error wrapping ErrInterrupted. It reports whether
// a turn was running.
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

// CatchUp brings a session that has no process here up to date with what
// another engine (a node of a cluster sharing the store) did with it
// since: its events continue after lastSeq, its statistics from stats,
// and its next start resumes the conversation. A session whose process
// runs here drives the conversation itself and is left alone, as is one
// this engine is already ahead on.
func (e *Engine) CatchUp(id string, lastSeq uint64, stats *event.SessionStatsData) error {
	e.pool.mu.Lock()
	s, ok := e.pool.sessions[id]
	e.pool.mu.Unlock()
	if !ok {
		return fmt.Errorf("%w: %s", ErrSessionNotFound, id)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.proc != nil || lastSeq <= s.seq.Load() {
		return nil
	}
	s.seq.Store(lastSeq)
	if stats != nil {
		s.stats.Replace(*stats)
	}
	s.conversation = true
	return nil
}
