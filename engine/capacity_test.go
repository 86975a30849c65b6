package engine_test

import (
	"errors"
	"fmt"
	"maps"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/internal/fakeprovider"
	"github.com/hotplex/hotplex/provider"
	"github.com/hotplex/hotplex/testkit"
)

func TestHibernateThenResumeKeepsTheConversation(t *testing.T) {
	f := newFake(t, engine.EngineOptions{MaxResident: 1}, nil)
	first := f.mustRun(t, "a", "remember the lighthouse").First(event.TypeSessionStart)
	f.clock.Advance(time.Second)
	f.mustRun(t, "b", "hello")
	if st := f.status(t, "a"); st != engine.StatusHibernated {
		t.Fatalf("a is %s, want hibernated", st)
	}
	listed := false
	for _, s := range f.eng.ListActiveSessions() {
		if s.ID == "a" && s.Status == engine.StatusHibernated && s.PID == 0 {
			listed = true
		}
	}
	if !listed {
		t.Fatal("hibernated session not listed as hibernated")
	}
	f.clock.Advance(time.Second)
	r := f.mustRun(t, "a", "history")
	st := r.First(event.TypeSessionStart)
	if !st.ColdStart || !st.Resumed || st.PID == first.PID || st.ProviderSessionID != first.ProviderSessionID {
		t.Fatalf("resume after hibernation: %+v", st.SessionStart)
	}
	if got := r.First(event.TypeAnswer).EventData; got != "remember the lighthouse" {
		t.Fatalf("history lost across hibernation: %q", got)
	}
	// The resumed process started only once the first one had ended.
	if procs := f.prov.Processes(); !procs[0].Closed() {
		t.Fatal("a's first process was not ended")
	}
	if st := f.status(t, "b"); st != engine.StatusHibernated {
		t.Fatalf("b is %s, want hibernated to make room for a", st)
	}
	ps := f.eng.PoolStats()
	if ps.Resident != 1 || ps.Hibernated != 1 || ps.Hibernations != 2 || ps.ColdStarts != 2 || ps.Resumes != 1 {
		t.Fatalf("pool stats = %+v", ps)
	}
}

// The least recently active idle session is the one hibernated.
func TestHibernationTakesTheLeastRecentlyActive(t *testing.T) {
	f := newFake(t, engine.EngineOptions{MaxResident: 3}, nil)
	for _, id := range []string{"x", "y", "z"} {
		f.mustRun(t, id, "hi")
		f.clock.Advance(time.Second)
	}
	f.mustRun(t, "x", "again") // x is now the most recent; y the least
	f.clock.Advance(time.Second)
	f.mustRun(t, "w", "hi")
	want := map[string]engine.SessionStatus{"w": engine.StatusIdle, "x": engine.StatusIdle, "y": engine.StatusHibernated, "z": engine.StatusIdle}
	for id, st := range want {
		if got := f.status(t, id); got != st {
			t.Errorf("%s is %s, want %s", id, got, st)
		}
	}
}

func TestBusySessionsAreNeverHibernated(t *testing.T) {
	f := newFake(t, engine.EngineOptions{MaxResident: 1, StartQueueTimeout: 10 * time.Second}, nil)
	f.mustRun(t, "busy", "warm up")
	long := f.goRun(t, "", "busy", "wait:long long turn")
	arrivals(t, f.prov.Gate("long"), 1)
	other := f.goRun(t, "", "other", "hello")
	f.timers(t, 1) // other waits in the queue
	if st := f.status(t, "busy"); st != engine.StatusRunning {
		t.Fatalf("busy is %s while its turn runs", st)
	}
	if ps := f.eng.PoolStats(); ps.Queued != 1 || ps.Resident != 1 || ps.Hibernations != 0 {
		t.Fatalf("a start took the slot of a busy session: %+v", ps)
	}
	f.clock.Advance(700 * time.Millisecond)
	f.prov.Gate("long").Open()
	if err := long.wait(t); err != nil {
		t.Fatalf("the busy turn failed: %v", err)
	}
	if err := other.wait(t); err != nil {
		t.Fatal(err)
	}
	// The other turn waited for the long one to end, then got the slot by
	// hibernating it.
	if q := other.rec.First(event.TypeSessionStart).QueuedMs; q != 700 {
		t.Fatalf("queued_ms = %d, want the 700 ms it waited", q)
	}
	if st := f.status(t, "busy"); st != engine.StatusHibernated {
		t.Fatalf("busy is %s after its turn, want hibernated", st)
	}
}

