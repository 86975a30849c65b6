package engine

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hotplex/hotplex/internal/proc"
	"github.com/hotplex/hotplex/provider"
)

// SessionManager is the pool's contract.
type SessionManager interface {
	// GetOrCreateSession retrieves an active session or performs a Cold Start if none exists.
	// Returns the session, a boolean indicating if it was a Cold Start, and an error if any.
	GetOrCreateSession(ctx context.Context, sessionID string, cfg SessionConfig, prompt string) (*Session, bool, error)
	// GetSession performs a non-side-effect lookup of an active session.
	GetSession(sessionID string) (*Session, bool)
	// TerminateSession kills the OS process group and removes the session from the pool.
	TerminateSession(sessionID string) error
	// ListActiveSessions provides a snapshot of all tracked sessions.
	ListActiveSessions() []*Session
	// Shutdown performing a total cleanup of the pool and its background workers.
	Shutdown()
}

var _ SessionManager = (*SessionPool)(nil)

// SessionPool keeps one hot CLI process per conversation and reaps the
// ones left idle.
type SessionPool struct {
	opts *EngineOptions
	// def is the default provider; providers holds every one by name.
	def       provider.Provider
	providers map[string]provider.Provider
	log       *slog.Logger
	cgroup    string
	// subreaper is set when the engine adopted orphaned descendants.
	subreaper bool

	// clock is the time of residency, admission, reaping and refills.
	clock Clock

	// mu guards the sessions map, closed, the three parts of capacity
	// (see capacity.go) and the start counters.
	mu       sync.Mutex
	sessions map[string]*session
	closed   bool
	adm      admission
	res      residency
	spares   spares
	// Processes started, fresh and resumed (spares' claims not included).
	coldStarts, resumes uint64
	// busy counts turns running, which spares defer their refill to.
	busy atomic.Int32

	// bg runs the endings of hibernated sessions and dropped spares;
	// bgClosed (guarded by mu) is set when Shutdown waits for it.
	bg       sync.WaitGroup
	bgClosed bool
	// The spare refiller and its parking directory.
	spareRoot  string
	spareWake  chan struct{}
	stopSpares chan struct{}
	sparesDone chan struct{}

	stopReaper chan struct{}
	reaperDone chan struct{}
}

func newSessionPool(opts *EngineOptions, providers []provider.Provider, log *slog.Logger, cgroup string, subreaper bool) *SessionPool {
	byName := make(map[string]provider.Provider, len(providers))
	for _, p := range providers {
		byName[p.Name()] = p
	}
	sp := &SessionPool{
		opts: opts, def: providers[0], providers: byName, log: log, cgroup: cgroup, subreaper: subreaper,
		clock:      opts.clock(),
		sessions:   map[string]*session{},
		adm:        newAdmission(opts),
		res:        newResidency(opts),
		spares:     newSpares(opts, providers),
		spareWake:  make(chan struct{}, 1),
		stopSpares: make(chan struct{}),
		sparesDone: make(chan struct{}),
		stopReaper: make(chan struct{}),
		reaperDone: make(chan struct{}),
	}
	if sp.spares.any() {
		dir, err := os.MkdirTemp("", "hotplex-spares-")
		if err != nil {
			log.Warn("no parking directory for spares; running without", "err", err)
			sp.spares.want = nil
		} else {
			sp.spareRoot = dir
		}
	}
	go sp.reap()
	go sp.refillSpares()
	return sp
}

// lookup returns the session for id, creating its entry (without a
// process) when it is new, unless mustExist.
func (sp *SessionPool) lookup(id string, cfg SessionConfig, mustExist bool) (*session, error) {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if sp.closed {
		return nil, ErrEngineClosed
	}
	if s, ok := sp.sessions[id]; ok {
		if cfg.Provider != "" && cfg.Provider != s.prov.Name() {
			return nil, fmt.Errorf("%w: session %q runs on provider %s, not %s", ErrInvalidConfig, id, s.prov.Name(), cfg.Provider)
		}
		if cfg.WorkDir != "" && s.cfg.WorkDir != cfg.WorkDir {
			return nil, fmt.Errorf("%w: session %q runs in %s, not %s", ErrInvalidWorkDir, id, s.cfg.WorkDir, cfg.WorkDir)
		}
		if cfg.TaskInstructions != "" {
			// New instructions take effect when the CLI next starts; the
			// system prompt of a running one cannot change.
			s.mu.Lock()
			s.cfg.TaskInstructions = cfg.TaskInstructions
			s.mu.Unlock()
		}
		return s, nil
	}
	if mustExist {
		return nil, fmt.Errorf("%w: %s", ErrSessionNotFound, id)
	}
	p, err := sp.provider(cfg.Provider)
	if err != nil {
		return nil, err
	}
	cfg.Provider = p.Name()
	s := newSession(id, OwnedProviderSessionID(sp.opts.Namespace, cfg.Owner, id, cfg.Nonce), p, cfg, sp.clock, false)
	sp.sessions[id] = s
	return s, nil
}

