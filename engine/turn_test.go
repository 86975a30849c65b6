package engine_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/provider/claude"
)

// gateSink records a session's events; while it is shut, it holds back
// their publication.
type gateSink struct {
	session string
	mu      sync.Mutex
	gate    chan struct{} // nil: open
	seqs    []uint64
}

func (g *gateSink) shut() {
	g.mu.Lock()
	g.gate = make(chan struct{})
	g.mu.Unlock()
}

func (g *gateSink) open() {
	g.mu.Lock()
	close(g.gate)
	g.gate = nil
	g.mu.Unlock()
}

func (g *gateSink) Publish(ev *event.EventWithMeta) {
	if ev.SessionID != g.session {
		return
	}
	g.mu.Lock()
	gate := g.gate
	g.mu.Unlock()
	if gate != nil {
		<-gate
	}
	g.mu.Lock()
	g.seqs = append(g.seqs, ev.Seq)
	g.mu.Unlock()
}

func (g *gateSink) published() []uint64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.seqs)
}

func (f *fixture) start(t *testing.T, ctx context.Context, id, prompt string) *engine.Turn {
	t.Helper()
	turn, err := f.eng.Start(ctx, &engine.Config{SessionID: id, WorkDir: f.dir}, prompt)
	if err != nil {
		t.Fatalf("Start(%q): %v", prompt, err)
	}
	return turn
}

func collect(turn *engine.Turn) []*event.EventWithMeta {
	var evs []*event.EventWithMeta
	for ev := range turn.Events() {
		evs = append(evs, ev)
	}
	return evs
}

// The turn's first sequence number is known when Start returns, before
// any of its events was published, and its events run from it to LastSeq.
func TestTurnKnowsItsFirstSeqBeforeItsFirstEvent(t *testing.T) {
	gate := &gateSink{session: "h"}
	f := newFixture(t, engine.EngineOptions{Events: gate})
	warm := f.mustRun(t, "h", "warm").Events()
	gate.shut()

	turn := f.start(t, context.Background(), "h", "blocks:2 second")
	if want := warm[len(warm)-1].Seq + 1; turn.FirstSeq() != want {
		t.Fatalf("FirstSeq = %d, want %d", turn.FirstSeq(), want)
	}
	if len(gate.published()) != len(warm) {
		t.Fatalf("an event of the turn was published before Start returned: %v", gate.published())
	}
	if _, ended := turn.LastSeq(); ended {
		t.Fatal("LastSeq final while the turn's first event is held back")
	}
	gate.open()
	evs := collect(turn)
	if err := turn.Wait(); err != nil {
		t.Fatal(err)
	}
	if len(evs) == 0 || evs[0].Seq != turn.FirstSeq() || evs[0].EventType != event.TypeSessionStart {
		t.Fatalf("first event %+v, want session_start #%d", evs[0], turn.FirstSeq())
	}
	last, ended := turn.LastSeq()
	if !ended || last != evs[len(evs)-1].Seq || evs[len(evs)-1].EventType != event.TypeResult {
		t.Fatalf("LastSeq = %d, %v; events end at %d %s", last, ended, evs[len(evs)-1].Seq, evs[len(evs)-1].EventType)
	}
	for i, ev := range evs {
		if ev.Seq != turn.FirstSeq()+uint64(i) {
			t.Fatalf("event %d is #%d, want #%d", i, ev.Seq, turn.FirstSeq()+uint64(i))
		}
	}
	if got := gate.published(); !slices.Equal(got[len(warm):], seqsOf(evs)) {
		t.Fatalf("sink saw %v, reader %v", got[len(warm):], seqsOf(evs))
	}
}

func seqsOf(evs []*event.EventWithMeta) []uint64 {
	var out []uint64
	for _, ev := range evs {
		out = append(out, ev.Seq)
	}
	return out
}

// Wait returns the turn's error; a turn refused at its start emits
// nothing and says so with LastSeq.
func TestTurnWaitReturnsItsError(t *testing.T) {
	f := newFixture(t, engine.EngineOptions{})
	ok := f.start(t, context.Background(), "w", "fine")
	if evs := collect(ok); len(evs) == 0 || ok.Wait() != nil {
		t.Fatalf("a good turn: %d events, %v", len(evs), ok.Wait())
	}
	crash := f.start(t, context.Background(), "w", "crash")
	evs := collect(crash)
	if err := crash.Wait(); !errors.Is(err, engine.ErrSessionDead) {
		t.Fatalf("Wait = %v, want ErrSessionDead", err)
	}
	if res := evs[len(evs)-1]; res.EventType != event.TypeResult || res.Meta.ErrorMsg == "" {
		t.Fatalf("a failed turn ends with %s %q", res.EventType, res.Meta.ErrorMsg)
	}

	// A CLI that cannot start: the turn was admitted, and has nothing
	// to show.
	broken := newFixture(t, engine.EngineOptions{}, func(o *claude.Options) { o.Path = filepath.Join(t.TempDir(), "no-such-agent") })
	turn := broken.start(t, context.Background(), "b", "hello")
	if evs := collect(turn); len(evs) != 0 {
		t.Fatalf("a turn that could not start emitted %v", seqsOf(evs))
	}
	if err := turn.Wait(); !errors.Is(err, engine.ErrStartFailed) {
		t.Fatalf("Wait = %v, want ErrStartFailed", err)
	}
	if last, ended := turn.LastSeq(); !ended || last != turn.FirstSeq()-1 {
		t.Fatalf("LastSeq = %d, %v with FirstSeq %d", last, ended, turn.FirstSeq())
	}
}