// A burst of 50 new conversations on 10 resident slots, 2 starts at a
// time and 24 queued at most: 2 start, 24 queue and are answered, 24 are
// refused with ErrOverloaded, the bound holds throughout, and every
// answered conversation keeps its history through hibernation.
func TestBurstOnMaxResident(t *testing.T) {
	f := newFake(t, engine.EngineOptions{MaxResident: 10, MaxConcurrentStarts: 2, MaxQueuedStarts: 24}, nil)
	hold := fakeprovider.NewGate()
	f.prov.HoldStarts(hold)
	const n = 50
	var (
		wg       sync.WaitGroup
		answered atomic.Int32
		refused  = make(chan struct{}, n)
		maxRes   atomic.Int32
		errs     = make([]error, n)
	)
	for i := range n {
		wg.Go(func() {
			r := &testkit.Recorder{}
			err := f.eng.Execute(testCtx(t), &engine.Config{SessionID: fmt.Sprintf("c%d", i), WorkDir: f.dir}, fmt.Sprintf("first prompt of c%d", i), func(et string, data any) error {
				if et == event.TypeSessionStart {
					if res := int32(f.eng.PoolStats().Resident); res > maxRes.Load() {
						maxRes.Store(res)
					}
				}
				return r.Callback(et, data)
			})
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
				refused <- struct{}{}
			default:
				t.Errorf("c%d: %v", i, err)
			}
		})
	}
	// Two starts held, 24 turns queued, and the rest refused while the
	// starts are still held: at once.
	arrivals(t, hold, 2)
	f.timers(t, 24)
	for i := range 24 {
		select {
		case <-refused:
		case <-testCtx(t).Done():
			t.Fatalf("%d refusals while the starts are held, want 24", i)
		}
	}
	hold.Open()
	wg.Wait()
	if answered.Load() != 26 || len(refused) != 0 {
		t.Fatalf("answered %d, %d more refused; want 26 and none", answered.Load(), len(refused))
	}
	if m := maxRes.Load(); m > 10 {
		t.Fatalf("resident reached %d, limit 10", m)
	}
	ps := f.eng.PoolStats()
	if ps.Resident > 10 || ps.Hibernations != 16 || ps.Rejections != 24 || ps.Queued != 0 || ps.Starting != 0 {
		t.Fatalf("pool stats = %+v", ps)
	}
	// Second turns: the answered conversations remember their first prompt.
	for i := range n {
		if errs[i] != nil {
			continue
		}
		id := fmt.Sprintf("c%d", i)
		if got := f.mustRun(t, id, "history").First(event.TypeAnswer).EventData; got != "first prompt of "+id {
			t.Fatalf("%s lost its history: %q", id, got)
		}
	}
}

