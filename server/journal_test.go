package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/hub"
	"github.com/hotplex/hotplex/store"
	"github.com/hotplex/hotplex/store/sqlite"
)

// JournalCrashEnv names the database a re-executed test binary records
// events beside before killing itself (see TestJournalSurvivesACrash).
const JournalCrashEnv = "HOTPLEX_JOURNAL_CRASH_CHILD"

const (
	crashStored    = 3  // events the child's store takes before it stalls
	crashDelivered = 40 // events the child delivers in all
)

// stallingStore stalls every append holding an event past seq upTo
// until release is closed (never, in the crash child).
type stallingStore struct {
	store.Store
	upTo    uint64
	release chan struct{}
	mu      sync.Mutex // guards closing release
}

func (s *stallingStore) AppendEvents(ctx context.Context, events ...store.Event) error {
	for _, e := range events {
		if e.Seq > s.upTo {
			<-s.release
			break
		}
	}
	return s.Store.AppendEvents(ctx, events...)
}

// crashEvent is the i-th (from 1) event the crash child delivers.
func crashEvent(i int) *event.EventWithMeta {
	typ := event.TypeAnswer
	switch {
	case i == crashDelivered:
		typ = event.TypeResult
	case i%10 == 9:
		typ = event.TypeSessionStats
	}
	ev := event.NewEventWithMeta(typ, fmt.Sprintf("part %d", i), nil)
	ev.SessionID, ev.Seq = "s", uint64(i)
	if typ == event.TypeSessionStats {
		ev.Stats = &event.SessionStatsData{InputTokens: int32(i)}
	}
	return ev
}

func quietLog() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// JournalCrashChild delivers events through a journaled recorder whose
// store stalls after crashStored of them, then dies by SIGKILL: the rest
// are only in the journal.
func JournalCrashChild(path string) {
	ctx := context.Background()
	fail := func(err error) {
		fmt.Fprintln(os.Stderr, "crash child:", err)
		os.Exit(2)
	}
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		fail(err)
	}
	if err := db.PutSession(ctx, store.Session{ID: "s"}); err != nil {
		fail(err)
	}
	st := &stallingStore{Store: db, upTo: crashStored, release: make(chan struct{})}
	h := hub.New(hub.Options{})
	_, sub, _ := h.Subscribe("s", 0)
	r, err := NewRecorder(ctx, st, h, quietLog(), RecorderOptions{Journal: path + "-events"})
	if err != nil {
		fail(err)
	}
	for i := 1; i <= crashDelivered; i++ {
		r.Publish(crashEvent(i))
		<-sub.C()
		if i == crashStored {
			if err := r.Sync(ctx, "s"); err != nil { // the store takes these
				fail(err)
			}
		}
	}
	fmt.Println("delivered", crashDelivered)
	_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
	select {} // not reached
}

// TestJournalSurvivesACrash kills a daemon's recorder that has delivered
// events its store has not taken: started again on the same files, it
// stores every one of them, once, with the session's statistics, and
// empties its journal.
func TestJournalSurvivesACrash(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "hotplex.db")
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), JournalCrashEnv+"="+path)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("child: %v\nstdout: %s\nstderr: %s", err, stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), fmt.Sprint("delivered ", crashDelivered)) {
		t.Fatalf("child did not deliver: %s %s", stdout.String(), stderr.String())
	}

	db, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	before, err := db.Events(ctx, "s", 0, 0)
	if err != nil || len(before) != crashStored {
		t.Fatalf("the child's store holds %d events (%v), want the %d it took", len(before), err, crashStored)
	}
	if fi, err := os.Stat(path + "-events"); err != nil || fi.Size() == 0 {
		t.Fatalf("the journal holds nothing: %v", err)
	}

	for restart := range 2 {
		h := hub.New(hub.Options{})
		r, err := NewRecorder(ctx, db, h, quietLog(), RecorderOptions{Journal: path + "-events"})
		if err != nil {
			t.Fatalf("restart %d: %v", restart, err)
		}
		r.Close()
		h.Close()
		evs, err := db.Events(ctx, "s", 0, 0)
		if err != nil || len(evs) != crashDelivered {
			t.Fatalf("restart %d: %d events stored (%v), want %d", restart, len(evs), err, crashDelivered)
		}
		for i, e := range evs {
			want := crashEvent(i + 1)
			var got event.EventWithMeta
			if e.Seq != uint64(i+1) || e.Type != want.EventType || json.Unmarshal(e.Data, &got) != nil || got.EventData != want.EventData {
				t.Fatalf("restart %d: event %d is %d %s %s, want %s %q", restart, i+1, e.Seq, e.Type, e.Data, want.EventType, want.EventData)
			}
		}
		s, err := db.GetSession(ctx, "s")
		var stats event.SessionStatsData
		if err != nil || s.LastSeq != crashDelivered || json.Unmarshal(s.Stats, &stats) != nil || stats.InputTokens != 39 {
			t.Fatalf("restart %d: session %+v (%v), stats %s", restart, s, err, s.Stats)
		}
		if fi, err := os.Stat(path + "-events"); err != nil || fi.Size() != 0 {
			t.Fatalf("restart %d: the journal was not emptied: %v %v", restart, fi.Size(), err)
		}
	}
}

