package cluster

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/hotplex/hotplex/internal/natstest"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"go.uber.org/goleak"
)

// eventsNode connects to url as one node and binds the events stream.
func eventsNode(t testing.TB, url, id string) (*nats.Conn, *Events) {
	t.Helper()
	nc, err := Connect(url, ConnOptions{NodeID: id, ReconnectWait: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := EventsStream(context.Background(), js, EventsConfig{})
	if err != nil {
		t.Fatal(err)
	}
	return nc, ev
}

// collector gathers what a follower receives.
type collector struct {
	mu     sync.Mutex
	events []Event
}

func (c *collector) add(e Event) {
	c.mu.Lock()
	c.events = append(c.events, e)
	c.mu.Unlock()
}

func (c *collector) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.events)
}

func (c *collector) snapshot() []Event {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Event(nil), c.events...)
}

// follow starts a follower stopped at the end of the test.
func follow(t testing.TB, ev *Events) *collector {
	t.Helper()
	c := &collector{}
	stop, err := ev.Follow(context.Background(), c.add)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return c
}

// checkExactly checks that got holds each of session's events 1..n once,
// in order, and that stream sequences only grow.
func checkExactly(t *testing.T, got []Event, sessions map[string]uint64) {
	t.Helper()
	next := make(map[string]uint64)
	var streamSeq uint64
	for _, e := range got {
		if e.StreamSeq <= streamSeq {
			t.Fatalf("stream seq %d after %d", e.StreamSeq, streamSeq)
		}
		streamSeq = e.StreamSeq
		want := next[e.SessionID] + 1
		if e.Seq != want {
			t.Fatalf("session %q: event %d where %d was due", e.SessionID, e.Seq, want)
		}
		if string(e.Data) != fmt.Sprintf("%s#%d", e.SessionID, e.Seq) {
			t.Fatalf("event %s/%d carries %q", e.SessionID, e.Seq, e.Data)
		}
		next[e.SessionID] = want
	}
	for s, n := range sessions {
		if next[s] != n {
			t.Fatalf("session %q: %d events, want %d", s, next[s], n)
		}
	}
	if len(next) != len(sessions) {
		t.Fatalf("events of %d sessions, want %d", len(next), len(sessions))
	}
}

