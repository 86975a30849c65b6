// Package store defines how HotPlex persists its state: sessions
// (conversations), the events they produced and the API keys that may use
// them. The Store interface is implemented by store/sqlite and
// store/postgres; store/storetest checks both against what is documented
// here. Stores keep times at least to the microsecond and return them
// in UTC.
package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Errors returned (wrapped) by Store implementations; test with errors.Is.
var (
	// ErrNotFound reports that the session or API key does not exist.
	ErrNotFound = errors.New("store: not found")
	// ErrSeqConflict reports an event whose seq is not greater than the
	// newest stored seq of its session (a duplicate or a step back).
	ErrSeqConflict = errors.New("store: event sequence conflict")
	// ErrInvalid reports input the store refuses to write, such as an empty
	// ID or malformed JSON. Nothing is written when it is returned.
	ErrInvalid = errors.New("store: invalid input")
	// ErrClosed reports a call made after Close.
	ErrClosed = errors.New("store: closed")
	// ErrExists reports a session whose owner already has a live session
	// with the same PublicID.
	ErrExists = errors.New("store: session exists")
	// ErrUnavailable reports a store that could not be reached (its
	// database server down or restarting, the connection lost): the call
	// did nothing the caller can count on, and may succeed if retried
	// later.
	ErrUnavailable = errors.New("store: unavailable")
)

// Session statuses with a meaning to the store; other values are stored as given.
const (
	// StatusDeleted marks a session hidden from ListSessions but kept.
	StatusDeleted = "deleted"
)

// Session is a conversation as the daemon knows it.
type Session struct {
	// ID is the daemon-wide key of the session: the engine, the events
	// and the hub know it by this. Sessions made by the daemon have
	// "<PublicID>~<Nonce>".
	ID string
	// PublicID is the ID the owner gave the session, unique among the
	// owner's live sessions (empty: the same as ID).
	PublicID string
	// Nonce is drawn at each creation; the provider session ID is derived
	// from it, so a re-created ID starts a new conversation.
	Nonce             string
	Owner             string          // ID of the API key that created it ("" = admin/SDK)
	Provider          string          // "claude", ...
	ProviderSessionID string          // the CLI's conversation UUID
	WorkDir           string          // working directory of the agent
	Options           json.RawMessage // provider/session options as JSON (task instructions, model...)
	Status            string          // last known status: an engine.SessionStatus word ("new", "idle", ...)
	Title             string          // human-readable title
	CreatedAt         time.Time       // when the session was first stored
	UpdatedAt         time.Time       // when the session last changed
	LastSeq           uint64          // seq of the newest stored event
	Stats             json.RawMessage // the latest event.SessionStatsData as JSON (may be nil)
}

// Event is one stored event of a session, in the form the API serves it.
type Event struct {
	SessionID string          // session the event belongs to
	Seq       uint64          // per-session, strictly increasing, starts at 1
	Type      string          // event type ("answer", "tool_use", ...)
	Data      json.RawMessage // the event's JSON (an *event.EventWithMeta marshalled)
	Time      time.Time       // when the event was produced
}

// APIKey is a stored API key; only its hash is kept.
type APIKey struct {
	ID        string     // public identifier (also the session Owner)
	Name      string     // human-readable label
	Hash      []byte     // SHA-256 of the secret (see HashKey)
	Admin     bool       // whether the key may act on every session
	CreatedAt time.Time  // when the key was stored
	RevokedAt *time.Time // when the key was revoked; nil while it is valid
	ExpiresAt *time.Time // when the key stops being valid; nil: never
}

// Valid reports whether the key may be used at now: neither revoked nor
// expired.
func (k APIKey) Valid(now time.Time) bool {
	return k.RevokedAt == nil && (k.ExpiresAt == nil || now.Before(*k.ExpiresAt))
}