// journaled is a recorder with a journal over a store that stalls each
// append until the test lets it go.
type journaled struct {
	db   *sqlite.DB
	st   *stallingStore
	hub  *hub.Hub
	rec  *Recorder
	read store.Store // the store as the server reads it
	sub  *hub.Subscription
}

func newJournaled(t *testing.T, sessions ...string) *journaled {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "hotplex.db")
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range sessions {
		if err := db.PutSession(ctx, store.Session{ID: id}); err != nil {
			t.Fatal(err)
		}
	}
	j := &journaled{db: db, st: &stallingStore{Store: db, release: make(chan struct{})}, hub: hub.New(hub.Options{})}
	j.sub = j.hub.SubscribeAll()
	if j.rec, err = NewRecorder(ctx, j.st, j.hub, quietLog(), RecorderOptions{Journal: path + "-events"}); err != nil {
		t.Fatal(err)
	}
	j.read = synced(db, j.rec)
	t.Cleanup(func() {
		j.unstall()
		j.rec.Close()
		j.sub.Close()
		j.hub.Close()
		_ = db.Close()
	})
	return j
}

func (j *journaled) unstall() {
	j.st.mu.Lock()
	defer j.st.mu.Unlock()
	select {
	case <-j.st.release:
	default:
		close(j.st.release)
	}
}

// deliver publishes events and waits until the hub has them.
func (j *journaled) deliver(t *testing.T, evs ...*event.EventWithMeta) {
	t.Helper()
	for _, ev := range evs {
		j.rec.Publish(ev)
	}
	for range evs {
		select {
		case <-j.sub.C():
		case <-time.After(30 * time.Second):
			t.Fatal("an event was not delivered while the store stalls")
		}
	}
}

func answer(session string, seq uint64) *event.EventWithMeta {
	ev := event.NewEventWithMeta(event.TypeAnswer, fmt.Sprintf("%s %d", session, seq), nil)
	ev.SessionID, ev.Seq = session, seq
	return ev
}

// A stalled store does not hold back delivery; a read of what was
// delivered waits for it instead, and then finds it: events, the
// session's last event, the list of sessions.
func TestReadsWaitForWhatWasDelivered(t *testing.T) {
	ctx := context.Background()
	j := newJournaled(t, "s", "other")
	j.deliver(t, answer("s", 1), answer("s", 2))

	// Another session's reads have nothing to wait for.
	if evs, err := j.read.Events(ctx, "other", 0, 0); err != nil || len(evs) != 0 {
		t.Fatalf("other session: %d events, %v", len(evs), err)
	}
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	_, err := j.read.Events(short, "s", 0, 0)
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a read of events the store has not taken answered: %v", err)
	}

	type read struct {
		evs  []store.Event
		s    store.Session
		list []store.Session
		err  error
	}
	got := make(chan read, 1)
	go func() {
		var r read
		if r.evs, r.err = j.read.Events(ctx, "s", 0, 0); r.err == nil {
			if r.s, r.err = j.read.GetSession(ctx, "s"); r.err == nil {
				r.list, r.err = j.read.ListSessions(ctx, "")
			}
		}
		got <- r
	}()
	j.unstall()
	r := <-got
	if r.err != nil || len(r.evs) != 2 || r.s.LastSeq != 2 {
		t.Fatalf("after the store took them: %d events, last seq %d, %v", len(r.evs), r.s.LastSeq, r.err)
	}
	for _, s := range r.list {
		if s.ID == "s" && s.LastSeq != 2 {
			t.Fatalf("listed with last seq %d", s.LastSeq)
		}
	}
}

// The events of a session deleted while they wait for the store are
// stored before it is deleted, so none of them comes back in a session
// made again with the same ID.
func TestDeletedSessionsEventsDoNotReachItsSuccessor(t *testing.T) {
	ctx := context.Background()
	j := newJournaled(t, "s")
	j.deliver(t, answer("s", 1), answer("s", 2))
	deleted := make(chan error, 1)
	go func() { deleted <- j.read.DeleteSession(ctx, "s") }()
	select {
	case err := <-deleted:
		t.Fatalf("deleted before its delivered events were stored: %v", err)
	case <-time.After(50 * time.Millisecond):
	}
	j.unstall()
	if err := <-deleted; err != nil {
		t.Fatal(err)
	}
	if err := j.db.PutSession(ctx, store.Session{ID: "s"}); err != nil {
		t.Fatal(err)
	}
	j.rec.Close()
	if evs, err := j.db.Events(ctx, "s", 0, 0); err != nil || len(evs) != 0 {
		t.Fatalf("the new session holds %d events of the old (%v)", len(evs), err)
	}
}

