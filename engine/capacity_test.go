package engine_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/internal/proc"
	"github.com/hotplex/hotplex/provider/claude"
	"github.com/hotplex/hotplex/testkit"
)

func (f *fixture) runAs(t *testing.T, owner, id, prompt string) (*testkit.Recorder, error) {
	t.Helper()
	r := &testkit.Recorder{}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	err := f.eng.Execute(ctx, &engine.Config{SessionID: id, WorkDir: f.dir, Owner: owner}, prompt, r.Callback)
	return r, err
}

func status(t *testing.T, f *fixture, id string) engine.SessionStatus {
	t.Helper()
	s, ok := f.eng.GetSession(id)
	if !ok {
		t.Fatalf("session %s not found", id)
	}
	return s.Status
}

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestHibernateThenResumeKeepsTheConversation(t *testing.T) {
	f := newFixture(t, engine.EngineOptions{MaxResident: 1})
	first := f.mustRun(t, "a", "remember the lighthouse").First(event.TypeSessionStart)
	f.mustRun(t, "b", "hello")
	if st := status(t, f, "a"); st != engine.StatusHibernated {
		t.Fatalf("a is %s, want hibernated", st)
	}
	waitFor(t, "a's process to end", func() bool { return !proc.Alive(first.PID) })
	listed := false
	for _, s := range f.eng.ListActiveSessions() {
		if s.ID == "a" && s.Status == engine.StatusHibernated && s.PID == 0 {
			listed = true
		}
	}
	if !listed {
		t.Fatal("hibernated session not listed as hibernated")
	}
	r := f.mustRun(t, "a", "history")
	st := r.First(event.TypeSessionStart)
	if !st.ColdStart || !st.Resumed || st.PID == first.PID || st.ProviderSessionID != first.ProviderSessionID {
		t.Fatalf("resume after hibernation: %+v", st.SessionStart)
	}
	if got := r.First(event.TypeAnswer).EventData; !strings.Contains(got, "remember the lighthouse") {
		t.Fatalf("history lost across hibernation: %q", got)
	}
	if st := status(t, f, "b"); st != engine.StatusHibernated {
		t.Fatalf("b is %s, want hibernated to make room for a", st)
	}
	ps := f.eng.PoolStats()
	if ps.Resident != 1 || ps.Hibernated != 1 || ps.Hibernations != 2 || ps.ColdStarts != 2 || ps.Resumes != 1 {
		t.Fatalf("pool stats = %+v", ps)
	}
}

func TestBusySessionsAreNeverHibernated(t *testing.T) {
	f := newFixture(t, engine.EngineOptions{MaxResident: 1, StartQueueTimeout: 10 * time.Second})
	f.mustRun(t, "busy", "warm up")
	done := make(chan error, 1)
	go func() {
		_, err := f.run(t, "busy", "sleep:700 long turn")
		done <- err
	}()
	waitFor(t, "busy to run its turn", func() bool { return status(t, f, "busy") == engine.StatusRunning })
	begin := time.Now()
	r := f.mustRun(t, "other", "hello")
	if err := <-done; err != nil {
		t.Fatalf("the busy turn failed: %v", err)
	}
	// The other turn had to wait for the long one to end, then got the
	// slot by hibernating it.
	if time.Since(begin) < 300*time.Millisecond {
		t.Fatalf("a start took the slot of a busy session after %v", time.Since(begin))
	}
	if q := r.First(event.TypeSessionStart).QueuedMs; q < 300 {
		t.Fatalf("queued_ms = %d, want the wait reported", q)
	}
	if st := status(t, f, "busy"); st != engine.StatusHibernated {
		t.Fatalf("busy is %s after its turn, want hibernated", st)
	}
}

