package cluster

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// TestLeaseRenewedPastItsTTL: a holder that keeps renewing keeps the
// lease well past one TTL of real time, with the same token, and another
// node is refused all along with an error naming the holder; a release
// frees it for the other node at a higher token.
func TestLeaseRenewedPastItsTTL(t *testing.T) {
	ns := startNATS(t)
	const ttl = time.Second
	clock := newFakeClock()
	a := newNode(t, ns, "node-a", ttl, LeaseOptions{Clock: clock})
	b := newNode(t, ns, "node-b", ttl, LeaseOptions{})
	ctx := context.Background()

	la, err := a.leases.Acquire(ctx, "s1")
	if err != nil {
		t.Fatal(err)
	}
	if la.Token() == 0 {
		t.Fatal("token 0")
	}
	o, err := b.leases.Owner(ctx, "s1")
	if err != nil || o.Node != "node-a" || o.Token != la.Token() {
		t.Fatalf("owner = %+v, %v; want node-a at token %d", o, err, la.Token())
	}
	firstExpiry := o.Expires

	start := time.Now()
	renewals := 0
	for time.Since(start) < 3*ttl {
		rev := a.revision(t, "s1")
		clock.Advance(a.leases.renewEvery)
		eventually(t, "renewal", func() bool { return a.revision(t, "s1") > rev })
		renewals++

		_, err := b.leases.Acquire(ctx, "s1")
		var held *HeldError
		if !errors.As(err, &held) || !errors.Is(err, ErrHeld) {
			t.Fatalf("node-b acquired a held session: %v", err)
		}
		if held.Owner.Node != "node-a" || held.Owner.Token != la.Token() {
			t.Fatalf("held by %+v, want node-a at token %d", held.Owner, la.Token())
		}
		time.Sleep(ttl / 5)
	}
	select {
	case <-la.Lost():
		t.Fatalf("lease lost after %d renewals: %v", renewals, la.Err())
	default:
	}
	o, err = b.leases.Owner(ctx, "s1")
	if err != nil || o.Node != "node-a" || o.Token != la.Token() {
		t.Fatalf("after %d renewals owner = %+v, %v", renewals, o, err)
	}
	if !o.Expires.After(firstExpiry.Add(ttl)) {
		t.Fatalf("expiry moved from %v to %v over %d renewals", firstExpiry, o.Expires, renewals)
	}

	if err := la.Release(ctx); err != nil {
		t.Fatal(err)
	}
	if err := la.Release(ctx); err != nil {
		t.Fatalf("second release: %v", err)
	}
	if _, err := b.leases.Owner(ctx, "s1"); !errors.Is(err, ErrNotOwned) {
		t.Fatalf("owner after release: %v", err)
	}
	lb, err := b.leases.Acquire(ctx, "s1")
	if err != nil {
		t.Fatal(err)
	}
	if lb.Token() <= la.Token() {
		t.Fatalf("token went from %d to %d", la.Token(), lb.Token())
	}
	select {
	case <-la.Lost():
		t.Fatal("a released lease reports lost")
	default:
	}
}

