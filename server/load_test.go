package server_test

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/testkit"
)

// Many WebSocket clients, each with its own session and many turns: no
// event lost or repeated, and the daemon's memory stays bounded.
func TestManyWebSocketClients(t *testing.T) {
	clients, turns := 200, 20
	if testing.Short() {
		clients, turns = 20, 5
	}
	d := newDaemon(t)
	for i := range clients {
		d.Create(t, d.alice, map[string]any{"id": fmt.Sprintf("load-%d", i)})
	}
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	for i := range clients {
		wg.Go(func() {
			c, err := testkit.DialWS(ctx, d.url, d.alice)
			if err != nil {
				errs <- err
				return
			}
			defer c.Close()
			session := fmt.Sprintf("load-%d", i)
			var next uint64 = 1
			for turn := range turns {
				evs, err := c.Execute(ctx, fmt.Sprintf("t%d", turn), session, fmt.Sprintf("blocks:3 turn %d", turn))
				if err != nil {
					errs <- fmt.Errorf("%s turn %d: %w", session, turn, err)
					return
				}
				answers := 0
				for _, e := range evs {
					if e.ID != next {
						errs <- fmt.Errorf("%s: event %d after %d: lost or repeated", session, e.ID, next-1)
						return
					}
					next++
					if e.Event == event.TypeAnswer {
						answers++
					}
				}
				if answers != 3 || evs[len(evs)-1].Event != event.TypeResult {
					errs <- fmt.Errorf("%s turn %d: %d answers, last %s", session, turn, answers, evs[len(evs)-1].Event)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	var after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&after)
	grew := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	// The rings keep at most 64 events per session; beyond that nothing
	// may accumulate with the number of turns.
	if limit := int64(clients) * 200 << 10; grew > limit {
		t.Fatalf("heap grew by %d KiB for %d sessions", grew>>10, clients)
	}
	t.Logf("%d clients × %d turns; heap grew %d KiB", clients, turns, grew>>10)
}
