package engine_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/internal/proc"
)

// grants is an Ownership that records what it granted, refuses the
// sessions it is told another node holds, and can take a grant away.
type grants struct {
	mu        sync.Mutex
	elsewhere map[string]bool
	live      map[string]*grant
	claims    int
	released  int
}

type grant struct {
	lost     chan struct{}
	once     sync.Once
	released bool
}

func newGrants() *grants {
	return &grants{elsewhere: map[string]bool{}, live: map[string]*grant{}}
}

func (g *grants) Claim(_ context.Context, id string) (engine.Claim, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.elsewhere[id] {
		return nil, fmt.Errorf("%w: node-2 has %s", engine.ErrNotOwner, id)
	}
	if g.live[id] != nil {
		return nil, fmt.Errorf("granted %s twice", id)
	}
	c := &grant{lost: make(chan struct{})}
	g.live[id] = c
	g.claims++
	return &claimOf{g: g, id: id, c: c}, nil
}

// take makes the session's grant lost, as an expired lease is.
func (g *grants) take(id string) {
	g.mu.Lock()
	c := g.live[id]
	g.mu.Unlock()
	c.once.Do(func() { close(c.lost) })
}

func (g *grants) held(id string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.live[id] != nil
}

type claimOf struct {
	g  *grants
	id string
	c  *grant
}

func (c *claimOf) Lost() <-chan struct{} { return c.c.lost }

func (c *claimOf) Release(context.Context) error {
	c.g.mu.Lock()
	defer c.g.mu.Unlock()
	if c.c.released {
		return errors.New("released twice")
	}
	c.c.released = true
	c.g.released++
	if c.g.live[c.id] == c.c {
		delete(c.g.live, c.id)
	}
	return nil
}

// A process runs only under a grant, which it keeps while it lives and
// gives up when it ends, however it ends.
func TestOwnershipIsHeldWhileTheProcessLives(t *testing.T) {
	g := newGrants()
	f := newFixture(t, engine.EngineOptions{Ownership: g})
	ctx := context.Background()

	f.mustRun(t, "o", "one")
	if !g.held("o") {
		t.Fatal("a live process without a grant")
	}
	f.mustRun(t, "o", "two") // the same process: no second claim
	if err := f.eng.Hibernate(ctx, "o"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the hibernated session's grant to go", func() bool { return !g.held("o") })
	f.mustRun(t, "o", "three")
	if !g.held("o") {
		t.Fatal("the resumed process has no grant")
	}
	if err := f.eng.TerminateSession("o"); err != nil {
		t.Fatal(err)
	}
	if g.held("o") {
		t.Fatal("a terminated session kept its grant")
	}
	f.mustRun(t, "p", "one")
	if err := f.eng.Close(); err != nil {
		t.Fatal(err)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.claims != 3 || g.released != 3 || len(g.live) != 0 {
		t.Fatalf("claims %d, released %d, still held %v", g.claims, g.released, g.live)
	}
}

// A session another node holds is not started here: the turn fails with
// ErrNotOwner and no process runs.
func TestOwnershipElsewhereStartsNothing(t *testing.T) {
	g := newGrants()
	g.elsewhere["theirs"] = true
	f := newFixture(t, engine.EngineOptions{Ownership: g})
	_, err := f.run(t, "theirs", "hello")
	if !errors.Is(err, engine.ErrNotOwner) {
		t.Fatalf("turn on a session held elsewhere: %v", err)
	}
	if s, ok := f.eng.GetSession("theirs"); ok && (s.PID != 0 || s.Status.Live()) {
		t.Fatalf("a process was started: %+v", s)
	}
	// Once the other node lets go, it starts here.
	g.mu.Lock()
	delete(g.elsewhere, "theirs")
	g.mu.Unlock()
	f.mustRun(t, "theirs", "hello again")
}

// A lost grant ends the process at once, idle or not; the next turn
// claims again and resumes the conversation in a new process.
func TestOwnershipLostEndsTheProcess(t *testing.T) {
	g := newGrants()
	f := newFixture(t, engine.EngineOptions{Ownership: g})
	pid := f.mustRun(t, "l", "remember the otter").First(event.TypeSessionStart).PID
	g.take("l")
	waitFor(t, "the process of a lost session to end", func() bool { return !proc.Alive(pid) })

	r := f.mustRun(t, "l", "history")
	st := r.First(event.TypeSessionStart)
	if st == nil || st.PID == pid || !st.Resumed {
		t.Fatalf("want a resumed new process, got %+v", st)
	}
	if !g.held("l") {
		t.Fatal("the new process has no grant")
	}
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
