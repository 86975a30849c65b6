package engine

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/provider"
)

// Session is a snapshot of one conversation in the pool, taken when it was
// returned. Its methods read the live session.
type Session struct {
	ID                string        // Internal SDK identifier (provided by the user)
	ProviderSessionID string        // The deterministic UUID (v5) passed to CLI for persistent DB storage
	Config            SessionConfig // Snapshot of the configuration used to initialize the session
	TaskInstructions  string        // Persistent instructions for the session

	CreatedAt  time.Time     // When the session was created
	LastActive time.Time     // When the session last started or finished a turn (used for idle reaping)
	Status     SessionStatus // Where the session is in its life (see SessionStatus)

	IsResuming bool // True if the current process resumed an earlier conversation

	// Owner is the tenant the session belongs to ("" when shared).
	Owner string

	// PID is the CLI process's ID (0 when no process runs).
	PID int
	// Provider names the provider serving the session.
	Provider string

	// CCSessionID is the former name of ProviderSessionID.
	//
	// Deprecated: use ProviderSessionID.
	CCSessionID string

	live *session
}

// Stats returns the session's cumulative statistics.
func (s *Session) Stats() event.SessionStatsData { return s.live.stats.Snapshot() }

// session is the live state behind Session.
type session struct {
	id      string
	owner   string
	prov    provider.Provider
	cfg     SessionConfig
	created time.Time
	stats   *event.SessionStats
	seq     atomic.Uint64

	// turn is a one-slot semaphore: whoever holds it runs the session's
	// turn, starts its process or ends it. A channel rather than a mutex so
	// that waiting honours the caller's context.
	turn chan struct{}

	// clock stamps lastActive.
	clock Clock

	// mu guards what follows. The state changes in moveLocked only.
	mu sync.Mutex
	// providerSessionID is the CLI's conversation ID: derived, or learnt
	// from a claimed spare.
	providerSessionID string
	status            SessionStatus
	lastActive        time.Time
	proc              provider.Process
	// conversation is set when the provider holds a conversation for the
	// session to resume: restored from a record, or begun by a process
	// here. A session without one may claim a spare.
	conversation bool
	// ending, once a hibernation ended the process in the background, is
	// closed when that process is gone; the next start waits for it.
	ending chan struct{}
	// deleted is closed by DeleteSession: the turns waiting for the slot
	// fail instead of running (or re-creating the session).
	deleted chan struct{}
	// interrupt cancels the turn in progress (nil between turns).
	interrupt context.CancelCauseFunc
	// current is the turn holding the slot (nil between turns).
	current *Turn
	// cred is the live process's model credentials (nil without
	// EngineOptions.Credentials), revoked when the process ends.
	cred *credential
	// hold is the live process's right to run (nil without
	// EngineOptions.Ownership), given up when the process ends.
	hold *hold
}

// newSession returns a session in state new, or hibernated when restored
// (its conversation exists and its first start resumes it).
func newSession(id, providerSessionID string, p provider.Provider, cfg SessionConfig, clock Clock, restored bool) *session {
	now := clock.Now()
	initial := StatusNew
	if restored {
		initial = StatusHibernated
	}
	return &session{
		id: id, owner: cfg.Owner, providerSessionID: providerSessionID, prov: p, cfg: cfg, created: now,
		stats: event.NewSessionStats(id, now), turn: make(chan struct{}, 1), deleted: make(chan struct{}),
		clock: clock, status: initial, lastActive: now, conversation: restored,
	}
}

func (s *session) snapshot() *Session {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := &Session{
		ID: s.id, ProviderSessionID: s.providerSessionID, CCSessionID: s.providerSessionID,
		Config: s.cfg, TaskInstructions: s.cfg.TaskInstructions,
		CreatedAt: s.created, LastActive: s.lastActive, Status: s.status,
		Provider: s.prov.Name(), Owner: s.owner, live: s,
	}
	if s.proc != nil {
		info := s.proc.Info()
		out.PID, out.IsResuming = info.PID, info.Resumed
	}
	return out
}

func (s *session) taskInstructions() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cfg.TaskInstructions
}

// moveLocked is the one place a session's state changes (s.mu held):
// the move must be one Transition allows, and it stamps lastActive, which
// orders hibernation and idle reaping. A closed session stays closed
// without complaint: a termination may overtake the start or turn that
// tries to move it, and those check for it where it matters.
func (s *session) moveLocked(st SessionStatus) error {
	if s.status == StatusClosed {
		return nil
	}
	next, err := Transition(s.status, st)
	if err != nil {
		return fmt.Errorf("session %s: %w", s.id, err)
	}
	s.status = next
	s.lastActive = s.clock.Now()
	return nil
}

// closed reports whether the session was terminated, deleted or shut
// down: taken out of the pool for good (s.mu held).
func (s *session) closedLocked() bool { return s.status == StatusClosed }

// awaitEnding waits until the process a hibernation is ending is gone.
func (s *session) awaitEnding(ctx context.Context) error {
	s.mu.Lock()
	ending := s.ending
	s.mu.Unlock()
	if ending == nil {
		return nil
	}
	select {
	case <-ending:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// idleSince reports whether the session has a process and has been idle
// since before t.
func (s *session) idleSince(t time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.proc != nil && s.status == StatusIdle && s.lastActive.Before(t)
}

// hotplexNamespace roots every provider session ID HotPlex derives.
var hotplexNamespace = uuid.NewSHA1(uuid.NameSpaceURL, []byte("https://hotplex.dev/session"))

// ProviderSessionID derives the CLI's conversation ID: UUIDv5 of the
// engine's namespace and the conversation ID, separated by a NUL byte so
// that ("ab","c") and ("a","bc") differ. Stable across restarts, distinct
// across namespaces.
func ProviderSessionID(namespace, conversationID string) string {
	if namespace == "" {
		namespace = "hotplex"
	}
	return uuid.NewSHA1(hotplexNamespace, []byte(namespace+"\x00"+conversationID)).String()
}

// OwnedProviderSessionID derives the CLI's conversation ID of a session
// that belongs to owner and was created with nonce. The nonce is drawn at
// each creation, so a session deleted and created again under the same ID
// never resumes its predecessor's conversation, while the same session
// keeps its ID across restarts. An empty owner and nonce give
// ProviderSessionID.
func OwnedProviderSessionID(namespace, owner, conversationID, nonce string) string {
	if owner == "" && nonce == "" {
		return ProviderSessionID(namespace, conversationID)
	}
	return ProviderSessionID(namespace, owner+"\x00"+conversationID+"\x00"+nonce)
}