// A turn refused because the queue is full is refused at once: while the
// starts ahead of it are still held.
func TestOverloadedFailsFast(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFake(t, engine.EngineOptions{MaxConcurrentStarts: 1, MaxQueuedStarts: 1}, nil)
		hold := fakeprovider.NewGate()
		f.prov.HoldStarts(hold)
		running := f.goRun(t, "", "o0", "hi")
		arrivals(t, hold, 1)
		queued := f.goRun(t, "", "o1", "hi")
		f.timers(t, 1)
		for _, id := range []string{"o2", "o3"} {
			_, err := f.run(t, id, "hi")
			if !errors.Is(err, engine.ErrOverloaded) || engine.RetryAfter(err) < time.Second {
				t.Fatalf("%s: %v, want ErrOverloaded with a retry hint", id, err)
			}
		}
		synctest.Wait()
		if running.finished() || queued.finished() {
			t.Fatal("the held starts ended before the refusals")
		}
		hold.Open()
		for _, tr := range []*bgTurn{running, queued} {
			if err := tr.wait(t); err != nil {
				t.Fatal(err)
			}
		}
		if ps := f.eng.PoolStats(); ps.Rejections != 2 {
			t.Fatalf("rejections = %d, want 2", ps.Rejections)
		}
	})
}

// A turn that waits in the queue longer than StartQueueTimeout is refused
// with ErrOverloaded, and its place is given up.
func TestStartQueueTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFake(t, engine.EngineOptions{MaxConcurrentStarts: 1, StartQueueTimeout: 5 * time.Second}, nil)
		hold := fakeprovider.NewGate()
		f.prov.HoldStarts(hold)
		first := f.goRun(t, "", "q0", "hi")
		arrivals(t, hold, 1)
		late := f.goRun(t, "", "q1", "hi")
		f.timers(t, 1)
		f.clock.Advance(4 * time.Second)
		synctest.Wait()
		if late.finished() {
			t.Fatal("the queued turn gave up before its timeout")
		}
		f.clock.Advance(time.Second)
		if err := late.wait(t); !errors.Is(err, engine.ErrOverloaded) {
			t.Fatalf("queued past its timeout: %v, want ErrOverloaded", err)
		}
		if ps := f.eng.PoolStats(); ps.Queued != 0 || ps.Rejections != 1 {
			t.Fatalf("pool stats = %+v", ps)
		}
		hold.Open()
		if err := first.wait(t); err != nil {
			t.Fatal(err)
		}
		if st := f.status(t, "q1"); st != engine.StatusError {
			t.Fatalf("refused session is %s, want error", st)
		}
		f.mustRun(t, "q1", "again") // the next turn retries
	})
}

// One owner's burst does not starve another: with one start at a time,
// bob's single turn is served right after the start under way and the
// one alice's turn next in line, not behind all of alice's queue.
func TestStartQueueIsFairBetweenOwners(t *testing.T) {
	f := newFake(t, engine.EngineOptions{MaxConcurrentStarts: 1}, nil)
	hold := fakeprovider.NewGate()
	f.prov.HoldStarts(hold)
	var turns []*bgTurn
	for i := range 6 {
		turns = append(turns, f.goRun(t, "alice", fmt.Sprintf("alice-%d", i), "hi"))
	}
	arrivals(t, hold, 1)
	f.timers(t, 5) // alice's burst is queued
	turns = append(turns, f.goRun(t, "bob", "bob-0", "hi"))
	f.timers(t, 6)
	hold.Open()
	for _, tr := range turns {
		if err := tr.wait(t); err != nil {
			t.Fatal(err)
		}
	}
	var order []string
	for _, o := range f.prov.Starts() {
		order = append(order, o.SessionID)
	}
	pos := -1
	for i, id := range order {
		if id == "bob-0" {
			pos = i
		}
	}
	if pos != 2 {
		t.Fatalf("bob started at position %d of %v, want 2; the queue is not fair", pos, order)
	}
}

