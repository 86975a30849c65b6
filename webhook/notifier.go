// Package webhook tells API keys what their sessions did, by HTTP POST to
// the URLs they registered: a tool use waiting for a person, a turn that
// finished or failed, a firewall block, a hibernated session, a spent
// budget. Deliveries are signed in the Standard Webhooks format, retried
// with exponential backoff and jitter, and logged per hook; they never
// hold up a turn: the Notifier takes events from the engine's stream
// without waiting, and each hook has a bounded queue that drops its
// oldest delivery when full.
package webhook

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/store"
)

// Errors of the hook API; test with errors.Is.
var (
	// ErrNotFound reports a hook the key does not have.
	ErrNotFound = errors.New("webhook: no such hook")
	// ErrInvalid reports a hook that cannot be made as asked.
	ErrInvalid = errors.New("webhook: invalid hook")
)

// Sessions finds a session's owner and public ID (a store.Store does).
type Sessions interface {
	GetSession(ctx context.Context, id string) (store.Session, error)
}

// Retry is how deliveries are retried. The zero value is the production
// schedule: 5 attempts, waits of about 4, 8, 16 and 32 seconds between
// them (a minute in all), 10 seconds per attempt.
type Retry struct {
	// Attempts bounds the tries of one delivery (default 5).
	Attempts int
	// Base is the wait after the first failure; each next wait doubles,
	// up to Max (defaults 4s and 1m). A wait is drawn between half and
	// all of its value, so receivers that failed together are not all
	// retried at once.
	Base, Max time.Duration
	// Timeout bounds one attempt, connection included (default 10s).
	Timeout time.Duration
}

func (r Retry) orDefaults() Retry {
	if r.Attempts <= 0 {
		r.Attempts = 5
	}
	if r.Base <= 0 {
		r.Base = 4 * time.Second
	}
	if r.Max <= 0 {
		r.Max = time.Minute
	}
	if r.Timeout <= 0 {
		r.Timeout = 10 * time.Second
	}
	return r
}

// Options configure a Notifier.
type Options struct {
	// Store keeps the hooks; Sessions resolves the sessions events name.
	Store    store.HookStore
	Sessions Sessions
	// NeedsPerson says whether a permission request waits for a person
	// (server.Approvals knows); nil: every permission request does.
	NeedsPerson func(sessionID, requestID string) bool
	Logger      *slog.Logger
	Retry       Retry
	// QueueSize bounds each hook's pending deliveries (default 256);
	// LogSize the attempts its delivery log keeps (default 50).
	QueueSize, LogSize int
	// Client sends the deliveries (nil: one that refuses forbidden
	// addresses; see CheckURL).
	Client *http.Client
}

// intakeSize bounds the events waiting to be matched with hooks.
const intakeSize = 1024

// Notifier delivers events to hooks. Publish, Hibernated and
// BudgetExceeded never block; Close ends every goroutine it started. A
// nil Notifier takes events and does nothing with them.
type Notifier struct {
	opts   Options
	log    *slog.Logger
	client *http.Client
	intake chan occurrence
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	closed atomic.Bool
	// lost counts events dropped because the intake was full.
	lost atomic.Int64

	mu    sync.Mutex
	hooks map[string]*hookQueue // by hook ID, made at first delivery

	// What route read of the store lately, so that a turn's events do
	// not read it each (route's goroutine alone uses them): the owner
	// and public ID of sessions, which never change, and each owner's
	// hooks for hookTTL, or until this notifier changed hooks (changed
	// counts its changes; a hook made on another node of a cluster is
	// seen within hookTTL).
	known   map[string]sessionRef
	owners  map[string]ownerHooks
	changed atomic.Uint64
}

type sessionRef struct{ owner, publicID string }

type ownerHooks struct {
	hooks []store.Hook
	at    time.Time
	gen   uint64
}

// hookTTL is how long route trusts the hooks it read; knownMax bounds
// each of its memories (past it, they are forgotten all at once).
const (
	hookTTL  = time.Second
	knownMax = 10000
)

// New starts a notifier.
func New(opts Options) *Notifier {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.QueueSize <= 0 {
		opts.QueueSize = 256
	}
	if opts.LogSize <= 0 {
		opts.LogSize = 50
	}
	opts.Retry = opts.Retry.orDefaults()
	n := &Notifier{opts: opts, log: opts.Logger.With("component", "webhooks"), client: opts.Client,
		intake: make(chan occurrence, intakeSize), hooks: map[string]*hookQueue{},
		known: map[string]sessionRef{}, owners: map[string]ownerHooks{}}
	if n.client == nil {
		n.client = newClient()
	}
	n.ctx, n.cancel = context.WithCancel(context.Background())
	n.wg.Go(n.dispatch)
	return n
}

// Close stops the notifier: deliveries in flight are abandoned, pending
// ones dropped, and every goroutine has ended when it returns.
func (n *Notifier) Close() {
	if n == nil || n.closed.Swap(true) {
		return
	}
	n.cancel()
	n.wg.Wait()
	// Kept-alive connections to receivers have goroutines of their own.
	n.client.CloseIdleConnections()
}