// A burst of 50 new conversations on 10 resident slots: every turn is
// answered or refused with ErrOverloaded, none hangs, the bound holds, and
// every answered conversation keeps its history through hibernation.
func TestBurstOnMaxResident(t *testing.T) {
	f := newFixture(t, engine.EngineOptions{MaxResident: 10, MaxConcurrentStarts: 2, MaxQueuedStarts: 24, StartQueueTimeout: 20 * time.Second})
	const n = 50
	var (
		wg       sync.WaitGroup
		answered atomic.Int32
		refused  atomic.Int32
		maxRes   atomic.Int32
		stop     = make(chan struct{})
		sampler  sync.WaitGroup
		errs     = make([]error, n)
	)
	sampler.Go(func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
			ps := f.eng.PoolStats()
			if int32(ps.Resident) > maxRes.Load() {
				maxRes.Store(int32(ps.Resident))
			}
		}
	})
	for i := range n {
		wg.Go(func() {
			r, err := f.run(t, fmt.Sprintf("c%d", i), fmt.Sprintf("sleep:20 first prompt of c%d", i))
			errs[i] = err
			switch {
			case err == nil:
				if r.First(event.TypeResult) == nil {
					t.Errorf("c%d: no result event", i)
				}
				answered.Add(1)
			case errors.Is(err, engine.ErrOverloaded):
				if engine.RetryAfter(err) <= 0 {
					t.Errorf("c%d: overloaded without a retry hint: %v", i, err)
				}
				refused.Add(1)
			default:
				t.Errorf("c%d: %v", i, err)
			}
		})
	}
	wg.Wait()
	close(stop)
	sampler.Wait()
	if answered.Load()+refused.Load() != n || answered.Load() == 0 {
		t.Fatalf("answered %d, refused %d of %d", answered.Load(), refused.Load(), n)
	}
	if refused.Load() == 0 {
		t.Fatalf("no turn was refused although %d starts queue at most", 24)
	}
	if m := maxRes.Load(); m > 10 {
		t.Fatalf("resident reached %d, limit 10", m)
	}
	ps := f.eng.PoolStats()
	if ps.Resident > 10 || ps.Hibernations == 0 || ps.Rejections != uint64(refused.Load()) || ps.Queued != 0 || ps.Starting != 0 {
		t.Fatalf("pool stats = %+v", ps)
	}
	t.Logf("answered %d, refused %d, stats %+v", answered.Load(), refused.Load(), ps)
	// Second turns: the answered conversations remember their first prompt.
	for i := range n {
		if errs[i] != nil {
			continue
		}
		id := fmt.Sprintf("c%d", i)
		r := f.mustRun(t, id, "history")
		if got := r.First(event.TypeAnswer).EventData; !strings.Contains(got, "first prompt of "+id) {
			t.Fatalf("%s lost its history: %q", id, got)
		}
	}
}

func TestOverloadedFailsFast(t *testing.T) {
	f := newFixture(t, engine.EngineOptions{
		MaxConcurrentStarts: 1, MaxQueuedStarts: 1,
		Env: append(os.Environ(), "HOME="+t.TempDir(), "FAKEAGENT_START_DELAY_MS=400"),
	})
	var wg sync.WaitGroup
	errs := make([]error, 4)
	took := make([]time.Duration, 4)
	for i := range 4 {
		wg.Go(func() {
			begin := time.Now()
			_, errs[i] = f.run(t, fmt.Sprintf("o%d", i), "hi")
			took[i] = time.Since(begin)
		})
		time.Sleep(50 * time.Millisecond)
	}
	wg.Wait()
	var ok, over int
	for i, err := range errs {
		switch {
		case err == nil:
			ok++
		case errors.Is(err, engine.ErrOverloaded):
			over++
			if took[i] > 350*time.Millisecond { // a queued start would wait at least 400 ms
				t.Errorf("refusal took %v, want it at once", took[i])
			}
		default:
			t.Fatalf("o%d: %v", i, err)
		}
	}
	if ok != 2 || over != 2 {
		t.Fatalf("%d answered, %d refused; want one running and one queued to pass", ok, over)
	}
}

