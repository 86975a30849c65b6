package engine_test

import (
	"encoding/base64"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/internal/fakeprovider"
)

// sink records what the engine publishes.
type sink struct {
	mu     sync.Mutex
	events []*event.EventWithMeta
}

func (s *sink) Publish(ev *event.EventWithMeta) {
	s.mu.Lock()
	s.events = append(s.events, ev)
	s.mu.Unlock()
}

func (s *sink) seqs(session string) []uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []uint64
	for _, ev := range s.events {
		if ev.SessionID == session {
			out = append(out, ev.Seq)
		}
	}
	return out
}

func TestEventSinkSeesEveryEventInOrder(t *testing.T) {
	sk := &sink{}
	f := newFake(t, engine.EngineOptions{Events: sk}, nil)
	r1 := f.mustRun(t, "a", "blocks:2 one")
	r2 := f.mustRun(t, "a", "two")
	f.mustRun(t, "b", "other session")
	got := sk.seqs("a")
	if len(got) != len(r1.Events())+len(r2.Events()) {
		t.Fatalf("sink saw %d events of a, callbacks %d", len(got), len(r1.Events())+len(r2.Events()))
	}
	for i, seq := range got {
		if seq != uint64(i+1) {
			t.Fatalf("sink seqs not 1..n in order: %v", got)
		}
	}
	if len(sk.seqs("b")) == 0 {
		t.Fatal("other session's events missing")
	}
}

func TestInterrupt(t *testing.T) {
	f := newFake(t, engine.EngineOptions{}, nil)
	if _, err := f.eng.Interrupt("nope"); !errors.Is(err, engine.ErrSessionNotFound) {
		t.Fatalf("unknown session: %v", err)
	}
	pid := f.mustRun(t, "i", "warm").First(event.TypeSessionStart).PID
	if ok, err := f.eng.Interrupt("i"); ok || err != nil {
		t.Fatalf("idle session: %v %v", ok, err)
	}
	tr := f.goRun(t, "", "i", "wait:never")
	arrivals(t, f.prov.Gate("never"), 1)
	if ok, err := f.eng.Interrupt("i"); !ok || err != nil {
		t.Fatalf("Interrupt = %v, %v", ok, err)
	}
	if err := tr.wait(t); !errors.Is(err, engine.ErrInterrupted) {
		t.Fatalf("Execute returned %v, want ErrInterrupted", err)
	}
	if res := tr.rec.First(event.TypeResult); res == nil || !res.Turn.Interrupted {
		t.Fatalf("no interrupted result: %v", tr.rec.Types())
	}
	if got := f.mustRun(t, "i", "after").First(event.TypeSessionStart).PID; got != pid {
		t.Fatal("process replaced after an interrupt")
	}
}

func TestRestoreSession(t *testing.T) {
	prov := fakeprovider.New("fake")
	f := newFake(t, engine.EngineOptions{}, prov)
	r := f.mustRun(t, "rs", "remember this")
	last := r.Events()[len(r.Events())-1]
	stats := last.Stats
	if err := f.eng.Close(); err != nil {
		t.Fatal(err)
	}
	// A new engine, as after a daemon restart, with the saved record.
	g := newFake(t, engine.EngineOptions{}, prov)
	g.dir = f.dir
	if err := g.eng.RestoreSession("rs", engine.SessionConfig{WorkDir: f.dir}, last.Seq, stats); err != nil {
		t.Fatal(err)
	}
	if err := g.eng.RestoreSession("rs", engine.SessionConfig{WorkDir: f.dir}, 0, nil); !errors.Is(err, engine.ErrSessionExists) {
		t.Fatalf("second restore: %v", err)
	}
	s, ok := g.eng.GetSession("rs")
	if !ok || s.Status != engine.StatusHibernated || s.PID != 0 {
		t.Fatalf("restored session: %+v", s)
	}
	r2 := g.mustRun(t, "rs", "history")
	st := r2.First(event.TypeSessionStart)
	if !st.Resumed || st.Fallback != "" || st.Seq != last.Seq+1 {
		t.Fatalf("restored start: %+v seq %d (last %d)", st.SessionStart, st.Seq, last.Seq)
	}
	if got := r2.First(event.TypeAnswer).EventData; got != "remember this" {
		t.Fatalf("conversation lost: %q", got)
	}
	st2 := r2.First(event.TypeSessionStats).Stats
	if st2.Turns != stats.Turns+1 || st2.TotalCostUSD <= stats.TotalCostUSD || !slices.Equal(st2.FilePaths, stats.FilePaths) {
		t.Fatalf("stats did not continue: %+v after %+v", st2, stats)
	}
}

// A session created for a new conversation starts it on its first turn:
// no resume is tried, so no fallback is reported.
func TestCreateSessionStartsANewConversation(t *testing.T) {
	f := newFake(t, engine.EngineOptions{}, nil)
	if err := f.eng.CreateSession("cs", engine.SessionConfig{WorkDir: f.dir}); err != nil {
		t.Fatal(err)
	}
	if err := f.eng.CreateSession("cs", engine.SessionConfig{WorkDir: f.dir}); !errors.Is(err, engine.ErrSessionExists) {
		t.Fatalf("second create: %v", err)
	}
	s, ok := f.eng.GetSession("cs")
	if !ok || s.Status != engine.StatusNew || s.PID != 0 {
		t.Fatalf("created session: %+v", s)
	}
	r := f.mustRun(t, "cs", "hello")
	st := r.First(event.TypeSessionStart)
	if st.Resumed || st.Fallback != "" || !st.ColdStart {
		t.Fatalf("first start of a created session: %+v", st.SessionStart)
	}
	if starts := f.prov.Starts(); len(starts) != 1 || starts[0].Resume {
		t.Fatalf("a new conversation was started as a resume: %+v", starts)
	}
	if s, _ := f.eng.GetSession("cs"); s.Status != engine.StatusIdle || s.PID == 0 {
		t.Fatalf("after its first turn: %+v", s)
	}
}

// A file the agent writes through its shell counts as modified, as one
// written with a file tool does.
func TestFilesModifiedThroughTheShell(t *testing.T) {
	f := newFixture(t, engine.EngineOptions{})
	r := f.mustRun(t, "fm", "bash:"+base64.RawURLEncoding.EncodeToString([]byte("echo shell > made-by-shell.txt")))
	if _, err := os.Stat(filepath.Join(f.dir, "made-by-shell.txt")); err != nil {
		t.Fatalf("the shell tool did not run: %v", err)
	}
	stats := r.First(event.TypeSessionStats).Stats
	want := filepath.Join(f.dir, "made-by-shell.txt")
	if stats.FilesModified != 1 || !slices.Contains(stats.FilePaths, want) {
		t.Fatalf("files modified %d %v, want %s", stats.FilesModified, stats.FilePaths, want)
	}
}