func TestPerOwnerQuota(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFake(t, engine.EngineOptions{PerOwnerResident: 2}, nil)
		for i := range 3 {
			if _, err := f.runAs(t, "alice", fmt.Sprintf("a%d", i), "hi"); err != nil {
				t.Fatal(err)
			}
			f.clock.Advance(time.Second)
		}
		for i := range 2 {
			if _, err := f.runAs(t, "bob", fmt.Sprintf("b%d", i), "hi"); err != nil {
				t.Fatal(err)
			}
			f.clock.Advance(time.Second)
		}
		// Alice's oldest made room for her third; bob's are his own.
		want := map[string]engine.SessionStatus{"a0": engine.StatusHibernated, "a1": engine.StatusIdle, "a2": engine.StatusIdle, "b0": engine.StatusIdle, "b1": engine.StatusIdle}
		for id, st := range want {
			if got := f.status(t, id); got != st {
				t.Errorf("%s is %s, want %s", id, got, st)
			}
		}
		// Alice busy on both her slots: her third waits, bob is not held up.
		var busy []*bgTurn
		for _, id := range []string{"a1", "a2"} {
			busy = append(busy, f.goRun(t, "alice", id, "wait:alice busy"))
		}
		arrivals(t, f.prov.Gate("alice"), 2)
		third := f.goRun(t, "alice", "a0", "history")
		f.timers(t, 1)
		if _, err := f.runAs(t, "bob", "b2", "hi"); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if third.finished() {
			t.Fatal("alice's third session started while her quota was full of busy sessions")
		}
		if st := f.status(t, "b0"); st != engine.StatusHibernated {
			t.Fatalf("b0 is %s, want hibernated for bob's third", st)
		}
		f.prov.Gate("alice").Open()
		for _, tr := range append(busy, third) {
			if err := tr.wait(t); err != nil {
				t.Fatal(err)
			}
		}
		ps := f.eng.PoolStats()
		if ps.Resident != 4 {
			t.Fatalf("resident %d, want 2 per owner: %+v", ps.Resident, ps)
		}
	})
}