// publishUntilStored publishes one event and retries it with the same seq
// until the server confirms it, as an owner does across an outage.
func publishUntilStored(t testing.TB, ev *Events, session string, seq uint64, origin string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err := ev.Publish(ctx, session, seq, origin, fmt.Appendf(nil, "%s#%d", session, seq))
		cancel()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("publish %s/%d: %v", session, seq, err)
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestEventsOrderPerSession: three nodes publish the events of the
// sessions they own, concurrently; two followers on other nodes each
// receive every event once, each session's in its order, and in the same
// order as each other. A session follower receives its session's only.
func TestEventsOrderPerSession(t *testing.T) {
	ns := natstest.Start(t)
	const nSessions, perSession = 30, 20
	var pubs []*Events
	for i := range 3 {
		_, ev := eventsNode(t, ns.URL(), fmt.Sprintf("pub-%d", i))
		pubs = append(pubs, ev)
	}
	_, fa := eventsNode(t, ns.URL(), "follower-a")
	_, fb := eventsNode(t, ns.URL(), "follower-b")
	a, b := follow(t, fa), follow(t, fb)
	one := &collector{}
	stopOne, err := fb.FollowSession(context.Background(), "s.7~x", one.add)
	if err != nil {
		t.Fatal(err)
	}
	defer stopOne()

	sessions := make(map[string]uint64)
	var wg sync.WaitGroup
	for i := range nSessions {
		id := fmt.Sprintf("s.%d~x", i)
		sessions[id] = perSession
		pub := pubs[i%len(pubs)]
		wg.Go(func() {
			for seq := uint64(1); seq <= perSession; seq++ {
				if err := pub.Publish(context.Background(), id, seq, "pub", fmt.Appendf(nil, "%s#%d", id, seq)); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	total := nSessions * perSession
	eventually(t, "both followers to receive every event", func() bool { return a.len() >= total && b.len() >= total })
	eventually(t, "the session follower to receive its events", func() bool { return one.len() >= perSession })

	ga, gb := a.snapshot(), b.snapshot()
	checkExactly(t, ga, sessions)
	checkExactly(t, gb, sessions)
	for i := range ga {
		if ga[i].StreamSeq != gb[i].StreamSeq {
			t.Fatalf("followers disagree at %d: %d vs %d", i, ga[i].StreamSeq, gb[i].StreamSeq)
		}
	}
	checkExactly(t, one.snapshot(), map[string]uint64{"s.7~x": perSession})
}

// TestEventsRetriedPublishStoredOnce: publishing the same session and seq
// again (a retry after a lost reply) is not delivered twice.
func TestEventsRetriedPublishStoredOnce(t *testing.T) {
	ns := natstest.Start(t)
	_, ev := eventsNode(t, ns.URL(), "n")
	got := follow(t, ev)
	ctx := context.Background()
	for _, seq := range []uint64{1, 1, 2, 2, 2, 3} {
		if err := ev.Publish(ctx, "s", seq, "n", fmt.Appendf(nil, "s#%d", seq)); err != nil {
			t.Fatal(err)
		}
	}
	if err := ev.Publish(ctx, "t", 1, "n", []byte("t#1")); err != nil {
		t.Fatal(err)
	}
	// t#1 was published last: once it is in, the duplicates would be too.
	eventually(t, "t#1", func() bool {
		g := got.snapshot()
		return len(g) > 0 && g[len(g)-1].SessionID == "t"
	})
	checkExactly(t, got.snapshot(), map[string]uint64{"s": 3, "t": 1})
}

// TestEventsFollowAcrossNATSRestart: the server restarts while a node
// publishes; the follower receives every event once and in order, those
// published before, during and after the restart.
func TestEventsFollowAcrossNATSRestart(t *testing.T) {
	ns := natstest.Start(t)
	_, pub := eventsNode(t, ns.URL(), "pub")
	fnc, fol := eventsNode(t, ns.URL(), "follower")
	got := follow(t, fol)

	const n = 300
	// The server goes down (from this goroutine: natstest fails the
	// test on error) while a publisher is at it; it publishes the
	// second half only once the server is back.
	restarted := make(chan struct{})
	published := make(chan struct{})
	go func() {
		defer close(published)
		for seq := uint64(1); seq <= n/2; seq++ {
			publishUntilStored(t, pub, "s", seq, "pub")
		}
		<-restarted
		for seq := uint64(n/2 + 1); seq <= n; seq++ {
			publishUntilStored(t, pub, "s", seq, "pub")
		}
	}()
	eventually(t, "some events before", func() bool { return got.len() >= n/6 })
	ns.Restart()
	close(restarted)
	<-published
	eventually(t, "every event after the restart", func() bool { return got.len() >= n })
	checkExactly(t, got.snapshot(), map[string]uint64{"s": n})
	if fnc.Stats().Reconnects == 0 {
		t.Fatal("the follower never lost the server")
	}
}

// TestEventsFollowAcrossNATSCrash: nats-server is killed (SIGKILL) while a
// node publishes and started again on its store; the follower receives
// every event once and in order.
func TestEventsFollowAcrossNATSCrash(t *testing.T) {
	p := natstest.StartProcess(t)
	_, pub := eventsNode(t, p.URL(), "pub")
	fnc, fol := eventsNode(t, p.URL(), "follower")
	got := follow(t, fol)

	const n = 300
	// The server goes down (from this goroutine: natstest fails the
	// test on error) while a publisher is at it; it publishes the
	// second half only once the server is back.
	crashed := make(chan struct{})
	published := make(chan struct{})
	go func() {
		defer close(published)
		for seq := uint64(1); seq <= n/2; seq++ {
			publishUntilStored(t, pub, "s", seq, "pub")
		}
		<-crashed
		for seq := uint64(n/2 + 1); seq <= n; seq++ {
			publishUntilStored(t, pub, "s", seq, "pub")
		}
	}()
	eventually(t, "some events before", func() bool { return got.len() >= n/6 })
	p.Kill()
	p.Restart()
	close(crashed)
	<-published
	eventually(t, "every event after the crash", func() bool { return got.len() >= n })
	checkExactly(t, got.snapshot(), map[string]uint64{"s": n})
	if fnc.Stats().Reconnects == 0 {
		t.Fatal("the follower never lost the server")
	}
}

// TestEventsPublishedWhileFollowerCutOff: events published while the
// follower's node is cut off from NATS, also before it received any
// event at all, reach it once it is back, in order.
func TestEventsPublishedWhileFollowerCutOff(t *testing.T) {
	for _, before := range []int{0, 5} {
		t.Run(fmt.Sprintf("after %d events", before), func(t *testing.T) {
			ns := natstest.Start(t)
			proxy := natstest.StartProxy(t, ns.URL())
			_, pub := eventsNode(t, ns.URL(), "pub")
			fnc, fol := eventsNode(t, proxy.URL(), "follower")
			got := follow(t, fol)

			seq := uint64(0)
			for range before {
				seq++
				publishUntilStored(t, pub, "s", seq, "pub")
			}
			eventually(t, "the events before the cut", func() bool { return got.len() == before })
			proxy.Cut()
			eventually(t, "the follower to notice", func() bool { return !fnc.IsConnected() })
			for range 10 {
				seq++
				publishUntilStored(t, pub, "s", seq, "pub")
			}
			if got.len() != before {
				t.Fatalf("a cut-off follower received %d events", got.len()-before)
			}
			proxy.Resume()
			for range 10 {
				seq++
				publishUntilStored(t, pub, "s", seq, "pub")
			}
			eventually(t, "every event after the follower is back", func() bool { return got.len() >= int(seq) })
			checkExactly(t, got.snapshot(), map[string]uint64{"s": seq})
		})
	}
}

// TestEventsFollowStops: stop ends a follower, and nothing is delivered
// after it returned; cancelling the context ends one too (a moment
// later); neither leaves a goroutine behind. The server is a
// process of its own, so that every goroutine here is the client's.
func TestEventsFollowStops(t *testing.T) {
	ns := natstest.StartProcess(t)
	_, ev := eventsNode(t, ns.URL(), "n")
	before := goleak.IgnoreCurrent()

	c := &collector{}
	stop, err := ev.Follow(context.Background(), c.add)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	c2 := &collector{}
	if _, err := ev.Follow(ctx, c2.add); err != nil {
		t.Fatal(err)
	}
	publishUntilStored(t, ev, "s", 1, "n")
	eventually(t, "delivery", func() bool { return c.len() == 1 && c2.len() == 1 })
	stop()
	stop()
	cancel()
	publishUntilStored(t, ev, "s", 2, "n")
	// A third follower seeing event 2 means it was fanned out.
	c3 := &collector{}
	stop3, err := ev.Follow(context.Background(), c3.add)
	if err != nil {
		t.Fatal(err)
	}
	publishUntilStored(t, ev, "s", 3, "n")
	eventually(t, "the live follower", func() bool { return c3.len() == 1 })
	stop3()
	if c.len() != 1 {
		t.Fatalf("a stopped follower received %d events", c.len())
	}
	goleak.VerifyNone(t, before)
}

func TestEventsStreamRefusesForeignSubjects(t *testing.T) {
	ns := natstest.Start(t)
	nc, err := Connect(ns.URL(), ConnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	ctx := context.Background()
	if _, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: "OTHER", Subjects: []string{"other.>"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := EventsStream(ctx, js, EventsConfig{Name: "OTHER"}); err == nil {
		t.Fatal("bound a stream without the events subjects")
	}
	if _, err := EventsStream(ctx, js, EventsConfig{MaxAge: time.Millisecond}); err == nil {
		t.Fatal("accepted a MaxAge below 1s")
	}
	ev, err := EventsStream(ctx, js, EventsConfig{})
	if err != nil {
		t.Fatal(err)
	}
	if err := ev.Publish(ctx, "", 1, "n", nil); err == nil {
		t.Fatal("published an event without a session")
	}
}
