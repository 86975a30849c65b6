package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hotplex/hotplex/store"
)

func testReopenKeepsEverything(t *testing.T, b Backend) {
	ctx := context.Background()
	where := b.NewDatabase(t)
	db := openAt(t, b, where)
	PutSession(t, db, "s", "alice")
	if err := db.AppendEvents(ctx, Events(t, "s", 1, 50)...); err != nil {
		t.Fatal(err)
	}
	k, secret := NewKey(t, "k", false)
	if err := db.PutAPIKey(ctx, k); err != nil {
		t.Fatal(err)
	}
	before, _ := db.GetSession(ctx, "s")
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	db = openAt(t, b, where)
	after, err := db.GetSession(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	if after.LastSeq != 50 || after.Owner != "alice" || !after.UpdatedAt.Equal(before.UpdatedAt) {
		t.Fatalf("session after reopen %+v, before %+v", after, before)
	}
	if es, err := db.Events(ctx, "s", 0, 0); err != nil || !slices.Equal(Seqs(es), SeqRange(1, 50)) {
		t.Fatalf("events after reopen: %v, %v", Seqs(es), err)
	}
	if got, err := db.APIKeyByHash(ctx, store.HashKey(secret)); err != nil || got.ID != k.ID {
		t.Fatalf("key after reopen: %+v, %v", got, err)
	}
	// And the sequence continues.
	if err := db.AppendEvents(ctx, Events(t, "s", 50, 1)...); !errors.Is(err, store.ErrSeqConflict) {
		t.Fatalf("reused seq after reopen: %v", err)
	}
	if err := db.AppendEvents(ctx, Events(t, "s", 51, 1)...); err != nil {
		t.Fatal(err)
	}
}

func testClose(t *testing.T, b Backend) {
	ctx := context.Background()
	db := open(t, b)
	PutSession(t, db, "s", "")
	for i := range 3 {
		if err := db.Close(); err != nil {
			t.Fatalf("Close #%d: %v", i+1, err)
		}
	}
	k, _ := NewKey(t, "k", false)
	calls := map[string]error{
		"PutSession":    db.PutSession(ctx, store.Session{ID: "x"}),
		"DeleteSession": db.DeleteSession(ctx, "s"),
		"AppendEvents":  db.AppendEvents(ctx, Events(t, "s", 1, 1)...),
		"PutAPIKey":     db.PutAPIKey(ctx, k),
		"RevokeAPIKey":  db.RevokeAPIKey(ctx, k.ID),
	}
	_, calls["GetSession"] = db.GetSession(ctx, "s")
	_, calls["FindSession"] = db.FindSession(ctx, "", "s")
	_, calls["ListSessions"] = db.ListSessions(ctx, "")
	_, calls["Events"] = db.Events(ctx, "s", 0, 0)
	_, calls["APIKeyByHash"] = db.APIKeyByHash(ctx, k.Hash)
	_, calls["ListAPIKeys"] = db.ListAPIKeys(ctx)
	if us, ok := db.(store.UsageStore); ok {
		calls["AddModelUsage"] = us.AddModelUsage(ctx, []store.ModelUsage{{SessionID: "s", Requests: 1}})
		_, calls["ModelUsage"] = us.ModelUsage(ctx)
	}
	for name, err := range calls {
		if !errors.Is(err, store.ErrClosed) {
			t.Errorf("%s after Close: %v, want ErrClosed", name, err)
		}
	}
}

// Closing the store while goroutines use it: every call either works or
// fails with an error; nothing panics or hangs.
func testCloseWhileBusy(t *testing.T, b Backend) {
	ctx := context.Background()
	db := open(t, b)
	var wg sync.WaitGroup
	running := make(chan struct{}, 4)
	for g := range 4 {
		id := fmt.Sprintf("s%d", g)
		PutSession(t, db, id, "")
		wg.Go(func() {
			for i := uint64(1); ; i++ {
				var err error
				if g%2 == 0 {
					err = db.AppendEvents(ctx, store.Event{SessionID: id, Seq: i, Type: "answer"})
				} else {
					_, err = db.Events(ctx, id, 0, 10)
				}
				if i == 1 {
					running <- struct{}{}
				}
				if err != nil {
					// Either the store saw the close, or its driver did.
					if !errors.Is(err, store.ErrClosed) && !strings.Contains(err.Error(), "closed") {
						t.Errorf("goroutine %d: unexpected error %v", g, err)
					}
					return
				}
			}
		})
	}
	for range 4 {
		<-running
	}
	if err := db.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	wg.Wait()
}

// Many goroutines append to their own sessions while others read; no
// event is lost or reordered.
func testConcurrentAppends(t *testing.T, b Backend) {
	ctx := context.Background()
	db := open(t, b)
	const (
		writers = 16
		batches = 25
		batch   = 4
	)
	for w := range writers {
		PutSession(t, db, fmt.Sprintf("s%02d", w), fmt.Sprintf("owner%d", w%3))
	}
	var wg sync.WaitGroup
	done := make(chan struct{})
	for w := range writers {
		id := fmt.Sprintf("s%02d", w)
		wg.Go(func() {
			for b := range batches {
				if err := db.AppendEvents(ctx, Events(t, id, uint64(b*batch+1), batch)...); err != nil {
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

	want := SeqRange(1, batches*batch)
	for w := range writers {
		id := fmt.Sprintf("s%02d", w)
		es, err := db.Events(ctx, id, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(Seqs(es), want) {
			t.Fatalf("%s: %d events, want %d", id, len(es), len(want))
		}
		s, err := db.GetSession(ctx, id)
		if err != nil || s.LastSeq != uint64(batches*batch) {
			t.Fatalf("%s: %+v, %v", id, s, err)
		}
	}
}

// Writers racing on one session with the same seqs: each seq is stored
// once, and the losers get ErrSeqConflict.
func testConcurrentAppendsSameSession(t *testing.T, b Backend) {
	db := open(t, b)
	PutSession(t, db, "s", "")
	raceAppends(t, []store.Store{db}, "s")
}

// The same race through two handles on one database, as two daemons
// sharing a store would run it; batches span two sessions, in either
// order, so a store that locks them must not deadlock.
func testTwoHandlesRaceOnOneSession(t *testing.T, b Backend) {
	where := b.NewDatabase(t)
	first, second := openAt(t, b, where), openAt(t, b, where)
	PutSession(t, first, "s", "")
	raceAppends(t, []store.Store{first, second}, "s")

	ctx := context.Background()
	PutSession(t, first, "x", "")
	PutSession(t, first, "y", "")
	var wg sync.WaitGroup
	var conflicts atomic.Int64
	for w := range 4 {
		db := []store.Store{first, second}[w%2]
		wg.Go(func() {
			for seq := uint64(1); seq <= 20; seq++ {
				pair := []store.Event{{SessionID: "x", Seq: seq, Type: "answer"}, {SessionID: "y", Seq: seq, Type: "answer"}}
				if w >= 2 {
					pair[0], pair[1] = pair[1], pair[0]
				}
				err := db.AppendEvents(ctx, pair...)
				switch {
				case errors.Is(err, store.ErrSeqConflict):
					conflicts.Add(1)
				case err != nil:
					t.Errorf("writer %d seq %d: %v", w, seq, err)
					return
				}
			}
		})
	}
	wg.Wait()
	for _, id := range []string{"x", "y"} {
		if es, _ := second.Events(ctx, id, 0, 0); !slices.Equal(Seqs(es), SeqRange(1, 20)) {
			t.Fatalf("%s: stored %v", id, Seqs(es))
		}
	}
	if conflicts.Load() != 3*20 {
		t.Fatalf("%d conflicts, want %d", conflicts.Load(), 3*20)
	}
}

// raceAppends has 8 writers, spread over dbs, append seqs 1..20 to one
// session: each seq is stored once and exactly one writer wins it.
func raceAppends(t *testing.T, dbs []store.Store, id string) {
	t.Helper()
	ctx := context.Background()
	const writers, n = 8, 20
	var (
		wg        sync.WaitGroup
		mu        sync.Mutex
		won, lost int
	)
	for w := range writers {
		db := dbs[w%len(dbs)]
		wg.Go(func() {
			for seq := uint64(1); seq <= n; seq++ {
				err := db.AppendEvents(ctx, store.Event{SessionID: id, Seq: seq, Type: "answer"})
				mu.Lock()
				switch {
				case err == nil:
					won++
				case errors.Is(err, store.ErrSeqConflict):
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
	for _, db := range dbs {
		if es, _ := db.Events(ctx, id, 0, 0); !slices.Equal(Seqs(es), SeqRange(1, n)) {
			t.Fatalf("stored %v", Seqs(es))
		}
		if s, _ := db.GetSession(ctx, id); s.LastSeq != n {
			t.Fatalf("LastSeq %d, want %d", s.LastSeq, n)
		}
	}
	if won != n {
		t.Fatalf("%d appends succeeded, want %d", won, n)
	}
}

// Two handles racing to create one owner's session under one public ID
// (two daemons taking the same create request): one wins, the others get
// ErrExists, and one session is stored.
func testTwoHandlesRaceToCreate(t *testing.T, b Backend) {
	ctx := context.Background()
	where := b.NewDatabase(t)
	dbs := []store.Store{openAt(t, b, where), openAt(t, b, where)}
	const rounds, racers = 10, 6
	for r := range rounds {
		public := fmt.Sprintf("demo%d", r)
		var (
			wg     sync.WaitGroup
			won    atomic.Int64
			exists atomic.Int64
		)
		for i := range racers {
			wg.Go(func() {
				s := store.Session{ID: fmt.Sprintf("%s~n%d", public, i), PublicID: public, Nonce: fmt.Sprintf("n%d", i), Owner: "alice"}
				switch err := dbs[i%2].PutSession(ctx, s); {
				case err == nil:
					won.Add(1)
				case errors.Is(err, store.ErrExists):
					exists.Add(1)
				default:
					t.Errorf("round %d racer %d: %v", r, i, err)
				}
			})
		}
		wg.Wait()
		if won.Load() != 1 || exists.Load() != racers-1 {
			t.Fatalf("round %d: %d won, %d got ErrExists; want 1 and %d", r, won.Load(), exists.Load(), racers-1)
		}
		list, err := dbs[0].ListSessions(ctx, "alice")
		if err != nil || len(list) != r+1 {
			t.Fatalf("round %d: %d sessions stored, %v", r, len(list), err)
		}
		if got, err := dbs[1].FindSession(ctx, "alice", public); err != nil || got.PublicID != public {
			t.Fatalf("round %d: find %s = %+v, %v", r, public, got, err)
		}
	}
}