// provider returns the provider called name, or the default for "".
func (sp *SessionPool) provider(name string) (provider.Provider, error) {
	if name == "" {
		return sp.def, nil
	}
	if p, ok := sp.providers[name]; ok {
		return p, nil
	}
	return nil, fmt.Errorf("%w: %q", ErrProviderNotFound, name)
}

// workDirFor resolves a turn's work directory, in the owner's subtree of
// the root (a live session's own owner counts). A live session asked for
// with the same spelling as before, or with none, keeps its resolved
// directory, which spares warm turns the file system look-ups.
func (sp *SessionPool) workDirFor(id, owner, requested string) (string, error) {
	sp.mu.Lock()
	s, ok := sp.sessions[id]
	sp.mu.Unlock()
	if ok {
		if requested == "" || s.cfg.requested == requested {
			// The same spelling, or none: the session's own directory.
			return s.cfg.WorkDir, nil
		}
		owner = s.owner
	}
	return resolveOwnedWorkDir(sp.opts.WorkDirRoot, owner, requested)
}

// acquire looks up (or, unless mustExist, creates) the session and takes
// its turn slot. Sessions terminated while the caller waited are looked up
// again; sessions deleted meanwhile fail the wait with ErrSessionDeleted.
// A session being hibernated is not busy: its slot is free while its
// process ends (the start waits for that instead).
func (sp *SessionPool) acquire(ctx context.Context, id string, cfg SessionConfig, mustExist bool) (*session, error) {
	for {
		s, err := sp.lookup(id, cfg, mustExist)
		if err != nil {
			return nil, err
		}
		if sp.opts.FailFastWhenBusy {
			select {
			case s.turn <- struct{}{}:
			default:
				return nil, fmt.Errorf("%w: %s", ErrSessionBusy, id)
			}
		} else {
			select {
			case s.turn <- struct{}{}:
			case <-s.deleted:
				return nil, fmt.Errorf("%w: %s", ErrSessionDeleted, id)
			case <-ctx.Done():
				return nil, context.Cause(ctx)
			}
		}
		s.mu.Lock()
		closed := s.closedLocked()
		s.mu.Unlock()
		if !closed {
			return s, nil
		}
		<-s.turn
		select {
		case <-s.deleted:
			return nil, fmt.Errorf("%w: %s", ErrSessionDeleted, id)
		default:
		}
	}
}

// release gives the turn slot back. The session may now be idle, which
// can let a waiting start hibernate it.
func (sp *SessionPool) release(s *session) {
	<-s.turn
	sp.kick()
	if sp.spares.any() {
		sp.wakeSpares()
	}
}