// One owner's burst does not starve another: with one start at a time,
// bob's single turn is served right after the start under way, not behind
// alice's queue.
func TestStartQueueIsFairBetweenOwners(t *testing.T) {
	f := newFixture(t, engine.EngineOptions{
		MaxConcurrentStarts: 1,
		Env:                 append(os.Environ(), "HOME="+t.TempDir(), "FAKEAGENT_START_DELAY_MS=150"),
	})
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		order []string
	)
	note := func(who string) {
		mu.Lock()
		order = append(order, who)
		mu.Unlock()
	}
	for i := range 6 {
		wg.Go(func() {
			if _, err := f.runAs(t, "alice", fmt.Sprintf("alice-%d", i), "hi"); err != nil {
				t.Error(err)
			}
			note("alice")
		})
	}
	time.Sleep(100 * time.Millisecond) // alice's burst is queued
	wg.Go(func() {
		if _, err := f.runAs(t, "bob", "bob-0", "hi"); err != nil {
			t.Error(err)
		}
		note("bob")
	})
	wg.Wait()
	pos := -1
	for i, who := range order {
		if who == "bob" {
			pos = i
		}
	}
	if pos < 0 || pos > 2 {
		t.Fatalf("bob finished at position %d of %v; the queue is not fair", pos, order)
	}
}

func TestPerOwnerQuota(t *testing.T) {
	f := newFixture(t, engine.EngineOptions{PerOwnerResident: 2})
	for i := range 3 {
		f.runAs(t, "alice", fmt.Sprintf("a%d", i), "hi")
	}
	for i := range 2 {
		if _, err := f.runAs(t, "bob", fmt.Sprintf("b%d", i), "hi"); err != nil {
			t.Fatal(err)
		}
	}
	// Alice's oldest made room for her third; bob's are his own.
	want := map[string]engine.SessionStatus{"a0": engine.StatusHibernated, "a1": engine.StatusIdle, "a2": engine.StatusIdle, "b0": engine.StatusIdle, "b1": engine.StatusIdle}
	for id, st := range want {
		if got := status(t, f, id); got != st {
			t.Errorf("%s is %s, want %s", id, got, st)
		}
	}
	// Alice busy on both her slots: her third waits, bob is not held up.
	var wg sync.WaitGroup
	for _, id := range []string{"a1", "a2"} {
		wg.Go(func() {
			if _, err := f.runAs(t, "alice", id, "sleep:600 busy"); err != nil {
				t.Error(err)
			}
		})
	}
	waitFor(t, "alice's sessions to be busy", func() bool {
		return status(t, f, "a1") == engine.StatusRunning && status(t, f, "a2") == engine.StatusRunning
	})
	aliceDone := make(chan time.Time, 1)
	wg.Go(func() {
		if _, err := f.runAs(t, "alice", "a0", "history"); err != nil {
			t.Error(err)
		}
		aliceDone <- time.Now()
	})
	time.Sleep(50 * time.Millisecond)
	if _, err := f.runAs(t, "bob", "b2", "hi"); err != nil {
		t.Fatal(err)
	}
	bobDone := time.Now()
	wg.Wait()
	if !(<-aliceDone).After(bobDone) {
		t.Fatal("alice's third session started while her quota was full of busy sessions")
	}
	if st := status(t, f, "b0"); st != engine.StatusHibernated {
		t.Fatalf("b0 is %s, want hibernated for bob's third", st)
	}
	ps := f.eng.PoolStats()
	if ps.Resident != 4 {
		t.Fatalf("resident %d, want 2 per owner: %+v", ps.Resident, ps)
	}
}

