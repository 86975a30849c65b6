package sqlite

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/hotplex/hotplex/store"
)

// TestConcurrentAppends has many goroutines append to their own sessions
// while others read; no event is lost or reordered.
func TestConcurrentAppends(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	const (
		writers = 16
		batches = 25
		batch   = 4
	)
	for w := range writers {
		putSession(t, db, fmt.Sprintf("s%02d", w), fmt.Sprintf("owner%d", w%3))
	}
	var wg sync.WaitGroup
	done := make(chan struct{})
	for w := range writers {
		id := fmt.Sprintf("s%02d", w)
		wg.Go(func() {
			for b := range batches {
				if err := db.AppendEvents(ctx, events(t, id, uint64(b*batch+1), batch)...); err != nil {
					t.Errorf("%s batch %d: %v", id, b, err)
					return
				}
			}
		})
	}
	var readers sync.WaitGroup
	for r := range 4 {
		readers.Go(func() {
			id := fmt.Sprintf("s%02d", r)
			var last uint64
			for {
				select {
				case <-done:
					return
				case <-time.After(time.Millisecond): // poll, as a subscriber would
				}
				es, err := db.Events(ctx, id, last, 0)
				if err != nil {
					t.Errorf("reader %d: %v", r, err)
					return
				}
				for _, e := range es {
					if e.Seq != last+1 {
						t.Errorf("reader %d: seq %d after %d", r, e.Seq, last)
						return
					}
					last = e.Seq
				}
				if _, err := db.ListSessions(ctx, ""); err != nil {
					t.Errorf("reader %d: %v", r, err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(done)
	readers.Wait()

	want := seqRange(1, batches*batch)
	for w := range writers {
		id := fmt.Sprintf("s%02d", w)
		es, err := db.Events(ctx, id, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(seqs(es), want) {
			t.Fatalf("%s: %d events, want %d", id, len(es), len(want))
		}
		s, err := db.GetSession(ctx, id)
		if err != nil || s.LastSeq != uint64(batches*batch) {
			t.Fatalf("%s: %+v, %v", id, s, err)
		}
	}
}

// TestConcurrentAppendsSameSession races writers on one session with the
// same seqs: each seq is stored once, and the losers get ErrSeqConflict.
func TestConcurrentAppendsSameSession(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	putSession(t, db, "s", "")
	const writers, n = 8, 20
	var (
		wg        sync.WaitGroup
		mu        sync.Mutex
		won, lost int
	)
	for range writers {
		wg.Go(func() {
			for seq := uint64(1); seq <= n; seq++ {
				err := db.AppendEvents(ctx, store.Event{SessionID: "s", Seq: seq, Type: "answer"})
				mu.Lock()
				switch {
				case err == nil:
					won++
				case isSeqConflict(err):
					lost++
				default:
					t.Errorf("seq %d: %v", seq, err)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if won+lost != writers*n {
		t.Fatalf("won %d + lost %d != %d", won, lost, writers*n)
	}
	es, _ := db.Events(ctx, "s", 0, 0)
	if !slices.Equal(seqs(es), seqRange(1, n)) {
		t.Fatalf("stored %v", seqs(es))
	}
	if won != n {
		t.Fatalf("%d appends succeeded, want %d", won, n)
	}
}
