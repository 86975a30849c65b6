package cluster

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/hotplex/hotplex/internal/natstest"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// startNATS runs a real NATS server with JetStream on file storage in the
// test process (see natstest).
func startNATS(t testing.TB) *natstest.Server { return natstest.Start(t) }

// testNode is one HotPlex node's view of the cluster: its own connection,
// the owners bucket and its leases. Its cleanup closes the leases, then
// the connection, before the server stops.
type testNode struct {
	nc     *nats.Conn
	kv     jetstream.KeyValue
	leases *Leases
}

func newNode(t testing.TB, ns *natstest.Server, id string, ttl time.Duration, o LeaseOptions) *testNode {
	t.Helper()
	nc, err := Connect(ns.URL(), ConnOptions{NodeID: id, ReconnectWait: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	kv, err := OwnersBucket(ctx, js, BucketConfig{LeaseTTL: ttl})
	if err != nil {
		t.Fatal(err)
	}
	o.NodeID = id
	ls, err := NewLeases(ctx, kv, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := ls.Close(context.Background()); err != nil {
			t.Errorf("close leases of %s: %v", id, err)
		}
	})
	return &testNode{nc: nc, kv: kv, leases: ls}
}

// revision is the current revision of a session's owner entry, 0 if none.
func (n *testNode) revision(t testing.TB, sessionID string) uint64 {
	t.Helper()
	key, err := ownerKey(sessionID)
	if err != nil {
		t.Fatal(err)
	}
	e, err := n.kv.Get(context.Background(), key)
	if err != nil {
		return 0
	}
	return e.Revision()
}

// eventually polls cond until it holds. It waits for an outcome, not on a
// time margin: the limit is only there to end a test that is stuck.
func eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting: %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// fakeClock is a Clock that moves only when the test advances it, so a
// holder's heartbeat can be held still (a paused process) or run on
// demand.
type fakeClock struct {
	mu      sync.Mutex
	now     time.Time
	waiters []fakeWaiter
	calls   int // of After: each is a heartbeat that went back to sleep
}

type fakeWaiter struct {
	at time.Time
	ch chan time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{now: time.Unix(1_700_000_000, 0)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls++
	ch := make(chan time.Time, 1)
	if d <= 0 {
		ch <- c.now
		return ch
	}
	c.waiters = append(c.waiters, fakeWaiter{at: c.now.Add(d), ch: ch})
	return ch
}

func (c *fakeClock) afterCalls() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.calls
}

// AdvanceAndSettle advances the clock, which must wake the one heartbeat
// on it, and waits until that heartbeat is asleep again.
func (c *fakeClock) AdvanceAndSettle(t testing.TB, d time.Duration) {
	t.Helper()
	n := c.afterCalls()
	c.Advance(d)
	eventually(t, "the heartbeat to go back to sleep", func() bool { return c.afterCalls() > n })
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	kept := c.waiters[:0]
	for _, w := range c.waiters {
		if w.at.After(c.now) {
			kept = append(kept, w)
			continue
		}
		w.ch <- c.now
	}
	c.waiters = kept
}
