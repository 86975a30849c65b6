package sqlite

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/store"
)

// openTest opens a fresh database in a temporary directory and closes it
// when the test ends.
func openTest(t testing.TB) *DB {
	t.Helper()
	return openAt(t, filepath.Join(t.TempDir(), "hotplex.db"))
}

// openAt opens path and closes it when the test ends.
func openAt(t testing.TB, path string) *DB {
	t.Helper()
	db, err := Open(context.Background(), path, WithLogger(testLogger(t)))
	if err != nil {
		t.Fatalf("Open(%s): %v", path, err)
	}
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return db
}

// putSession stores a minimal session.
func putSession(t testing.TB, db *DB, id, owner string) store.Session {
	t.Helper()
	s := store.Session{ID: id, Owner: owner, Provider: "claude", Status: "ready", WorkDir: "/work"}
	if err := db.PutSession(context.Background(), s); err != nil {
		t.Fatalf("PutSession(%s): %v", id, err)
	}
	got, err := db.GetSession(context.Background(), id)
	if err != nil {
		t.Fatalf("GetSession(%s): %v", id, err)
	}
	return got
}

// eventData returns the JSON of an answer event, as the engine produces it.
func eventData(tb testing.TB, sessionID string, seq uint64) json.RawMessage {
	tb.Helper()
	e := event.EventWithMeta{
		EventType: event.TypeAnswer,
		EventData: fmt.Sprintf("answer chunk %d of a reply that is about as long as a streamed delta", seq),
		Meta:      &event.EventMeta{Status: "success", OutputTokens: 12, DurationMs: 3},
		SessionID: sessionID,
		Seq:       seq,
		Time:      time.Unix(1_800_000_000, int64(seq)).UTC(),
	}
	b, err := json.Marshal(&e)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// events returns n events of sessionID with seqs from, from+1, ...
func events(tb testing.TB, sessionID string, from uint64, n int) []store.Event {
	tb.Helper()
	es := make([]store.Event, n)
	for i := range es {
		seq := from + uint64(i)
		es[i] = store.Event{
			SessionID: sessionID,
			Seq:       seq,
			Type:      event.TypeAnswer,
			Data:      eventData(tb, sessionID, seq),
			Time:      time.Unix(1_800_000_000, int64(seq)).UTC(),
		}
	}
	return es
}

// seqs returns the seqs of es.
func seqs(es []store.Event) []uint64 {
	out := make([]uint64, len(es))
	for i, e := range es {
		out[i] = e.Seq
	}
	return out
}

// seqRange returns from..to inclusive.
func seqRange(from, to uint64) []uint64 {
	var out []uint64
	for s := from; s <= to; s++ {
		out = append(out, s)
	}
	return out
}

func isSeqConflict(err error) bool { return errors.Is(err, store.ErrSeqConflict) }

// testLogger sends the store's log to the test's log.
func testLogger(tb testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(tbWriter{tb}, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

type tbWriter struct{ tb testing.TB }

func (w tbWriter) Write(p []byte) (int, error) {
	w.tb.Helper()
	w.tb.Log(strings.TrimSuffix(string(p), "\n"))
	return len(p), nil
}