// ensureProcess starts the session's CLI unless a live one is there,
// claiming a prewarmed spare for a new conversation, and otherwise passing
// through admission (which may hibernate idle sessions to make room, or
// fail with ErrOverloaded). The caller holds the turn slot.
func (sp *SessionPool) ensureProcess(ctx context.Context, s *session) (startInfo, error) {
	s.mu.Lock()
	p := s.proc
	s.mu.Unlock()
	if p != nil {
		if p.Alive() {
			return startInfo{}, nil
		}
		// It died while idle (killed, crashed, out of memory): clean up
		// what it left and start again, resuming the conversation.
		sp.log.Info("session process exited while idle; restarting", "session", s.id, "pid", p.Info().PID, "stderr", p.StderrTail())
		if err := sp.stopProcess(s, StatusError); err != nil {
			sp.log.Warn("cleaning up a dead session", "session", s.id, "err", err)
		}
	}
	// A process a hibernation is ending may still be writing the
	// conversation the new one resumes.
	if err := s.awaitEnding(ctx); err != nil {
		return startInfo{}, err
	}
	if _, err := existingDir(s.cfg.WorkDir); err != nil {
		// Found here rather than by the start, whose error would name the
		// CLI ("fork/exec .../claude: no such file or directory") instead
		// of the directory that went missing.
		return startInfo{}, fmt.Errorf("%w: session %s", err, s.id)
	}
	// In a cluster, the node that starts a process holds the session's
	// lease for as long as the process lives.
	h, err := sp.claimOwnership(ctx, s)
	if err != nil {
		return startInfo{}, err
	}
	started := false
	defer func() {
		if !started {
			h.release(sp.log, s.id)
		}
	}()
	s.mu.Lock()
	resume := s.conversation
	opts := provider.StartOptions{
		SessionID:                  s.id,
		ProviderSessionID:          s.providerSessionID,
		Resume:                     resume,
		WorkDir:                    s.cfg.WorkDir,
		Env:                        sp.opts.Env,
		SystemPrompt:               joinPrompts(sp.opts.BaseSystemPrompt, s.cfg.TaskInstructions),
		Model:                      sp.opts.Model,
		AllowedTools:               sp.opts.AllowedTools,
		DisallowedTools:            sp.opts.DisallowedTools,
		PermissionMode:             sp.opts.PermissionMode,
		DangerouslySkipPermissions: sp.opts.DangerouslySkipPermissions,
		MCPServers:                 s.cfg.MCPServers,
		CgroupRoot:                 sp.cgroup,
		Logger:                     sp.log.With("session", s.id),
	}
	s.mu.Unlock()
	if !resume && s.stats.Snapshot().Turns > 0 {
		opts.Resume = true
	}
	if opts.Resume {
		// It may have run on another node last.
		if err := sp.restoreConversation(ctx, s); err != nil {
			return startInfo{}, err
		}
	}

	// A new conversation may take a spare (which refuses, as not
	// claimable, what it cannot serve: MCP servers fixed at its start).
	sp.move(s, StatusStarting)
	if !opts.Resume {
		if sc := sp.takeSpare(s); sc != nil {
			if p, cred, ok := sp.claim(ctx, s, sc, opts); ok {
				if err := sp.attach(s, p, cred, h); err != nil {
					sp.move(s, StatusError)
					return startInfo{}, err
				}
				started = true
				return startInfo{cold: true, spare: true}, nil
			}
		}
	}

	done, queued, err := sp.admit(ctx, s)
	if err != nil {
		sp.move(s, StatusError)
		return startInfo{}, err
	}
	begin := sp.clock.Now()
	startCtx, cancel := context.WithTimeoutCause(ctx, sp.opts.startTimeout(),
		fmt.Errorf("%w: not ready within %s", ErrStartFailed, sp.opts.startTimeout()))
	defer cancel()
	cred, err := sp.issue(&opts.Env, s.id, s.owner)
	if err == nil {
		p, err = s.prov.Start(startCtx, opts)
	} else {
		err = fmt.Errorf("%w: model credentials: %w", ErrStartFailed, err)
	}
	if err != nil {
		cred.end()
		done(nil, 0)
		sp.move(s, StatusError)
		if cause := context.Cause(startCtx); cause != nil && errors.Is(err, context.DeadlineExceeded) {
			err = cause
		}
		return startInfo{}, err
	}
	if err := sp.attach(s, p, cred, h); err != nil {
		done(nil, 0)
		sp.move(s, StatusError)
		return startInfo{}, err
	}
	started = true
	done(p, sp.clock.Now().Sub(begin))
	return startInfo{cold: true, queued: queued}, nil
}

// startInfo says how a turn got its process.
type startInfo struct {
	cold   bool          // a process was started (or a spare claimed) for the turn
	spare  bool          // a prewarmed spare was claimed
	queued time.Duration // time spent in the start queue
}

