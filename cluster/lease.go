package cluster

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

var (
	// ErrHeld is what Acquire's *HeldError matches: someone holds a live
	// lease on the session.
	ErrHeld = errors.New("session is held by another lease")
	// ErrNotOwned answers Owner for a session nobody holds.
	ErrNotOwned = errors.New("session has no owner")
	// ErrLost is what Lease.Err and Release report once a lease was taken
	// over, expired, or could not be renewed for a whole TTL.
	ErrLost = errors.New("lease lost")
	// ErrClosed answers Acquire after Leases.Close.
	ErrClosed = errors.New("leases closed")
)

// Owner is who holds a session's lease.
type Owner struct {
	// Node is the holder's node ID.
	Node string
	// Token is the holder's fencing token.
	Token uint64
	// Expires is when the server frees the lease unless it is renewed
	// first, on the NATS server's clock.
	Expires time.Time
}

// HeldError is Acquire's answer when the session has a live owner.
type HeldError struct {
	SessionID string
	Owner     Owner
}

func (e *HeldError) Error() string {
	if e.Owner.Node == "" {
		return fmt.Sprintf("session %q is held by an unreadable owner record (token %d)", e.SessionID, e.Owner.Token)
	}
	return fmt.Sprintf("session %q is held by node %q (token %d)", e.SessionID, e.Owner.Node, e.Owner.Token)
}

// Is makes errors.Is(err, ErrHeld) true.
func (e *HeldError) Is(target error) bool { return target == ErrHeld }

// LeaseOptions configures a node's Leases.
type LeaseOptions struct {
	// NodeID names this node in the owner records it writes; required.
	NodeID string
	// RenewEvery is the heartbeat period; zero means a third of the TTL,
	// so two renewals can fail before the lease is at risk. After a
	// failed renewal the next try comes after a quarter of it.
	RenewEvery time.Duration
	// Clock is the local time of heartbeats; nil means the system clock.
	Clock Clock
	// Logger receives lost leases and failed renewals; nil discards them.
	Logger *slog.Logger
}

// Leases takes, renews and gives up this node's session leases in the
// owners bucket (see OwnersBucket). It is safe for concurrent use.
type Leases struct {
	kv         jetstream.KeyValue
	node       string
	ttl        time.Duration
	renewEvery time.Duration
	retryEvery time.Duration
	clock      Clock
	log        *slog.Logger

	mu     sync.Mutex
	held   map[*Lease]struct{}
	closed bool
	wg     sync.WaitGroup // one per heartbeat
}

// NewLeases returns the leases of node o.NodeID in kv, whose TTL (read
// from the bucket) is the lease TTL.
func NewLeases(ctx context.Context, kv jetstream.KeyValue, o LeaseOptions) (*Leases, error) {
	if o.NodeID == "" {
		return nil, errors.New("cluster: leases need a node ID")
	}
	st, err := kv.Status(ctx)
	if err != nil {
		return nil, fmt.Errorf("cluster: owners bucket: %w", err)
	}
	ttl := st.TTL()
	if ttl <= 0 {
		return nil, fmt.Errorf("cluster: owners bucket %s has no TTL, so a dead node's leases would never expire", st.Bucket())
	}
	renew := o.RenewEvery
	if renew == 0 {
		renew = ttl / 3
	}
	if renew <= 0 || renew >= ttl {
		return nil, fmt.Errorf("cluster: renewing every %s does not keep a %s lease", renew, ttl)
	}
	clock := o.Clock
	if clock == nil {
		clock = systemClock{}
	}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Leases{
		kv:         kv,
		node:       o.NodeID,
		ttl:        ttl,
		renewEvery: renew,
		retryEvery: renew / 4,
		clock:      clock,
		log:        log.With("node", o.NodeID),
		held:       make(map[*Lease]struct{}),
	}, nil
}

// TTL is how long a lease outlives its last renewal.
func (ls *Leases) TTL() time.Duration { return ls.ttl }

// Held is how many leases this node holds now.
func (ls *Leases) Held() int {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	return len(ls.held)
}

// record is an owner entry's value. Lease tells this holder's renewals
// apart from any other lease of the same node (one taken before a
// restart); Token is absent from the first write, whose revision it is.
type record struct {
	Node  string `json:"node"`
	Lease string `json:"lease"`
	Token uint64 `json:"token,omitempty"`
}