// Store persists sessions, their events and API keys. Implementations are
// safe for concurrent use.
type Store interface {
	// PutSession inserts or updates (by ID) a session; inserting one whose
	// owner has another live session with the same PublicID fails with
	// ErrExists. An empty PublicID means the ID. CreatedAt and
	// UpdatedAt default to now when zero; CreatedAt of an existing session is
	// kept. LastSeq is managed by AppendEvents: on update the caller's value
	// is ignored unless it is larger than the stored one.
	PutSession(ctx context.Context, s Session) error
	// GetSession returns the session with the given ID, or ErrNotFound.
	GetSession(ctx context.Context, id string) (Session, error)
	// FindSession returns owner's live (not "deleted") session whose
	// PublicID is publicID, or ErrNotFound.
	FindSession(ctx context.Context, owner, publicID string) (Session, error)
	// ListSessions returns the sessions of owner ("" lists all), newest
	// UpdatedAt first, excluding those with Status "deleted".
	ListSessions(ctx context.Context, owner string) ([]Session, error)
	// DeleteSession removes the session and its events; ErrNotFound if absent.
	DeleteSession(ctx context.Context, id string) error
	// AppendEvents stores events atomically (one transaction). A seq not
	// greater than its session's LastSeq (or than the previous event of the
	// same session in the batch) fails the whole call with ErrSeqConflict;
	// an unknown session fails it with ErrNotFound. On success the
	// sessions' LastSeq and UpdatedAt are updated, and the "stats" member
	// of a session's newest "session_stats" event in the batch becomes its
	// Stats (in the same transaction, so the two never disagree).
	AppendEvents(ctx context.Context, events ...Event) error
	// Events returns the events of a session with seq > afterSeq in
	// ascending order, at most limit of them (limit <= 0 means all).
	// ErrNotFound if the session does not exist.
	Events(ctx context.Context, sessionID string, afterSeq uint64, limit int) ([]Event, error)
	// PutAPIKey inserts or updates (by ID) an API key. A revoked key stays
	// revoked.
	PutAPIKey(ctx context.Context, k APIKey) error
	// APIKeyByHash returns the unrevoked, unexpired key with the given
	// hash, or ErrNotFound.
	APIKeyByHash(ctx context.Context, hash []byte) (APIKey, error)
	// ListAPIKeys returns every key, revoked ones included, oldest first.
	ListAPIKeys(ctx context.Context) ([]APIKey, error)
	// RevokeAPIKey marks a key revoked; ErrNotFound if absent. Revoking a
	// revoked key keeps its original revocation time.
	RevokeAPIKey(ctx context.Context, id string) error
	// Close releases the store. It is idempotent; later calls of other
	// methods return ErrClosed.
	Close() error
}

// ModelUsage is what the model gateway metered of one session's calls to
// one model. SessionID "" holds the spend of the owner's sessions since
// deleted: the money was spent, so it still counts toward the key's budget.
type ModelUsage struct {
	SessionID        string
	Owner            string // ID of the API key ("" = admin/SDK)
	Model            string // "" for calls refused before a model was named
	Requests         int64
	InputTokens      int64
	OutputTokens     int64
	CacheReadTokens  int64
	CacheWriteTokens int64
	CostUSD          float64
	Unmetered        int64
	Rejected         int64
}

// UsageStore keeps the model gateway's metered totals across restarts.
// Deleting a session (Store.DeleteSession) folds its rows into its owner's
// SessionID "" row.
type UsageStore interface {
	// AddModelUsage adds each delta to the stored totals of its
	// (SessionID, Owner, Model), atomically.
	AddModelUsage(ctx context.Context, deltas []ModelUsage) error
	// ModelUsage returns every stored total.
	ModelUsage(ctx context.Context) ([]ModelUsage, error)
}

// Pinger is a store that can tell cheaply whether it answers, for
// readiness probes.
type Pinger interface {
	// Ping returns nil when the store answers; an unreachable database
	// server is ErrUnavailable.
	Ping(ctx context.Context) error
}

// Locality says where a store keeps its data.
type Locality interface {
	// Local reports whether the store is files of this process's own
	// (SQLite), which cannot become unreachable while it runs, rather
	// than a database server that can go down while the daemon runs on
	// (PostgreSQL).
	Local() bool
}

// IsLocal reports whether st keeps its data in this process's own files
// (see Locality); a store that does not say is not.
func IsLocal(st Store) bool {
	l, ok := st.(Locality)
	return ok && l.Local()
}