// claim binds a spare to s. When the spare cannot serve s it is parked
// again (or ended, if it broke) and s takes the ordinary way.
func (sp *SessionPool) claim(ctx context.Context, s *session, sc provider.Spare, opts provider.StartOptions) (provider.Process, *credential, bool) {
	claimCtx, cancel := context.WithTimeout(ctx, sp.opts.startTimeout())
	defer cancel()
	p, err := sc.Claim(claimCtx, opts)
	if err == nil {
		var cred *credential
		if pk, ok := sc.(*parked); ok {
			_ = os.RemoveAll(pk.dir)
			// The spare's model calls are its session's from now on.
			if cred = pk.cred; cred != nil && cred.bind != nil {
				cred.bind(s.id, s.owner)
			}
		}
		sp.mu.Lock()
		sp.spares.claims++
		sp.mu.Unlock()
		sp.wakeSpares()
		return p, cred, true
	}
	if errors.Is(err, provider.ErrNotClaimable) {
		sp.log.Debug("spare not claimable", "session", s.id, "err", err)
		sp.returnSpare(s, sc)
		return nil, nil, false
	}
	sp.log.Warn("claiming a spare failed; starting the CLI instead", "session", s.id, "err", err)
	sp.discardSpare(sc)
	sp.unreserve(s)
	return nil, nil, false
}

// attach makes p the session's process. A session terminated (or an
// engine closed) while the process started gets it ended instead.
func (sp *SessionPool) attach(s *session, p provider.Process, cred *credential, h *hold) error {
	info := p.Info()
	s.mu.Lock()
	if s.closedLocked() {
		s.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := p.Close(ctx); err != nil {
			sp.log.Warn("ending a process started for a closed session", "session", s.id, "err", err)
		}
		cred.end()
		sp.unreserve(s)
		return fmt.Errorf("%w: session %s was terminated while its process started", ErrSessionNotFound, s.id)
	}
	s.proc = p
	s.cred = cred
	s.hold = h
	sp.watch(s, h)
	s.conversation = true
	if info.ProviderSessionID != "" {
		s.providerSessionID = info.ProviderSessionID
	}
	if err := s.moveLocked(StatusIdle); err != nil {
		sp.log.Warn("session state", "err", err)
	}
	s.mu.Unlock()
	s.stats.SetModel(info.Model)
	if sp.opts.MemoryBudget > 0 {
		if rss := proc.TreesRSS([]int{info.PID})[info.PID]; rss > 0 {
			sp.mu.Lock()
			sp.res.measuredSize(s, rss)
			sp.mu.Unlock()
		}
	}
	sp.log.Info("session started", "session", s.id, "pid", info.PID, "provider_session_id", info.ProviderSessionID,
		"resumed", info.Resumed, "fallback", info.Fallback)
	return nil
}

// move changes a session's state (see session.moveLocked), logging a move
// the lifecycle forbids.
func (sp *SessionPool) move(s *session, to SessionStatus) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.moveLocked(to); err != nil {
		sp.log.Warn("session state", "err", err)
	}
}

func joinPrompts(parts ...string) string {
	var keep []string
	for _, p := range parts {
		if strings.TrimSpace(p) != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, "\n\n")
}

// stopProcess ends the session's process tree, if any, and moves the
// session to state to: hibernated (reaped idle), error (its process died)
// or closed (terminated). The caller holds the turn slot (or the pool is
// shutting down).
func (sp *SessionPool) stopProcess(s *session, to SessionStatus) error {
	s.mu.Lock()
	p := s.proc
	s.proc = nil
	err := s.moveLocked(to)
	if err != nil {
		sp.log.Warn("session state", "err", err)
	}
	s.mu.Unlock()
	if err == nil && to == StatusHibernated && sp.opts.Hibernated != nil {
		sp.opts.Hibernated(s.id)
	}
	sp.unreserve(s)
	// The token goes once the process has, so the process cannot use it
	// after its session ended, nor its tools that outlived it.
	defer s.takeCredential().end()
	h := s.takeHold()
	defer h.release(sp.log, s.id)
	if p == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := p.Close(ctx); err != nil {
		return fmt.Errorf("end session %s (pid %d): %w", s.id, p.Info().PID, err)
	}
	// What the process wrote last is saved before another node may take
	// the session (a deletion removes it afterwards).
	sp.saveConversation(ctx, s, h)
	return nil
}