func TestSparesAreClaimedAndRefilled(t *testing.T) {
	f := newFake(t, engine.EngineOptions{Spares: 1, MaxResident: 2, BaseSystemPrompt: "base rules"}, nil)
	f.until(t, "a spare", func() bool { return f.eng.PoolStats().Spares == 1 })
	r := &testkit.Recorder{}
	if err := f.eng.Execute(testCtx(t), &engine.Config{SessionID: "n1", WorkDir: f.dir, TaskInstructions: "task rules"}, "sysprompt", r.Callback); err != nil {
		t.Fatal(err)
	}
	st := r.First(event.TypeSessionStart)
	if !st.Spare || !st.ColdStart || st.Resumed {
		t.Fatalf("first turn did not claim the spare: %+v", st.SessionStart)
	}
	if st.ProviderSessionID == "" || st.ProviderSessionID == engine.ProviderSessionID("", "n1") {
		t.Fatalf("provider session ID %q is not the one the spare chose", st.ProviderSessionID)
	}
	if got := r.First(event.TypeAnswer).EventData; got != "system prompt: |base rules\n\ntask rules" {
		t.Fatalf("the claimed spare runs without the session's system prompt: %q", got)
	}
	if sess, _ := f.eng.GetSession("n1"); sess.ProviderSessionID != st.ProviderSessionID || sess.Config.WorkDir != f.dir {
		t.Fatalf("session = %+v", sess)
	}
	f.until(t, "the spare to be refilled", func() bool { ps := f.eng.PoolStats(); return ps.Spares == 1 && ps.SpareStarts == 2 })
	if ps := f.eng.PoolStats(); ps.SpareClaims != 1 || ps.ColdStarts != 0 {
		t.Fatalf("pool stats = %+v", ps)
	}
	f.clock.Advance(time.Second)
	f.mustRun(t, "n1", "second prompt")
	f.clock.Advance(time.Second)

	// Hibernation resumes the conversation under the ID the spare chose.
	// Two resident slots: n2 takes the spare, n3 needs n1's slot.
	if st := f.mustRun(t, "n2", "hi").First(event.TypeSessionStart); !st.Spare {
		t.Fatalf("n2 did not claim the refilled spare: %+v", st.SessionStart)
	}
	f.clock.Advance(time.Second)
	f.mustRun(t, "n3", "hi")
	if got := f.status(t, "n1"); got != engine.StatusHibernated {
		t.Fatalf("n1 is %s, want hibernated", got)
	}
	r2 := f.mustRun(t, "n1", "history")
	st2 := r2.First(event.TypeSessionStart)
	if !st2.Resumed || st2.Spare || st2.ProviderSessionID != st.ProviderSessionID {
		t.Fatalf("resume of a spare-started session: %+v", st2.SessionStart)
	}
	if got := r2.First(event.TypeAnswer).EventData; got != "sysprompt | second prompt" {
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

// A conversation that already exists with the provider is resumed by a
// start, never handed a spare that would begin it afresh.
func TestExistingConversationSkipsTheSpare(t *testing.T) {
	prov := fakeprovider.New("fake")
	// Another engine without spares, on the same provider, had the
	// conversation first.
	other := newFake(t, engine.EngineOptions{}, prov)
	other.mustRun(t, "x", "from before")
	_ = other.eng.Close()
	f := newFake(t, engine.EngineOptions{Spares: 1}, prov)
	f.dir = other.dir
	f.until(t, "a spare", func() bool { return f.eng.PoolStats().Spares == 1 })
	r := f.mustRun(t, "x", "history")
	if st := r.First(event.TypeSessionStart); st.Spare || !st.Resumed || st.ProviderSessionID != engine.ProviderSessionID("", "x") {
		t.Fatalf("existing conversation: %+v", st.SessionStart)
	}
	if got := r.First(event.TypeAnswer).EventData; got != "from before" {
		t.Fatalf("history: %q", got)
	}
	if ps := f.eng.PoolStats(); ps.Spares != 1 || ps.SpareClaims != 0 || ps.Resumes != 1 {
		t.Fatalf("the spare was used for an existing conversation: %+v", ps)
	}
}

func TestSparesNeverExceedTheLimit(t *testing.T) {
	f := newFake(t, engine.EngineOptions{Spares: 2, MaxResident: 2}, nil)
	f.until(t, "spares", func() bool { return f.eng.PoolStats().Spares == 2 })
	f.mustRun(t, "a", "hi") // claims one
	f.clock.Advance(time.Second)
	f.mustRun(t, "b", "hi") // claims the other
	f.clock.Advance(time.Second)
	f.mustRun(t, "c", "hi") // hibernates a
	// Let the refill try, round after round.
	for range 5 {
		f.timers(t, 1)
		f.clock.Advance(time.Second)
		ps := f.eng.PoolStats()
		if ps.Resident+ps.Spares+ps.Starting > 2 {
			t.Fatalf("resident %d + spares %d + starting %d over the limit of 2", ps.Resident, ps.Spares, ps.Starting)
		}
	}
	if st := f.status(t, "a"); st != engine.StatusHibernated {
		t.Fatalf("a is %s", st)
	}
	if ps := f.eng.PoolStats(); ps.SpareStarts != 2 {
		t.Fatalf("spares started without room: %+v", ps)
	}
}

// The memory budget reads process sizes from /proc: a real process.
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
// claims a spare like any new conversation; one restored from a record
// resumes its conversation instead.
func TestCreatedSessionClaimsASpare(t *testing.T) {
	f := newFake(t, engine.EngineOptions{Spares: 1}, nil)
	if err := f.eng.CreateSession("reg", engine.SessionConfig{WorkDir: f.dir, Owner: "carol"}); err != nil {
		t.Fatal(err)
	}
	if err := f.eng.RestoreSession("old", engine.SessionConfig{WorkDir: f.dir}, 0, nil); err != nil {
		t.Fatal(err)
	}
	f.until(t, "a spare", func() bool { return f.eng.PoolStats().Spares == 1 })
	r := f.mustRun(t, "reg", "hello")
	if st := r.First(event.TypeSessionStart); !st.Spare || st.Resumed {
		t.Fatalf("created session: %+v", st.SessionStart)
	}
	if s, _ := f.eng.GetSession("reg"); s.Owner != "carol" {
		t.Fatalf("owner = %q", s.Owner)
	}
	f.until(t, "the spare to be refilled", func() bool { return f.eng.PoolStats().Spares == 1 })
	r = f.mustRun(t, "old", "hello")
	if st := r.First(event.TypeSessionStart); st.Spare {
		t.Fatalf("restored session took a spare: %+v", st.SessionStart)
	}
	if starts := f.prov.Starts(); !starts[len(starts)-1].Resume {
		t.Fatal("restored session was not resumed")
	}
}

// A session being hibernated is not busy: a fail-fast turn waits for its
// process to end and resumes it, never running beside the old process.
// The bubble's Wait says when the turn can get no further without the
// old process's end.
func TestHibernatingSessionIsNotBusy(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFake(t, engine.EngineOptions{MaxResident: 1, FailFastWhenBusy: true}, nil)
		slow := fakeprovider.NewGate()
		f.mustRun(t, "h1", "hello")
		f.clock.Advance(time.Second)
		f.prov.HoldCloses(slow) // h1's process takes its time to end
		f.mustRun(t, "h2", "hello")
		arrivals(t, slow, 1)
		if st := f.status(t, "h1"); st != engine.StatusHibernated {
			t.Fatalf("h1 is %s", st)
		}
		resumed := f.goRun(t, "", "h1", "history")
		synctest.Wait()
		if resumed.finished() {
			t.Fatalf("the turn on a hibernating session ended early: %v", resumed.wait(t))
		}
		if n := len(f.prov.Starts()); n != 2 {
			t.Fatalf("h1 was started again while its old process was still ending (%d starts)", n)
		}
		slow.Open()
		if err := resumed.wait(t); err != nil {
			t.Fatalf("turn on a hibernating session: %v", err)
		}
		if !resumed.rec.First(event.TypeSessionStart).Resumed {
			t.Fatalf("not resumed: %+v", resumed.rec.First(event.TypeSessionStart).SessionStart)
		}
	})
}