// A turn queued behind another is admitted once the other has emitted
// its last event, and numbers its events after it.
func TestQueuedTurnFollowsTheOther(t *testing.T) {
	f := newFixture(t, engine.EngineOptions{})
	first := f.start(t, context.Background(), "q", "sleep:300 blocks:3 first")
	second := make(chan *engine.Turn, 1)
	go func() {
		second <- f.start(t, context.Background(), "q", "second")
	}()
	a := collect(first)
	b := <-second
	last, ended := first.LastSeq()
	if !ended {
		t.Fatal("the queued turn was admitted while the first could still emit")
	}
	if b.FirstSeq() != last+1 || a[len(a)-1].Seq != last {
		t.Fatalf("second turn starts at %d; the first ended at %d (its events at %d)", b.FirstSeq(), last, a[len(a)-1].Seq)
	}
	if evs := collect(b); len(evs) == 0 || evs[0].Seq != b.FirstSeq() || b.Wait() != nil {
		t.Fatalf("second turn: %v, %v", seqsOf(evs), b.Wait())
	}
	if err := first.Wait(); err != nil {
		t.Fatal(err)
	}
}

// Cancelling Start's context interrupts the running turn; a Start waiting
// for the session gives up with the context's error and runs nothing.
func TestCancellingTheContextEndsTheTurn(t *testing.T) {
	f := newFixture(t, engine.EngineOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	running := f.start(t, ctx, "c", "think sleep:30000 never")
	waitCtx, giveUp := context.WithCancel(context.Background())
	defer giveUp()
	waiting := make(chan error, 1)
	go func() {
		_, err := f.eng.Start(waitCtx, &engine.Config{SessionID: "c", WorkDir: f.dir}, "queued")
		waiting <- err
	}()
	var evs []*event.EventWithMeta
	for ev := range running.Events() {
		evs = append(evs, ev)
		if ev.EventType == event.TypeThinking {
			// The agent has the prompt and sleeps.
			giveUp()
			if err := <-waiting; !errors.Is(err, context.Canceled) {
				t.Errorf("queued Start = %v, want context.Canceled", err)
			}
			cancel()
		}
	}
	if err := running.Wait(); !errors.Is(err, context.Canceled) {
		t.Fatalf("Wait = %v, want context.Canceled", err)
	}
	if res := evs[len(evs)-1]; res.EventType != event.TypeResult || !res.Turn.Interrupted {
		t.Fatalf("the turn must close with an interrupted result: %s", res.EventType)
	}
	if got := f.mustRun(t, "c", "after").First(event.TypeAnswer).EventData; got != "echo: after" {
		t.Fatalf("next turn = %q", got)
	}
}

// Nobody reading a turn's events never holds it back, a reader that stops
// early lets it go on, and a reader gets every event however many.
func TestTurnEventsReaders(t *testing.T) {
	sk := &sink{}
	f := newFixture(t, engine.EngineOptions{Events: sk})
	const blocks = 700 // more than a turn holds for its reader

	unread := f.start(t, context.Background(), "r", "blocks:700 unread")
	if err := unread.Wait(); err != nil {
		t.Fatal(err)
	}
	if evs := collect(unread); len(evs) != 0 {
		t.Fatalf("a reader coming after the turn dropped its events got %d", len(evs))
	}

	quitter := f.start(t, context.Background(), "r", "blocks:700 quitter")
	for range quitter.Events() {
		break
	}
	if err := quitter.Wait(); err != nil {
		t.Fatal(err)
	}

	reader := f.start(t, context.Background(), "r", "blocks:700 read")
	var answers int
	evs := []*event.EventWithMeta{}
	for ev := range reader.Events() {
		if ev.EventType == event.TypeAnswer {
			answers++
			if answers == 1 {
				// A slow reader: the agent may run ahead of it by what
				// the turn holds for it, never to the end of the turn.
				time.Sleep(100 * time.Millisecond)
				if n := len(sk.seqs("r")) - int(reader.FirstSeq()-1); n >= blocks {
					t.Errorf("%d events published while the reader held its first answer", n)
				}
			}
		}
		evs = append(evs, ev)
	}
	if err := reader.Wait(); err != nil {
		t.Fatal(err)
	}
	last, _ := reader.LastSeq()
	if answers != blocks || evs[0].Seq != reader.FirstSeq() || evs[len(evs)-1].Seq != last || len(evs) != int(last-reader.FirstSeq()+1) {
		t.Fatalf("%d answers, %d events from %d to %d; turn %d..%d", answers, len(evs), evs[0].Seq, evs[len(evs)-1].Seq, reader.FirstSeq(), last)
	}
	if n := len(sk.seqs("r")); uint64(n) != last {
		t.Fatalf("the sink saw %d events, want %d", n, last)
	}
}

// Close ends a turn whose reader stopped reading without leaving, and
// every goroutine of the turns ends with it.
func TestCloseEndsTurnsAndTheirGoroutines(t *testing.T) {
	before := goleak.IgnoreCurrent()
	f := newFixture(t, engine.EngineOptions{})
	turn := f.start(t, context.Background(), "x", "blocks:700 stuck")
	closed := make(chan struct{})
	for range turn.Events() {
		// A reader stuck on its first event: the turn waits for it.
		if err := f.eng.Close(); err != nil {
			t.Fatal(err)
		}
		close(closed)
		break
	}
	<-closed
	select {
	case <-turn.Done():
	default:
		t.Fatal("Close returned before the turn ended")
	}
	if err := turn.Wait(); !errors.Is(err, engine.ErrEngineClosed) && !errors.Is(err, engine.ErrSessionDead) {
		t.Fatalf("Wait = %v", err)
	}
	goleak.VerifyNone(t, before)
}