// GetOrCreateSession returns the session for sessionID, cold-starting its
// CLI when it has no live process; the boolean reports a cold start. The
// prompt is not sent: it is the first turn's text, kept in the signature
// for the firewall to vet before anything starts.
func (sp *SessionPool) GetOrCreateSession(ctx context.Context, sessionID string, cfg SessionConfig, prompt string) (*Session, bool, error) {
	if sessionID == "" {
		return nil, false, fmt.Errorf("%w: empty session ID", ErrInvalidConfig)
	}
	wd, err := sp.workDirFor(sessionID, cfg.Owner, cfg.WorkDir)
	if err != nil {
		return nil, false, err
	}
	cfg.requested, cfg.WorkDir = cfg.WorkDir, wd
	s, err := sp.acquire(ctx, sessionID, cfg, false)
	if err != nil {
		return nil, false, err
	}
	defer sp.release(s)
	how, err := sp.ensureProcess(ctx, s)
	if err != nil {
		return nil, false, err
	}
	return s.snapshot(), how.cold, nil
}

// GetSession returns a snapshot of the session, if the pool has it.
func (sp *SessionPool) GetSession(sessionID string) (*Session, bool) {
	sp.mu.Lock()
	s, ok := sp.sessions[sessionID]
	sp.mu.Unlock()
	if !ok {
		return nil, false
	}
	return s.snapshot(), true
}

// holding reports whether the pool holds the very session snap was taken
// of, not one created since under its ID.
func (sp *SessionPool) holding(snap *Session) bool {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	return snap != nil && snap.live != nil && sp.sessions[snap.ID] == snap.live
}

// TerminateSession ends the session's process tree and forgets the
// session. A running turn is interrupted by the termination. Its
// conversation survives on disk: the same ID resumes it later.
func (sp *SessionPool) TerminateSession(sessionID string) error {
	s, err := sp.forget(sessionID, false)
	if err != nil {
		return err
	}
	return sp.stopProcess(s, StatusClosed)
}

// forget takes the session out of the pool and closes it (and marks it
// deleted, which fails the turns waiting for it), so that no turn starts
// its process again.
func (sp *SessionPool) forget(sessionID string, deleted bool) (*session, error) {
	sp.mu.Lock()
	s, ok := sp.sessions[sessionID]
	if ok {
		delete(sp.sessions, sessionID)
	}
	sp.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrSessionNotFound, sessionID)
	}
	s.mu.Lock()
	_ = s.moveLocked(StatusClosed) // legal from every state
	if deleted {
		close(s.deleted)
	}
	s.mu.Unlock()
	return s, nil
}

// DeleteSession ends the session for good: its process tree ends, the
// turns waiting for it fail with ErrSessionDeleted (none of them starts a
// process again), and what the provider keeps of the conversation after
// its process ends (the CLI's transcript, a kept terminal window) is
// destroyed, so that the same ID starts afresh. The work directory is the
// caller's to remove.
func (sp *SessionPool) DeleteSession(ctx context.Context, sessionID string) error {
	s, err := sp.forget(sessionID, true)
	if err != nil {
		return err
	}
	err = sp.stopProcess(s, StatusClosed)
	// The running turn, if any, holds the slot until its process's end
	// reaches it; only then is nothing left to write the transcript.
	select {
	case s.turn <- struct{}{}:
	case <-ctx.Done():
		return errors.Join(err, fmt.Errorf("delete session %s: waiting for its turn to end: %w", sessionID, context.Cause(ctx)))
	}
	defer func() { <-s.turn }()
	// So does a hibernation's ending of its process.
	if werr := s.awaitEnding(ctx); werr != nil {
		return errors.Join(err, fmt.Errorf("delete session %s: waiting for its process to end: %w", sessionID, werr))
	}
	if f, ok := s.prov.(provider.Forgetter); ok {
		s.mu.Lock()
		opts := provider.StartOptions{SessionID: s.id, ProviderSessionID: s.providerSessionID, WorkDir: s.cfg.WorkDir, Env: sp.opts.Env}
		s.mu.Unlock()
		if ferr := f.Forget(ctx, opts); ferr != nil {
			err = errors.Join(err, fmt.Errorf("delete session %s: %w", sessionID, ferr))
		}
	}
	if c := sp.opts.Conversations; c != nil {
		if derr := c.Delete(ctx, sessionID); derr != nil {
			err = errors.Join(err, fmt.Errorf("delete session %s: its saved conversation: %w", sessionID, derr))
		}
	}
	return err
}