// Begun tells a turn that started (its first event is out) from one that
// ended without an event: a turn refused for room is the latter, so a
// caller can try it elsewhere before anyone saw anything of it.
func TestTurnBegun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFake(t, engine.EngineOptions{MaxConcurrentStarts: 1, MaxQueuedStarts: 1}, nil)
		hold := fakeprovider.NewGate()
		f.prov.HoldStarts(hold)
		running := f.goRun(t, "", "b0", "hi")
		arrivals(t, hold, 1)
		queued := f.goRun(t, "", "b1", "hi")
		f.timers(t, 1)

		refused, err := f.eng.Start(testCtx(t), &engine.Config{SessionID: "b2", WorkDir: f.dir}, "hi")
		if err != nil {
			t.Fatal(err)
		}
		<-refused.Begun()
		last, ended := refused.LastSeq()
		if !ended || last != refused.FirstSeq()-1 || !errors.Is(refused.Wait(), engine.ErrOverloaded) {
			t.Fatalf("a refused turn began with ended %v, last %d (first %d), err %v", ended, last, refused.FirstSeq(), refused.Wait())
		}

		hold.Open()
		for _, tr := range []*bgTurn{running, queued} {
			if err := tr.wait(t); err != nil {
				t.Fatal(err)
			}
		}
		started, err := f.eng.Start(testCtx(t), &engine.Config{SessionID: "b0", WorkDir: f.dir}, "wait:begun again")
		if err != nil {
			t.Fatal(err)
		}
		<-started.Begun()
		synctest.Wait()
		select {
		case <-started.Done():
			t.Fatal("Begun waited for the turn's end")
		default:
		}
		f.prov.Gate("begun").Open()
		if err := started.Wait(); err != nil {
			t.Fatal(err)
		}
		if last, _ := started.LastSeq(); last < started.FirstSeq() {
			t.Fatalf("the turn that began emitted nothing: last %d, first %d", last, started.FirstSeq())
		}
	})
}

