package server

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"path/filepath"
	"testing"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/hub"
	"github.com/hotplex/hotplex/store"
	"github.com/hotplex/hotplex/store/sqlite"
)

// A batch holding events of a session deleted meanwhile still stores the
// other sessions' events, and the statistics reach the session record.
func TestRecorderSurvivesADeletedSession(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "hotplex.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, id := range []string{"kept", "gone"} {
		if err := st.PutSession(ctx, store.Session{ID: id}); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.DeleteSession(ctx, "gone"); err != nil {
		t.Fatal(err)
	}
	h := hub.New(hub.Options{})
	defer h.Close()
	r := NewRecorder(st, h, slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer r.Close()
	var batch []queued
	for i, id := range []string{"kept", "gone", "kept"} {
		ev := event.NewEventWithMeta(event.TypeSessionStats, "", nil)
		ev.SessionID, ev.Seq = id, uint64(i+1)
		ev.Stats = &event.SessionStatsData{InputTokens: int32(i + 1)}
		data, _ := json.Marshal(ev)
		batch = append(batch, queued{ev: ev, data: data})
	}
	r.write(batch)
	if err := r.Healthy(); err != nil {
		t.Fatalf("unhealthy: %v", err)
	}
	evs, err := st.Events(ctx, "kept", 0, 0)
	if err != nil || len(evs) != 2 {
		t.Fatalf("kept: %d events, %v", len(evs), err)
	}
	s, _ := st.GetSession(ctx, "kept")
	var stats event.SessionStatsData
	if json.Unmarshal(s.Stats, &stats) != nil || stats.InputTokens != 3 {
		t.Fatalf("stats: %s", s.Stats)
	}
}