// Database is a store a daemon runs on: sessions, events and keys, the
// model gateway's spend, the keys' webhooks, the sessions' queued
// prompts, a readiness check, and where it keeps them.
// store/sqlite (one node) and store/postgres (shared by several)
// implement it.
type Database interface {
	Store
	UsageStore
	HookStore
	QueueStore
	Pinger
	Locality
}

// Ping checks that st answers: with its Ping when it is a Pinger, else
// with a cheap read.
func Ping(ctx context.Context, st Store) error {
	if p, ok := st.(Pinger); ok {
		return p.Ping(ctx)
	}
	_, err := st.ListAPIKeys(ctx)
	return err
}

// Hook is a webhook an API key registered: where its events are sent and
// the secret they are signed with. The secret is kept as given, since
// every delivery is signed with it; it is shown to the key once, when the
// hook is made.
type Hook struct {
	ID    string // public identifier ("hook_..."), unique in the store
	Owner string // ID of the API key the hook belongs to ("" = admin/SDK)
	URL   string // an http(s) URL
	// Secret is the signing secret in Standard Webhooks form
	// ("whsec_" and base64).
	Secret string
	// Events are the event types sent ("turn.finished", ...); empty
	// means every type.
	Events      []string
	Description string
	// Config is true for hooks that come from the daemon's configuration
	// file: they are put back at every start.
	Config    bool
	CreatedAt time.Time // when the hook was first stored
}

// HookStore keeps API keys' webhooks.
type HookStore interface {
	// PutHook inserts or updates (by ID) a hook. A hook without ID, URL
	// or secret is ErrInvalid, and so is one whose ID another owner's
	// hook has. CreatedAt defaults to now and is kept on update.
	PutHook(ctx context.Context, h Hook) error
	// Hooks returns the hooks of owner, oldest first.
	Hooks(ctx context.Context, owner string) ([]Hook, error)
	// DeleteHook removes owner's hook id; ErrNotFound if owner has no
	// such hook (another owner's hook is not found either).
	DeleteHook(ctx context.Context, owner, id string) error
}

// Validate reports, wrapping ErrInvalid, what makes h unfit to store.
func (h Hook) Validate() error {
	switch {
	case h.ID == "":
		return fmt.Errorf("%w: empty hook ID", ErrInvalid)
	case h.URL == "":
		return fmt.Errorf("%w: hook %q has no URL", ErrInvalid, h.ID)
	case h.Secret == "":
		return fmt.Errorf("%w: hook %q has no secret", ErrInvalid, h.ID)
	}
	return nil
}

// QueuedPrompt is a prompt waiting for its session's next turn, kept so
// that a daemon restart does not lose it.
type QueuedPrompt struct {
	// ID is given by the store and grows with each prompt queued: the
	// queue's order.
	ID        int64
	SessionID string
	Prompt    string
	// TaskSystemPrompt is prepended to this prompt's turn only.
	TaskSystemPrompt string
	CreatedAt        time.Time
}

// QueueStore keeps the prompts sessions are to run after their running
// turn. Deleting a session (Store.DeleteSession) drops its queue.
type QueueStore interface {
	// EnqueuePrompt appends p to its session's queue and returns it with
	// its ID and CreatedAt set, and its position in the queue (1 is
	// next). An unknown session is ErrNotFound, an empty prompt
	// ErrInvalid.
	EnqueuePrompt(ctx context.Context, p QueuedPrompt) (QueuedPrompt, int, error)
	// QueuedPrompts returns the queue of sessionID, first to run first;
	// "" returns every session's, each session's in its order.
	QueuedPrompts(ctx context.Context, sessionID string) ([]QueuedPrompt, error)
	// DequeuePrompt removes the prompt id, once its turn started;
	// ErrNotFound if it is not queued (any more).
	DequeuePrompt(ctx context.Context, id int64) error
	// DropQueuedPrompts empties the queue of sessionID and returns how
	// many prompts it held.
	DropQueuedPrompts(ctx context.Context, sessionID string) (int, error)
}