// Acquire takes the session's lease for this node if nobody holds a live
// one, and renews it until Release. When someone does, the error is a
// *HeldError naming them.
func (ls *Leases) Acquire(ctx context.Context, sessionID string) (*Lease, error) {
	key, err := ownerKey(sessionID)
	if err != nil {
		return nil, err
	}
	ls.mu.Lock()
	closed := ls.closed
	ls.mu.Unlock()
	if closed {
		return nil, ErrClosed
	}
	nonce := rand.Text()
	value, err := json.Marshal(record{Node: ls.node, Lease: nonce})
	if err != nil {
		return nil, err
	}
	// A key freed between the failed Create and the Get that looks for
	// its holder is worth another try; a few, since each means the owner
	// is changing right now.
	for range 3 {
		sent := ls.clock.Now()
		// Create is a compare-and-set: it writes only if the key has no
		// live value, and over a delete marker only at the marker's
		// revision, so two racing nodes cannot both succeed.
		rev, err := ls.kv.Create(ctx, key, value)
		if err == nil {
			return ls.start(sessionID, key, nonce, rev, sent)
		}
		if !isConflict(err) {
			return nil, fmt.Errorf("cluster: acquire session %q: %w", sessionID, err)
		}
		e, err := ls.kv.Get(ctx, key)
		if errors.Is(err, jetstream.ErrKeyNotFound) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("cluster: acquire session %q: %w", sessionID, err)
		}
		return nil, &HeldError{SessionID: sessionID, Owner: ls.ownerOf(e)}
	}
	return nil, fmt.Errorf("cluster: acquire session %q: %w: its owner keeps changing", sessionID, ErrHeld)
}

// start registers a lease just created at rev and starts its heartbeat.
func (ls *Leases) start(sessionID, key, nonce string, rev uint64, sent time.Time) (*Lease, error) {
	value, err := json.Marshal(record{Node: ls.node, Lease: nonce, Token: rev})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	l := &Lease{
		ls:       ls,
		session:  sessionID,
		key:      key,
		nonce:    nonce,
		value:    value,
		token:    rev,
		ctx:      ctx,
		stop:     cancel,
		done:     make(chan struct{}),
		lost:     make(chan struct{}),
		rev:      rev,
		deadline: sent.Add(ls.ttl),
		next:     sent.Add(ls.renewEvery),
	}
	ls.mu.Lock()
	if ls.closed {
		ls.mu.Unlock()
		cancel()
		close(l.done)
		// Closed while the Create was under way: give the lease back
		// rather than leave it to expire.
		_ = l.delete(context.Background())
		return nil, ErrClosed
	}
	ls.held[l] = struct{}{}
	ls.wg.Add(1)
	ls.mu.Unlock()
	go l.heartbeat()
	return l, nil
}

// Owner reads who holds the session's lease; ErrNotOwned if nobody does.
func (ls *Leases) Owner(ctx context.Context, sessionID string) (Owner, error) {
	key, err := ownerKey(sessionID)
	if err != nil {
		return Owner{}, err
	}
	e, err := ls.kv.Get(ctx, key)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return Owner{}, ErrNotOwned
	}
	if err != nil {
		return Owner{}, fmt.Errorf("cluster: owner of session %q: %w", sessionID, err)
	}
	return ls.ownerOf(e), nil
}

// ownerOf reads an owner entry. A value that is not a record (written by
// something else) still means the key is taken: it comes back with no
// node.
func (ls *Leases) ownerOf(e jetstream.KeyValueEntry) Owner {
	var r record
	_ = json.Unmarshal(e.Value(), &r)
	token := r.Token
	if token == 0 {
		token = e.Revision()
	}
	return Owner{Node: r.Node, Token: token, Expires: e.Created().Add(ls.ttl)}
}

// Close releases every lease this node still holds, as a draining node
// does, and waits for their heartbeats to end. Acquire fails afterwards.
// Leases already lost are not errors here.
func (ls *Leases) Close(ctx context.Context) error {
	ls.mu.Lock()
	ls.closed = true
	held := make([]*Lease, 0, len(ls.held))
	for l := range ls.held {
		held = append(held, l)
	}
	ls.mu.Unlock()
	var errs []error
	for _, l := range held {
		if err := l.Release(ctx); err != nil && !errors.Is(err, ErrLost) {
			errs = append(errs, err)
		}
	}
	ls.wg.Wait()
	return errors.Join(errs...)
}

func (ls *Leases) forget(l *Lease) {
	ls.mu.Lock()
	delete(ls.held, l)
	ls.mu.Unlock()
}

// isConflict tells a compare-and-set that lost (the revision was not the
// expected one) from a failure to reach the server. A replicated stream
// reports it with another code than a single one.
func isConflict(err error) bool {
	if errors.Is(err, jetstream.ErrKeyExists) || errors.Is(err, jetstream.ErrKeyRevisionMismatch) {
		return true
	}
	var apiErr *jetstream.APIError
	return errors.As(err, &apiErr) &&
		(apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence ||
			apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequenceConstant)
}

// Lease is this node's hold on one session, renewed in the background
// until Release or until it is lost.
type Lease struct {
	ls      *Leases
	session string
	key     string
	nonce   string
	value   []byte // the record every renewal writes
	token   uint64

	ctx  context.Context // cancelled by stop: Release, Close
	stop context.CancelFunc
	done chan struct{} // closed when the heartbeat has returned
	lost chan struct{}

	// Owned by the heartbeat while it runs, then by Release.
	rev      uint64    // the revision this lease last wrote
	deadline time.Time // local time by which the server cannot have freed it
	next     time.Time // next renewal, local time

	releaseOnce sync.Once
	releaseErr  error

	mu  sync.Mutex
	err error // why the lease was lost
}

// SessionID is the session this lease is for.
func (l *Lease) SessionID() string { return l.session }

