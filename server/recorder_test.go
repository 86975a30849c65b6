package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"sync"
	"testing"
	"time"

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
	r, err := NewRecorder(ctx, st, h, slog.New(slog.NewTextHandler(io.Discard, nil)), RecorderOptions{})
	if err != nil {
		t.Fatal(err)
	}
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

// outageStore is a store whose database can be taken down: appends fail
// with store.ErrUnavailable while down is set, and with lostAnswer the
// next append commits but fails as if the connection dropped before its
// answer came back.
type outageStore struct {
	store.Store
	mu         sync.Mutex
	down       bool
	lostAnswer bool
	failed     int
}

func (o *outageStore) set(down, lostAnswer bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.down, o.lostAnswer = down, lostAnswer
}

func (o *outageStore) failures() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.failed
}

func (o *outageStore) AppendEvents(ctx context.Context, events ...store.Event) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	unavailable := fmt.Errorf("append: %w: connection refused", store.ErrUnavailable)
	if o.down {
		o.failed++
		return unavailable
	}
	if o.lostAnswer {
		o.lostAnswer = false
		o.failed++
		if err := o.Store.AppendEvents(ctx, events...); err != nil {
			return err
		}
		return unavailable
	}
	return o.Store.AppendEvents(ctx, events...)
}

// While the store cannot be reached, events wait: no client sees one
// before it is stored, readiness says why, and once the store is back
// they are stored and delivered, in order, once each, even when the
// store committed an append whose answer was lost.
func TestRecorderWaitsForAnUnreachableStore(t *testing.T) {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "hotplex.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.PutSession(ctx, store.Session{ID: "s"}); err != nil {
		t.Fatal(err)
	}
	st := &outageStore{Store: db}
	h := hub.New(hub.Options{})
	defer h.Close()
	_, sub, _ := h.Subscribe("s", 0)
	defer sub.Close()
	r, err := NewRecorder(ctx, st, h, slog.New(slog.NewTextHandler(io.Discard, nil)), RecorderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	publish := func(seq uint64) {
		ev := event.NewEventWithMeta(event.TypeAnswer, "", nil)
		ev.SessionID, ev.Seq = "s", seq
		r.Publish(ev)
	}

	for i, lostAnswer := range []bool{false, true} {
		st.set(!lostAnswer, lostAnswer)
		failedBefore := st.failures()
		publish(uint64(i + 1))
		for st.failures() < failedBefore+1 {
			time.Sleep(10 * time.Millisecond)
		}
		if !lostAnswer {
			for st.failures() < failedBefore+3 { // more than the retries of other errors
				time.Sleep(10 * time.Millisecond)
			}
			if err := r.Healthy(); !errors.Is(err, store.ErrUnavailable) {
				t.Fatalf("readiness while the store is down: %v", err)
			}
			select {
			case ev := <-sub.C():
				t.Fatalf("event %d delivered before it was stored", ev.Seq)
			default:
			}
			st.set(false, false)
		}
		select {
		case ev := <-sub.C():
			if ev.Seq != uint64(i+1) {
				t.Fatalf("delivered seq %d, want %d", ev.Seq, i+1)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("event %d never delivered after the store came back", i+1)
		}
		stored, err := db.Events(ctx, "s", 0, 0)
		if err != nil || len(stored) != i+1 {
			t.Fatalf("stored after the outage: %d events, %v", len(stored), err)
		}
		if err := r.Healthy(); err != nil {
			t.Fatalf("still unhealthy after the store came back: %v", err)
		}
	}
	select {
	case ev := <-sub.C():
		t.Fatalf("event %d delivered twice", ev.Seq)
	default:
	}
}