// Each provider keeps its own count of spares: Spares for those not named
// in ProviderSpares, the override for those named, none for a zero.
func TestSparesPerProvider(t *testing.T) {
	a, b, c := fakeprovider.New("a"), fakeprovider.New("b"), fakeprovider.New("c")
	f := newFake(t, engine.EngineOptions{
		Provider: a.WithSpares(), Providers: []provider.Provider{b.WithSpares(), c.WithSpares()},
		Spares: 1, ProviderSpares: map[string]int{"b": 3, "c": 0},
	}, a)
	t.Cleanup(func() {
		_ = f.eng.Close()
		if n := b.Live() + c.Live(); n != 0 {
			t.Errorf("%d fake processes outlived the engine", n)
		}
	})
	want := map[string]int{"a": 1, "b": 3}
	f.until(t, "the spares", func() bool { return maps.Equal(f.eng.PoolStats().SparesByProvider, want) })
	r := &testkit.Recorder{}
	if err := f.eng.Execute(testCtx(t), &engine.Config{SessionID: "on-b", WorkDir: f.dir, Provider: "b"}, "hi", r.Callback); err != nil {
		t.Fatal(err)
	}
	if st := r.First(event.TypeSessionStart); !st.Spare {
		t.Fatalf("the conversation on b did not claim b's spare: %+v", st.SessionStart)
	}
	f.until(t, "b's refill", func() bool { return f.eng.PoolStats().SpareStarts == 5 })
	f.until(t, "the spares", func() bool { return maps.Equal(f.eng.PoolStats().SparesByProvider, want) })
	if ps := f.eng.PoolStats(); ps.Spares != 4 || ps.SpareClaims != 1 {
		t.Fatalf("pool stats = %+v", ps)
	}
}

// A spare count the engine cannot honour is refused, naming the mistake.
func TestSparesPerProviderRefusesBadCounts(t *testing.T) {
	for name, o := range map[string]engine.EngineOptions{
		"unknown provider": {ProviderSpares: map[string]int{"cladue": 1}},
		"negative":         {ProviderSpares: map[string]int{"a": -1}},
		"negative default": {Spares: -2},
	} {
		t.Run(name, func(t *testing.T) {
			o.Provider = fakeprovider.New("a").WithSpares()
			eng, err := engine.NewEngine(o)
			if err == nil {
				_ = eng.Close()
				t.Fatal("the engine took the counts")
			}
			if !errors.Is(err, engine.ErrInvalidConfig) {
				t.Fatalf("err = %v, want ErrInvalidConfig", err)
			}
		})
	}
}

// A session with MCP servers of its own is offered a spare: one whose
// agent takes them at the claim serves it with them.
func TestSessionWithMCPServersClaimsASpareThatTakesThem(t *testing.T) {
	f := newFake(t, engine.EngineOptions{Spares: 1}, nil)
	servers := []provider.MCPServer{{Name: "web", Type: "http", URL: "http://127.0.0.1:9/mcp"}}
	if err := f.eng.CreateSession("mcp", engine.SessionConfig{WorkDir: f.dir, MCPServers: servers}); err != nil {
		t.Fatal(err)
	}
	f.until(t, "a spare", func() bool { return f.eng.PoolStats().Spares == 1 })
	r := f.mustRun(t, "mcp", "hello")
	if st := r.First(event.TypeSessionStart); !st.Spare {
		t.Fatalf("the session did not claim the spare: %+v", st.SessionStart)
	}
	pr := f.prov.Process("mcp")
	if pr == nil || len(pr.Options().MCPServers) != 1 || pr.Options().MCPServers[0].Name != "web" {
		t.Fatalf("the claim was not given the session's MCP servers: %+v", pr)
	}
}