// Token is the lease's fencing token: the revision at which it was taken.
// It is higher than the token of any earlier lease on the session, and
// stays the same while the lease is renewed.
func (l *Lease) Token() uint64 { return l.token }

// Lost is closed when the lease is lost: taken over after it expired, or
// not renewed for a whole TTL. Its node must then stop acting for the
// session. It is not closed by Release.
func (l *Lease) Lost() <-chan struct{} { return l.lost }

// Err is why the lease was lost (it matches ErrLost), or nil.
func (l *Lease) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}

func (l *Lease) lose(err error) {
	l.mu.Lock()
	l.err = err
	l.mu.Unlock()
	l.ls.log.Warn("session lease lost", "session", l.session, "token", l.token, "err", err)
	close(l.lost)
}

// heartbeat renews the lease every RenewEvery until it is stopped or lost.
// Times are absolute (next, deadline), so a clock that moved on while a
// renewal was under way is caught up with at once. It also wakes at the
// deadline when that comes before the next try, so that Lost closes when
// the lease may be gone, not at the first retry after.
func (l *Lease) heartbeat() {
	defer l.ls.wg.Done()
	defer close(l.done)
	c := l.ls.clock
	for {
		wake := l.next
		if l.deadline.Before(wake) {
			wake = l.deadline
		}
		select {
		case <-l.ctx.Done():
			return
		case <-c.After(wake.Sub(c.Now())):
		}
		now := c.Now()
		if !now.Before(l.deadline) {
			l.lose(fmt.Errorf("%w: session %q not renewed for %s", ErrLost, l.session, l.ls.ttl))
			return
		}
		if !l.renew(now) {
			return
		}
	}
}

// renew writes the lease again at its revision. It reports false once the
// lease is lost.
func (l *Lease) renew(now time.Time) bool {
	// Waiting past the deadline is useless: the lease is gone by then.
	timeout := min(l.deadline.Sub(now), l.ls.renewEvery)
	ctx, cancel := context.WithTimeout(l.ctx, timeout)
	defer cancel()
	rev, err := l.ls.kv.Update(ctx, l.key, l.value, l.rev)
	if err == nil {
		l.rev = rev
		l.deadline = now.Add(l.ls.ttl)
		l.next = now.Add(l.ls.renewEvery)
		return true
	}
	if l.ctx.Err() != nil {
		return true // released meanwhile; the loop sees it
	}
	if isConflict(err) {
		// Either someone took the lease after it expired, or an earlier
		// renewal of ours was applied though its reply never came back.
		e, gerr := l.ls.kv.Get(ctx, l.key)
		switch {
		case gerr == nil && l.ours(e) && e.Revision() != l.rev:
			l.rev = e.Revision()
			l.next = now // renew at once to learn a fresh deadline
			return true
		case gerr == nil:
			o := l.ls.ownerOf(e)
			l.lose(fmt.Errorf("%w: session %q taken by node %q (token %d)", ErrLost, l.session, o.Node, o.Token))
			return false
		case errors.Is(gerr, jetstream.ErrKeyNotFound):
			l.lose(fmt.Errorf("%w: session %q expired", ErrLost, l.session))
			return false
		}
		err = gerr
	}
	// Debug, not Warn: an outage fails every lease's renewals at once and
	// the connection's own disconnect is what an operator needs to see.
	l.ls.log.Debug("session lease not renewed", "session", l.session, "token", l.token,
		"left", l.deadline.Sub(now), "err", err)
	l.next = now.Add(l.ls.retryEvery)
	return true
}

// ours reports whether e was written by this lease.
func (l *Lease) ours(e jetstream.KeyValueEntry) bool {
	var r record
	return json.Unmarshal(e.Value(), &r) == nil && r.Node == l.ls.node && r.Lease == l.nonce
}

// Release stops renewing the lease and deletes it if it is still ours, so
// the next owner need not wait for it to expire. It returns an error
// matching ErrLost if the lease was lost first. Calling it again returns
// the first answer.
func (l *Lease) Release(ctx context.Context) error {
	l.releaseOnce.Do(func() {
		l.stop()
		<-l.done
		defer l.ls.forget(l)
		select {
		case <-l.lost:
			l.releaseErr = l.Err()
			return
		default:
		}
		l.releaseErr = l.delete(ctx)
	})
	return l.releaseErr
}

// delete removes the entry at the lease's revision, following a renewal
// that was applied unbeknown to us.
func (l *Lease) delete(ctx context.Context) error {
	for {
		err := l.ls.kv.Delete(ctx, l.key, jetstream.LastRevision(l.rev))
		if err == nil {
			return nil
		}
		if !isConflict(err) {
			return fmt.Errorf("cluster: release session %q: %w", l.session, err)
		}
		e, gerr := l.ls.kv.Get(ctx, l.key)
		switch {
		case gerr == nil && l.ours(e) && e.Revision() != l.rev:
			l.rev = e.Revision()
		case gerr == nil, errors.Is(gerr, jetstream.ErrKeyNotFound):
			return fmt.Errorf("cluster: release session %q: %w before it was released", l.session, ErrLost)
		default:
			return fmt.Errorf("cluster: release session %q: %w", l.session, gerr)
		}
	}
}