func TestSparesAreClaimedAndRefilled(t *testing.T) {
	f := newFixture(t, engine.EngineOptions{Spares: 1, MaxResident: 2, BaseSystemPrompt: "base rules"})
	waitFor(t, "a spare", func() bool { return f.eng.PoolStats().Spares == 1 })
	spares := f.eng.PoolStats()
	r := &testkit.Recorder{}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := f.eng.Execute(ctx, &engine.Config{SessionID: "n1", WorkDir: f.dir, TaskInstructions: "task rules"}, "sysprompt", r.Callback); err != nil {
		t.Fatal(err)
	}
	st := r.First(event.TypeSessionStart)
	if !st.Spare || !st.ColdStart || st.Resumed {
		t.Fatalf("first turn did not claim the spare: %+v", st.SessionStart)
	}
	if st.ProviderSessionID == "" || st.ProviderSessionID == engine.ProviderSessionID("", "n1") {
		t.Fatalf("provider session ID %q is not the one the spare chose", st.ProviderSessionID)
	}
	if got := r.First(event.TypeAnswer).EventData; !strings.Contains(got, "base rules") || !strings.Contains(got, "task rules") {
		t.Fatalf("the claimed spare runs without the session's system prompt: %q", got)
	}
	if sess, _ := f.eng.GetSession("n1"); sess.ProviderSessionID != st.ProviderSessionID || sess.Config.WorkDir != f.dir {
		t.Fatalf("session = %+v", sess)
	}
	waitFor(t, "the spare to be refilled", func() bool { ps := f.eng.PoolStats(); return ps.Spares == 1 && ps.SpareStarts == 2 })
	ps := f.eng.PoolStats()
	if ps.SpareClaims != 1 || ps.ColdStarts != 0 || spares.SpareStarts != 1 {
		t.Fatalf("pool stats = %+v", ps)
	}
	f.mustRun(t, "n1", "second prompt")

	// Hibernation resumes the conversation under the ID the spare chose.
	// Two resident slots: n2 takes the spare, n3 needs n1's slot.
	if st := f.mustRun(t, "n2", "hi").First(event.TypeSessionStart); !st.Spare {
		t.Fatalf("n2 did not claim the refilled spare: %+v", st.SessionStart)
	}
	f.mustRun(t, "n3", "hi")
	if got := status(t, f, "n1"); got != engine.StatusHibernated {
		t.Fatalf("n1 is %s, want hibernated", got)
	}
	r2 := f.mustRun(t, "n1", "history")
	st2 := r2.First(event.TypeSessionStart)
	if !st2.Resumed || st2.Spare || st2.ProviderSessionID != st.ProviderSessionID {
		t.Fatalf("resume of a spare-started session: %+v", st2.SessionStart)
	}
	if got := r2.First(event.TypeAnswer).EventData; !strings.Contains(got, "sysprompt | second prompt") {
		t.Fatalf("history after hibernation: %q", got)
	}

	// After a restart the saved ID brings the conversation back.
	if err := f.eng.TerminateSession("n1"); err != nil {
		t.Fatal(err)
	}
	if err := f.eng.RestoreSession("n1", engine.SessionConfig{WorkDir: f.dir, ProviderSessionID: st.ProviderSessionID}, 0, nil); err != nil {
		t.Fatal(err)
	}
	r3 := f.mustRun(t, "n1", "history")
	if got := r3.First(event.TypeAnswer).EventData; !strings.Contains(got, "second prompt") || !r3.First(event.TypeSessionStart).Resumed {
		t.Fatalf("history after restore: %q", got)
	}
}

// A conversation that already exists on disk is resumed by a start, never
// handed a spare that would begin it afresh.
func TestExistingConversationSkipsTheSpare(t *testing.T) {
	f := newFixture(t, engine.EngineOptions{Spares: 1})
	// Another engine without spares, on the same CLI home, had the
	// conversation first.
	o := f.opts
	o.Spares = 0
	other, err := engine.NewEngine(o)
	if err != nil {
		t.Fatal(err)
	}
	r := &testkit.Recorder{}
	if err := other.Execute(context.Background(), &engine.Config{SessionID: "x", WorkDir: f.dir}, "from before", r.Callback); err != nil {
		t.Fatal(err)
	}
	_ = other.Close()
	waitFor(t, "a spare", func() bool { return f.eng.PoolStats().Spares == 1 })
	r = f.mustRun(t, "x", "history")
	if st := r.First(event.TypeSessionStart); st.Spare || !st.Resumed || st.ProviderSessionID != engine.ProviderSessionID("", "x") {
		t.Fatalf("existing conversation: %+v", st.SessionStart)
	}
	if got := r.First(event.TypeAnswer).EventData; !strings.Contains(got, "from before") {
		t.Fatalf("history: %q", got)
	}
	if ps := f.eng.PoolStats(); ps.Spares != 1 || ps.SpareClaims != 0 || ps.Resumes != 1 {
		t.Fatalf("the spare was used for an existing conversation: %+v", ps)
	}
}