// TestPausedHolderLosesToTakeover: a holder whose heartbeat stands still
// (a paused process) keeps its lease only until the server expires it;
// another node then takes it at a higher token, and the paused holder,
// once resumed, fails its next renewal and learns the lease is lost.
func TestPausedHolderLosesToTakeover(t *testing.T) {
	ns := startNATS(t)
	const ttl = time.Second
	clock := newFakeClock()
	a := newNode(t, ns, "node-a", ttl, LeaseOptions{Clock: clock})
	b := newNode(t, ns, "node-b", ttl, LeaseOptions{})
	ctx := context.Background()

	la, err := a.leases.Acquire(ctx, "s1")
	if err != nil {
		t.Fatal(err)
	}
	// node-a is paused from here on: its clock does not move.
	var lb *Lease
	refusals := 0
	eventually(t, "node-b takes the expired lease", func() bool {
		l, err := b.leases.Acquire(ctx, "s1")
		if errors.Is(err, ErrHeld) {
			refusals++
			return false
		}
		if err != nil {
			t.Fatal(err)
		}
		lb = l
		return true
	})
	if refusals == 0 {
		t.Fatal("node-b was never refused while node-a's lease was live")
	}
	if lb.Token() <= la.Token() {
		t.Fatalf("new owner's token %d not above the paused holder's %d", lb.Token(), la.Token())
	}
	select {
	case <-la.Lost():
		t.Fatal("a paused holder noticed something while paused")
	default:
	}

	// node-a resumes: less than a TTL passed on its own clock, so only the
	// failed compare-and-set can tell it.
	clock.Advance(a.leases.renewEvery)
	waitLost(t, la)
	if err := la.Err(); !errors.Is(err, ErrLost) || !strings.Contains(err.Error(), `taken by node "node-b"`) {
		t.Fatalf("lost with %v", err)
	}
	if err := la.Release(ctx); !errors.Is(err, ErrLost) {
		t.Fatalf("release of a lost lease: %v", err)
	}
	o, err := a.leases.Owner(ctx, "s1")
	if err != nil || o.Node != "node-b" || o.Token != lb.Token() {
		t.Fatalf("owner = %+v, %v; want node-b at token %d", o, err, lb.Token())
	}
	select {
	case <-lb.Lost():
		t.Fatalf("the new owner lost its lease: %v", lb.Err())
	default:
	}
}

// TestPausedHolderReleaseSparesNewOwner: a paused holder that releases
// before it noticed the takeover must not delete the new owner's entry.
func TestPausedHolderReleaseSparesNewOwner(t *testing.T) {
	ns := startNATS(t)
	const ttl = time.Second
	a := newNode(t, ns, "node-a", ttl, LeaseOptions{Clock: newFakeClock()})
	b := newNode(t, ns, "node-b", ttl, LeaseOptions{})
	ctx := context.Background()
	la, err := a.leases.Acquire(ctx, "s1")
	if err != nil {
		t.Fatal(err)
	}
	var lb *Lease
	eventually(t, "node-b takes the expired lease", func() bool {
		l, err := b.leases.Acquire(ctx, "s1")
		lb = l
		return err == nil
	})
	if err := la.Release(ctx); !errors.Is(err, ErrLost) {
		t.Fatalf("release after a takeover: %v", err)
	}
	o, err := b.leases.Owner(ctx, "s1")
	if err != nil || o.Node != "node-b" || o.Token != lb.Token() {
		t.Fatalf("owner after the stale release = %+v, %v; want node-b at token %d", o, err, lb.Token())
	}
}

// TestRenewalAppliedWithoutReply: a renewal the server applied but whose
// reply never came back (the connection dropped) moves the revision
// under the holder. It must recognise its own write and carry on, and a
// release must still delete the entry, rather than take either for a
// takeover.
func TestRenewalAppliedWithoutReply(t *testing.T) {
	ns := startNATS(t)
	clock := newFakeClock()
	a := newNode(t, ns, "node-a", 5*time.Second, LeaseOptions{Clock: clock})
	ctx := context.Background()
	la, err := a.leases.Acquire(ctx, "s1")
	if err != nil {
		t.Fatal(err)
	}
	// The write a renewal would have made, made behind the heartbeat's back.
	applied := func() uint64 {
		rev, err := a.kv.Update(ctx, la.key, la.value, a.revision(t, "s1"))
		if err != nil {
			t.Fatal(err)
		}
		return rev
	}
	rev := applied()
	clock.Advance(a.leases.renewEvery)
	eventually(t, "renewal past the unanswered one", func() bool { return a.revision(t, "s1") > rev })
	select {
	case <-la.Lost():
		t.Fatalf("lost to its own write: %v", la.Err())
	default:
	}

	applied()
	if err := la.Release(ctx); err != nil {
		t.Fatalf("release after an unanswered renewal: %v", err)
	}
	if _, err := a.leases.Owner(ctx, "s1"); !errors.Is(err, ErrNotOwned) {
		t.Fatalf("owner after release: %v", err)
	}
}

