package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hotplex/hotplex/store"
)

func testAppendAndRange(t *testing.T, b Backend) {
	ctx := context.Background()
	db := open(t, b)
	PutSession(t, db, "s", "")
	in := Events(t, "s", 1, 10)
	in[4].Data = json.RawMessage(`{"b": 1,  "a" : [true,null]}`) // kept as given
	if err := db.AppendEvents(ctx, in[:3]...); err != nil {
		t.Fatal(err)
	}
	for _, e := range in[3:] { // one at a time too
		if err := db.AppendEvents(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	all, err := db.Events(ctx, "s", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != len(in) {
		t.Fatalf("got %d events, want %d", len(all), len(in))
	}
	for i := range in {
		g, w := all[i], in[i]
		if g.SessionID != w.SessionID || g.Seq != w.Seq || g.Type != w.Type || !g.Time.Equal(w.Time) ||
			g.Time.Location() != time.UTC || string(g.Data) != string(w.Data) {
			t.Fatalf("event %d:\n got %+v\nwant %+v", i, g, w)
		}
	}

	for _, c := range []struct {
		after uint64
		limit int
		want  []uint64
	}{
		{0, 0, SeqRange(1, 10)},
		{0, -1, SeqRange(1, 10)},
		{0, 3, SeqRange(1, 3)},
		{3, 4, SeqRange(4, 7)},
		{8, 100, SeqRange(9, 10)},
		{10, 0, nil},
		{1 << 63, 0, nil},
		{^uint64(0), 5, nil},
	} {
		got, err := db.Events(ctx, "s", c.after, c.limit)
		if err != nil {
			t.Fatalf("Events(after %d, limit %d): %v", c.after, c.limit, err)
		}
		if !slices.Equal(Seqs(got), c.want) {
			t.Errorf("Events(after %d, limit %d) = %v, want %v", c.after, c.limit, Seqs(got), c.want)
		}
		if got == nil {
			t.Errorf("Events(after %d, limit %d) = nil, want empty slice", c.after, c.limit)
		}
	}

	if _, err := db.Events(ctx, "missing", 0, 0); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Events(missing) err = %v, want ErrNotFound", err)
	}
	if err := db.AppendEvents(ctx); err != nil {
		t.Fatalf("empty append: %v", err)
	}
}

func testAppendEventsMaintainsSession(t *testing.T, b Backend) {
	ctx := context.Background()
	db := open(t, b)
	old := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := db.PutSession(ctx, store.Session{ID: "s", Status: "ready", CreatedAt: old, UpdatedAt: old}); err != nil {
		t.Fatal(err)
	}
	before := time.Now()
	if err := db.AppendEvents(ctx, Events(t, "s", 1, 4)...); err != nil {
		t.Fatal(err)
	}
	s, err := db.GetSession(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	if s.LastSeq != 4 {
		t.Fatalf("LastSeq = %d, want 4", s.LastSeq)
	}
	if s.UpdatedAt.Before(before.Truncate(time.Microsecond)) || !s.CreatedAt.Equal(old) {
		t.Fatalf("UpdatedAt %v (append at %v), CreatedAt %v", s.UpdatedAt, before, s.CreatedAt)
	}

	// A PutSession with a stale LastSeq does not move it back...
	s.LastSeq, s.Status = 1, "busy"
	if err := db.PutSession(ctx, s); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.GetSession(ctx, "s"); got.LastSeq != 4 || got.Status != "busy" {
		t.Fatalf("after stale put: LastSeq %d status %q", got.LastSeq, got.Status)
	}
	// ...but a larger one is taken (e.g. restoring a session whose events
	// were not kept), and later events must follow it.
	s.LastSeq = 20
	if err := db.PutSession(ctx, s); err != nil {
		t.Fatal(err)
	}
	if err := db.AppendEvents(ctx, Events(t, "s", 5, 1)...); !errors.Is(err, store.ErrSeqConflict) {
		t.Fatalf("append below raised LastSeq: %v, want ErrSeqConflict", err)
	}
	if err := db.AppendEvents(ctx, Events(t, "s", 21, 1)...); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.GetSession(ctx, "s"); got.LastSeq != 21 {
		t.Fatalf("LastSeq = %d, want 21", got.LastSeq)
	}
	// UpdatedAt only moves forward: a session put with a future time keeps
	// it through an append.
	future := time.Now().Add(time.Hour).Truncate(time.Microsecond)
	s, _ = db.GetSession(ctx, "s")
	s.UpdatedAt = future
	if err := db.PutSession(ctx, s); err != nil {
		t.Fatal(err)
	}
	if err := db.AppendEvents(ctx, Events(t, "s", 22, 1)...); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.GetSession(ctx, "s"); !got.UpdatedAt.Equal(future) {
		t.Fatalf("UpdatedAt %v, want %v kept", got.UpdatedAt, future)
	}
}

func testAppendEventsZeroTime(t *testing.T, b Backend) {
	ctx := context.Background()
	db := open(t, b)
	PutSession(t, db, "s", "")
	before := time.Now()
	if err := db.AppendEvents(ctx, store.Event{SessionID: "s", Seq: 1, Type: "answer"}); err != nil {
		t.Fatal(err)
	}
	es, err := db.Events(ctx, "s", 0, 0)
	if err != nil || len(es) != 1 {
		t.Fatalf("%v %v", es, err)
	}
	if es[0].Time.Before(before.Truncate(time.Microsecond)) || es[0].Time.After(time.Now()) || es[0].Data != nil {
		t.Fatalf("event %+v", es[0])
	}
}

func testSeqConflict(t *testing.T, b Backend) {
	ctx := context.Background()
	db := open(t, b)
	PutSession(t, db, "s", "")
	PutSession(t, db, "t", "")
	if err := db.AppendEvents(ctx, Events(t, "s", 1, 5)...); err != nil {
		t.Fatal(err)
	}
	good := Events(t, "s", 6, 1)[0]
	cases := map[string][]store.Event{
		"duplicate of stored":   Events(t, "s", 5, 1),
		"older than stored":     Events(t, "s", 2, 1),
		"valid then duplicate":  append(Events(t, "s", 6, 3), Events(t, "s", 8, 1)...),
		"valid then decreasing": append(Events(t, "s", 6, 3), Events(t, "s", 7, 1)...),
		"other session first":   append(Events(t, "t", 1, 2), Events(t, "s", 3, 1)...),
		"repeat in batch":       {good, good},
	}
	for name, batch := range cases {
		err := db.AppendEvents(ctx, batch...)
		if !errors.Is(err, store.ErrSeqConflict) {
			t.Errorf("%s: err = %v, want ErrSeqConflict", name, err)
			continue
		}
		if !strings.Contains(err.Error(), `session "s"`) {
			t.Errorf("%s: error does not say which session: %v", name, err)
		}
	}
	// Nothing of any failed batch was written, and the sessions are untouched.
	if es, _ := db.Events(ctx, "s", 0, 0); !slices.Equal(Seqs(es), SeqRange(1, 5)) {
		t.Fatalf("s events = %v, want 1..5", Seqs(es))
	}
	if es, _ := db.Events(ctx, "t", 0, 0); len(es) != 0 {
		t.Fatalf("t events = %v, want none", Seqs(es))
	}
	if s, _ := db.GetSession(ctx, "s"); s.LastSeq != 5 {
		t.Fatalf("s LastSeq = %d", s.LastSeq)
	}
	if s, _ := db.GetSession(ctx, "t"); s.LastSeq != 0 {
		t.Fatalf("t LastSeq = %d", s.LastSeq)
	}
	// Gaps are allowed; the batch that failed can be retried correctly.
	if err := db.AppendEvents(ctx, Events(t, "s", 9, 2)...); err != nil {
		t.Fatal(err)
	}
}

func testAppendEventsRejectsBadInput(t *testing.T, b Backend) {
	ctx := context.Background()
	db := open(t, b)
	PutSession(t, db, "s", "")
	ok := Events(t, "s", 1, 1)[0]
	bad := map[string]store.Event{
		"no session": {Seq: 2, Type: "answer"},
		"zero seq":   {SessionID: "s", Seq: 0, Type: "answer"},
		"huge seq":   {SessionID: "s", Seq: 1 << 63, Type: "answer"},
		"no type":    {SessionID: "s", Seq: 2},
		"bad json":   {SessionID: "s", Seq: 2, Type: "answer", Data: json.RawMessage(`{"a":`)},
	}
	for name, e := range bad {
		if err := db.AppendEvents(ctx, ok, e); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("%s: err = %v, want ErrInvalid", name, err)
		}
	}
	err := db.AppendEvents(ctx, ok, store.Event{SessionID: "ghost", Seq: 1, Type: "answer"})
	if !errors.Is(err, store.ErrNotFound) || !strings.Contains(err.Error(), "ghost") {
		t.Errorf("unknown session: err = %v, want ErrNotFound naming it", err)
	}
	if es, _ := db.Events(ctx, "s", 0, 0); len(es) != 0 {
		t.Fatalf("rejected batches left %d events", len(es))
	}
	if s, _ := db.GetSession(ctx, "s"); s.LastSeq != 0 {
		t.Fatalf("rejected batches moved LastSeq to %d", s.LastSeq)
	}
}

func testAppendEventsManySessionsInOneBatch(t *testing.T, b Backend) {
	ctx := context.Background()
	db := open(t, b)
	PutSession(t, db, "b", "")
	PutSession(t, db, "a", "")
	var batch []store.Event
	for i := uint64(1); i <= 4; i++ {
		batch = append(batch, Events(t, "b", i*10, 1)[0], Events(t, "a", i, 1)[0])
	}
	if err := db.AppendEvents(ctx, batch...); err != nil {
		t.Fatal(err)
	}
	if a, _ := db.GetSession(ctx, "a"); a.LastSeq != 4 {
		t.Fatalf("a LastSeq %d", a.LastSeq)
	}
	if b, _ := db.GetSession(ctx, "b"); b.LastSeq != 40 {
		t.Fatalf("b LastSeq %d", b.LastSeq)
	}
	if es, _ := db.Events(ctx, "b", 0, 0); !slices.Equal(Seqs(es), []uint64{10, 20, 30, 40}) {
		t.Fatalf("b events %v", Seqs(es))
	}
	if es, _ := db.Events(ctx, "a", 0, 0); !slices.Equal(Seqs(es), SeqRange(1, 4)) {
		t.Fatalf("a events %v", Seqs(es))
	}
}

func testAppendEventsCanceledContext(t *testing.T, b Backend) {
	db := open(t, b)
	PutSession(t, db, "s", "")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := db.AppendEvents(ctx, Events(t, "s", 1, 3)...); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if es, _ := db.Events(context.Background(), "s", 0, 0); len(es) != 0 {
		t.Fatalf("canceled append wrote %d events", len(es))
	}
	// The store is still usable.
	if err := db.AppendEvents(context.Background(), Events(t, "s", 1, 3)...); err != nil {
		t.Fatal(err)
	}
}

// A session_stats event carries its session's statistics into the record
// in the same transaction; events without statistics leave them alone.
func testAppendEventsKeepsNewestStats(t *testing.T, b Backend) {
	db := open(t, b)
	ctx := context.Background()
	PutSession(t, db, "s", "alice")
	ev := func(seq uint64, typ, data string) store.Event {
		return store.Event{SessionID: "s", Seq: seq, Type: typ, Data: json.RawMessage(data)}
	}
	if err := db.AppendEvents(ctx,
		ev(1, "session_stats", `{"event_type":"session_stats","stats":{"total_turns":1}}`),
		ev(2, "session_stats", `{"event_type":"session_stats","stats":{"total_turns":2}}`),
		ev(3, "result", `{"event_type":"result","stats":{"total_turns":99}}`),
	); err != nil {
		t.Fatal(err)
	}
	got, err := db.GetSession(ctx, "s")
	if err != nil || string(got.Stats) != `{"total_turns":2}` {
		t.Fatalf("stats %s, %v", got.Stats, err)
	}
	if err := db.AppendEvents(ctx, ev(4, "answer", `{"event_type":"answer"}`), ev(5, "session_stats", `{"event_type":"session_stats"}`)); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.GetSession(ctx, "s"); string(got.Stats) != `{"total_turns":2}` {
		t.Fatalf("stats lost: %s", got.Stats)
	}
	if err := db.AppendEvents(ctx, ev(6, "session_stats", `{"event_type":"session_stats","stats":{"total_turns":3}}`)); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.GetSession(ctx, "s"); string(got.Stats) != `{"total_turns":3}` {
		t.Fatalf("stats not replaced: %s", got.Stats)
	}
}