// Publish takes one engine event; it makes the Notifier an
// engine.EventSink.
func (n *Notifier) Publish(ev *event.EventWithMeta) {
	if n == nil {
		return
	}
	if o, ok := classify(ev, n.opts.NeedsPerson); ok {
		n.take(o)
	}
}

// Hibernated notes that a session's process ended to free room.
func (n *Notifier) Hibernated(sessionID string) {
	n.take(occurrence{typ: SessionHibernated, sessionID: sessionID, at: time.Now()})
}

// BudgetExceeded notes that a session or its key (scope "session" or
// "key") spent its model budget.
func (n *Notifier) BudgetExceeded(sessionID, owner, scope string, spentUSD, budgetUSD float64) {
	n.take(occurrence{typ: BudgetExceeded, sessionID: sessionID, owner: owner, at: time.Now(),
		data: Data{Budget: &Budget{Scope: scope, SpentUSD: spentUSD, BudgetUSD: budgetUSD}}})
}

// take queues o for dispatch without waiting.
func (n *Notifier) take(o occurrence) {
	if n == nil || n.closed.Load() {
		return
	}
	select {
	case n.intake <- o:
	default:
		lost := n.lost.Add(1)
		n.log.Warn("webhook event dropped: too many events waiting for dispatch", "type", o.typ, "session", o.sessionID, "dropped_total", lost)
	}
}

// dispatch matches events with their owners' hooks, in the order they
// came, and queues a delivery for each hook that wants them.
func (n *Notifier) dispatch() {
	for {
		select {
		case <-n.ctx.Done():
			return
		case o := <-n.intake:
			n.route(o)
		}
	}
}

func (n *Notifier) route(o occurrence) {
	ctx := n.ctx
	if ref, ok := n.known[o.sessionID]; ok && o.sessionID != "" {
		o.owner, o.data.SessionID = ref.owner, ref.publicID
	} else if o.sessionID != "" && n.opts.Sessions != nil {
		s, err := n.opts.Sessions.GetSession(ctx, o.sessionID)
		switch {
		case err == nil:
			o.owner = s.Owner
			o.data.SessionID = s.PublicID
			if o.data.SessionID == "" {
				o.data.SessionID = s.ID
			}
			if len(n.known) >= knownMax {
				clear(n.known)
			}
			n.known[o.sessionID] = sessionRef{owner: o.owner, publicID: o.data.SessionID}
		case errors.Is(err, store.ErrNotFound) && o.owner != "":
			o.data.SessionID = o.sessionID
		case errors.Is(err, store.ErrNotFound):
			return // a session the daemon does not keep (the SDK's): no owner, no hooks
		default:
			n.log.Warn("webhook event dropped: cannot read its session", "type", o.typ, "session", o.sessionID, "err", err)
			return
		}
	}
	o.data.Owner = o.owner
	hooks, err := n.hooksOf(ctx, o.owner)
	if err != nil {
		if ctx.Err() == nil {
			n.log.Warn("webhook event dropped: cannot read the hooks", "type", o.typ, "owner", o.owner, "err", err)
		}
		return
	}
	var body []byte
	id := "msg_" + randomHex(12)
	for _, h := range hooks {
		if !wants(h, o.typ) {
			continue
		}
		if body == nil {
			if body, err = json.Marshal(Event{Type: o.typ, Timestamp: o.at.UTC(), Data: o.data}); err != nil {
				n.log.Error("webhook event dropped: cannot encode it", "type", o.typ, "err", err)
				return
			}
		}
		n.queue(h).push(n, delivery{id: id, typ: o.typ, body: body, url: h.URL, secret: h.Secret})
	}
}

// hooksOf returns owner's hooks, from memory when read lately.
func (n *Notifier) hooksOf(ctx context.Context, owner string) ([]store.Hook, error) {
	gen := n.changed.Load()
	if c, ok := n.owners[owner]; ok && c.gen == gen && time.Since(c.at) < hookTTL {
		return c.hooks, nil
	}
	hooks, err := n.opts.Store.Hooks(ctx, owner)
	if err != nil {
		return nil, err
	}
	if len(n.owners) >= knownMax {
		clear(n.owners)
	}
	n.owners[owner] = ownerHooks{hooks: hooks, at: time.Now(), gen: gen}
	return hooks, nil
}

func wants(h store.Hook, typ string) bool {
	if len(h.Events) == 0 {
		return true
	}
	for _, t := range h.Events {
		if t == typ {
			return true
		}
	}
	return false
}