// ListActiveSessions returns snapshots of every session in the pool.
func (sp *SessionPool) ListActiveSessions() []*Session {
	sp.mu.Lock()
	all := make([]*session, 0, len(sp.sessions))
	for _, s := range sp.sessions {
		all = append(all, s)
	}
	sp.mu.Unlock()
	out := make([]*Session, 0, len(all))
	for _, s := range all {
		out = append(out, s.snapshot())
	}
	return out
}

// Shutdown stops the reaper and ends every session's process tree,
// interrupting running turns. It waits until all are gone.
func (sp *SessionPool) Shutdown() {
	sp.mu.Lock()
	if sp.closed {
		sp.mu.Unlock()
		return
	}
	sp.closed = true
	all := sp.sessions
	sp.sessions = map[string]*session{}
	sp.adm.failAll(ErrEngineClosed)
	sp.mu.Unlock()

	close(sp.stopReaper)
	<-sp.reaperDone
	close(sp.stopSpares)
	<-sp.sparesDone
	sp.mu.Lock()
	for _, sc := range sp.spares.drain() {
		sp.closeSpareLocked(sc)
	}
	sp.mu.Unlock()
	var wg sync.WaitGroup
	for _, s := range all {
		sp.move(s, StatusClosed)
		wg.Go(func() {
			if err := sp.stopProcess(s, StatusClosed); err != nil {
				sp.log.Warn("shutdown: ending session", "session", s.id, "err", err)
			}
		})
	}
	wg.Wait()
	sp.mu.Lock()
	sp.bgClosed = true
	sp.mu.Unlock()
	sp.bg.Wait()
	if sp.spareRoot != "" {
		_ = os.RemoveAll(sp.spareRoot)
	}
}

// reap ends the processes of sessions idle longer than IdleTimeout (busy
// sessions hold their turn slot, so they are never touched) and, when the
// engine is a child subreaper, waits for the orphans agents leave behind.
func (sp *SessionPool) reap() {
	defer close(sp.reaperDone)
	idle := sp.opts.idleTimeout()
	interval := orphanReapInterval
	if idle >= 0 {
		interval = min(max(idle/4, 10*time.Millisecond), interval)
	}
	if sp.opts.ReapInterval > 0 {
		interval = sp.opts.ReapInterval
	}
	if sp.opts.MemoryBudget > 0 {
		interval = min(interval, time.Second)
	}
	if idle < 0 && sp.opts.MemoryBudget <= 0 && !sp.subreaper {
		<-sp.stopReaper // nothing to look for
		return
	}
	// The alarm is re-armed once a round is done, so that rounds never
	// overlap, and a test on a fake clock sees the round it triggered end.
	tick := newAlarm(sp.clock, interval)
	for {
		fired := tick.arm()
		select {
		case <-sp.stopReaper:
			tick.disarm()
			return
		case <-fired:
		}
		if idle >= 0 {
			sp.reapOnce(sp.clock.Now().Add(-idle))
		}
		if sp.opts.MemoryBudget > 0 {
			sp.MeasureRSS()
			sp.kick()
		}
		if sp.subreaper {
			// A background job an agent started re-parents to us when
			// its shell exits; once it ends it is our zombie to wait for.
			if n := proc.ReapOrphans(); n > 0 {
				sp.log.Debug("reaped orphaned processes", "count", n)
			}
		}
	}
}

// orphanReapInterval is how often exited orphans are waited for.
const orphanReapInterval = 5 * time.Second

func (sp *SessionPool) reapOnce(cutoff time.Time) {
	sp.mu.Lock()
	var idle []*session
	for _, s := range sp.sessions {
		if s.idleSince(cutoff) {
			idle = append(idle, s)
		}
	}
	sp.mu.Unlock()
	for _, s := range idle {
		select {
		case s.turn <- struct{}{}:
		default:
			continue // a turn just began
		}
		if s.idleSince(cutoff) {
			sp.log.Info("reaping idle session", "session", s.id)
			if err := sp.stopProcess(s, StatusHibernated); err != nil {
				sp.log.Warn("reaping idle session", "session", s.id, "err", err)
			}
		}
		sp.release(s)
	}
}