// TestLeaseLostWhenNotRenewedForTTL: a holder that has not renewed for a
// whole TTL of its own time gives the lease up without asking the server,
// which may have freed it already.
func TestLeaseLostWhenNotRenewedForTTL(t *testing.T) {
	ns := startNATS(t)
	clock := newFakeClock()
	a := newNode(t, ns, "node-a", 5*time.Second, LeaseOptions{Clock: clock})
	ctx := context.Background()
	la, err := a.leases.Acquire(ctx, "s1")
	if err != nil {
		t.Fatal(err)
	}
	rev := a.revision(t, "s1")
	clock.Advance(5 * time.Second)
	waitLost(t, la)
	if err := la.Err(); !errors.Is(err, ErrLost) || !strings.Contains(err.Error(), "not renewed") {
		t.Fatalf("lost with %v", err)
	}
	if got := a.revision(t, "s1"); got != rev {
		t.Fatalf("a holder past its deadline still wrote: revision %d -> %d", rev, got)
	}
}

// waitLost waits for l to be lost; the limit only ends a stuck test.
func waitLost(t testing.TB, l *Lease) {
	t.Helper()
	select {
	case <-l.Lost():
	case <-time.After(20 * time.Second):
		t.Fatalf("lease of %s never lost", l.SessionID())
	}
}

// TestLostAtDeadlineNotAtNextRetry: while renewals fail (NATS is down),
// Lost closes at the lease's deadline, even when the next retry would come
// after it: by then another node may hold the lease.
func TestLostAtDeadlineNotAtNextRetry(t *testing.T) {
	ns := startNATS(t)
	const ttl = 6 * time.Second
	clock := newFakeClock()
	a := newNode(t, ns, "node-a", ttl, LeaseOptions{Clock: clock, RenewEvery: 2 * time.Second}) // retries every 500ms
	la, err := a.leases.Acquire(context.Background(), "s1")
	if err != nil {
		t.Fatal(err)
	}
	eventually(t, "the heartbeat to sleep", func() bool { return clock.afterCalls() > 0 })
	ns.Stop()
	eventually(t, "the client to see the server gone", func() bool { return !a.nc.IsConnected() })

	clock.AdvanceAndSettle(t, 2*time.Second)         // t=2: fails, retry at 2.5
	clock.AdvanceAndSettle(t, 3700*time.Millisecond) // t=5.7: fails, retry at 6.2
	select {
	case <-la.Lost():
		t.Fatalf("lost before its deadline: %v", la.Err())
	default:
	}
	clock.Advance(300 * time.Millisecond) // t=6: the deadline
	waitLost(t, la)
	if err := la.Err(); !errors.Is(err, ErrLost) || !strings.Contains(err.Error(), "not renewed") {
		t.Fatalf("lost with %v", err)
	}
}

// fence stands for whatever a holder writes to: it accepts a write only
// with a token at least as high as any it has seen, and records any two
// holders inside at once.
type fence struct {
	mu     sync.Mutex
	last   uint64
	holder string
	writes int
	errs   []string
}

func (f *fence) enter(node string, token uint64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.holder != "" {
		f.errs = append(f.errs, fmt.Sprintf("%s entered at token %d while %s holds", node, token, f.holder))
	}
	if token <= f.last {
		f.errs = append(f.errs, fmt.Sprintf("%s wrote token %d after %d", node, token, f.last))
	}
	f.holder, f.last = node, token
	f.writes++
}

func (f *fence) exit(node string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.holder != node {
		f.errs = append(f.errs, fmt.Sprintf("%s left while %q holds", node, f.holder))
	}
	f.holder = ""
}

func (f *fence) check(t *testing.T) {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, e := range f.errs {
		if i == 10 {
			t.Errorf("and %d more", len(f.errs)-10)
			break
		}
		t.Error(e)
	}
}

