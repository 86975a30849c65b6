package hub

import (
	"errors"
	"sync"
	"testing"

	"go.uber.org/goleak"

	"github.com/hotplex/hotplex/event"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func ev(session string, seq uint64) *event.EventWithMeta {
	e := event.NewEventWithMeta(event.TypeAnswer, "x", nil)
	e.SessionID, e.Seq = session, seq
	return e
}

func TestReplayThenLiveWithoutGapOrRepeat(t *testing.T) {
	const total = 3000
	// The ring holds every event: this test is about the seam between
	// replay and live delivery, not eviction (TestReplayFromRingAndGap).
	h := New(Options{Ring: total, Queue: total})
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := uint64(1); i <= total; i++ {
			h.Publish(ev("s", i))
		}
	})
	// Subscribers join at arbitrary moments, each from the last event
	// it "saw", and must see every later event exactly once, in order.
	for k := 0; k < 20; k++ {
		wg.Go(func() {
			after := h.Last("s")
			replay, sub, gap := h.Subscribe("s", after)
			defer sub.Close()
			if gap {
				t.Errorf("gap reported when subscribing from the newest event")
			}
			next := after + 1
			for _, e := range replay {
				if e.Seq != next {
					t.Errorf("replay: got %d want %d", e.Seq, next)
					return
				}
				next++
			}
			for next <= total {
				e := <-sub.C()
				if e.Seq != next {
					t.Errorf("live: got %d want %d", e.Seq, next)
					return
				}
				next++
			}
		})
	}
	wg.Wait()
}

func TestReplayFromRingAndGap(t *testing.T) {
	h := New(Options{Ring: 10})
	for i := uint64(1); i <= 25; i++ {
		h.Publish(ev("s", i))
	}
	replay, sub, gap := h.Subscribe("s", 20)
	defer sub.Close()
	if gap || len(replay) != 5 || replay[0].Seq != 21 || replay[4].Seq != 25 {
		t.Fatalf("replay from 20: %d events, gap %v", len(replay), gap)
	}
	replay, sub2, gap := h.Subscribe("s", 3)
	defer sub2.Close()
	if !gap || len(replay) != 10 || replay[0].Seq != 16 {
		t.Fatalf("replay from 3 (evicted): %d events from %d, gap %v", len(replay), replay[0].Seq, gap)
	}
	if h.Last("s") != 25 || h.Last("other") != 0 {
		t.Fatal("Last")
	}
}

func TestSlowConsumerIsDroppedNotWaitedFor(t *testing.T) {
	h := New(Options{Queue: 3})
	_, slow, _ := h.Subscribe("s", 0)
	_, fast, _ := h.Subscribe("s", 0)
	for i := uint64(1); i <= 100; i++ {
		h.Publish(ev("s", i)) // never blocks on the slow subscriber
		if e := <-fast.C(); e.Seq != i {
			t.Fatalf("fast subscriber got %d, want %d", e.Seq, i)
		}
	}
	<-slow.Done()
	if !errors.Is(slow.Err(), ErrSlowConsumer) {
		t.Fatalf("slow subscriber ended with %v", slow.Err())
	}
	fast.Close()
	if fast.Err() != nil {
		t.Fatalf("closed subscriber err = %v", fast.Err())
	}
}

func TestSessionsAreSeparateAndCloseEndsAll(t *testing.T) {
	h := New(Options{})
	_, a, _ := h.Subscribe("a", 0)
	_, b, _ := h.Subscribe("b", 0)
	h.Publish(ev("a", 1))
	if e := <-a.C(); e.SessionID != "a" {
		t.Fatal("wrong session")
	}
	select {
	case e := <-b.C():
		t.Fatalf("b got a's event %+v", e)
	default:
	}
	h.Forget("a")
	<-a.Done()
	h.Close()
	<-b.Done()
	if !errors.Is(b.Err(), ErrClosed) {
		t.Fatalf("b ended with %v", b.Err())
	}
	_, c, _ := h.Subscribe("c", 0)
	<-c.Done()
	h.Publish(ev("c", 1)) // ignored, no panic
}

func TestSubscribeAllSeesEverySessionUntilTooSlow(t *testing.T) {
	h := New(Options{Queue: 2})
	all := h.SubscribeAll()
	h.Publish(ev("a", 1))
	h.Publish(ev("b", 1))
	for _, want := range []string{"a", "b"} {
		if e := <-all.C(); e.SessionID != want {
			t.Fatalf("got %s want %s", e.SessionID, want)
		}
	}
	h.Forget("a") // forgetting a session does not end a subscriber to all
	for i := uint64(2); i <= 4; i++ {
		h.Publish(ev("b", i))
	}
	<-all.Done()
	if !errors.Is(all.Err(), ErrSlowConsumer) {
		t.Fatalf("ended with %v", all.Err())
	}
	other := h.SubscribeAll()
	h.Close()
	<-other.Done()
	if !errors.Is(other.Err(), ErrClosed) {
		t.Fatalf("close: %v", other.Err())
	}
}