func TestSparesNeverExceedTheLimit(t *testing.T) {
	f := newFixture(t, engine.EngineOptions{Spares: 2, MaxResident: 2})
	waitFor(t, "spares", func() bool { return f.eng.PoolStats().Spares == 2 })
	f.mustRun(t, "a", "hi") // claims one
	f.mustRun(t, "b", "hi") // claims the other
	f.mustRun(t, "c", "hi") // hibernates a
	time.Sleep(300 * time.Millisecond)
	ps := f.eng.PoolStats()
	if ps.Resident+ps.Spares > 2 {
		t.Fatalf("resident %d + spares %d over the limit of 2", ps.Resident, ps.Spares)
	}
	if st := status(t, f, "a"); st != engine.StatusHibernated {
		t.Fatalf("a is %s", st)
	}
}

func TestMemoryBudgetHibernates(t *testing.T) {
	f := newFixture(t, engine.EngineOptions{MemoryBudget: 1})
	f.mustRun(t, "m1", "hi")
	rss := f.eng.Pool().MeasureRSS()
	if rss <= 0 {
		t.Fatalf("measured RSS %d", rss)
	}
	f.mustRun(t, "m2", "hi")
	if st := status(t, f, "m1"); st != engine.StatusHibernated {
		t.Fatalf("m1 is %s under a budget that fits no second session", st)
	}
	if ps := f.eng.PoolStats(); ps.Resident != 1 || ps.ResidentRSS <= 0 || ps.MemoryBudget != 1 {
		t.Fatalf("pool stats = %+v", ps)
	}
}

// A session created ahead of its first turn (as the daemon creates them)
// claims a spare like any new conversation.
func TestCreatedSessionClaimsASpare(t *testing.T) {
	f := newFixture(t, engine.EngineOptions{Spares: 1})
	if err := f.eng.CreateSession("reg", engine.SessionConfig{WorkDir: f.dir, Owner: "carol"}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "a spare", func() bool { return f.eng.PoolStats().Spares == 1 })
	r := f.mustRun(t, "reg", "hello")
	if st := r.First(event.TypeSessionStart); !st.Spare || st.Resumed {
		t.Fatalf("registered session: %+v", st.SessionStart)
	}
	if s, _ := f.eng.GetSession("reg"); s.Owner != "carol" {
		t.Fatalf("owner = %q", s.Owner)
	}
}

// A session being hibernated is not busy: a fail-fast turn waits for its
// process to end and resumes it.
func TestHibernatingSessionIsNotBusy(t *testing.T) {
	f := newFixture(t, engine.EngineOptions{MaxResident: 1, FailFastWhenBusy: true}, func(o *claude.Options) {
		o.TerminateGrace = 2 * time.Second
	})
	// After its answer h1 keeps writing for a while, so its process takes
	// that long to end when hibernated.
	f.mustRun(t, "h1", "stale:1000 hello")
	f.mustRun(t, "h2", "hello") // hibernates h1
	r, err := f.run(t, "h1", "history")
	if err != nil {
		t.Fatalf("turn on a hibernating session: %v", err)
	}
	if !r.First(event.TypeSessionStart).Resumed {
		t.Fatalf("not resumed: %+v", r.First(event.TypeSessionStart).SessionStart)
	}
}