// TestRacingNodesNeverBothHold: nodes race to acquire one session a few
// hundred times; each winner writes its token to a fence that fails on
// overlap or a token that does not grow.
func TestRacingNodesNeverBothHold(t *testing.T) {
	ns := startNATS(t)
	const racers = 4
	var nodes [racers]*testNode
	for i := range nodes {
		nodes[i] = newNode(t, ns, fmt.Sprintf("node-%d", i), 30*time.Second, LeaseOptions{})
	}
	ctx := context.Background()

	// In rounds, all nodes start together and the winner holds until all
	// have tried: exactly one wins, the others are told who.
	t.Run("rounds", func(t *testing.T) {
		const rounds = 300
		var f fence
		for r := range rounds {
			type result struct {
				l   *Lease
				err error
			}
			results := make([]result, racers)
			var start, done sync.WaitGroup
			start.Add(1)
			for i, n := range nodes {
				done.Go(func() {
					start.Wait()
					l, err := n.leases.Acquire(ctx, "race")
					results[i] = result{l, err}
				})
			}
			start.Done()
			done.Wait()
			var winner *Lease
			var wnode string
			for i, res := range results {
				switch {
				case res.err == nil && winner != nil:
					t.Fatalf("round %d: %s and node-%d both acquired", r, wnode, i)
				case res.err == nil:
					winner, wnode = res.l, fmt.Sprintf("node-%d", i)
				case !errors.Is(res.err, ErrHeld):
					t.Fatalf("round %d: %v", r, res.err)
				}
			}
			if winner == nil {
				t.Fatalf("round %d: nobody acquired", r)
			}
			for i, res := range results {
				var held *HeldError
				if errors.As(res.err, &held) && (held.Owner.Node != wnode || held.Owner.Token != winner.Token()) {
					t.Fatalf("round %d: node-%d told %+v, winner is %s at %d", r, i, held.Owner, wnode, winner.Token())
				}
			}
			f.enter(wnode, winner.Token())
			f.exit(wnode)
			if err := winner.Release(ctx); err != nil {
				t.Fatal(err)
			}
		}
		f.check(t)
		if f.writes != rounds {
			t.Fatalf("%d writes, want %d", f.writes, rounds)
		}
	})

	// Free-running, every node loops acquire, write, release, so the
	// interleavings are the scheduler's.
	t.Run("free", func(t *testing.T) {
		const want = 300
		var f fence
		var acquired, refused atomic.Int64
		var wg sync.WaitGroup
		errc := make(chan error, racers)
		for i, n := range nodes {
			node := fmt.Sprintf("node-%d", i)
			wg.Go(func() {
				for acquired.Load() < want {
					l, err := n.leases.Acquire(ctx, "race-free")
					if errors.Is(err, ErrHeld) {
						refused.Add(1)
						continue
					}
					if err != nil {
						errc <- err
						return
					}
					acquired.Add(1)
					f.enter(node, l.Token())
					f.exit(node)
					if err := l.Release(ctx); err != nil {
						errc <- err
						return
					}
				}
			})
		}
		wg.Wait()
		close(errc)
		for err := range errc {
			t.Fatal(err)
		}
		f.check(t)
		t.Logf("%d acquisitions, %d refusals", acquired.Load(), refused.Load())
	})
}

// TestRacingTakeoverOfExpiredLease: when a paused holder's lease
// expires, nodes racing to take it over get it exactly once between them.
func TestRacingTakeoverOfExpiredLease(t *testing.T) {
	ns := startNATS(t)
	const ttl = time.Second
	a := newNode(t, ns, "node-a", ttl, LeaseOptions{Clock: newFakeClock()})
	ctx := context.Background()
	la, err := a.leases.Acquire(ctx, "s1")
	if err != nil {
		t.Fatal(err)
	}
	const racers = 3
	won := make([]*Lease, racers)
	errs := make([]error, racers)
	var wg sync.WaitGroup
	for i := range racers {
		n := newNode(t, ns, fmt.Sprintf("node-%d", i), ttl, LeaseOptions{})
		wg.Go(func() {
			deadline := time.Now().Add(20 * time.Second)
			for time.Now().Before(deadline) {
				l, err := n.leases.Acquire(ctx, "s1")
				var held *HeldError
				switch {
				case err == nil:
					won[i] = l
					return
				case errors.As(err, &held) && held.Owner.Node != "node-a":
					return // someone else took it over
				case !errors.Is(err, ErrHeld):
					errs[i] = err
					return
				}
			}
			errs[i] = errors.New("the lease never expired")
		})
	}
	wg.Wait()
	var winner *Lease
	for i := range racers {
		if errs[i] != nil {
			t.Fatalf("node-%d: %v", i, errs[i])
		}
		if won[i] != nil {
			if winner != nil {
				t.Fatalf("two nodes took the expired lease, at tokens %d and %d", winner.Token(), won[i].Token())
			}
			winner = won[i]
		}
	}
	if winner == nil {
		t.Fatal("nobody took the expired lease")
	}
	if winner.Token() <= la.Token() {
		t.Fatalf("takeover token %d not above %d", winner.Token(), la.Token())
	}
}