// queue returns hook h's queue, made on first use.
func (n *Notifier) queue(h store.Hook) *hookQueue {
	n.mu.Lock()
	defer n.mu.Unlock()
	q := n.hooks[h.ID]
	if q == nil {
		q = &hookQueue{id: h.ID, owner: h.Owner}
		n.hooks[h.ID] = q
	}
	return q
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// Hook is a hook as its key sees it. Secret is set only in the answer
// that made the hook.
type Hook struct {
	ID          string    `json:"id"`
	URL         string    `json:"url"`
	Events      []string  `json:"events"`
	Description string    `json:"description,omitempty"`
	Config      bool      `json:"config,omitempty"`
	CreatedAt   time.Time `json:"created_at"`
	Secret      string    `json:"secret,omitempty"`
}

func view(h store.Hook) Hook {
	ev := h.Events
	if ev == nil {
		ev = []string{}
	}
	return Hook{ID: h.ID, URL: h.URL, Events: ev, Description: h.Description, Config: h.Config, CreatedAt: h.CreatedAt}
}

// Spec is a hook to make: where, which events (none: all) and, for hooks
// from the configuration file, the secret (none: a new one).
type Spec struct {
	URL         string   `yaml:"url" json:"url"`
	Events      []string `yaml:"events" json:"events,omitempty"`
	Description string   `yaml:"description" json:"description,omitempty"`
	Secret      string   `yaml:"secret" json:"-"`
}

// Check reports what makes s unfit for a hook.
func (s Spec) Check() error {
	if err := CheckURL(s.URL); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	if err := checkTypes(s.Events); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	if s.Secret != "" {
		if err := CheckSecret(s.Secret); err != nil {
			return fmt.Errorf("%w: %w", ErrInvalid, err)
		}
	}
	return nil
}

// Create makes a hook of owner's and returns it with its secret, which is
// shown this once.
func (n *Notifier) Create(ctx context.Context, owner string, s Spec) (Hook, error) {
	if err := s.Check(); err != nil {
		return Hook{}, err
	}
	if s.Secret == "" {
		s.Secret = NewSecret()
	}
	h := store.Hook{ID: "hook_" + randomHex(10), Owner: owner, URL: s.URL, Secret: s.Secret, Events: s.Events,
		Description: s.Description, CreatedAt: time.Now().UTC()}
	if err := n.opts.Store.PutHook(ctx, h); err != nil {
		return Hook{}, err
	}
	n.changed.Add(1)
	v := view(h)
	v.Secret = h.Secret
	return v, nil
}

// Configure makes owner's hooks from the configuration file what specs
// say: each is put under an ID derived from its URL (so a restart keeps
// its delivery log's ID), and configured hooks no longer listed go.
// Hooks made through the API are left alone.
func (n *Notifier) Configure(ctx context.Context, owner string, specs []Spec) error {
	keep := map[string]bool{}
	for i, s := range specs {
		if s.Secret == "" {
			return fmt.Errorf("%w: hook %d of key %s (%s) needs a secret in the configuration", ErrInvalid, i+1, owner, s.URL)
		}
		if err := s.Check(); err != nil {
			return fmt.Errorf("hook %d of key %s: %w", i+1, owner, err)
		}
		id := configID(owner, s.URL)
		keep[id] = true
		h := store.Hook{ID: id, Owner: owner, URL: s.URL, Secret: s.Secret, Events: s.Events, Description: s.Description, Config: true}
		if err := n.opts.Store.PutHook(ctx, h); err != nil {
			return fmt.Errorf("hook %d of key %s: %w", i+1, owner, err)
		}
		n.changed.Add(1)
	}
	hooks, err := n.opts.Store.Hooks(ctx, owner)
	if err != nil {
		return err
	}
	for _, h := range hooks {
		if h.Config && !keep[h.ID] {
			if err := n.Delete(ctx, owner, h.ID); err != nil && !errors.Is(err, ErrNotFound) {
				return err
			}
		}
	}
	return nil
}

// List returns owner's hooks, oldest first, without their secrets.
func (n *Notifier) List(ctx context.Context, owner string) ([]Hook, error) {
	hooks, err := n.opts.Store.Hooks(ctx, owner)
	if err != nil {
		return nil, err
	}
	out := make([]Hook, 0, len(hooks))
	for _, h := range hooks {
		out = append(out, view(h))
	}
	return out, nil
}

// Delete removes owner's hook id; its pending deliveries are dropped.
func (n *Notifier) Delete(ctx context.Context, owner, id string) error {
	if err := n.opts.Store.DeleteHook(ctx, owner, id); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("%w: %s", ErrNotFound, id)
		}
		return err
	}
	n.changed.Add(1)
	n.mu.Lock()
	q := n.hooks[id]
	delete(n.hooks, id)
	n.mu.Unlock()
	if q != nil {
		q.clear()
	}
	return nil
}

// Deliveries returns the delivery log of owner's hook id.
func (n *Notifier) Deliveries(ctx context.Context, owner, id string) (Log, error) {
	hooks, err := n.opts.Store.Hooks(ctx, owner)
	if err != nil {
		return Log{}, err
	}
	found := false
	for _, h := range hooks {
		found = found || h.ID == id
	}
	if !found {
		return Log{}, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	n.mu.Lock()
	q := n.hooks[id]
	n.mu.Unlock()
	if q == nil {
		return Log{Attempts: []Attempt{}}, nil
	}
	return q.snapshot(), nil
}
