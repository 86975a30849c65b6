package engine_test

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/internal/clocktest"
	"github.com/hotplex/hotplex/internal/fakeprovider"
	"github.com/hotplex/hotplex/testkit"
)

// fake is an engine on the in-memory provider and a fake clock: no
// process, no sleep. Tests of the engine's own logic run on it; the ones
// where a real process's behaviour matters use newFixture. A test that
// must show something does not happen (a turn still waits) runs in a
// testing/synctest bubble, whose Wait returns when nothing more can.
type fake struct {
	eng   *engine.Engine
	prov  *fakeprovider.Provider
	clock *clocktest.Clock
	dir   string
	opts  engine.EngineOptions
}

// newFake starts an engine on prov (a new provider "fake" when nil;
// prewarming when opts.Spares is set). Its cleanup closes the engine and
// checks that every process ended and no two processes of one
// conversation ever ran at once.
func newFake(t *testing.T, opts engine.EngineOptions, prov *fakeprovider.Provider) *fake {
	t.Helper()
	if prov == nil {
		prov = fakeprovider.New("fake")
	}
	f := &fake{prov: prov, clock: clocktest.New(), dir: t.TempDir()}
	if opts.Provider == nil {
		opts.Provider = prov
		if opts.Spares > 0 {
			opts.Provider = prov.WithSpares()
		}
	}
	if opts.Clock == nil {
		opts.Clock = f.clock
	}
	opts.DisableProcessIsolation = true
	if opts.IdleTimeout == 0 {
		opts.IdleTimeout = -1
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	f.opts = opts
	eng, err := engine.NewEngine(opts)
	if err != nil {
		t.Fatal(err)
	}
	f.eng = eng
	t.Cleanup(func() {
		_ = eng.Close()
		if n := prov.Live(); n != 0 {
			t.Errorf("%d fake processes outlived the engine", n)
		}
		if o := prov.Overlaps(); len(o) > 0 {
			t.Errorf("two processes of one conversation ran at once: %v", o)
		}
	})
	return f
}

// ctx bounds a wait of the test; it ends only when something hangs.
func testCtx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return c
}

func (f *fake) runAs(t *testing.T, owner, id, prompt string) (*testkit.Recorder, error) {
	t.Helper()
	r := &testkit.Recorder{}
	err := f.eng.Execute(testCtx(t), &engine.Config{SessionID: id, WorkDir: f.dir, Owner: owner}, prompt, r.Callback)
	return r, err
}

func (f *fake) run(t *testing.T, id, prompt string) (*testkit.Recorder, error) {
	t.Helper()
	return f.runAs(t, "", id, prompt)
}

func (f *fake) mustRun(t *testing.T, id, prompt string) *testkit.Recorder {
	t.Helper()
	r, err := f.run(t, id, prompt)
	if err != nil {
		t.Fatalf("Execute(%s, %q): %v", id, prompt, err)
	}
	return r
}

// bgTurn is a turn running in the background.
type bgTurn struct {
	rec  *testkit.Recorder
	done chan error
}

// goRun starts a turn in the background.
func (f *fake) goRun(t *testing.T, owner, id, prompt string) *bgTurn {
	t.Helper()
	tr := &bgTurn{rec: &testkit.Recorder{}, done: make(chan error, 1)}
	c := testCtx(t)
	go func() {
		tr.done <- f.eng.Execute(c, &engine.Config{SessionID: id, WorkDir: f.dir, Owner: owner}, prompt, tr.rec.Callback)
	}()
	return tr
}

// wait returns the turn's error.
func (tr *bgTurn) wait(t *testing.T) error {
	t.Helper()
	select {
	case err := <-tr.done:
		return err
	case <-testCtx(t).Done():
		t.Fatal("the turn never ended")
		return nil
	}
}

// finished reports whether the turn has ended, without waiting.
func (tr *bgTurn) finished() bool { return len(tr.done) > 0 }

func (f *fake) status(t *testing.T, id string) engine.SessionStatus {
	t.Helper()
	s, ok := f.eng.GetSession(id)
	if !ok {
		t.Fatalf("session %s not found", id)
	}
	return s.Status
}

// timers waits until n timers are armed on the clock: as many turns wait
// in the start queue (each arms its timeout) or, with the reaper or the
// spare refill running, those loops are done with their round.
func (f *fake) timers(t *testing.T, n int) {
	t.Helper()
	if err := f.clock.WaitTimers(testCtx(t), n); err != nil {
		t.Fatal(err)
	}
}

// until waits for cond, looking again whenever the engine arms or stops a
// timer; the spare refill re-arms its timer after every round.
func (f *fake) until(t *testing.T, what string, cond func() bool) {
	t.Helper()
	untilClock(t, f.clock, what, cond)
}

// untilClock waits for cond, looking again whenever a timer of clock is
// armed or stopped.
func untilClock(t *testing.T, clock *clocktest.Clock, what string, cond func() bool) {
	t.Helper()
	c := testCtx(t)
	for {
		changed := clock.Changed()
		if cond() {
			return
		}
		select {
		case <-changed:
		case <-c.Done():
			t.Fatalf("never: %s", what)
		}
	}
}

// arrivals waits until n have come to the gate.
func arrivals(t *testing.T, g *fakeprovider.Gate, n int) {
	t.Helper()
	if err := g.WaitArrivals(testCtx(t), n); err != nil {
		t.Fatal(err)
	}
}
