// Package storetest is the conformance suite of store.Store,
// store.UsageStore and store.HookStore: what the interfaces document, checked the same way
// against every implementation (store/sqlite, store/postgres). An
// implementation's tests call Run with a Backend; tests of what only one
// implementation has (its files, pragmas, migrations) stay beside it.
package storetest

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/store"
)

// Backend is how the suite gets stores of one implementation.
type Backend struct {
	// NewDatabase makes an empty database for tb, removed when tb ends,
	// and returns where it is: a file path, a connection string.
	NewDatabase func(tb testing.TB) string
	// Open opens a new handle on the database at where. Two handles on one
	// database stand for two processes (or daemon nodes) sharing it. The
	// suite closes what it opens.
	Open func(ctx context.Context, where string) (store.Store, error)
}

// Run runs the suite, each test on a database of its own, in parallel.
func Run(t *testing.T, b Backend) {
	for _, c := range []struct {
		name string
		test func(t *testing.T, b Backend)
	}{
		{"SessionRoundTrip", testSessionRoundTrip},
		{"SessionDefaults", testSessionDefaults},
		{"GetSessionNotFound", testGetSessionNotFound},
		{"PutSessionInvalid", testPutSessionInvalid},
		{"ListSessions", testListSessions},
		{"DeleteSession", testDeleteSession},
		{"SessionIDsPerOwner", testSessionIDsPerOwner},
		{"AppendAndRange", testAppendAndRange},
		{"AppendEventsMaintainsSession", testAppendEventsMaintainsSession},
		{"AppendEventsZeroTime", testAppendEventsZeroTime},
		{"SeqConflict", testSeqConflict},
		{"AppendEventsRejectsBadInput", testAppendEventsRejectsBadInput},
		{"AppendEventsManySessionsInOneBatch", testAppendEventsManySessionsInOneBatch},
		{"AppendEventsCanceledContext", testAppendEventsCanceledContext},
		{"AppendEventsKeepsNewestStats", testAppendEventsKeepsNewestStats},
		{"APIKeys", testAPIKeys},
		{"PutAPIKeyInvalid", testPutAPIKeyInvalid},
		{"APIKeyExpiry", testAPIKeyExpiry},
		{"ModelUsage", testModelUsage},
		{"ModelUsageInvalid", testModelUsageInvalid},
		{"ModelUsageConservedThroughDelete", testModelUsageConservedThroughDelete},
		{"Hooks", testHooks},
		{"PutHookInvalid", testPutHookInvalid},
		{"QueuedPrompts", testQueuedPrompts},
		{"ReopenKeepsEverything", testReopenKeepsEverything},
		{"Close", testClose},
		{"CloseWhileBusy", testCloseWhileBusy},
		{"ConcurrentAppends", testConcurrentAppends},
		{"ConcurrentAppendsSameSession", testConcurrentAppendsSameSession},
		{"TwoHandlesRaceOnOneSession", testTwoHandlesRaceOnOneSession},
		{"TwoHandlesRaceToCreate", testTwoHandlesRaceToCreate},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.test(t, b)
		})
	}
}

// open opens a handle on a new database; it is closed when t ends.
func open(t *testing.T, b Backend) store.Store {
	t.Helper()
	return openAt(t, b, b.NewDatabase(t))
}

// openAt opens a handle on the database at where; it is closed when t ends.
func openAt(t *testing.T, b Backend, where string) store.Store {
	t.Helper()
	st, err := b.Open(context.Background(), where)
	if err != nil {
		t.Fatalf("open %s: %v", where, err)
	}
	t.Cleanup(func() {
		if err := st.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return st
}

// usage returns st as a store.UsageStore, which the daemon needs of it.
func usage(t *testing.T, st store.Store) store.UsageStore {
	t.Helper()
	us, ok := st.(store.UsageStore)
	if !ok {
		t.Fatalf("%T is not a store.UsageStore", st)
	}
	return us
}

// PutSession stores a minimal session and returns it as stored.
func PutSession(tb testing.TB, st store.Store, id, owner string) store.Session {
	tb.Helper()
	s := store.Session{ID: id, Owner: owner, Provider: "claude", Status: "ready", WorkDir: "/work"}
	if err := st.PutSession(context.Background(), s); err != nil {
		tb.Fatalf("PutSession(%s): %v", id, err)
	}
	got, err := st.GetSession(context.Background(), id)
	if err != nil {
		tb.Fatalf("GetSession(%s): %v", id, err)
	}
	return got
}

// EventData returns the JSON of an answer event, as the engine produces it
// (about 330 bytes).
func EventData(tb testing.TB, sessionID string, seq uint64) json.RawMessage {
	tb.Helper()
	e := event.EventWithMeta{
		EventType: event.TypeAnswer,
		EventData: fmt.Sprintf("answer chunk %d of a reply that is about as long as a streamed delta", seq),
		Meta:      &event.EventMeta{Status: "success", OutputTokens: 12, DurationMs: 3},
		SessionID: sessionID,
		Seq:       seq,
		Time:      time.Unix(1_800_000_000, int64(seq)*1000).UTC(),
	}
	b, err := json.Marshal(&e)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// Events returns n answer events of sessionID with seqs from, from+1, ...
func Events(tb testing.TB, sessionID string, from uint64, n int) []store.Event {
	tb.Helper()
	es := make([]store.Event, n)
	for i := range es {
		seq := from + uint64(i)
		es[i] = store.Event{
			SessionID: sessionID,
			Seq:       seq,
			Type:      event.TypeAnswer,
			Data:      EventData(tb, sessionID, seq),
			Time:      time.Unix(1_800_000_000, int64(seq)*1000).UTC(),
		}
	}
	return es
}

// Seqs returns the seqs of es.
func Seqs(es []store.Event) []uint64 {
	out := make([]uint64, len(es))
	for i, e := range es {
		out[i] = e.Seq
	}
	return out
}

// SeqRange returns from..to inclusive.
func SeqRange(from, to uint64) []uint64 {
	var out []uint64
	for s := from; s <= to; s++ {
		out = append(out, s)
	}
	return out
}

// NewKey returns a new API key and its secret.
func NewKey(tb testing.TB, name string, admin bool) (store.APIKey, string) {
	tb.Helper()
	id, secret, err := store.NewKeySecret()
	if err != nil {
		tb.Fatal(err)
	}
	return store.APIKey{ID: id, Name: name, Hash: store.HashKey(secret), Admin: admin}, secret
}

// sameTime reports whether a store gave back t as want: stores keep times
// to the microsecond.
func sameTime(got, want time.Time) bool {
	return got.Truncate(time.Microsecond).Equal(want.Truncate(time.Microsecond))
}