// TestNATSRestartMidLease: the holder's connection comes back after a
// server restart. A restart shorter than the TTL keeps the lease (same
// token, renewed again); one longer than the TTL loses it cleanly, and
// the next owner's token is still higher.
func TestNATSRestartMidLease(t *testing.T) {
	ctx := context.Background()
	t.Run("keeps", func(t *testing.T) {
		ns := startNATS(t)
		a := newNode(t, ns, "node-a", 30*time.Second, LeaseOptions{RenewEvery: 200 * time.Millisecond})
		la, err := a.leases.Acquire(ctx, "s1")
		if err != nil {
			t.Fatal(err)
		}
		eventually(t, "first renewal", func() bool { return a.revision(t, "s1") > la.Token() })
		ns.Restart()
		var rev uint64
		eventually(t, "reconnection", func() bool { rev = a.revision(t, "s1"); return rev != 0 })
		eventually(t, "renewal after restart", func() bool { return a.revision(t, "s1") > rev })
		select {
		case <-la.Lost():
			t.Fatalf("lost: %v", la.Err())
		default:
		}
		o, err := a.leases.Owner(ctx, "s1")
		if err != nil || o.Node != "node-a" || o.Token != la.Token() {
			t.Fatalf("owner = %+v, %v", o, err)
		}
		if err := la.Release(ctx); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("loses", func(t *testing.T) {
		ns := startNATS(t)
		const ttl = time.Second
		a := newNode(t, ns, "node-a", ttl, LeaseOptions{RenewEvery: 200 * time.Millisecond})
		b := newNode(t, ns, "node-b", ttl, LeaseOptions{})
		la, err := a.leases.Acquire(ctx, "s1")
		if err != nil {
			t.Fatal(err)
		}
		ns.Stop()
		waitLost(t, la)
		if err := la.Err(); !errors.Is(err, ErrLost) {
			t.Fatalf("lost with %v", err)
		}
		ns.Start()
		var lb *Lease
		eventually(t, "node-b acquires after the restart", func() bool {
			l, err := b.leases.Acquire(ctx, "s1")
			if err != nil {
				return false
			}
			lb = l
			return true
		})
		if lb.Token() <= la.Token() {
			t.Fatalf("token went from %d to %d across the restart", la.Token(), lb.Token())
		}
		if err := la.Release(ctx); !errors.Is(err, ErrLost) {
			t.Fatalf("release of a lost lease: %v", err)
		}
	})
}

// TestCloseReleasesEverything: Close gives up every lease the node holds,
// leaves no heartbeat running, and refuses new leases.
func TestCloseReleasesEverything(t *testing.T) {
	ns := startNATS(t)
	a := newNode(t, ns, "node-a", 5*time.Second, LeaseOptions{})
	b := newNode(t, ns, "node-b", 5*time.Second, LeaseOptions{})
	ctx := context.Background()
	before := goleak.IgnoreCurrent()

	ls, err := NewLeases(ctx, a.kv, LeaseOptions{NodeID: "node-c", RenewEvery: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ids := []string{"s1", "s2", "s3"}
	var held []*Lease
	for _, id := range ids {
		l, err := ls.Acquire(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, l)
	}
	if err := held[1].Release(ctx); err != nil {
		t.Fatal(err)
	}
	if err := ls.Close(ctx); err != nil {
		t.Fatal(err)
	}
	goleak.VerifyNone(t, before)
	for _, id := range ids {
		if o, err := b.leases.Owner(ctx, id); !errors.Is(err, ErrNotOwned) {
			t.Errorf("%s after close: %+v, %v", id, o, err)
		}
	}
	if _, err := ls.Acquire(ctx, "s4"); !errors.Is(err, ErrClosed) {
		t.Fatalf("acquire after close: %v", err)
	}
}

// TestSessionIDsBecomeKeys: any session ID maps to its own valid key,
// daemon-wide keys with "~" and IDs with dots included.
func TestSessionIDsBecomeKeys(t *testing.T) {
	cases := map[string]string{
		"abc":                                  "abc",
		"0b7c-4f_x":                            "0b7c-4f_x",
		"ses_1~n0nce":                          "ses_1=7En0nce",
		".hidden":                              "=2Ehidden",
		"a..b.":                                "a=2E=2Eb=2E",
		"a=7E":                                 "a=3D7E",
		"a~":                                   "a=7E",
		"ünï":                                  "=C3=BCn=C3=AF",
		"550e8400-e29b-41d4-a716-446655440000": "550e8400-e29b-41d4-a716-446655440000",
	}
	seen := map[string]string{}
	for id, want := range cases {
		got, err := ownerKey(id)
		if err != nil || got != want {
			t.Errorf("ownerKey(%q) = %q, %v; want %q", id, got, err, want)
		}
		if other, dup := seen[got]; dup {
			t.Errorf("%q and %q share key %q", id, other, got)
		}
		seen[got] = id
	}
	if _, err := ownerKey(""); err == nil {
		t.Error("empty session ID accepted")
	}

	ns := startNATS(t)
	a := newNode(t, ns, "node-a", 5*time.Second, LeaseOptions{})
	ctx := context.Background()
	for id := range cases {
		l, err := a.leases.Acquire(ctx, id)
		if err != nil {
			t.Fatalf("acquire %q: %v", id, err)
		}
		if o, err := a.leases.Owner(ctx, id); err != nil || o.Token != l.Token() {
			t.Fatalf("owner of %q: %+v, %v", id, o, err)
		}
		if err := l.Release(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := a.leases.Acquire(ctx, ""); err == nil {
		t.Fatal("acquired an empty session ID")
	}
}

// TestOwnersBucketTTLMustAgree: a node configured for another TTL than
// the bucket's is refused instead of renewing on the wrong period.
func TestOwnersBucketTTLMustAgree(t *testing.T) {
	ns := startNATS(t)
	nc, err := Connect(ns.URL(), ConnOptions{NodeID: "n"})
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := OwnersBucket(ctx, js, BucketConfig{LeaseTTL: 2 * time.Second}); err != nil {
		t.Fatal(err)
	}
	if _, err := OwnersBucket(ctx, js, BucketConfig{LeaseTTL: 2 * time.Second}); err != nil {
		t.Fatalf("binding with the same TTL: %v", err)
	}
	_, err = OwnersBucket(ctx, js, BucketConfig{LeaseTTL: 3 * time.Second})
	if err == nil || !strings.Contains(err.Error(), "keeps leases for 2s") {
		t.Fatalf("binding with another TTL: %v", err)
	}
	if _, err := OwnersBucket(ctx, js, BucketConfig{Name: "short", LeaseTTL: 500 * time.Millisecond}); err == nil {
		t.Fatal("accepted a TTL below 1s")
	}
	if _, err := OwnersBucket(ctx, js, BucketConfig{}); err == nil {
		t.Fatalf("the default bucket is kept for 2s, yet bound with %s", DefaultLeaseTTL)
	}
	if _, err := NewLeases(ctx, nil, LeaseOptions{}); err == nil {
		t.Fatal("leases without a node ID")
	}
	if _, err := Connect("", ConnOptions{}); err == nil {
		t.Fatal("connected to no URL")
	}
}

// BenchmarkAcquireRelease measures taking and giving back a free lease:
// two round trips to a local NATS server.
func BenchmarkAcquireRelease(b *testing.B) {
	ns := startNATS(b)
	n := newNode(b, ns, "node-a", 10*time.Second, LeaseOptions{})
	ctx := context.Background()
	for b.Loop() {
		l, err := n.leases.Acquire(ctx, "bench")
		if err != nil {
			b.Fatal(err)
		}
		if err := l.Release(ctx); err != nil {
			b.Fatal(err)
		}
	}
}