// A session looked up by its public ID while its delivered events are
// being stored is read again: the lookup may have read the row before
// they landed, and found nothing waiting once they had. (OpenCode's
// prompt read a session that had just run as one that never had, and
// moved it to another agent.)
func TestLookupRacingTheStoreReadsAgain(t *testing.T) {
	ctx := context.Background()
	j := newJournaled(t, "s")
	j.deliver(t, answer("s", 1), answer("s", 2))
	racing := &storedDuringLookup{Store: j.db, during: func() {
		j.unstall()
		if err := j.rec.Sync(ctx, "s"); err != nil {
			t.Error(err)
		}
	}}
	st, err := synced(racing, j.rec).FindSession(ctx, "", "s")
	if err != nil || st.LastSeq != 2 {
		t.Fatalf("found with last seq %d (%v), want 2", st.LastSeq, err)
	}
	if racing.lookups < 2 {
		t.Fatalf("looked up %d times", racing.lookups)
	}
}

// storedDuringLookup runs during after its first FindSession has read
// the row and before it answers.
type storedDuringLookup struct {
	store.Store
	during  func()
	lookups int
}

func (s *storedDuringLookup) FindSession(ctx context.Context, owner, publicID string) (store.Session, error) {
	st, err := s.Store.FindSession(ctx, owner, publicID)
	if s.lookups++; s.lookups == 1 {
		s.during()
	}
	return st, err
}

// A journal that cannot be written (a full disk) does not stop delivery
// or storage; readiness reports it until a write succeeds again.
func TestUnwritableJournal(t *testing.T) {
	ctx := context.Background()
	j := newJournaled(t, "s")
	good := j.rec.journal.f
	ro, err := os.Open(good.Name())
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	j.rec.journal.mu.Lock()
	j.rec.journal.f = ro
	j.rec.journal.mu.Unlock()

	// The store stalls: delivery goes on, and readiness says why the
	// journal failed (no store write has cleared it yet).
	j.deliver(t, answer("s", 1))
	if err := j.rec.Healthy(); err == nil || !strings.Contains(err.Error(), "event journal") {
		t.Fatalf("readiness with an unwritable journal: %v", err)
	}
	j.unstall()
	if evs, err := j.read.Events(ctx, "s", 0, 0); err != nil || len(evs) != 1 {
		t.Fatalf("stored with an unwritable journal: %d events, %v", len(evs), err)
	}
	j.rec.journal.mu.Lock()
	j.rec.journal.f = good
	j.rec.journal.mu.Unlock()
	j.deliver(t, answer("s", 2))
	if evs, err := j.read.Events(ctx, "s", 0, 0); err != nil || len(evs) != 2 {
		t.Fatalf("after the journal came back: %d events, %v", len(evs), err)
	}
	if err := j.rec.Healthy(); err != nil {
		t.Fatalf("still unhealthy: %v", err)
	}
}

// A journal's last line cut short by the crash was never delivered and is
// dropped; a line that is not an event stops the start, the journal kept
// as it is.
func TestJournalLines(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db, err := sqlite.Open(ctx, filepath.Join(dir, "hotplex.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.PutSession(ctx, store.Session{ID: "s"}); err != nil {
		t.Fatal(err)
	}
	line := func(seq uint64) []byte {
		b, _ := json.Marshal(answer("s", seq))
		return append(b, '\n')
	}
	gone := answer("gone", 1)
	goneLine, _ := json.Marshal(gone)
	torn := line(3)
	content := bytes.Join([][]byte{line(1), append(goneLine, '\n'), line(2), torn[:len(torn)/2]}, nil)
	path := filepath.Join(dir, "journal")
	if err := os.WriteFile(path, content, 0o600); err != nil {
		t.Fatal(err)
	}
	h := hub.New(hub.Options{})
	defer h.Close()
	r, err := NewRecorder(ctx, db, h, quietLog(), RecorderOptions{Journal: path})
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	if evs, err := db.Events(ctx, "s", 0, 0); err != nil || len(evs) != 2 {
		t.Fatalf("replayed %d events (%v), want 2", len(evs), err)
	}

	bad := append(line(4), []byte("{not an event\n")...)
	if err := os.WriteFile(path, bad, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := NewRecorder(ctx, db, h, quietLog(), RecorderOptions{Journal: path}); !errors.Is(err, store.ErrInvalid) || !strings.Contains(err.Error(), "line 2") {
		t.Fatalf("a journal with a line that is not an event: %v", err)
	}
	if kept, _ := os.ReadFile(path); !bytes.Equal(kept, bad) {
		t.Fatalf("the journal was changed: %q", kept)
	}
}

// Events are stored without any read asking for them: a turn's once it
// ended, a stream's that pauses mid-turn once it paused.
func TestDeliveredEventsAreStoredUnasked(t *testing.T) {
	ctx := context.Background()
	j := newJournaled(t, "s")
	j.unstall()
	stored := func(n int) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			evs, err := j.db.Events(ctx, "s", 0, 0) // the store itself: no waiting
			if err == nil && len(evs) == n {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%d events stored (%v), want %d", len(evs), err, n)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	j.deliver(t, answer("s", 1)) // a turn under way, then a pause
	stored(1)
	res := event.NewEventWithMeta(event.TypeResult, "", nil)
	res.SessionID, res.Seq = "s", 2
	j.deliver(t, res)
	stored(2)
}
