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

	mu sync.Mutex
	// providerSessionID is the CLI's conversation ID: derived, or learnt
	// from a claimed spare.
	providerSessionID string
	status            SessionStatus
	lastActive        time.Time
	proc              provider.Process
	resuming          bool
	removed           bool // taken out of the pool; holders of turn must look up again
	// deleted is closed by DeleteSession: the turns waiting for the slot
	// fail instead of running (or re-creating the session).
	deleted chan struct{}
	// interrupt cancels the turn in progress (nil between turns).
	interrupt context.CancelCauseFunc
	// cred is the live process's model credentials (nil without
	// EngineOptions.Credentials), revoked when the process ends.
	cred *credential
	// restored marks a session recreated from a saved record: its
	// conversation exists, so the first start resumes it.
	restored bool
	// started is set once a process served the session: its conversation
	// exists, so it cannot claim a spare.
	started bool
	// hibernating is set while the session's process is being ended to
	// make room; its turn slot is held meanwhile, though no turn runs.
	hibernating bool

	// Guarded by the pool's mu: resident is set while the session holds a
	// residency slot (a live process, or a start under way); rss is its
	// process tree's last measured size.
	resident bool
	rss      int64
}

func newSession(id, providerSessionID string, p provider.Provider, cfg SessionConfig, now time.Time) *session {
	return &session{
		id: id, owner: cfg.Owner, providerSessionID: providerSessionID, prov: p, cfg: cfg, created: now,
		stats: event.NewSessionStats(id, now), turn: make(chan struct{}, 1), deleted: make(chan struct{}),
		status: StatusNew, lastActive: now,
	}
}

func (s *session) snapshot() *Session {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := &Session{
		ID: s.id, ProviderSessionID: s.providerSessionID, CCSessionID: s.providerSessionID,
		Config: s.cfg, TaskInstructions: s.cfg.TaskInstructions,
		CreatedAt: s.created, LastActive: s.lastActive, Status: s.status,
		IsResuming: s.resuming, Provider: s.prov.Name(), Owner: s.owner, live: s,
	}
	if s.proc != nil {
		out.PID = s.proc.Info().PID
	}
	return out
}

func (s *session) taskInstructions() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cfg.TaskInstructions
}

// setStatus moves the session to st, if the lifecycle allows it.
func (s *session) setStatus(st SessionStatus) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.moveLocked(st)
}

// moveLocked is setStatus with s.mu held.
func (s *session) moveLocked(st SessionStatus) error {
	next, err := Transition(s.status, st)
	if err != nil {
		return fmt.Errorf("session %s: %w", s.id, err)
	}
	s.status = next
	s.lastActive = time.Now()
	return nil
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
